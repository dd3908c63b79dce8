#!/usr/bin/env node
// The browser soak test (the issue "long runs": in the page, 10 minutes of play with memory
// flat). Serves build/web with scripts/serve.mjs on a free port, opens the page in Debian's
// headless chromium (playwright-core from web/node_modules, SwiftShader WebGL, as
// bench/browser_rtf.mjs), loads one scene, sets the speed as high as the page goes and plays it
// over and over: whenever the scene reaches its end the script presses reset, then play (the
// page has no loop option). Every --sample-seconds it measures memory after a forced GC.
//
//   node bench/browser_soak.mjs [--scene S] [--minutes M] [--sample-seconds S] [--json FILE]
//                               [--warmup-minutes W] [--tolerance PCT] [--speed X] [--no-sync]
//                               [--raw-heap]
//     --scene S           scenes/<S>.json as the page lists it (default ground)
//     --minutes M         wall-clock minutes of play (default 10)
//     --sample-seconds S  one sample every S s (default 15)
//     --warmup-minutes W  samples before W are not judged (default: 20 % of the run, at most 2)
//     --tolerance PCT     the most the judged metrics may grow, in % (default 1)
//     --speed X           the `× real time` speed field (default 10000: the page's top speed)
//     --no-sync           sample at once instead of at the next end of the scene (see below)
//     --raw-heap          judge the JS heaps by usedSize (compiled code included), no snapshots
//     --json FILE         also write every sample and the summary as JSON
//   Environment: CHROMIUM (default /usr/bin/chromium), SOAK_VERBOSE=1 echoes the page's console.
//
// Each sample (the page paused at the scene's end, see "sync"), in the page and in the
// simulation worker (CDP; the worker through Target.attachToTarget): HeapProfiler.collectGarbage,
// Runtime.getHeapUsage (usedSize), then a heap snapshot (HeapProfiler.takeHeapSnapshot) summed
// up into the JS objects, the compiled code (bytecode and JIT code, which V8 keeps growing for
// minutes while it optimizes, and flushes when it likes: +10 % in the first minute; the wasm
// module's code as it tiers up) and the browser's native objects (see heapSnapshotSummary); and
// performance.memory.usedJSHeapSize of the page (--enable-precise-memory-info), the wasm
// module's memory (wasmMemory.buffer.byteLength: the linear memory never shrinks, so a C++
// leak shows as a step up, by 20 % at a time) with a walk of its malloc heap (the bytes in use
// and free; emscripten's dlmalloc from the heap base, the initial stack pointer read from the
// .wasm: best effort, left out where the walk does not check out), its live emval handles, the
// page's DOM counters (Memory.getDOMCounters: nodes, JS event listeners), the resident memory of
// the page's renderer process and of the GPU process (SystemInfo.getProcessInfo for the pids,
// VmRSS from /proc; Linux only), the simulated time and steps summed over every loop, the loops
// and the frames. Judged: the wasm memory and the page's and the worker's JS objects (with
// --raw-heap their usedSize); each may grow by at most --tolerance % from the first sample after
// the warm-up to the last. The rest is reported, with the same growth and a least-squares slope
// per minute (RSS moves with the allocator and SwiftShader's caches).
//
// sync: the page's JS heap holds the plot samples of the current run of the scene (cleared on
// reset), so where in the scene a sample falls moves it by more than 1 % (ground: ~0.1 MB of
// ~5 MB). By default a sample that is due waits for the scene's next end, is taken there (the
// page paused, the same state in every loop), and then reset + play go on; samples are therefore
// at least one loop apart. A scene whose loop takes more than max(120 s, 4 × --sample-seconds)
// is sampled while it runs (marked in the JSON). --no-sync always samples at once.
//
// How it reads the worker without changing build/web: src/worker.js is served with a few lines
// appended (self.__soak(): the module's memory and heap walk, its emval handles, steps and time
// since load, counted across resets by wrapping SimHost.prototype.reset); an init script wraps
// the page's Worker to see `end`, errors and frames. Exit status: 0 PASS, 1 FAIL (growth above
// the tolerance, a page or worker error), 2 something is missing (build/web, the wasm module,
// the scene, chromium, playwright-core).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { startServe, CHROMIUM_ARGS } from '../scripts/web_harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const siteDir = path.join(root, 'build', 'web');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

