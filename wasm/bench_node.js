#!/usr/bin/env node
// Node counterpart of `suction bench`: times the WebAssembly build on a scene.
//   node wasm/bench_node.js <suction_wasm_node.js> <scene.json> [--steps N] [--warmup W] [--json]
// Loads the scene (baseDir = its folder), runs W untimed steps (default 10), then N timed steps
// (default 200), timing each step() call with performance.now() and averaging the per-stage
// times of profile() (the core's own clock, as the native bench does).  Prints a table like
// the native bench's, or one JSON object with --json.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { performance } = require('node:perf_hooks');

const STAGES = ['leak', 'free_motion', 'collision', 'cavities', 'compliance', 'solve', 'correction'];
// the stages under the native CLI's names (its bench table), read from the module's profile()
const MODULE_KEY = { leak: 'leakMs', free_motion: 'freeMotionMs', collision: 'collisionMs', cavities: 'cavitiesMs',
                     compliance: 'complianceMs', solve: 'solveMs', correction: 'correctionMs' };

async function main() {
  const args = process.argv.slice(2);
  const pos = [];
  let steps = 200, warmup = 10, json = false;
  for (let i = 0; i < args.length; ++i) {
    if (args[i] === '--steps') steps = Number(args[++i]);
    else if (args[i] === '--warmup') warmup = Number(args[++i]);
    else if (args[i] === '--json') json = true;
    else pos.push(args[i]);
  }
  if (pos.length !== 2 || !(steps > 0) || !(warmup >= 0)) {
    console.error('usage: bench_node.js <suction_wasm_node.js> <scene.json> [--steps N] [--warmup W] [--json]');
    process.exit(2);
  }
  const [modulePath, scene] = pos;
  const r = require(path.resolve(modulePath))();
  const M = await (r.ready || r);
  const sim = new M.Simulator();
  let err = sim.load(fs.readFileSync(scene, 'utf8'), path.dirname(path.resolve(scene)));
  if (err) { console.error(`${scene}:\n${err}`); process.exit(2); }
  if (warmup > 0 && (err = sim.step(warmup))) { console.error(err); process.exit(1); }

  const sum = Object.fromEntries(STAGES.map(s => [s, 0]));
  const max = Object.fromEntries(STAGES.map(s => [s, 0]));
  let wall = 0, wallMax = 0, profTotal = 0, constraints = 0, contacts = 0, cavities = 0;
  for (let k = 0; k < steps; ++k) {
    const t0 = performance.now();
    err = sim.step(1);
    const dt = performance.now() - t0;
    if (err) { console.error(err); process.exit(1); }
    wall += dt; wallMax = Math.max(wallMax, dt);
    const p = sim.profile();
    for (const s of STAGES) { sum[s] += p[MODULE_KEY[s]]; max[s] = Math.max(max[s], p[MODULE_KEY[s]]); }
    profTotal += p.totalMs; constraints += p.constraints; contacts += p.contacts;
    cavities += p.cavities;
  }
  const mean = Object.fromEntries(STAGES.map(s => [s, sum[s] / steps]));
  const result = {
    scene: sim.sceneName(), scene_file: scene, steps, warmup, dt: sim.dt(),
    stages: Object.fromEntries(STAGES.map(s => [s, { mean_ms: mean[s], max_ms: max[s] }])),
    total: { mean_ms: wall / steps, max_ms: wallMax },  // step() wall time, as seen from JS
    profile_total_mean_ms: profTotal / steps,           // the core's own step clock
    mean_constraints: constraints / steps, mean_contacts: contacts / steps,
    mean_cavities: cavities / steps,
  };
  sim.delete();
  if (json) { console.log(JSON.stringify(result)); return; }
  const cols = ['free_motion', 'collision', 'cavities', 'compliance', 'solve'];
  const other = (mean.leak + mean.correction);
  const pad = (s, n = 12) => String(s).padStart(n);
  console.log(`wasm (node ${process.version})  scene ${result.scene}  steps ${steps}  ` +
              `mean constraints ${result.mean_constraints.toFixed(2)}`);
  console.log(''.padEnd(8) + cols.map(c => pad(c.replace('_', ' '))).join('') + pad('other') + pad('total'));
  console.log('mean ms '.padEnd(8) + cols.map(c => pad(mean[c].toFixed(3))).join('') +
              pad(other.toFixed(3)) + pad(result.total.mean_ms.toFixed(3)));
  console.log('max ms '.padEnd(8) + cols.map(c => pad(max[c].toFixed(3))).join('') +
              pad((max.leak + max.correction).toFixed(3)) + pad(wallMax.toFixed(3)));
}

main().catch(e => { console.error(e); process.exit(2); });
