// suction_wasm.d.ts against the module it declares, under node (node:test): the declarations
// are hand-written (Emscripten 3.1.6 has no --emit-tsd), so this test is what keeps them true.
//   node wasm/tests/test_dts.js <suction_wasm_node.js> <suction_wasm.d.ts> [<scenes dir>]
// Registered as the ctest `wasm_dts` of build/wasm.  Checked both ways:
//   - the methods of `interface Simulator` are exactly the functions on Simulator.prototype
//     (besides Embind's own: delete, clone, isDeleted, isAliasOf, deleteLater, which the d.ts
//     may declare), and those of `interface SuctionModule` exist on the module;
//   - the fields of ProfileInfo, CavityInfo and Parameter are exactly the keys of the objects
//     profile(), cavityInfo() and parameters() return, with the declared JS types.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');

const modulePath = path.resolve(process.argv[2] || 'build/wasm/wasm/suction_wasm_node.js');
const dtsPath = path.resolve(process.argv[3] || path.join(__dirname, '..', 'suction_wasm.d.ts'));
const scenesDir = path.resolve(process.argv[4] || path.join(__dirname, '..', '..', 'scenes'));
const EMBIND_OWN = new Set(['delete', 'clone', 'isDeleted', 'isAliasOf', 'deleteLater']);

/** interface NAME { ... } of the d.ts: its members, name -> the declared type text */
function declared(text, name) {
  const start = text.indexOf(`export interface ${name} {`);
  assert.ok(start >= 0, `the d.ts declares interface ${name}`);
  let depth = 0, i = text.indexOf('{', start), body = '';
  for (; i < text.length; ++i) {
    if (text[i] === '{') depth++;
    if (text[i] === '}' && --depth === 0) break;
    body += text[i];
  }
  const members = new Map();
  // drop comments, then read "name(...): T;" and "name: T;" at the interface's own level
  const code = body.slice(1).replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  for (const statement of code.split(';')) {
    const m = statement.match(/^\s*([A-Za-z_]\w*)\??\s*(\([^)]*\))?\s*:\s*([\s\S]+?)\s*$/);
    if (m) members.set(m[1], { method: !!m[2], type: m[3] });
  }
  return members;
}

/** does a value have the declared type? (the few types the d.ts uses for fields) */
function hasType(v, type) {
  if (type === 'number') return typeof v === 'number';
  if (type === 'boolean') return typeof v === 'boolean';
  if (type === 'string') return typeof v === 'string';
  if (type === 'number[]') return Array.isArray(v) && v.every(x => typeof x === 'number');
  if (type === 'number | null') return v === null || typeof v === 'number';
  return false;
}

function sameFields(obj, members, what) {
  const keys = Object.keys(obj).sort();
  const names = [...members.keys()].sort();
  assert.deepStrictEqual(keys, names, `${what}: the object's fields are the declared ones`);
  for (const [k, m] of members) assert.ok(hasType(obj[k], m.type), `${what}.${k}: ${JSON.stringify(obj[k])} is not ${m.type}`);
}

let M;
async function module() {
  if (!M) { const r = require(modulePath)(); M = await (r.ready || r); }
  return M;
}

const dts = fs.readFileSync(dtsPath, 'utf8');

test('interface Simulator is the functions the module registers', async () => {
  const m = await module();
  const methods = [...declared(dts, 'Simulator')].filter(([, x]) => x.method).map(([k]) => k);
  const proto = Object.getOwnPropertyNames(m.Simulator.prototype).filter(k => k !== 'constructor' &&
    typeof m.Simulator.prototype[k] === 'function');
  const missing = proto.filter(k => !methods.includes(k));
  const extra = methods.filter(k => !proto.includes(k) && !EMBIND_OWN.has(k));
  assert.deepStrictEqual(missing, [], 'functions of the module the d.ts does not declare');
  assert.deepStrictEqual(extra, [], 'methods the d.ts declares that the module lacks');
  for (const k of methods.filter(k => EMBIND_OWN.has(k)))
    assert.strictEqual(typeof new m.Simulator()[k], 'function', `Embind's ${k}`);
});

test('interface SuctionModule is on the module', async () => {
  const m = await module();
  for (const [k, x] of declared(dts, 'SuctionModule')) {
    if (k === 'ready') continue;   // 3.1.6's factory promise: present or not, by how it is called
    if (x.method || k === 'Simulator') assert.strictEqual(typeof m[k], 'function', `module.${k}`);
  }
});

test('ProfileInfo, CavityInfo and Parameter are the objects the module returns', async () => {
  const m = await module();
  const sim = new m.Simulator();
  try {
    // the ground scene: pushed down, the cup seals a cavity within its first 0.6 s
    const err = sim.load(fs.readFileSync(path.join(scenesDir, 'ground.json'), 'utf8'), scenesDir);
    assert.strictEqual(err, '', err);
    sameFields(sim.profile(), declared(dts, 'ProfileInfo'), 'profile() before a step');
    let steps = 0;
    while (sim.cavityCount() === 0 && steps < 120) { assert.strictEqual(sim.step(1), ''); ++steps; }
    assert.ok(sim.cavityCount() > 0, `a cavity after ${steps} steps`);
    sameFields(sim.profile(), declared(dts, 'ProfileInfo'), 'profile()');
    assert.strictEqual(sim.profile().cavities, sim.cavityCount(), 'profile().cavities counts the cavities');
    sameFields(sim.cavityInfo(0), declared(dts, 'CavityInfo'), 'cavityInfo(0)');
    const params = sim.parameters();
    assert.ok(Array.isArray(params) && params.length > 0, 'ground has parameters');
    for (const p of params) sameFields(p, declared(dts, 'Parameter'), `parameters() ${p.name}`);
    assert.ok(params.some(p => p.min === null) || params.some(p => typeof p.min === 'number'));
  } finally {
    sim.delete();
  }
});
