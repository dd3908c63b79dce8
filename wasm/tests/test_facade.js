// Tests of the Simulator facade through the Embind bindings, under node (node:test).
//   node wasm/tests/test_facade.js <suction_wasm_node.js> [<scenes dir>]
// (or SUCTION_WASM_NODE / SUCTION_SCENES_DIR in the environment).  Registered as the ctest
// `wasm_facade` of build/wasm.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');

const modulePath = path.resolve(process.argv[2] || process.env.SUCTION_WASM_NODE ||
                                'build/wasm/wasm/suction_wasm_node.js');
const scenesDir = path.resolve(process.argv[3] || process.env.SUCTION_SCENES_DIR ||
                               path.join(__dirname, '..', '..', 'scenes'));

let M;
async function module() {
  if (!M) {
    const r = require(modulePath)();
    M = await (r.ready || r);
  }
  return M;
}

function sceneText(name) { return fs.readFileSync(path.join(scenesDir, name), 'utf8'); }

async function loaded(name = 'default.json') {
  const m = await module();
  const sim = new m.Simulator();
  const err = sim.load(sceneText(name), scenesDir);
  assert.strictEqual(err, '', `load ${name}: ${err}`);
  return sim;
}

function surfaceCopy(sim, i) { return Float32Array.from(sim.surfacePositions(i)); }

function csvSplit(line) {
  // the facade's rows: plain numbers; the header may quote names with commas (RFC 4180)
  const out = []; let cur = ''; let quoted = false;
  for (let i = 0; i < line.length; ++i) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') { cur += '"'; ++i; }
      else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { out.push(cur); cur = ''; }
    else cur += c;
  }
  out.push(cur);
  return out;
}

test('version', async () => {
  const m = await module();
  assert.match(m.version(), /^\d+\.\d+\.\d+/);
});

test('threads: the node module is threaded like the page\'s, and any count gives the same numbers', async () => {
  const m = await module();
  assert.strictEqual(m.threads(), 1, 'one thread until asked');
  const rows = [];
  for (const n of [1, 3, 1]) {
    // 3 threads: the module's pool (-sPTHREAD_POOL_SIZE=3) holds 3 Workers, so up to 4 would do
    assert.strictEqual(m.setThreads(n), n);
    const sim = await loaded('ground.json');
    try {
      assert.strictEqual(sim.step(30), '');
      rows.push(sim.csvRow());
    } finally { sim.delete(); }
  }
  assert.strictEqual(rows[1], rows[0], 'ground after 30 steps on 3 threads = on 1 (the compliance\'s columns are split, not summed in another order)');
  assert.strictEqual(rows[2], rows[0], 'and on 1 again');
  assert.strictEqual(m.setThreads(0), 1, 'clamped to at least 1');
  assert.strictEqual(m.threads(), 1);
});

test('queries without a scene are safe', async () => {
  const m = await module();
  const sim = new m.Simulator();
  try {
    assert.strictEqual(sim.loaded(), false);
    assert.strictEqual(sim.bodyCount(), 0);
    assert.strictEqual(sim.surfacePositions(0).length, 0);
    assert.notStrictEqual(sim.step(1), '');
    assert.strictEqual(sim.csvHeader(), '');
  } finally { sim.delete(); }
});

