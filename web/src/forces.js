// The forces drawn in the 3D view (pure; web/test/forces.test.mjs): the arrows' origins,
// directions, values and labels from a frame. src/view.js draws them as arrows with labels.
//   air   per active cavity: the atmosphere's net push on the cup, (P_atm − P)·A along the
//         sealing ring's normal (the cavity's `force`, `area`, `normal`: probes/probes.h
//         cavity_hold), drawn at the cavity's centre, pointing from the cup towards the
//         surface it holds (the cup is the cavity's first soft body)
//   hand  per driver: the force the driver applies to its body (its `reaction`), at the body's
//         centre
//   weight per body that forces move (its mass m > 0: not a fixed or kinematic body), other
//         than a driver's own (the hand holds it): m·g at its centre of mass, straight down
//         (the frame's `masses` and `centres`, the module's bodyMass and bodyCenterOfMass; g is
//         the scene's |g|, and every shipped scene's gravity points along −z)

const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const norm = (a) => Math.hypot(a[0], a[1], a[2]);
const neg = (a) => a.map(v => (v === 0 ? 0 : -v));   // (no -0)

/** The mean of a flat xyz array (a body's surface or a cavity's mesh), or null. */
export function centroid(xyz) {
  const n = xyz ? Math.floor(xyz.length / 3) : 0;
  if (!n) return null;
  const c = [0, 0, 0];
  for (let i = 0; i < n; ++i) { c[0] += xyz[3 * i]; c[1] += xyz[3 * i + 1]; c[2] += xyz[3 * i + 2]; }
  return [c[0] / n, c[1] / n, c[2] / n];
}

/**
 * forceArrows(frame, meta) -> [{ kind: 'air'|'hand'|'weight', id, origin: [x,y,z], dir: unit
 * [x,y,z], value: N (>= 0), label }]. frame: the worker's frame ({ bodies: Float32Array[],
 * cavities: [{ id, dormant, force, area, normal, positions, bodies }], drivers: [{ reaction }],
 * masses: kg per body, centres: [x,y,z] per body (centre of mass) }); meta: the loaded message
 * ({ pAtm, gravity: |g|, bodies: [{ name, soft }], drivers: [{ name, body }] }).
 */
export function forceArrows(frame, meta) {
  const out = [];
  const bodyCentre = (i) => (frame.bodies && frame.bodies[i] ? centroid(frame.bodies[i]) : null);
  for (const c of frame.cavities || []) {
    if (c.dormant || !Number.isFinite(c.force) || !c.normal) continue;
    const origin = centroid(c.positions);
    if (!origin) continue;
    const n = c.normal, len = norm(n);
    if (!(len > 0)) continue;
    let dir = [n[0] / len, n[1] / len, n[2] / len];
    // towards the surface: away from the cup's centre (its first soft body, else its first body)
    const ids = c.bodies || [];
    const cup = ids.find(i => meta.bodies[i] && meta.bodies[i].soft) ?? ids[0];
    const cc = cup !== undefined ? bodyCentre(cup) : null;
    if (cc && dot(sub(origin, cc), dir) < 0) dir = neg(dir);
    // a cavity above ambient pushes the cup off: the arrow turns round
    if (c.force < 0) dir = neg(dir);
    const value = Math.abs(c.force);
    out.push({ kind: 'air', id: c.id, origin, dir, value,
               label: `air (P_atm − P)·A = ${value.toFixed(1)} N` + (c.force < 0 ? ' (pushes off)' : '') });
  }
  (frame.drivers || []).forEach((d, k) => {
    const r = d.reaction;
    if (!r || !r.every(Number.isFinite)) return;
    const value = norm(r);
    const info = meta.drivers && meta.drivers[k];
    const origin = info ? bodyCentre(info.body) : null;
    if (!origin || !(value > 0)) return;
    out.push({ kind: 'hand', id: k, origin, dir: r.map(v => v / value), value,
               label: `hand${info && info.name && info.name !== 'hand' ? ` (${info.name})` : ''} ${value.toFixed(1)} N` });
  });
  // the weight of each body the forces move, but the hands' own (the hand carries its body)
  const g = meta.gravity;
  const held = new Set((meta.drivers || []).map(d => d.body));
  (frame.masses || []).forEach((m, i) => {
    const origin = frame.centres && frame.centres[i];
    if (!(m > 0) || !(g > 0) || held.has(i) || !origin || origin.length !== 3 || !origin.every(Number.isFinite)) return;
    const value = m * g, name = meta.bodies && meta.bodies[i] && meta.bodies[i].name;
    out.push({ kind: 'weight', id: i, origin: origin.slice(), dir: [0, 0, -1], value,
               label: `weight${name ? ` of ${name}` : ''} m·g = ${massText(m)} × ${g.toFixed(2)} m/s² = ${value.toFixed(2)} N` });
  });
  return out;
}

/** A mass for a label: grams below 1 kg ("200 g", "19.5 g"), else kg. */
function massText(m) {
  if (m >= 1) return `${m.toPrecision(3)} kg`;
  const grams = m * 1e3;
  return `${grams >= 100 ? grams.toFixed(0) : grams.toPrecision(3)} g`;
}