const t0 = Date.now();
const log = (...a) => console.error(`[browser_soak ${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...a);
function die(msg, code = 2) { console.error(`browser_soak: ${msg}`); process.exit(code); }

// ---- arguments -----------------------------------------------------------------------------
function parseArgs(argv) {
  const o = { scene: 'ground', minutes: 10, sampleSeconds: 15, warmupMinutes: null, tolerance: 1, speed: 10000, sync: true, snapshots: true, json: null };
  const num = (a, v, { orZero = false } = {}) => {
    const x = Number(v);
    if (!(x > 0 || (orZero && x === 0))) die(`${a} ${v}: expected a number ${orZero ? '>= 0' : '> 0'}`);
    return x;
  };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    const val = () => { if (i + 1 >= argv.length) die(`${a} needs a value`); return argv[++i]; };
    if (a === '--scene') o.scene = val().replace(/^scenes\//, '').replace(/\.json$/, '');
    else if (a === '--minutes') o.minutes = num(a, val());
    else if (a === '--sample-seconds') o.sampleSeconds = num(a, val());
    else if (a === '--warmup-minutes') o.warmupMinutes = num(a, val(), { orZero: true });
    else if (a === '--tolerance') o.tolerance = num(a, val(), { orZero: true });
    else if (a === '--speed') o.speed = num(a, val());
    else if (a === '--no-sync') o.sync = false;
    else if (a === '--raw-heap') o.snapshots = false;
    else if (a === '--json') o.json = val();
    else if (a === '-h' || a === '--help') {
      console.log(fs.readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1, 21)
        .map(l => l.replace(/^\/\/ ?/, '')).join('\n'));
      process.exit(0);
    } else die(`unknown argument ${a} (--help)`);
  }
  if (o.warmupMinutes === null) o.warmupMinutes = Math.min(2, 0.2 * o.minutes);
  if (o.warmupMinutes >= o.minutes) die(`--warmup-minutes ${o.warmupMinutes} leaves nothing of --minutes ${o.minutes} to judge`);
  return o;
}
const opt = parseArgs(process.argv.slice(2));

// ---- what must be there ------------------------------------------------------------------------
if (!fs.existsSync(path.join(siteDir, 'index.html'))) die(`${path.relative(root, siteDir)}/index.html is missing: build the page first (make wasm-web web)`);
{
  const wdir = path.join(siteDir, 'wasm');
  const files = fs.existsSync(wdir) ? fs.readdirSync(wdir) : [];
  if (!files.some(f => f.endsWith('.wasm'))) die(`no wasm module in ${path.relative(root, wdir)} (found: ${files.join(' ') || 'nothing'}): run make wasm-web web`);
}
if (!fs.existsSync(path.join(siteDir, 'scenes', `${opt.scene}.json`))) die(`scene '${opt.scene}': ${path.relative(root, siteDir)}/scenes/${opt.scene}.json is missing (scenes: ${
  fs.readdirSync(path.join(siteDir, 'scenes')).filter(f => f.endsWith('.json') && f !== 'index.json').map(f => f.replace(/\.json$/, '')).join(' ')})`);
if (!fs.existsSync(CHROMIUM)) die(`no chromium at ${CHROMIUM}: apt-get install chromium (scripts/install-deps.sh), or set CHROMIUM=/path/to/chromium`);
let chromium;
try { ({ chromium } = createRequire(path.join(root, 'web', 'package.json'))('playwright-core')); } catch (e) {
  die(`playwright-core is not installed in web/node_modules: run make web-deps (npm ci in web/) (${e.message.split('\n')[0]})`);
}

// ---- in the page, before its scripts: the loop -------------------------------------------------
// Wraps window.Worker (the page creates one, src/worker.js) to count frames, `end`s and errors,
// and, after each `end` (once the page has taken the `status` that follows it), presses reset
// and play: the scene loops. With B.hold set, it stops at the next end instead (B.held) until
// the script calls B.restart().
function instrument() {
  const B = { frames: 0, ends: 0, loops: 0, errors: [], playing: false, hold: false, held: false, pendingEnd: false };
  window.__soakPage = B;
  B.restart = () => {
    B.held = false;
    document.getElementById('reset').click();
    document.getElementById('play').click();   // the page is paused (its `status` came): this is play
    B.loops++;
  };
  const Native = window.Worker;
  window.Worker = class extends Native {
    constructor(...a) {
      super(...a);
      this.addEventListener('message', (ev) => {   // before the page's onmessage (set later)
        const m = ev.data || {};
        if (m.type === 'frame') B.frames++;
        else if (m.type === 'end') { B.ends++; B.pendingEnd = true; }
        else if (m.type === 'error') B.errors.push(`${m.where}: ${m.message}`);
        else if (m.type === 'status') {
          B.playing = !!m.playing;
          if (!m.playing && B.pendingEnd) {
            B.pendingEnd = false;
            // after the page's own handler has seen this status (state.playing = false)
            setTimeout(() => { if (B.hold) B.held = true; else B.restart(); }, 0);
          }
        }
      });
    }
  };
}

// ---- in the worker: memory, steps and time -----------------------------------------------------
// Appended to src/worker.js as the script serves it (build/web is not touched): `host` and
// `SimHost` are that module's own bindings.
const WORKER_PATCH = `
;(() => {
  let steps = 0, time = 0, resets = 0;
  const P = typeof SimHost === 'function' && SimHost.prototype;
  if (P && typeof P.reset === 'function') {
    const reset = P.reset;
    P.reset = function (...a) {
      try { steps += this.sim.stepCount(); time += this.sim.time(); resets++; } catch { /* not loaded */ }
      return reset.apply(this, a);
    };
  }
  // dlmalloc's chunks from the heap's base: [prev_foot, head = size | CINUSE 2 | PINUSE 1], in
  // address order; free chunks are always coalesced, so the first free chunk after a free chunk
  // is the fencepost behind the top chunk: the end. null where that does not hold.
  const walk = (buffer, base) => {
    if (!(base > 0) || base % 8) return null;
    const U = new Uint32Array(buffer), len = buffer.byteLength;
    let p = base, used = 0, free = 0, usedChunks = 0, freeChunks = 0, largestFree = 0, prevFree = false;
    while (p + 8 <= len) {
      const head = U[(p + 4) >> 2], size = head & ~7, inUse = (head & 2) !== 0;
      if (!inUse && prevFree) return { used, free, usedChunks, freeChunks, largestFree, end: p };
      if (size < 16 || size % 8 || p + size > len) return null;
      if (inUse) { used += size; usedChunks++; } else { free += size; freeChunks++; largestFree = Math.max(largestFree, size); }
      prevFree = !inUse;
      p += size;
    }
    return null;
  };
  self.__soak = (heapBase) => {
    const h = typeof host === 'undefined' ? null : host, M = h && h.M;
    const mem = M && (M.wasmMemory || (M.HEAP8 && { buffer: M.HEAP8.buffer }));
    let cur = { steps: null, time: null };
    try { if (h && h.loaded) cur = { steps: h.sim.stepCount(), time: h.sim.time() }; } catch { /* keep nulls */ }
    let heap = null;
    try { heap = mem ? walk(mem.buffer, heapBase) : null; } catch { /* null */ }
    return { wasmBytes: mem ? mem.buffer.byteLength : null, heap,
             emvalHandles: M && typeof M.count_emval_handles === 'function' ? M.count_emval_handles() : null,
             steps: cur.steps === null ? null : steps + cur.steps, simTime: cur.time === null ? null : time + cur.time, resets };
  };
})();
`;

// ---- where the module's heap starts ----------------------------------------------------------------
// Emscripten (3.1.x, stack not first) puts the heap right above the stack: its base is the
// initial value of the first global the module defines (__stack_pointer, an i32.const). Read
// from the binary's global section; null if it does not look like that (the walk is then skipped).
function wasmHeapBase(file) {
  let b;
  try { b = fs.readFileSync(file); } catch { return null; }
  if (b.length < 8 || b.readUInt32LE(0) !== 0x6d736100) return null;
  const uleb = (p) => { let r = 0, m = 1, x; do { x = b[p++]; r += (x & 0x7f) * m; m *= 128; } while (x & 0x80); return [r, p]; };
  const sleb = (p) => { let r = 0, m = 1, x; do { x = b[p++]; r += (x & 0x7f) * m; m *= 128; } while (x & 0x80); if (x & 0x40) r -= m; return [r, p]; };
  let p = 8;
  while (p < b.length) {
    const id = b[p++];
    const [size, q] = uleb(p);
    if (id === 6) {
      let [count, r] = uleb(q);
      if (count < 1 || b[r] !== 0x7f || b[r + 1] !== 0x01 || b[r + 2] !== 0x41) return null;   // i32, mutable, i32.const
      const [v] = sleb(r + 3);
      return v > 0 ? v : null;
    }
    p = q + size;
  }
  return null;
}

// ---- the worker's CDP session (not flattened: playwright has no handle on a worker's session) ----
async function attachWorker(cdp) {
  const { targetInfos } = await cdp.send('Target.getTargets');
  const t = targetInfos.find(x => x.type === 'worker' && /\/src\/worker\.js(\?|$)/.test(x.url));
  if (!t) throw new Error(`no simulation worker among the targets (${targetInfos.map(x => `${x.type} ${x.url}`).join(', ')})`);
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: t.targetId, flatten: false });
  let id = 0;
  const pending = new Map(), listeners = new Map();
  cdp.on('Target.receivedMessageFromTarget', (ev) => {
    if (ev.sessionId !== sessionId) return;
    let m; try { m = JSON.parse(ev.message); } catch { return; }
    if (m.method) { for (const f of listeners.get(m.method) || []) f(m.params); return; }
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.error) p.reject(new Error(`worker ${p.method}: ${m.error.message}`)); else p.resolve(m.result);
  });
  const send = (method, params = {}) => new Promise((resolve, reject) => {
    const i = ++id;
    pending.set(i, { resolve, reject, method });
    cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: i, method, params }) })
      .catch((e) => { pending.delete(i); reject(e); });
  });
  const on = (event, f) => listeners.set(event, [...(listeners.get(event) || []), f]);
  const off = (event, f) => listeners.set(event, (listeners.get(event) || []).filter(g => g !== f));
  return { send, on, off };
}

// ---- a heap snapshot, summed up ---------------------------------------------------------------------
// HeapProfiler.takeHeapSnapshot (a full GC first) through a session { send, on, off }: the self
// sizes of every node, split into compiled code (type 'code': bytecode, JIT code and their
// metadata, which V8 grows for minutes while it optimizes and flushes when it likes; and the
// wasm module's native code, which grows as functions tier up), array buffer backing stores
// ('system / JSArrayBufferData': in the worker, the wasm memory itself), the browser's native
// objects (type 'native': Blink's, e.g. the performance timeline's entries, whose buffers the
// browser bounds) and the rest: the JS objects, what a leak of the page's or the worker's
// JavaScript would grow.
async function heapSnapshotSummary({ send, on, off }) {
  const chunks = [];
  const onChunk = (e) => chunks.push(e.chunk);
  on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  try { await send('HeapProfiler.takeHeapSnapshot', { reportProgress: false }); } finally { off('HeapProfiler.addHeapSnapshotChunk', onChunk); }
  const snap = JSON.parse(chunks.join(''));
  const meta = snap.snapshot.meta, fields = meta.node_fields, types = meta.node_types[0], N = fields.length;
  const iType = fields.indexOf('type'), iName = fields.indexOf('name'), iSize = fields.indexOf('self_size');
  const out = { total: 0, code: 0, buffers: 0, native: 0, objects: 0, nodes: 0, byKind: new Map() };
  for (let i = 0; i < snap.nodes.length; i += N) {
    const type = types[snap.nodes[i + iType]], size = snap.nodes[i + iSize];
    out.total += size; out.nodes++;
    // per kind (constructor, function or system name; strings and code together) for the diff
    const kind = /string/.test(type) ? type : type === 'code' ? 'code' : `${type} ${String(snap.strings[snap.nodes[i + iName]]).slice(0, 50)}`;
    const k = out.byKind.get(kind) || { n: 0, size: 0 };
    k.n++; k.size += size; out.byKind.set(kind, k);
    const name = type === 'native' ? String(snap.strings[snap.nodes[i + iName]]) : '';
    if (type === 'code' || name.includes('WasmNativeModule')) out.code += size;
    else if (name === 'system / JSArrayBufferData') out.buffers += size;
    else if (type === 'native') out.native += size;
    else out.objects += size;
  }
  return out;
}

// ---- resident memory of chromium's processes ------------------------------------------------------
function rssBytes(pid) {
  try { const m = /VmRSS:\s*(\d+)\s*kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8')); return m ? 1024 * Number(m[1]) : null; } catch { return null; }
}
function cmdline(pid) { try { return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' '); } catch { return ''; } }

// ---- the analysis ----------------------------------------------------------------------------------
/** Least-squares slope of ys against xs (null with fewer than 2 points or no spread in x). */
function slope(xs, ys) {
  const n = xs.length;
  if (n < 2) return null;
  const mx = xs.reduce((a, b) => a + b, 0) / n, my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0, sxx = 0;
  for (let i = 0; i < n; ++i) { sxy += (xs[i] - mx) * (ys[i] - my); sxx += (xs[i] - mx) ** 2; }
  return sxx > 0 ? sxy / sxx : null;
}

// key, label, unit ('B' bytes, '' count), judged (the JS heaps: their objects, or with --raw-heap
// Runtime.getHeapUsage's usedSize, compiled code included)
const METRICS = [
  ['wasmBytes', 'wasm memory (wasmMemory.buffer)', 'B', () => true],
  ['pageObjects', 'page JS objects (snapshot: no code, no native)', 'B', () => opt.snapshots],
  ['workerObjects', 'worker JS objects (snapshot: no code, no native)', 'B', () => opt.snapshots],
  ['pageHeap', 'page JS heap after GC (usedSize)', 'B', () => !opt.snapshots],
  ['workerHeap', 'worker JS heap after GC (usedSize)', 'B', () => !opt.snapshots],
  ['pageCode', 'page compiled code (snapshot)', 'B', () => false],
  ['workerCode', 'worker compiled code, JS and wasm (snapshot)', 'B', () => false],
  ['pageNative', 'page native (Blink) objects (snapshot)', 'B', () => false],
  ['workerNative', 'worker native objects (snapshot)', 'B', () => false],
  ['perfMemory', 'page performance.memory.usedJSHeapSize', 'B', () => false],
  ['wasmHeapUsed', 'wasm heap in use (malloc\'d chunks)', 'B', () => false],
  ['wasmHeapFree', 'wasm heap free (free chunks)', 'B', () => false],
  ['wasmLargestFree', 'wasm heap: largest free chunk', 'B', () => false],
  ['emvalHandles', 'wasm: live emval handles', '', () => false],
  ['domNodes', 'page DOM nodes', '', () => false],
  ['jsListeners', 'page JS event listeners', '', () => false],
  ['rendererRss', 'renderer process RSS', 'B', () => false],
  ['gpuRss', 'GPU process RSS', 'B', () => false],
];

function analyse(samples, warmupMin, tolerancePct) {
  const judged = samples.filter(s => s.tMin >= warmupMin);
  const rows = [];
  for (const [key, label, unit, judgedFn] of METRICS) {
    const isJudged = judgedFn();
    const pts = judged.filter(s => Number.isFinite(s[key]));
    const r = { key, label, unit, judged: isJudged, n: pts.length, first: null, last: null, growthPct: null, slopePerMin: null, slopePctPerMin: null, pass: null };
    if (pts.length) {
      r.first = pts[0][key]; r.last = pts[pts.length - 1][key];
      r.growthPct = r.first !== 0 ? 100 * (r.last - r.first) / r.first : (r.last === 0 ? 0 : null);
      r.slopePerMin = slope(pts.map(s => s.tMin), pts.map(s => s[key]));
      r.slopePctPerMin = r.slopePerMin !== null && r.first ? 100 * r.slopePerMin / r.first : null;
    }
    if (isJudged) r.pass = pts.length >= 2 && r.growthPct !== null && r.growthPct <= tolerancePct;
    if (pts.length || isJudged) rows.push(r);
  }
  return { judgedSamples: judged.length, rows, pass: rows.filter(r => r.judged).every(r => r.pass) };
}

/** The kinds of two snapshot summaries that grew, largest growth in bytes first. */
function kindGrowth(a, b) {
  const out = [];
  for (const [kind, e] of b) {
    const o = a.get(kind) || { n: 0, size: 0 };
    if (e.size > o.size) out.push({ kind, dn: e.n - o.n, dsize: e.size - o.size, n: e.n, size: e.size });
  }
  return out.sort((x, y) => y.dsize - x.dsize);
}

const fmtNum = (x, d) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(d));
function fmtVal(x, unit) {
  if (x === null || x === undefined || !Number.isFinite(x)) return '–';
  if (unit === 'B') return `${(x / 1048576).toFixed(3)} MiB`;
  return String(Math.round(x));
}
function fmtSlope(x, unit) {
  if (x === null || !Number.isFinite(x)) return '–';
  if (unit === 'B') return `${x >= 0 ? '+' : '−'}${(Math.abs(x) / 1024).toFixed(1)} KiB/min`;
  return `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(2)}/min`;
}

function report(a, samples, meta) {
  const L = [];
  const last = samples[samples.length - 1] || {};
  L.push(`Soak (${meta.chromium}, headless, SwiftShader WebGL; node ${process.version}; ${os.cpus().length} cores; ${meta.date}): ` +
         `scene ${opt.scene}, ${fmtNum(meta.playedMin, 1)} min of play at × real time ${opt.speed}, ${samples.length} samples ` +
         `(${opt.sync ? 'at the scene\'s end' : 'at once'}, due every ${opt.sampleSeconds} s), warm-up ${fmtNum(opt.warmupMinutes, 2)} min ` +
         `(${a.judgedSamples} samples after it); ${last.loops ?? '–'} loops, ${fmtNum(last.simTime, 1)} s simulated in ${last.steps ?? '–'} steps, ` +
         `${last.frames ?? '–'} frames.`);
  L.push('');
  L.push('| metric | first after warm-up | last | growth | slope (fit) | slope %/min | judged |');
  L.push('|---|---:|---:|---:|---:|---:|---|');
  for (const r of a.rows) {
    L.push(`| ${r.label} | ${fmtVal(r.first, r.unit)} | ${fmtVal(r.last, r.unit)} | ${r.growthPct === null ? '–' : `${r.growthPct >= 0 ? '+' : '−'}${Math.abs(r.growthPct).toFixed(2)} %`} | ` +
           `${fmtSlope(r.slopePerMin, r.unit)} | ${fmtNum(r.slopePctPerMin, 3)} | ${r.judged ? (r.pass ? `PASS (≤ ${opt.tolerance} %)` : `FAIL (> ${opt.tolerance} %)`) : 'reported'} |`);
  }
  const wm = a.rows.find(r => r.key === 'wasmBytes'), wu = a.rows.find(r => r.key === 'wasmHeapUsed');
  if (wm && wm.pass === false && wu && wu.growthPct !== null && wu.growthPct <= opt.tolerance) {
    L.push('', `Note: the wasm memory grew while the bytes malloc'd in it did not (${fmtVal(wu.first, 'B')} -> ${fmtVal(wu.last, 'B')}): ` +
           'not a leak but the allocator needing a larger contiguous block than its free chunks offer (transient allocations ' +
           'and fragmentation in the C++ side); the linear memory never shrinks.');
  }
  L.push('');
  L.push(`Verdict: ${a.pass ? 'PASS' : 'FAIL'}: wasm memory, page and worker JS heap${opt.snapshots ? ' objects' : ''} ${a.pass ? 'grew by at most' : 'did not all stay within'} ${opt.tolerance} % ` +
         `from ${fmtNum(samples.find(s => s.tMin >= opt.warmupMinutes)?.tMin, 2)} to ${fmtNum(last.tMin, 2)} min.`);
  return L.join('\n');
}