test('default scene: load, bodies, buffers, 20 steps', async () => {
  const sim = await loaded();
  try {
    assert.strictEqual(sim.loaded(), true);
    assert.strictEqual(sim.sceneName(), 'default');
    assert.ok(sim.sceneDescription().length > 0);
    assert.ok(sim.dt() > 0);
    assert.ok(sim.duration() > 0);
    assert.strictEqual(sim.pAtm(), 101325);
    const nb = sim.bodyCount();
    assert.ok(nb >= 2, 'cup and ground');
    let soft = 0;
    for (let i = 0; i < nb; ++i) {
      assert.ok(sim.bodyName(i).length > 0);
      if (sim.bodyIsSoft(i)) { ++soft; assert.strictEqual(sim.bodyKind(i), 'fem'); }
      const nv = sim.surfaceVertexCount(i);
      assert.ok(nv > 0);
      const pos = sim.surfacePositions(i);
      assert.ok(pos instanceof Float32Array);
      assert.strictEqual(pos.length, 3 * nv);
      const idx = sim.surfaceIndices(i);
      assert.ok(idx instanceof Uint32Array);
      assert.strictEqual(idx.length, 3 * sim.surfaceTriangleCount(i));
      assert.ok(idx.length > 0);
      for (const k of idx) assert.ok(k < nv, `index ${k} < ${nv}`);
    }
    assert.strictEqual(soft, 1);
    const ground = [...Array(nb).keys()].find(i => sim.bodyName(i) === 'ground');
    assert.strictEqual(sim.bodyIsFixed(ground), true);
    assert.strictEqual(sim.bodyKind(ground), 'fixed');

    const cup = 0;
    const before = surfaceCopy(sim, cup);
    assert.strictEqual(sim.step(20), '');
    assert.strictEqual(sim.stepCount(), 20);
    assert.ok(Math.abs(sim.time() - 20 * sim.dt()) < 1e-12);
    const after = sim.surfacePositions(cup);  // re-acquired after the step
    assert.strictEqual(after.length, before.length);
    let moved = 0;
    for (let k = 0; k < after.length; ++k) moved = Math.max(moved, Math.abs(after[k] - before[k]));
    assert.ok(moved > 1e-6, `the cup moved (max ${moved} m)`);
    for (const v of after) assert.ok(Number.isFinite(v));

    // profile
    const p = sim.profile();
    for (const key of ['leakMs', 'freeMotionMs', 'collisionMs', 'cavitiesMs', 'complianceMs', 'solveMs',
                       'correctionMs', 'totalMs', 'contacts', 'constraints', 'cavities',
                       'iterations', 'residual', 'factorizations', 'cgIterations'])
      assert.ok(key in p && typeof p[key] === 'number', `profile.${key}`);
    assert.ok(p.totalMs > 0);
    assert.strictEqual(p.cavities, sim.cavityCount(), 'profile.cavities counts the cavities');

    // probes
    const names = sim.probeNames();
    assert.ok(Array.isArray(names) && names.length > 0);
    const values = sim.probeValues();
    assert.ok(values instanceof Float64Array);
    assert.strictEqual(values.length, names.length);

    // contacts
    const nc = sim.contactCount();
    const c = sim.contacts();
    assert.ok(c instanceof Float32Array);
    assert.strictEqual(c.length, 6 * nc);

    // cavities (none required: whatever the core tracks must be consistent)
    for (let k = 0; k < sim.cavityCount(); ++k) {
      const info = sim.cavityInfo(k);
      for (const key of ['id', 'pressure', 'volume', 'air', 'outflow', 'dormant', 'bodies'])
        assert.ok(key in info, `cavityInfo.${key}`);
      assert.ok(info.bodies.length >= 2, 'a cavity is bounded by two bodies or more');
      const cp = sim.cavityPositions(k);
      const ci = sim.cavityIndices(k);
      assert.strictEqual(cp.length % 3, 0);
      assert.strictEqual(ci.length % 3, 0);
      for (const v of ci) assert.ok(v < cp.length / 3);
      assert.strictEqual(sim.cavitySeam(k).length % 6, 0);
    }
    assert.strictEqual(sim.cavityPositions(sim.cavityCount()).length, 0);

    // reset
    sim.reset();
    assert.strictEqual(sim.stepCount(), 0);
    assert.strictEqual(sim.time(), 0);
    assert.deepStrictEqual(surfaceCopy(sim, cup), before);
  } finally { sim.delete(); }
});

test('bad scenes return errors naming the JSON pointer', async () => {
  const m = await module();
  const sim = new m.Simulator();
  try {
    let err = sim.load('{"settings": {"dt": -1}}', '');
    assert.notStrictEqual(err, '');
    assert.match(err, /^\/settings\/dt: /m, err);
    err = sim.load('{"settings": {"dt": "abc"}}', '');
    assert.match(err, /\/settings\/dt: /, err);
    err = sim.load('{"bodies": [1, 2', '');
    assert.match(err, /invalid JSON/, err);
    assert.strictEqual(sim.loaded(), false);
    // a failed load keeps the previous scene
    assert.strictEqual(sim.load(sceneText('default.json'), scenesDir), '');
    assert.notStrictEqual(sim.load('{"settings": {"dt": -1}}', ''), '');
    assert.strictEqual(sim.sceneName(), 'default');
  } finally { sim.delete(); }
});

