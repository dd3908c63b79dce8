import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { findCupMaterial, editableFields, schemaPageFields, displayValue, overridesFor, getPointer, escapePointerToken } from '../src/scene_params.js';

const scene = JSON.parse(fs.readFileSync(new URL('../../scenes/default.json', import.meta.url), 'utf8'));
const schema = JSON.parse(fs.readFileSync(new URL('../../scenes/schema/scene.schema.json', import.meta.url), 'utf8'));

test('the cup material of the default scene is found through its driver', () => {
  assert.equal(findCupMaterial(scene), 'silicone');
  assert.equal(findCupMaterial({ bodies: [{ name: 'g', type: 'fixed', material: 'x' }, { name: 'c', type: 'fem', material: 'gel', mesh: { generator: 'cup' } }] }), 'gel');
  assert.equal(findCupMaterial({ bodies: [] }), null);
  assert.equal(findCupMaterial({}), null);
});

test('editable fields point into the scene', () => {
  const f = editableFields(scene, [], schema);
  const byKey = Object.fromEntries(f.map(x => [x.key, x]));
  assert.equal(byKey.young.pointer, '/materials/silicone/young');
  assert.equal(byKey.young.value, '=young_mpa*1e6');
  assert.equal(displayValue(byKey.young), '=young_mpa*1e6');
  assert.equal(byKey.poisson.value, 0.45);
  assert.equal(displayValue(byKey.poisson), '0.45');
  assert.equal(byKey.dt.pointer, '/settings/dt');
  assert.equal(displayValue(byKey.dt), '10');  // 0.01 s in ms
  assert.equal(byKey.leak_rate.pointer, '/settings/cavity/leak_rate');
  for (const k of ['young', 'poisson', 'friction', 'leak_rate', 'p_max', 'sealing_distance', 'dt']) assert.ok(byKey[k], k);
});

test('overrides: units, expressions, missing parents, bad input', () => {
  const f = Object.fromEntries(editableFields(scene, [], schema).map(x => [x.key, x]));
  assert.deepEqual(overridesFor(scene, f.young, '2'), [['/materials/silicone/young', '2000000']]);
  assert.deepEqual(overridesFor(scene, f.young, '=3e6'), [['/materials/silicone/young', '"=3e6"']]);
  assert.deepEqual(overridesFor(scene, f.dt, '5'), [['/settings/dt', '0.005']]);
  const leak = overridesFor(scene, f.leak_rate, '0.5');
  if (getPointer(scene, '/settings/cavity') === undefined) assert.deepEqual(leak, [['/settings/cavity', '{}'], ['/settings/cavity/leak_rate', '0.5']]);
  else assert.deepEqual(leak, [['/settings/cavity/leak_rate', '0.5']]);
  assert.throws(() => overridesFor(scene, f.poisson, 'abc'), /not a number/);
  assert.throws(() => overridesFor(scene, f.poisson, ''), /not a number/);
});

test('json pointers', () => {
  assert.equal(escapePointerToken('a/b~c'), 'a~1b~0c');
  assert.equal(getPointer({ 'a/b': { c: [5, 6] } }, '/a~1b/c/1'), 6);
  assert.equal(getPointer({ a: 1 }, '/b'), undefined);
  assert.deepEqual(getPointer({ a: 1 }, ''), { a: 1 });
});

test('the editable fields are the schema\'s x-page properties, with its bounds and descriptions', () => {
  const fields = schemaPageFields(schema);
  assert.ok(fields.length >= 7, `${fields.length} fields`);
  const young = fields.find(f => f.key === 'young');
  const material = getPointer(schema, '/$defs/material/properties/young');
  assert.equal(young.template, '/materials/{material}/young');
  assert.equal(young.doc, material.description);
  assert.equal(young.min, material.exclusiveMinimum ?? material.minimum);
  const dt = fields.find(f => f.key === 'dt');
  assert.equal(dt.scale, 1e-3);
  // a schema with one annotated property gives exactly that field; none: no fields; no schema: an error
  const one = { properties: { settings: { properties: { dt: { description: 'the step', 'x-page': { label: 'time step', unit: 'ms', scale: 1e-3 } },
                                                      duration: { description: 'the run' } } } } };
  assert.deepEqual(editableFields(scene, [], one).map(f => [f.key, f.pointer, f.value]), [['dt', '/settings/dt', scene.settings.dt]]);
  assert.deepEqual(editableFields(scene, [], { properties: {} }), []);
  assert.throws(() => editableFields(scene), /schema/);
  // every field has its own key (the panel's controllers are keyed by it): the film's friction is
  // not the material's
  const keys = fields.map(f => f.key);
  assert.deepEqual(keys.filter((k, i) => keys.indexOf(k) !== i), [], `repeated keys in ${keys.join(', ')}`);
  assert.equal(fields.find(f => f.key === 'film_friction').template, '/materials/{material}/film/friction');
  // a choice (an enum): its choices and default; its override is the JSON string, and a value
  // that is none of them is refused
  const law = fields.find(f => f.key === 'law');
  assert.equal(law.template, '/settings/cavity/gas/law');
  assert.deepEqual(law.choices, ['isothermal', 'adiabatic', 'polytropic', 'exchange']);
  assert.equal(law.default, 'isothermal');
  const lawField = editableFields(scene, [], schema).find(f => f.key === 'law');
  const calls = overridesFor(scene, lawField, 'adiabatic');
  assert.deepEqual(calls[calls.length - 1], ['/settings/cavity/gas/law', '"adiabatic"']);
  assert.throws(() => overridesFor(scene, lawField, 'isentropic'), /not one of/);
  // without a cup material the material fields are left out
  assert.ok(!editableFields({ bodies: [] }, [], schema).some(f => f.pointer.startsWith('/materials/')));
});
