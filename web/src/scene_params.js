// The parameter panel's model: which JSON pointers of a scene the panel edits, as the scene
// schema's "x-page" annotations declare them (pure; tested in web/test/scene_params.test.mjs). Everything is applied through Simulator.setOverride, whose
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

/** The schema node a local "$ref" ("#/$defs/NAME") names (its siblings, a description, are the caller's). */
function deref(schema, node) {
  for (let guard = 0; guard < 16 && node && node.$ref; ++guard) {
    node = getPointer(schema, node.$ref.slice(1));
  }
  return node;
}

/**
 * The page's editable fields, as the scene schema (scenes/schema/scene.schema.json) declares
 * them: every property with an "x-page" annotation {label, unit, scale, order}, found by walking
 * the schema's properties.  The map of materials is entered as the cup's material: the pointer
 * then holds "{material}".  Returns [{ key, label, unit, scale, template, doc, min, max }]
 * in "order"; min and max are the schema's bounds in SI units (exclusive bounds included).  A
 * property with an "enum" is a choice: it has `choices` (the enum) and `default` instead.
 */
export function schemaPageFields(schema) {
  const out = [];
  const walk = (node, pointer, depth) => {
    node = deref(schema, node);
    if (!node || typeof node !== 'object' || depth > 12) return;
    for (const [key, prop0] of Object.entries(node.properties || {})) {
      const prop = prop0 || {};
      const at = `${pointer}/${escapePointerToken(key)}`;
      if (prop['x-page']) {
        const p = prop['x-page'];
        const lo = prop.minimum ?? prop.exclusiveMinimum;
        const hi = prop.maximum ?? prop.exclusiveMaximum;
        out.push({ key: p.key || key, label: p.label || key, unit: p.unit ?? (prop['x-unit'] || ''),
                   scale: p.scale ?? 1, template: at, doc: prop.description || '', order: p.order ?? 0,
                   ...(lo !== undefined ? { min: lo } : {}), ...(hi !== undefined ? { max: hi } : {}),
                   ...(Array.isArray(prop.enum) ? { choices: prop.enum, default: prop.default } : {}) });
      }
      walk(prop, at, depth + 1);
    }
    if (pointer === '/materials' && node.additionalProperties) walk(node.additionalProperties, `${pointer}/{material}`, depth + 1);
  };
  walk(schema, '', 0);
  return out.sort((a, b) => a.order - b.order);
}

/**
 * The editable fields of a scene: [{ key, label, unit, pointer, value, scale, doc, min, max }]
 * where `value` is what the scene holds (a number, an '=expression' string, or undefined for a
 * default), and `scale` converts the displayed number to the scene's SI value.  Which fields,
 * their labels, units, bounds and documentation come from the scene schema (schemaPageFields);
 * the material fields are those of the cup's material (findCupMaterial), left out without one.
 */
export function editableFields(scene, drivenBodyNames = [], schema) {
  if (!schema || typeof schema !== 'object') throw new Error('editableFields: the scene schema is needed (scenes/schema/scene.schema.json)');
  const mat = findCupMaterial(scene, drivenBodyNames);
  const fields = [];
  for (const f of schemaPageFields(schema)) {
    const { template, order, ...rest } = f;
    if (template.includes('{material}')) {
      if (mat === null) continue;
      fields.push({ ...rest, label: `${f.label} (${mat})`, pointer: template.replace('{material}', escapePointerToken(mat)) });
    } else fields.push({ ...rest, pointer: template });
  }
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
  if (field.choices) {
    if (!field.choices.includes(t)) throw new Error(`${field.label}: '${text}' is not one of ${field.choices.join(', ')}`);
    valueText = JSON.stringify(t);
  } else if (t.startsWith('=')) valueText = JSON.stringify(t);
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