test('live tuning: the running simulation takes a new friction, refuses another mesh', async () => {
  const sim = await loaded();
  try {
    sim.step(30);
    const t = sim.time();
    assert.strictEqual(sim.tune('/materials/silicone/friction', '0.3'), '');
    assert.strictEqual(sim.stepCount(), 30, 'no reset');
    assert.strictEqual(sim.time(), t);
    assert.deepStrictEqual(sim.overrides(), ['/materials/silicone/friction=0.3']);
    assert.strictEqual(sim.tune('/parameters/pull_mm', '25'), '', 'a driver profile is live too');
    // another mesh: refused with the body named; nothing changes
    const err = sim.tune('/bodies/0/mesh/radius', '0.02');
    assert.match(err, /cannot change while the simulation runs: body 'cup': its mesh differs/, err);
    assert.strictEqual(sim.stepCount(), 30);
    assert.strictEqual(sim.overrides().length, 2);
    assert.match(sim.tune('/parameters/nope', '1'), /\/parameters\/nope: /);
    assert.strictEqual(sim.step(5), '');
    assert.strictEqual(sim.stepCount(), 35);
    // setOverride applies what tune refused, with a reset
    assert.strictEqual(sim.setOverride('/bodies/0/mesh/radius', '0.02'), '');
    assert.strictEqual(sim.stepCount(), 0);
  } finally { sim.delete(); }
});

test('overrides: parameters, errors, load clears them', async () => {
  const sim = await loaded();
  try {
    const pushOf = () => sim.parameters().find(p => p.name === 'push_mm');
    const push = pushOf();
    assert.ok(push, 'push_mm declared');
    assert.strictEqual(push.value, 6);
    assert.strictEqual(push.min, 0);
    assert.strictEqual(push.max, 14);
    assert.strictEqual(push.unit, 'mm');
    const pull = sim.parameters().find(p => p.name === 'pull_mm');
    assert.strictEqual(pull.max, null);

    sim.step(3);
    assert.strictEqual(sim.setOverride('/parameters/push_mm', '8'), '');
    assert.strictEqual(pushOf().value, 8);
    assert.strictEqual(sim.stepCount(), 0, 'an override resets');
    assert.deepStrictEqual(sim.overrides(), ['/parameters/push_mm=8']);
    assert.strictEqual(sim.setOverride('/parameters/push_mm', '9'), '');
    assert.deepStrictEqual(sim.overrides(), ['/parameters/push_mm=9'], 'same pointer replaced');
    assert.strictEqual(sim.setOverride('/settings/dt', '0.005'), '');
    assert.strictEqual(sim.dt(), 0.005);

    // bad: unknown parameter, out of range, no such location, not a pointer
    let err = sim.setOverride('/parameters/nope', '1');
    assert.match(err, /\/parameters\/nope: /, err);
    err = sim.setOverride('/parameters/push_mm', '99');
    assert.match(err, /\/parameters\/push_mm\/default: .*above its max/, err);
    err = sim.setOverride('/settings/dt', '-1');
    assert.match(err, /\/settings\/dt: /, err);
    err = sim.setOverride('/no/such/place', '1');
    assert.match(err, /\/no\/such\/place: /, err);
    err = sim.setOverride('settings/dt', '1');
    assert.match(err, /JSON pointer/, err);
    // the old simulation and overrides are kept
    assert.strictEqual(sim.dt(), 0.005);
    assert.strictEqual(pushOf().value, 9);
    assert.strictEqual(sim.overrides().length, 2);

    assert.strictEqual(sim.clearOverrides(), '');
    assert.strictEqual(sim.overrides().length, 0);
    assert.strictEqual(pushOf().value, 6);
    sim.setOverride('/parameters/push_mm', '8');
    assert.strictEqual(sim.load(sceneText('default.json'), scenesDir), '');
    assert.strictEqual(sim.overrides().length, 0, 'load clears the overrides');
  } finally { sim.delete(); }
});

