#!/usr/bin/env node
// Parity of the WebAssembly build with the native one: runs a scene for N steps with the native
// CLI (`suction run SCENE --steps N --csv FILE -q`) and through the node facade (csvHeader +
// csvRow per step, the same CSV writer), then compares every numeric column.
//
//   node tests/parity/parity.js --native build/native/native/suction \
//        --module build/wasm/wasm/suction_wasm_node.js --scene scenes/default.json [--steps 300]
//        [--rel 1e-6] [--abs 1e-12] [--keep DIR]
//
// Tolerance, per value: |a − b| ≤ rel · max(|a|, |b|, 1e-3 · S) + abs, S being the largest |value|
// of that column in the native run.  rel = 1e-6 is the brief's relative tolerance; the floor
// 1e-3·S keeps a column that crosses zero (a force changing sign, a velocity at rest) from
// demanding relative precision at its zero crossing: there the difference is compared with
// a thousandth of the column's own scale instead; abs = 1e-12 (1 pm for positions, 1 pN for
// forces) only matters for columns that are identically zero.  Integer columns (step,
// contacts, cavities) must match exactly.  Exit 0 when every value is within tolerance, 1 when
// not, 2 on a usage or setup error (a missing native CLI is an error, never a silent skip).
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

function parseArgs(argv) {
  const a = { steps: 300, rel: 1e-6, abs: 1e-12, floor: 1e-3 };
  for (let i = 0; i < argv.length; ++i) {
    const k = argv[i];
    const v = () => { if (i + 1 >= argv.length) die(`${k} needs a value`); return argv[++i]; };
    if (k === '--native') a.native = v();
    else if (k === '--module') a.module = v();
    else if (k === '--scene') a.scene = v();
    else if (k === '--steps') a.steps = Number(v());
    else if (k === '--rel') a.rel = Number(v());
    else if (k === '--abs') a.abs = Number(v());
    else if (k === '--floor') a.floor = Number(v());
    else if (k === '--keep') a.keep = v();
    else die(`unknown argument ${k}`);
  }
  for (const k of ['native', 'module', 'scene']) if (!a[k]) die(`--${k} is required`);
  return a;
}

function die(msg) {
  console.error(`parity: ${msg}`);
  process.exit(2);
}

