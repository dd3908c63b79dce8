// The parameter panel's model: which JSON pointers of a scene the panel edits (pure; tested in
// web/test/scene_params.test.mjs). Everything is applied through Simulator.setOverride, whose
// syntax is the CLI's --set (docs/scene-format.md, "Overrides").

/** Escapes one JSON-pointer token (RFC 6901). */
export function escapePointerToken(s) {
  return String(s).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The value at a JSON pointer, or undefined. */
export function getPointer(doc, pointer) {
  if (pointer === '') return doc;
  let cur = doc;
  for (const raw of pointer.split('/').slice(1)) {
    const tok = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (cur === null || typeof cur !== 'object' || !(tok in cur)) return undefined;
    cur = cur[tok];
  }
  return cur;
}

/**
 * The name of the cup's material: the material of the body moved by the first driver
 * (drivers name their body), else of the first FEM body with a "cup" mesh generator, else of
 * the first FEM body. `drivenBodyNames` (optional) are names reported by the simulator.
 */
export function findCupMaterial(scene, drivenBodyNames = []) {
  const bodies = Array.isArray(scene && scene.bodies) ? scene.bodies : [];
  const byName = new Map(bodies.map(b => [b && b.name, b]));
  const drivers = Array.isArray(scene && scene.drivers) ? scene.drivers : [];
  const candidates = [
    ...drivenBodyNames.map(n => byName.get(n)),
    ...drivers.map(d => byName.get(d && d.body)),
    ...bodies.filter(b => b && b.type === 'fem' && b.mesh && b.mesh.generator === 'cup'),
    ...bodies.filter(b => b && b.type === 'fem'),
  ];
  for (const b of candidates) {
    if (b && b.type === 'fem' && typeof b.material === 'string') return b.material;
  }
  return null;
}

/**
 * The editable fields: [{ key, label, unit, pointer, value, scale, doc }] where `value` is what
 * the scene holds (a number, an '=expression' string, or undefined for a default), and
 * `scale` converts the displayed number to the scene's SI value.
 */
export function editableFields(scene, drivenBodyNames = []) {
  const fields = [];
  const mat = findCupMaterial(scene, drivenBodyNames);
  if (mat !== null) {
    const base = `/materials/${escapePointerToken(mat)}`;
    fields.push(
      { key: 'young', label: `Young's modulus (${mat})`, unit: 'MPa', scale: 1e6, pointer: `${base}/young`,
        doc: 'stiffness of the cup material' },
      { key: 'poisson', label: `Poisson ratio (${mat})`, unit: '', scale: 1, pointer: `${base}/poisson`,
        doc: 'how much the material bulges sideways when squeezed (0 to <0.5)' },
      { key: 'friction', label: `friction (${mat})`, unit: '', scale: 1, pointer: `${base}/friction`,
        doc: 'Coulomb friction coefficient of the cup' });
  }
  fields.push(
    { key: 'leak_rate', label: 'leak rate', unit: '', scale: 1, pointer: '/settings/cavity/leak_rate',
      doc: 'how fast air seeps back into a sealed cavity (settings.cavity.leak_rate)' },
    { key: 'p_max', label: 'P_max', unit: 'kPa', scale: 1e3, pointer: '/settings/cavity/p_max',
      doc: 'the highest cavity pressure: above it air escapes under the lip' },
    { key: 'sealing_distance', label: 'sealing distance', unit: 'mm', scale: 1e-3, pointer: '/settings/cavity/sealing_distance',
      doc: 'how close the lip must come to the surface to seal' },
    { key: 'dt', label: 'time step', unit: 'ms', scale: 1e-3, pointer: '/settings/dt',
      doc: 'simulated time per step' });
  for (const f of fields) f.value = getPointer(scene, f.pointer);
  return fields;
}

/** Display text of a field's current scene value (in the field's unit). */
export function displayValue(field) {
  const v = field.value;
  if (typeof v === 'number') return String(+(v / field.scale).toPrecision(6));
  if (typeof v === 'string') return v; // an expression: shown as is (SI)
  return '';
}

/**
 * The setOverride calls ([pointer, valueText]) for an edited field. `text` is what the user
 * typed: a number in the field's unit, or an '=expression' in SI units. A missing parent
 * object (e.g. no "cavity" in "settings") is created first: overrides can only add keys to
 * existing objects. Throws Error on input that is neither.
 */
export function overridesFor(scene, field, text) {
  const t = String(text).trim();
  let valueText;
  if (t.startsWith('=')) valueText = JSON.stringify(t);
  else {
    const x = Number(t);
    if (t === '' || !Number.isFinite(x)) throw new Error(`${field.label}: '${text}' is not a number`);
    valueText = String(x * field.scale);
  }
  const calls = [];
  const tokens = field.pointer.split('/').slice(1);
  for (let i = 1; i < tokens.length; ++i) {
    const parent = '/' + tokens.slice(0, i).join('/');
    const existing = getPointer(scene, parent);
    if (existing === undefined && !calls.some(c => c[0] === parent)) calls.push([parent, '{}']);
  }
  calls.push([field.pointer, valueText]);
  return calls;
}