test('setDriverOffset moves the driven nodes', async () => {
  const a = await loaded();
  const b = await loaded();
  try {
    assert.ok(a.driverCount() >= 1);
    const d = 0;
    assert.strictEqual(a.driverName(d), 'hand');
    const body = a.driverBody(d);
    assert.strictEqual(a.bodyName(body), 'cup');
    assert.deepStrictEqual(a.driverOffset(d), [0, 0, 0]);
    const dx = 0.002;
    assert.strictEqual(b.setDriverOffset(d, dx, 0, 0), '');
    assert.deepStrictEqual(b.driverOffset(d), [dx, 0, 0]);
    assert.notStrictEqual(b.setDriverOffset(99, 0, 0, 0), '');
    assert.strictEqual(a.step(5), '');
    assert.strictEqual(b.step(5), '');
    const pa = a.surfacePositions(body), pb = b.surfacePositions(body);
    // the handle is the top of the cup: the top vertices follow the offset
    let zmax = -Infinity;
    for (let k = 2; k < pa.length; k += 3) zmax = Math.max(zmax, pa[k]);
    let n = 0, shift = 0, maxShift = 0;
    for (let k = 0; k < pa.length; k += 3) {
      const s = pb[k] - pa[k];
      maxShift = Math.max(maxShift, s);
      if (pa[k + 2] > zmax - 0.0005) { ++n; shift += s; }
    }
    assert.ok(n > 0);
    shift /= n;
    assert.ok(Math.abs(shift - dx) < 0.1 * dx, `handle shifted ${shift} m, offset ${dx} m`);
    assert.ok(maxShift > 0.5 * dx);
    const r = a.driverReaction(d);
    assert.strictEqual(r.length, 3);
    for (const v of r) assert.ok(Number.isFinite(v));
    b.reset();
    assert.deepStrictEqual(b.driverOffset(d), [0, 0, 0], 'reset clears the offsets');
  } finally { a.delete(); b.delete(); }
});

test('CSV header and rows', async () => {
  const sim = await loaded();
  try {
    const header = sim.csvHeader();
    assert.ok(header.length > 0);
    assert.ok(!header.includes('\n'));
    const cols = csvSplit(header);
    assert.deepStrictEqual(cols.slice(0, 10),
      ['step', 't', 'contacts', 'cavities', 'pressure_min', 'volume_total', 'air_total', 'holding_force',
       'pgs_iterations', 'pgs_residual']);
    assert.deepStrictEqual(cols.slice(10), sim.probeNames());
    let row = csvSplit(sim.csvRow());
    assert.strictEqual(row.length, cols.length);
    assert.strictEqual(row[0], '0');
    sim.step(2);
    row = csvSplit(sim.csvRow());
    assert.strictEqual(row.length, cols.length);
    assert.strictEqual(row[0], '2');
    assert.strictEqual(Number(row[1]), sim.time());
    // the solver columns: whole sweeps, a finite residual
    assert.ok(Number.isInteger(Number(row[8])) && Number(row[8]) >= 0, `pgs_iterations ${row[8]}`);
    assert.ok(Number.isFinite(Number(row[9])) && Number(row[9]) >= 0, `pgs_residual ${row[9]}`);
    const values = sim.probeValues();
    for (let k = 0; k < values.length; ++k) assert.strictEqual(Number(row[10 + k]), values[k]);
  } finally { sim.delete(); }
});

test('springs: ends of every spring, moving with the bodies', async () => {
  const sim = await loaded('popup_toy.json');
  try {
    const n = sim.springCount();
    assert.strictEqual(n, 16, 'four mounts, four corner springs, eight crossed springs');
    let s = sim.springs();
    assert.ok(s instanceof Float32Array);
    assert.strictEqual(s.length, 6 * n);
    // coil0 (the fifth spring) runs from the head's bottom corner down to the base's top: 29 mm
    const len = (a) => Math.hypot(a[3] - a[0], a[4] - a[1], a[5] - a[2]);
    assert.ok(Math.abs(len(Array.from(s.subarray(24, 30))) - 0.029) < 1e-6);
    // the mounts start unstressed: both ends at the same point
    assert.ok(len(Array.from(s.subarray(0, 6))) < 1e-6);
    assert.strictEqual(sim.step(20), '');
    s = sim.springs();
    assert.strictEqual(s.length, 6 * n);
    assert.ok(s.every(Number.isFinite));
  } finally { sim.delete(); }
});

