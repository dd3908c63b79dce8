#!/usr/bin/env node
// The browser's real-time factor: serves build/web with scripts/serve.mjs on a free port, opens
// the page in Debian's headless chromium (playwright-core from web/node_modules, SwiftShader
// WebGL, as tests/web/e2e.mjs), and for each scene: loads it, sets the speed as high as the page
// goes (`× real time` 10000: the worker then steps without pause, in batches of at most 200
// steps or 100 ms, sending a frame whenever the page has drawn the previous one), presses play
// and waits for the scene's end (its settings.duration of simulated time).
//
//   node bench/browser_rtf.mjs [SCENE...] [--timeout S] [--timeout SCENE=S ...] [--json FILE]
//                              [--speed X] [--mode realtime|steps] [--sampled]
//                              [--quality interactive|reference|both] [--threads N] [--warmup N]
//     SCENE        scenes/<SCENE>.json as the page lists it (default: ground rigid_lift pull_test
//                  soft_cube_lift organic_object)
//     --threads N  the simulation's threads (the page's ?threads=, 1 to 4); default: the page's
//                  own (the cores, at most 4: web/src/threads.js)
//     --warmup N   the steps the page plays unseen after the load (its ?warmup=; 0: none);
//                  default: the page's own (web/src/sim_host.js). The bench presses play once
//                  the warm-up has ended, as a visitor who looks at the scene first would, and
//                  reports its steps and time (`warm-up`); with 0, play follows the load.
//     --quality    the page's quality selector (?quality=); both (the default): every scene at
//                  interactive, then every scene at reference
//     --timeout    wall-clock limit per scene after play, in s (default 900); SCENE=S sets one
//                  scene's. A scene that hits it is reported with the RTF of the part it ran,
//                  marked PARTIAL (a measurement, not a failure: the exit status stays 0).
//     --json FILE  also write the results as JSON
//     --speed X    the speed field (default 10000 in `× real time` mode; in `steps` mode the
//                  steps per frame, lock-step with the display)
//     --sampled    step times from the frames only (the page as built, nothing added; see below)
//   Environment: CHROMIUM (default /usr/bin/chromium), BENCH_VERBOSE=1 echoes the page's console.
//
// Measured in the page (performance.now() of the main thread): wall = from posting `play` to
// the worker's `end` message; simulated time = the time `end` reports; RTF = simulated / wall
// over the whole scene (not the page's 2 s window). Step times are the core's profile(), the
// numbers of the page's "time per step" panel: the worker sends one with each frame (the last
// step's); the bench appends a few lines to src/sim_host.js as it serves it (build/web itself is
// not changed) so that the worker also records every step's profile() with the step's plot
// sample, and the mean and worst are over every step. "wall ms/step" is wall / steps, everything
// included. "frames/s" counts frames with a new state (the page's fps readout, over the whole
// run), "draws/s" the drawings of the 3D view (the page's own count, window.suctionDebug.snapshot().render.draws:
// it draws only when something changed, web/src/render_quality.js; the requestAnimationFrame
// callbacks for a page without that count; the JSON has both). Exit
// status: 0 every scene ran (to its end or to its limit), 1 a scene failed (load error, a
// diverging step, a page error), 2 something is missing (build/web, the wasm module, a scene,
// chromium, playwright-core).
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
const STAGES = ['free_motion', 'collision', 'cavities', 'compliance', 'solve', 'leak', 'correction'];