// ---- main --------------------------------------------------------------------------------------------
const sleep = (ms) => new Promise(r => setTimeout(r, ms));

async function main() {
  let chromiumVersion = '';
  try { chromiumVersion = execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8', timeout: 30000, stdio: ['ignore', 'pipe', 'ignore'] }).trim(); } catch { chromiumVersion = CHROMIUM; }
  const { child: server, base } = await startServe(siteDir);
  log(`server at ${base}; ${chromiumVersion}; ${os.cpus().length} cores, load average ${os.loadavg().map(x => x.toFixed(2)).join(' ')}`);
  const samples = [];
  const kinds = { first: null, last: null };   // heap snapshot kinds: first sample after the warm-up, last
  const pageErrors = [];
  let browser, failure = null, playedMin = 0;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS, '--enable-precise-memory-info'], timeout: 120000 });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(instrument);
    await context.route(`${base}src/worker.js`, async (route) => {
      const resp = await route.fetch();
      route.fulfill({ response: resp, body: (await resp.text()) + WORKER_PATCH });
    });
    const page = await context.newPage();
    page.setDefaultTimeout(120000);
    page.on('pageerror', e => pageErrors.push(String(e && e.message || e)));
    page.on('console', m => {
      if (process.env.SOAK_VERBOSE) log(`console ${m.type()}: ${m.text()}`);
      if (m.type() === 'error') pageErrors.push(`console: ${m.text()}`);
    });
    await page.goto(`${base}?scene=${encodeURIComponent(opt.scene)}`, { waitUntil: 'load' });
    if (!await page.evaluate(() => window.crossOriginIsolated === true)) throw new Error('the page is not cross-origin isolated (serve.mjs headers?)');
    await page.waitForFunction(() => { const s = window.suctionDebug.snapshot(); return (s.loaded && s.frames > 0) || s.errors.length > 0; },
                               null, { timeout: 180000, polling: 250 });
    const s = await page.evaluate(() => { const s = window.suctionDebug.snapshot(); return { scene: s.scene, errors: s.errors, backend: s.backend, duration: s.duration, version: s.version }; });
    if (s.errors.length) throw new Error(`loading: ${s.errors.join(' | ')}`);
    if (s.scene !== opt.scene) throw new Error(`the page loaded '${s.scene}', not '${opt.scene}'`);
    if (s.backend !== 'wasm') throw new Error(`backend is ${s.backend}, not wasm`);
    const worker = page.workers().find(w => /\/src\/worker\.js(\?|$)/.test(w.url()));
    if (!worker) throw new Error('the simulation worker is not among the page\'s workers');
    if (!await worker.evaluate(() => typeof self.__soak === 'function')) throw new Error('src/worker.js was not patched (self.__soak is missing)');
    const cdp = await context.newCDPSession(page);
    const wses = await attachWorker(cdp), wsend = wses.send;
    const pses = { send: (m, p) => cdp.send(m, p), on: (e, f) => cdp.on(e, f), off: (e, f) => cdp.off(e, f) };
    if (opt.snapshots) { await cdp.send('HeapProfiler.enable'); await wsend('HeapProfiler.enable'); }
    const bcdp = await browser.newBrowserCDPSession();
    let rendererPid = null, gpuPid = null;
    const heapBase = wasmHeapBase(path.join(siteDir, 'wasm', 'suction_wasm.wasm'));
    if (heapBase === null) log('the heap base of wasm/suction_wasm.wasm is unknown: no heap walk (wasm heap in use is not reported)');

    await page.selectOption('#speed-mode', 'realtime');
    await page.fill('#speed', String(opt.speed));
    await page.dispatchEvent('#speed', 'change');
    await page.waitForTimeout(200);
    log(`${opt.scene}: play and loop for ${opt.minutes} min (duration ${s.duration} s, × real time ${opt.speed}, ` +
        `a sample due every ${opt.sampleSeconds} s${opt.sync ? ', taken at the scene\'s end' : ''}, warm-up ${opt.warmupMinutes.toFixed(2)} min)`);
    await page.click('#play');
    const playAt = Date.now();
    const elapsedMin = () => (Date.now() - playAt) / 60000;
    const syncLimitMs = 1000 * Math.max(120, 4 * opt.sampleSeconds);

    const checkErrors = async () => {
      const errs = await page.evaluate(() => window.__soakPage.errors.slice());
      if (errs.length) throw new Error(`worker: ${errs.join(' | ')}`);
      if (pageErrors.length) throw new Error(`page: ${pageErrors.join(' | ')}`);
    };

    async function takeSample(synced) {
      const tMin = elapsedMin();
      await cdp.send('HeapProfiler.collectGarbage');
      await wsend('HeapProfiler.collectGarbage');
      const [ph, wh, dom, pm, w, pg] = await Promise.all([
        cdp.send('Runtime.getHeapUsage'), wsend('Runtime.getHeapUsage'), cdp.send('Memory.getDOMCounters'),
        page.evaluate(() => (performance.memory ? performance.memory.usedJSHeapSize : null)),
        worker.evaluate((base) => self.__soak(base), heapBase),
        page.evaluate(() => { const B = window.__soakPage; return { frames: B.frames, loops: B.loops, ends: B.ends }; }),
      ]);
      let psnap = null, wsnap = null;
      if (opt.snapshots) {
        psnap = await heapSnapshotSummary(pses); wsnap = await heapSnapshotSummary(wses);
        if (tMin >= opt.warmupMinutes && !kinds.first) kinds.first = { page: psnap.byKind, worker: wsnap.byKind };
        kinds.last = { page: psnap.byKind, worker: wsnap.byKind };
      }
      if (rendererPid === null) {   // the page's renderer: the one that has used the most CPU (it runs the simulation)
        try {
          const { processInfo } = await bcdp.send('SystemInfo.getProcessInfo');
          const rend = processInfo.filter(p => p.type === 'renderer' && !cmdline(p.id).includes('--top-chrome-webui'));
          rend.sort((x, y) => y.cpuTime - x.cpuTime);
          if (rend.length) rendererPid = rend[0].id;
          const gpu = processInfo.find(p => /gpu/i.test(p.type));
          if (gpu) gpuPid = gpu.id;
        } catch (e) { log(`no process info: ${e.message}`); rendererPid = -1; }
      }
      const smp = {
        tMin, synced, pageObjects: psnap ? psnap.objects : null, workerObjects: wsnap ? wsnap.objects : null,
        pageCode: psnap ? psnap.code : null, workerCode: wsnap ? wsnap.code : null,
        pageNative: psnap ? psnap.native : null, workerNative: wsnap ? wsnap.native : null, pageHeap: ph.usedSize, pageHeapTotal: ph.totalSize, workerHeap: wh.usedSize, workerHeapTotal: wh.totalSize,
        perfMemory: pm, wasmBytes: w.wasmBytes, emvalHandles: w.emvalHandles, steps: w.steps, simTime: w.simTime,
        wasmHeapUsed: w.heap ? w.heap.used : null, wasmHeapFree: w.heap ? w.heap.free : null,
        wasmLargestFree: w.heap ? w.heap.largestFree : null, wasmFreeChunks: w.heap ? w.heap.freeChunks : null,
        domNodes: dom.nodes, jsListeners: dom.jsEventListeners, documents: dom.documents,
        rendererRss: rendererPid > 0 ? rssBytes(rendererPid) : null, gpuRss: gpuPid > 0 ? rssBytes(gpuPid) : null,
        frames: pg.frames, loops: pg.loops, ends: pg.ends,
      };
      samples.push(smp);
      log(`sample ${samples.length} at ${tMin.toFixed(2)} min${synced ? ' (scene end)' : ''}: wasm ${fmtVal(smp.wasmBytes, 'B')}, ` +
          `heap in use ${fmtVal(smp.wasmHeapUsed, 'B')}, page heap ${fmtVal(smp.pageHeap, 'B')} (objects ${fmtVal(smp.pageObjects, 'B')}), ` +
          `worker heap ${fmtVal(smp.workerHeap, 'B')} (objects ${fmtVal(smp.workerObjects, 'B')}), renderer RSS ${fmtVal(smp.rendererRss, 'B')}, ` +
          `loops ${smp.loops}, ${fmtNum(smp.simTime, 1)} s simulated, ${smp.steps} steps`);
    }

    for (let k = 1; ; ++k) {
      const dueAt = playAt + Math.min(k * opt.sampleSeconds * 1000, opt.minutes * 60000);
      while (Date.now() < dueAt) { await sleep(Math.min(1000, dueAt - Date.now())); await checkErrors(); }
      let synced = false;
      if (opt.sync) {
        await page.evaluate(() => { window.__soakPage.hold = true; });
        const until = Date.now() + syncLimitMs;
        while (Date.now() < until) {
          if (await page.evaluate(() => window.__soakPage.held)) { synced = true; break; }
          await checkErrors();
          await sleep(100);
        }
        // from here an end loops on again (one that came just now is held: sample it there)
        if (await page.evaluate(() => { window.__soakPage.hold = false; return window.__soakPage.held; })) synced = true;
        if (!synced) log(`the scene did not end within ${syncLimitMs / 1000} s: sampling while it runs`);
      }
      await takeSample(synced);
      if (elapsedMin() >= opt.minutes) { playedMin = elapsedMin(); break; }
      if (synced) await page.evaluate(() => window.__soakPage.restart());
    }
    await checkErrors();
  } catch (e) {
    failure = String(e && e.message || e).split('\n')[0];
    log(`FAILED: ${failure}`);
  } finally {
    if (browser) await browser.close().catch(() => {});
    server.kill('SIGTERM');
  }
  const meta = { date: new Date().toISOString().slice(0, 10), chromium: chromiumVersion, playedMin };
  const a = analyse(samples, opt.warmupMinutes, opt.tolerance);
  if (samples.length) console.log(`\n${report(a, samples, meta)}`);
  const growth = kinds.first && kinds.last && kinds.first !== kinds.last ? {
    page: kindGrowth(kinds.first.page, kinds.last.page), worker: kindGrowth(kinds.first.worker, kinds.last.worker) } : null;
  if (growth) {
    console.log('\nWhat grew most in the heap snapshots, first sample after the warm-up to the last (count, bytes):');
    for (const who of ['page', 'worker']) {
      console.log(`  ${who}: ${growth[who].slice(0, 8).map(g => `${g.kind} ${g.dn >= 0 ? '+' : ''}${g.dn}, ${g.dsize >= 0 ? '+' : ''}${(g.dsize / 1024).toFixed(1)} KiB`).join('; ') || 'nothing'}`);
    }
  }
  if (failure) console.log(`\nVerdict: FAIL: ${failure}`);
  if (opt.json) {
    fs.mkdirSync(path.dirname(path.resolve(opt.json)), { recursive: true });
    fs.writeFileSync(opt.json, JSON.stringify({ date: new Date().toISOString(), chromium: chromiumVersion, node: process.version, cores: os.cpus().length,
      options: opt, failure, pass: !failure && a.pass, summary: a.rows, snapshotGrowth: growth && { page: growth.page.slice(0, 30), worker: growth.worker.slice(0, 30) },
      samples }, null, 1) + '\n');
    log(`wrote ${opt.json}`);
  }
  return !failure && a.pass ? 0 : 1;
}

main().then(code => process.exit(code), e => { console.error(`browser_soak: ${e && e.stack || e}`); process.exit(1); });