test('bodies\' masses, centres of mass and contact counts (the page\'s weight arrows and phase panel)', async () => {
  const sim = await loaded('rigid_lift.json');
  try {
    const idx = name => [...Array(sim.bodyCount()).keys()].find(i => sim.bodyName(i) === name);
    const cup = idx('cup'), cube = idx('cube'), ground = idx('ground');
    const cubeG = sim.parameters().find(p => p.name === 'cube_g').value;
    assert.ok(Math.abs(sim.bodyMass(cube) - cubeG * 1e-3) < 1e-12 * cubeG, `cube ${sim.bodyMass(cube)} kg, scene ${cubeG} g`);
    assert.strictEqual(sim.bodyMass(ground), 0, 'a fixed body has no weight to draw');
    assert.strictEqual(sim.bodyMass(99), 0);
    assert.deepStrictEqual(sim.bodyCenterOfMass(99), []);
    // the FEM cup: its lumped masses sum to density x the volume its closed surface encloses
    const x = sim.surfacePositions(cup), t = sim.surfaceIndices(cup);
    let vol = 0;
    for (let k = 0; k < t.length; k += 3) {
      const a = 3 * t[k], b = 3 * t[k + 1], c = 3 * t[k + 2];
      vol += (x[a] * (x[b + 1] * x[c + 2] - x[b + 2] * x[c + 1]) - x[a + 1] * (x[b] * x[c + 2] - x[b + 2] * x[c]) +
              x[a + 2] * (x[b] * x[c + 1] - x[b + 1] * x[c])) / 6;
    }
    const rho = JSON.parse(sceneText('rigid_lift.json')).materials;
    const density = Object.values(rho).find(m => m.density === 7160).density;
    assert.ok(Math.abs(sim.bodyMass(cup) / (density * vol) - 1) < 1e-5, `cup ${sim.bodyMass(cup)} kg, rho V ${density * vol}`);
    // the centre of mass is the position probe's
    const names = sim.probeNames();
    const zAt = () => sim.probeValues()[names.indexOf('object_z')];
    assert.ok(Math.abs(sim.bodyCenterOfMass(cube)[2] - zAt()) < 1e-12);
    assert.strictEqual(sim.step(60), '');  // pressed (0.5 s) and held
    assert.ok(Math.abs(sim.bodyCenterOfMass(cube)[2] - zAt()) < 1e-12);
    // every contact touches two bodies: the cup's are on the cube, the ground's under it
    const n = sim.bodyContactCounts();
    assert.strictEqual(n.length, sim.bodyCount());
    assert.ok(n[cup] > 0 && n[ground] > 0, `cup ${n[cup]}, ground ${n[ground]}`);
    assert.strictEqual(n[cup] + n[cube] + n[ground], 2 * sim.contactCount());
    assert.strictEqual(n[cube], n[cup] + n[ground], 'the cube is between the cup and the ground');
  } finally { sim.delete(); }
});

test('cup_fall scene loads and steps', async () => {
  const sim = await loaded('cup_fall.json');
  try {
    assert.strictEqual(sim.step(10), '');
    assert.strictEqual(sim.stepCount(), 10);
  } finally { sim.delete(); }
});

test('takeWarnings hands out the watchdog warnings of the steps, once', async () => {
  const m = await module();
  const sim = new m.Simulator();
  try {
    // a 6 cm cube 1 cm above a 2 cm plate at dt = 0.25 s: the first step jumps through the plate
    const scene = {
      settings: { dt: 0.25, duration: 1 },
      materials: { wood: { young: 1e9, density: 700 } },
      bodies: [
        { name: 'cube', type: 'rigid', material: 'wood', mesh: { generator: 'box', size: [0.06, 0.06, 0.06] }, position: [0, 0, 0.04] },
        { name: 'plate', type: 'fixed', mesh: { generator: 'box', size: [0.5, 0.5, 0.02] }, position: [0, 0, -0.01] },
      ],
    };
    assert.strictEqual(sim.load(JSON.stringify(scene), scenesDir), '');
    assert.deepStrictEqual(Array.from(sim.takeWarnings()), []);
    assert.strictEqual(sim.step(2), '');
    const warnings = Array.from(sim.takeWarnings());
    assert.ok(warnings.some((w) => /^step 1 .*'cube' moved .* across 'plate'/.test(w)), warnings.join('\n'));
    assert.deepStrictEqual(Array.from(sim.takeWarnings()), [], 'handed out once');
  } finally { sim.delete(); }
});