const t0 = Date.now();
const log = (...a) => console.error(`[browser_rtf ${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...a);
function die(msg, code = 2) { console.error(`browser_rtf: ${msg}`); process.exit(code); }

// ---- arguments -----------------------------------------------------------------------------
function parseArgs(argv) {
  const o = { scenes: [], timeout: 900, timeouts: {}, json: null, speed: null, mode: 'realtime', sampled: false, qualities: ['interactive', 'reference'],
              threads: null, warmup: null };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    const val = () => { if (i + 1 >= argv.length) die(`${a} needs a value`); return argv[++i]; };
    if (a === '--timeout') {
      const v = val(), m = /^([^=]+)=(.+)$/.exec(v);
      const s = Number(m ? m[2] : v);
      if (!(s > 0)) die(`--timeout ${v}: expected seconds > 0 (or SCENE=seconds)`);
      if (m) o.timeouts[m[1]] = s; else o.timeout = s;
    } else if (a === '--json') o.json = val();
    else if (a === '--speed') { o.speed = Number(val()); if (!(o.speed > 0)) die('--speed: expected a number > 0'); }
    else if (a === '--sampled') o.sampled = true;
    else if (a === '--threads') { o.threads = Number(val()); if (!(Number.isInteger(o.threads) && o.threads >= 1 && o.threads <= 4)) die('--threads: expected 1 to 4'); }
    else if (a === '--warmup') { o.warmup = Number(val()); if (!(Number.isInteger(o.warmup) && o.warmup >= 0 && o.warmup <= 1000)) die('--warmup: expected 0 to 1000 steps'); }
    else if (a === '--quality') {
      const q = val();
      if (!['interactive', 'reference', 'both'].includes(q)) die('--quality: interactive, reference or both');
      o.qualities = q === 'both' ? ['interactive', 'reference'] : [q];
    }
    else if (a === '--mode') { o.mode = val(); if (!['realtime', 'steps'].includes(o.mode)) die('--mode: realtime or steps'); }
    else if (a === '-h' || a === '--help') {
      console.log(fs.readFileSync(fileURLToPath(import.meta.url), 'utf8').split("\n").slice(1, 30)
        .map(l => l.replace(/^\/\/ ?/, '')).join('\n'));
      process.exit(0);
    } else if (a.startsWith('-')) die(`unknown option ${a} (--help)`);
    else o.scenes.push(a.replace(/^scenes\//, '').replace(/\.json$/, ''));
  }
  if (!o.scenes.length) o.scenes = ['ground', 'rigid_lift', 'pull_test', 'soft_cube_lift', 'organic_object'];
  if (o.speed === null) o.speed = o.mode === 'realtime' ? 10000 : 1000;
  for (const s of Object.keys(o.timeouts)) if (!o.scenes.includes(s)) die(`--timeout ${s}=...: ${s} is not among the scenes (${o.scenes.join(' ')})`);
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
for (const s of opt.scenes) {
  if (!fs.existsSync(path.join(siteDir, 'scenes', `${s}.json`))) die(`scene '${s}': ${path.relative(root, siteDir)}/scenes/${s}.json is missing (scenes: ${
    fs.readdirSync(path.join(siteDir, 'scenes')).filter(f => f.endsWith('.json') && f !== 'index.json').map(f => f.replace(/\.json$/, '')).join(' ')})`);
}
if (!fs.existsSync(CHROMIUM)) die(`no chromium at ${CHROMIUM}: apt-get install chromium (scripts/install-deps.sh), or set CHROMIUM=/path/to/chromium`);
let chromium;
try { ({ chromium } = createRequire(path.join(root, 'web', 'package.json'))('playwright-core')); } catch (e) {
  die(`playwright-core is not installed in web/node_modules: run make web-deps (npm ci in web/) (${e.message.split('\n')[0]})`);
}

// ---- in the page, before its scripts: watch the simulation worker's messages -------------------
// Wraps window.Worker (the page creates one, src/worker.js) to record, after `play`: each frame's
// profile, step and time, the `end` and `error` messages; and counts requestAnimationFrame
// callbacks. Read back as window.__bench (plain numbers only).
function instrument() {
  const B = { playAt: null, endAt: null, endTime: null, stepAtPlay: null, timeAtPlay: null,
              frames: 0, lastStep: 0, lastTime: 0, lastFrameAt: null, profiles: [], stepProfiles: [], errors: [], draws: 0,
              drawsAtPlay: null, drawsAtEnd: null, playing: false };
  const pageDraws = () => { try { const n = window.suctionDebug.snapshot().render.draws; return typeof n === 'number' ? n : null; } catch { return null; } };
  window.__bench = B;
  // the bench's names (the native CLI's stage names) of the module's profile() fields
  const keys = { total: 'totalMs', free_motion: 'freeMotionMs', collision: 'collisionMs', cavities: 'cavitiesMs',
                 compliance: 'complianceMs', solve: 'solveMs', leak: 'leakMs', correction: 'correctionMs',
                 constraints: 'constraints', contacts: 'contacts', cavities_count: 'cavities', iterations: 'iterations' };
  const Native = window.Worker;
  window.Worker = class extends Native {
    constructor(...a) {
      super(...a);
      this.addEventListener('message', (ev) => {
        const m = ev.data || {};
        if (m.type === 'frame') {
          B.lastStep = m.step; B.lastTime = m.time;
          if (B.playAt === null || m.step <= B.stepAtPlay) return;   // before play, or nothing stepped yet
          B.frames++; B.lastFrameAt = performance.now();
          const p = m.profile || {}, r = { step: m.step, time: m.time, n: (m.samples || []).length };
          for (const [k, from] of Object.entries(keys)) if (typeof p[from] === 'number') r[k] = p[from];
          B.profiles.push(r);
          for (const smp of m.samples || []) {
            if (smp.step > B.stepAtPlay && smp.benchProfile && typeof smp.benchProfile.total === 'number') B.stepProfiles.push(smp.benchProfile);
          }
        } else if (m.type === 'end') {
          if (B.endAt === null && B.playAt !== null) { B.endAt = performance.now(); B.endTime = m.time; B.drawsAtEnd = pageDraws(); }
        } else if (m.type === 'error') {
          B.errors.push(`${m.where}: ${m.message}`);
        } else if (m.type === 'status') {
          B.playing = !!m.playing;
        }
      });
    }
    postMessage(msg, ...rest) {
      if (msg && msg.type === 'play' && B.playAt === null) {
        B.playAt = performance.now(); B.stepAtPlay = B.lastStep; B.timeAtPlay = B.lastTime; B.drawsAtPlay = pageDraws();
      }
      return super.postMessage(msg, ...rest);
    }
  };
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (cb) => raf((t) => { if (B.playAt !== null && B.endAt === null) B.draws++; return cb(t); });
}

// ---- in the worker: every step's profile ------------------------------------------------------
// The frames carry the profile of one step each (the last before the frame), and that step is
// more often a long one (it is the one that crosses the batch's 100 ms budget), so their mean is
// biased high. Appended to src/sim_host.js as the bench serves it (the files in build/web are not
// touched): after each step the worker also reads profile() into that step's plot sample, which
// the frames already carry for every step. Without it (--sampled, or if SimHost changed shape)
// only the frames' profiles are used.
const SIM_HOST_PATCH = `
;(() => {
  const P = typeof SimHost === 'function' && SimHost.prototype;
  if (!P || typeof P.recordSample !== 'function') return;
  const record = P.recordSample;
  P.recordSample = function (...a) {
    const r = record.apply(this, a);
    try {
      const s = this.samples && this.samples[this.samples.length - 1], p = this.sim.profile();
      if (s && p) s.benchProfile = { total: p.totalMs, free_motion: p.freeMotionMs, collision: p.collisionMs, cavities: p.cavitiesMs,
        compliance: p.complianceMs, solve: p.solveMs, leak: p.leakMs, correction: p.correctionMs, constraints: p.constraints };
    } catch { /* no profile: the frames' samples are used */ }
    return r;
  };
})();
`;

// ---- one scene -----------------------------------------------------------------------------------
const sleep = (ms) => new Promise(r => setTimeout(r, ms));
const mean = (a) => a.length ? a.reduce((x, y) => x + y, 0) / a.length : null;

async function runScene(context, base, scene, timeoutS, quality) {
  const page = await context.newPage();
  page.setDefaultTimeout(120000);
  const pageErrors = [];
  page.on('pageerror', e => pageErrors.push(String(e && e.message || e)));
  page.on('console', m => { if (process.env.BENCH_VERBOSE) log(`console ${m.type()}: ${m.text()}`); });
  const res = { scene, quality, complete: false, partial: false, error: null };
  try {
    await page.goto(`${base}?scene=${encodeURIComponent(scene)}&quality=${quality}${opt.threads ? `&threads=${opt.threads}` : ''}` +
                    `${opt.warmup !== null ? `&warmup=${opt.warmup}` : ''}`,
                    { waitUntil: 'load' });
    if (!await page.evaluate(() => window.crossOriginIsolated === true)) throw new Error('the page is not cross-origin isolated (serve.mjs headers?)');
    await page.waitForFunction(() => { const s = window.suctionDebug.snapshot(); return (s.loaded && s.frames > 0) || s.errors.some(e => !e.startsWith('backend')); },
                               null, { timeout: 180000, polling: 250 });
    let s = await page.evaluate(() => { const s = window.suctionDebug.snapshot(); return { loaded: s.loaded, scene: s.scene, errors: s.errors, backend: s.backend,
                                                                              duration: s.duration, version: s.version, quality: s.quality, dt: s.dt,
                                                                              simThreads: s.simThreads }; });
    if (s.errors.length) throw new Error(`loading: ${s.errors.join(' | ')}`);
    if (s.scene !== scene) throw new Error(`the page loaded '${s.scene}', not '${scene}'`);
    if (s.backend !== 'wasm') throw new Error(`backend is ${s.backend}, not wasm`);
    if (s.quality !== quality) throw new Error(`the page runs at ${s.quality} quality, not ${quality}`);
    res.duration = s.duration; res.version = s.version; res.dt = s.dt; res.simThreads = s.simThreads;
    if (opt.threads && s.simThreads !== opt.threads) throw new Error(`the page runs the simulation on ${s.simThreads} threads, not ${opt.threads}`);
    // the warm-up after the load (web/src/sim_host.js): play once it has ended
    if (opt.warmup !== 0) {
      await page.waitForFunction(() => window.suctionDebug.snapshot().warm !== null, null, { timeout: 60000, polling: 100 });
      res.warmup = await page.evaluate(() => window.suctionDebug.snapshot().warm);
    } else res.warmup = null;
    // the speed, then play (messages reach the worker in this order)
    await page.selectOption('#speed-mode', opt.mode);
    await page.fill('#speed', String(opt.speed));
    await page.dispatchEvent('#speed', 'change');
    await page.waitForTimeout(200);
    log(`${scene}: play (duration ${s.duration} s, speed ${opt.mode === 'realtime' ? `× real time ${opt.speed}` : `${opt.speed} steps / frame`}, limit ${timeoutS} s)`);
    await page.click('#play');
    const limitAt = Date.now() + timeoutS * 1000;
    let lastReport = Date.now(), b;
    for (;;) {
      await sleep(500);
      b = await page.evaluate(() => { const B = window.__bench; return { endAt: B.endAt, errors: B.errors, playing: B.playing, lastTime: B.lastTime,
                                                                          lastStep: B.lastStep, playAt: B.playAt, now: performance.now() }; });
      if (b.endAt !== null) { res.complete = true; break; }
      if (b.errors.length) throw new Error(b.errors.join(' | '));
      if (pageErrors.length) throw new Error(`page error: ${pageErrors.join(' | ')}`);
      if (Date.now() > limitAt) { res.partial = true; break; }
      if (Date.now() - lastReport > 30000) {
        lastReport = Date.now();
        log(`${scene}: t = ${b.lastTime.toFixed(3)} s of ${s.duration} (step ${b.lastStep}), ${((b.now - b.playAt) / 1000).toFixed(0)} s wall`);
      }
    }
    if (res.partial) await page.click('#play').catch(() => {});   // pause
    else {  // the frame of the last step follows `end` once the page has drawn the one before
      await page.waitForFunction(() => window.__bench.lastTime >= window.__bench.endTime, null, { timeout: 10000, polling: 100 }).catch(() => {});
    }
    const B = await page.evaluate(() => { const B = window.__bench; return { ...B, now: performance.now() }; });
    // complete: play -> `end`; partial: play -> the last frame received, and the time it shows
    const stop = res.complete ? B.endAt : (B.lastFrameAt ?? B.now);
    const endTime = res.complete ? B.endTime : B.lastTime;
    res.wall_s = (stop - B.playAt) / 1000;
    res.sim_s = endTime - B.timeAtPlay;
    res.rtf = res.wall_s > 0 ? res.sim_s / res.wall_s : null;
    res.steps = B.lastStep - B.stepAtPlay;
    res.wall_ms_per_step = res.steps > 0 ? 1000 * res.wall_s / res.steps : null;
    const stats = (profiles) => {
      const tot = profiles.map(p => p.total).filter(x => typeof x === 'number');
      const st = { mean: mean(tot), max: tot.length ? Math.max(...tot) : null, count: tot.length, stages_mean: {} };
      for (const k of STAGES) { const v = profiles.map(p => p[k]).filter(x => typeof x === 'number'); if (v.length) st.stages_mean[k] = mean(v); }
      st.mean_constraints = mean(profiles.map(p => p.constraints).filter(x => typeof x === 'number'));
      return st;
    };
    res.frame_profiles = stats(B.profiles);     // one per frame: what the timing panel showed
    res.step_profiles = stats(B.stepProfiles);  // every step (the patch above)
    const every = res.step_profiles.count > 0 && res.step_profiles.count >= res.steps - 1;
    const use = every ? res.step_profiles : res.frame_profiles;
    res.step_ms = { mean: use.mean, max: use.max, samples: use.count, every_step: every };
    res.stages_mean_ms = use.stages_mean;
    res.mean_constraints = use.mean_constraints;
    res.frames = B.frames;
    res.frames_per_s = res.wall_s > 0 ? B.frames / res.wall_s : null;
    res.animation_frames_per_s = res.wall_s > 0 ? B.draws / res.wall_s : null;
    const drawsAtStop = res.complete ? B.drawsAtEnd : (await page.evaluate(() => { try { return window.suctionDebug.snapshot().render.draws; } catch { return null; } }));
    res.draws_per_s = res.wall_s > 0 && typeof B.drawsAtPlay === 'number' && typeof drawsAtStop === 'number'
      ? (drawsAtStop - B.drawsAtPlay) / res.wall_s : res.animation_frames_per_s;
    res.steps_per_frame = B.frames > 0 ? res.steps / B.frames : null;
    log(`${scene}: ${res.complete ? 'end' : `LIMIT (${timeoutS} s)`}: ${res.sim_s.toFixed(3)} s simulated in ${res.wall_s.toFixed(1)} s, RTF ${res.rtf.toFixed(3)}`);
  } catch (e) {
    res.error = String(e && e.message || e).split('\n')[0];
    log(`${scene}: FAILED: ${res.error}`);
  } finally {
    await page.close().catch(() => {});
  }
  return res;
}

// ---- main ------------------------------------------------------------------------------------------
const f = (x, d) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(d));

function table(results) {
  const lines = [];
  lines.push('| scene | quality | warm-up | dt ms | simulated s | wall s | RTF | steps | wall ms/step | step ms mean | step ms worst | frames/s | draws/s | note |');
  lines.push('|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const r of results) {
    if (r.error) { lines.push(`| ${r.scene} | ${r.quality} | | | | | | | | | | | | FAILED: ${r.error.replace(/\|/g, '/')} |`); continue; }
    const warm = r.warmup ? `${r.warmup.steps} steps, ${f(r.warmup.ms / 1000, 2)} s${r.warmup.complete ? '' : ' (cut)'}` : 'none';
    const note = r.complete ? (r.step_ms.every_step ? `every step (${r.step_ms.samples})` : `${r.step_ms.samples} frames' profiles (sampled)`) :
      `PARTIAL: stopped at the ${r.limit_s} s limit, t = ${f(r.sim_s, 2)} of ${r.duration} s`;
    lines.push(`| ${r.scene} | ${r.quality} | ${warm} | ${f(r.dt * 1e3, 0)} | ${f(r.sim_s, 3)} | ${f(r.wall_s, 1)} | ${f(r.rtf, 3)} | ${r.steps} | ${f(r.wall_ms_per_step, 1)} | ` +
               `${f(r.step_ms.mean, 1)} | ${f(r.step_ms.max, 1)} | ${f(r.frames_per_s, 1)} | ${f(r.draws_per_s, 1)} | ${note} |`);
  }
  const ok = results.filter(r => !r.error && Object.keys(r.stages_mean_ms).length);
  if (ok.length) {
    lines.push('', 'Per stage, mean ms per step of profile() (the numbers of the page\'s "time per step" panel):', '');
    lines.push('| scene | quality | rows | free motion | collision | cavities | compliance | solve | other | total |');
    lines.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of ok) {
      const m = r.stages_mean_ms;
      lines.push(`| ${r.scene} | ${r.quality} | ${f(r.mean_constraints, 1)} | ${f(m.free_motion, 2)} | ${f(m.collision, 2)} | ${f(m.cavities, 2)} | ` +
                 `${f(m.compliance, 2)} | ${f(m.solve, 2)} | ${f((m.leak || 0) + (m.correction || 0), 2)} | ${f(r.step_ms.mean, 2)} |`);
    }
  }
  return lines.join('\n');
}