function csvSplit(line) {
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

function parseCsv(text) {
  const lines = text.split('\n').filter(l => l.length > 0);
  return { header: csvSplit(lines[0]), rows: lines.slice(1).map(csvSplit) };
}

async function wasmCsv(modulePath, scenePath, steps) {
  const r = require(path.resolve(modulePath))();
  const M = await (r.ready || r);
  const sim = new M.Simulator();
  try {
    const err = sim.load(fs.readFileSync(scenePath, 'utf8'), path.dirname(path.resolve(scenePath)));
    if (err) die(`wasm: cannot load ${scenePath}:\n${err}`);
    const lines = [sim.csvHeader(), sim.csvRow()];
    let failure = '';
    for (let s = 0; s < steps; ++s) {
      failure = sim.step(1);
      if (failure) break;
      lines.push(sim.csvRow());
    }
    return { text: lines.join('\n') + '\n', failure };
  } finally {
    sim.delete();
  }
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(a.native))
    die(`the native CLI ${a.native} does not exist: build it first (make native; make test ` +
        `builds it before the wasm tests), or configure build/wasm with ` +
        `-DSUCTION_NATIVE_CLI=<path to suction>`);
  if (!fs.existsSync(a.module)) die(`the node module ${a.module} does not exist (make wasm)`);
  if (!fs.existsSync(a.scene)) die(`no scene ${a.scene}`);
  const sceneName = path.basename(a.scene, '.json');

  const dir = a.keep || fs.mkdtempSync(path.join(os.tmpdir(), 'suction-parity-'));
  fs.mkdirSync(dir, { recursive: true });
  const nativeCsv = path.join(dir, `${sceneName}.native.csv`);
  let nativeFailed = '';
  try {
    execFileSync(a.native, ['run', a.scene, '--steps', String(a.steps), '--csv', nativeCsv, '-q'],
                 { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (e) {
    if (e.status === 1 && fs.existsSync(nativeCsv)) nativeFailed = String(e.stderr || '').trim();
    else die(`native run failed (exit ${e.status}): ${String(e.stderr || e.message).trim()}`);
  }
  const wasm = await wasmCsv(a.module, a.scene, a.steps);
  fs.writeFileSync(path.join(dir, `${sceneName}.wasm.csv`), wasm.text);

  const n = parseCsv(fs.readFileSync(nativeCsv, 'utf8'));
  const w = parseCsv(wasm.text);
  const problems = [];
  if (n.header.join(',') !== w.header.join(','))
    problems.push(`headers differ:\n  native ${n.header.join(',')}\n  wasm   ${w.header.join(',')}`);
  if (n.rows.length !== w.rows.length)
    problems.push(`row counts differ: native ${n.rows.length}, wasm ${w.rows.length}` +
                  (nativeFailed ? ` (native: ${nativeFailed})` : '') +
                  (wasm.failure ? ` (wasm: ${wasm.failure})` : ''));
  const integer = new Set(['step', 'contacts', 'cavities']);
  const rows = Math.min(n.rows.length, w.rows.length);
  const cols = Math.min(n.header.length, w.header.length);
  const worst = [];  // per column: {ratio, diff, row, a, b}
  let identical = 0, total = 0;
  for (let c = 0; c < cols; ++c) {
    let scale = 0;
    for (let r = 0; r < rows; ++r) {
      const v = Math.abs(Number(n.rows[r][c]));
      if (Number.isFinite(v)) scale = Math.max(scale, v);
    }
    const col = { name: n.header[c], ratio: 0, diff: 0, row: -1, a: 0, b: 0, scale };
    for (let r = 0; r < rows; ++r) {
      const sa = n.rows[r][c], sb = w.rows[r][c];
      ++total;
      if (sa === sb) { ++identical; continue; }
      const x = Number(sa), y = Number(sb);
      let ratio;
      if (integer.has(col.name) || Number.isNaN(x) || Number.isNaN(y) ||
          !Number.isFinite(x) || !Number.isFinite(y)) {
        ratio = Infinity;
      } else {
        const tol = a.rel * Math.max(Math.abs(x), Math.abs(y), a.floor * scale) + a.abs;
        ratio = Math.abs(x - y) / tol;
      }
      if (ratio > col.ratio || col.row < 0)
        Object.assign(col, { ratio, diff: Math.abs(x - y), row: r, a: sa, b: sb });
    }
    worst.push(col);
  }
  worst.sort((p, q) => q.ratio - p.ratio);
  const fmt = x => (typeof x === 'number' ? x.toPrecision(3) : x);
  console.log(`parity ${sceneName}: ${rows} rows x ${cols} columns, ${identical}/${total} values ` +
              `byte-identical; tolerance |a-b| <= ${a.rel}*max(|a|,|b|,${a.floor}*colmax) + ${a.abs}`);
  const bad = worst.filter(c => c.ratio > 1);
  for (const c of worst.slice(0, Math.max(3, bad.length))) {
    if (c.row < 0) continue;
    console.log(`  ${c.ratio > 1 ? 'FAIL' : 'ok  '} ${c.name}: worst at step ${n.rows[c.row][0]}: ` +
                `native ${c.a}, wasm ${c.b}, |diff| ${fmt(c.diff)} = ${fmt(c.ratio)} x tolerance ` +
                `(column max |value| ${fmt(c.scale)})`);
  }
  if (worst.every(c => c.row < 0)) console.log('  every value identical');
  if (a.keep) console.log(`  CSVs kept in ${dir}`);
  else fs.rmSync(dir, { recursive: true, force: true });
  for (const p of problems) console.log(`  FAIL ${p}`);
  if (bad.length || problems.length) {
    console.log(`parity ${sceneName}: FAILED`);
    process.exit(1);
  }
  console.log(`parity ${sceneName}: OK`);
}

main().catch(e => { console.error(e); process.exit(2); });