test('writeFile creates the folders of a mesh a scene keeps below its own folder', async () => {
  const m = await module();
  const os = require('node:os');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'suction-writefile-'));
  try {
    const obj = fs.readFileSync(path.join(scenesDir, 'meshes', 'bunny.obj'));
    assert.strictEqual(m.writeFile(path.join(dir, 'meshes', 'bunny.obj'), obj), '');
    assert.ok(fs.readFileSync(path.join(dir, 'meshes', 'bunny.obj')).equals(obj), 'the bytes written');
    // the organic object loads from that folder as the page stages it
    const sim = new m.Simulator();
    assert.strictEqual(sim.load(sceneText('organic_object.json'), dir), '');
    sim.delete();
    assert.match(m.writeFile(path.join(dir, 'meshes', 'bunny.obj', 'x'), 'x'), /cannot/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('setQuality: interactive derives the longer step, keeps the overrides, and says what it changed', async () => {
  const m = await module();
  const sim = new m.Simulator();
  try {
    assert.strictEqual(sim.quality(), 'reference', 'a new simulator runs at reference quality');
    assert.strictEqual(sim.setQuality('interactive'), '', 'no scene yet: only remembered');
    assert.strictEqual(sim.load(sceneText('ground.json'), scenesDir), '');
    assert.strictEqual(sim.dt(), 0.02, 'ground: 10 ms doubled');
    assert.deepStrictEqual(sim.qualityChanges(), ['/settings/dt=0.02', '/settings/factorization/reuse=true',
      '/settings/factorization/lag_drift=0.01', '/settings/solver/subspace_every=10', '/settings/cavity/unite_on_ring_change=false',
      '/settings/cavity/follow_seal=true']);
    assert.strictEqual(sim.setOverride('/parameters/push_mm', '8'), '');
    assert.strictEqual(sim.dt(), 0.02, 'an override rebuilds at the same quality');
    sim.step(3);
    assert.strictEqual(sim.setQuality('reference'), '');
    assert.strictEqual(sim.stepCount(), 0, 'a change of quality resets');
    assert.strictEqual(sim.dt(), 0.01);
    assert.deepStrictEqual(sim.qualityChanges(), []);
    assert.deepStrictEqual(sim.overrides(), ['/parameters/push_mm=8'], 'the overrides are kept');
    const err = sim.setQuality('fast');
    assert.match(err, /unknown quality 'fast'; qualities: reference, interactive/, err);
    assert.strictEqual(sim.quality(), 'reference', 'the old quality is kept');
  } finally { sim.delete(); }
});

// The page's warm-up (web/src/sim_host.js) plays a loaded scene's first steps unseen and resets
// it: reset() must give back the loaded state to the bit at the interactive quality too, the
// kept factorization and the cavity book (made, united, carried) included.
test('reset after a run with a kept factorization and a cavity: the same numbers as a fresh load', async () => {
  const m = await module();
  const warm = new m.Simulator(), fresh = new m.Simulator();
  try {
    for (const sim of [warm, fresh]) {
      assert.strictEqual(sim.setQuality('interactive'), '');
      assert.strictEqual(sim.load(sceneText('ground.json'), scenesDir), '');
    }
    let k = 0;
    while (warm.cavityCount() === 0 && k < 60) { assert.strictEqual(warm.step(1), ''); ++k; }
    assert.ok(warm.cavityCount() > 0, `a cavity within ${k} steps`);
    assert.strictEqual(warm.step(5), '');
    warm.reset();
    assert.strictEqual(warm.stepCount(), 0);
    assert.strictEqual(warm.cavityCount(), 0, 'the cavity book is the loaded one');
    for (let s = 1; s <= k + 10; ++s) {
      assert.strictEqual(warm.step(1), '');
      assert.strictEqual(fresh.step(1), '');
      assert.deepStrictEqual(Array.from(warm.probeValues()), Array.from(fresh.probeValues()), `probes at step ${s}`);
      assert.strictEqual(warm.cavityCount(), fresh.cavityCount(), `cavities at step ${s}`);
    }
    for (let i = 0; i < warm.bodyCount(); ++i)
      assert.deepStrictEqual(surfaceCopy(warm, i), surfaceCopy(fresh, i), `body ${i}'s positions`);
    for (let c = 0; c < warm.cavityCount(); ++c) {
      assert.strictEqual(warm.cavityInfo(c).pressure, fresh.cavityInfo(c).pressure);
      assert.strictEqual(warm.cavityInfo(c).volume, fresh.cavityInfo(c).volume);
    }
  } finally { warm.delete(); fresh.delete(); }
});