async function main() {
  let chromiumVersion = '';
  try { chromiumVersion = execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8', timeout: 30000, stdio: ['ignore', 'pipe', 'ignore'] }).trim(); } catch { chromiumVersion = CHROMIUM; }
  const { child: server, base } = await startServe(siteDir);
  log(`server at ${base}; ${chromiumVersion}; ${os.cpus().length} cores, load average ${os.loadavg().map(x => x.toFixed(2)).join(' ')}`);
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'suction-rtf-'));
  const results = [];
  let context;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM, headless: true, viewport: { width: 1280, height: 800 },
      args: [...CHROMIUM_ARGS],
      timeout: 120000,
    });
    await context.addInitScript(instrument);
    if (!opt.sampled) {
      await context.route(`${base}src/sim_host.js`, async (route) => {
        const resp = await route.fetch();
        route.fulfill({ response: resp, body: (await resp.text()) + SIM_HOST_PATCH });
      });
    }
    for (const p of context.pages()) await p.close().catch(() => {});
    for (const quality of opt.qualities) {
      for (const scene of opt.scenes) {
        const limit = opt.timeouts[scene] ?? opt.timeout;
        const r = await runScene(context, base, scene, limit, quality);
        r.limit_s = limit;
        results.push(r);
      }
    }
  } finally {
    if (context) await context.close().catch(() => {});
    server.kill('SIGTERM');
    fs.rmSync(userDataDir, { recursive: true, force: true });
  }
  const threads = [...new Set(results.map(r => r.simThreads).filter(n => n))].join('/') || '?';
  const head = `Browser (${chromiumVersion}, headless, SwiftShader WebGL; node ${process.version}; ${os.cpus().length} cores; ` +
    `simulation on ${threads} thread(s); ` +
    `${new Date().toISOString().slice(0, 10)}); speed ${opt.mode === 'realtime' ? `× real time ${opt.speed}` : `${opt.speed} steps / frame`}; ` +
    'each scene from t = 0 to its duration:';
  console.log(`\n${head}\n\n${table(results)}`);
  if (opt.json) {
    fs.mkdirSync(path.dirname(path.resolve(opt.json)), { recursive: true });
    fs.writeFileSync(opt.json, JSON.stringify({ date: new Date().toISOString(), chromium: chromiumVersion, node: process.version,
      cores: os.cpus().length, threads: opt.threads, mode: opt.mode, speed: opt.speed, results }, null, 1) + '\n');
    log(`wrote ${opt.json}`);
  }
  return results.every(r => !r.error) ? 0 : 1;
}

main().then(code => process.exit(code), e => { console.error(`browser_rtf: ${e && e.stack || e}`); process.exit(1); });
