#!/usr/bin/env node
// End-to-end test of the browser front end: serves build/web with scripts/serve.mjs on a free
// port, drives Debian's chromium (headless, SwiftShader WebGL) with playwright-core, and checks
// that the real wasm simulator runs, sucks, and can be dragged; then a lesson played through
// (?lesson=why_it_sticks), every other lesson's steps played to their pauses, each pause compared
// with its event in the native CLI's CSV, the weight drawn (rigid_lift), the phase panel after the
// cup has left (air_tunnel one_hole), a lesson started and played with the keyboard only, and a phone
// (390 x 844, touch emulation): the narrow layout, one-finger orbit, pinch zoom, a finger's drag
// of the cup. Run: make test-web (or `node tests/web/e2e.mjs` after `make web`).
// Environment:
//   SCENE=name        scene to load (default: ground if scenes/ground.json exists, else default)
//   BACKEND=mock      run against the JS mock instead of wasm (development only, on a site built by
//                     `node web/build.mjs --with-mock`; never in make test)
//   REQUIRE_SUCTION=1/0  force / waive the "a cavity goes below ambient" check (default: on when
//                     the scene is ground and scenes/ground.json exists; otherwise checked only
//                     when the scene has cavities)
//   E2E_MIN_DP        how far below ambient (Pa) counts as suction (default 1000)
//   E2E_TIMEOUT_S     overall limit (default 900: about 260 s here alone, 360 s beside a busy loop)
//   E2E_LESSONS=first play only why_it_sticks (default all: every lesson's every step, each pause
//                     compared with the event in the native CLI's CSV of the same scene)
//   SUCTION=path      the native CLI (default build/native/native/suction; missing: a failed check)
//   E2E_ALLOW_ERRORS=regex  page errors matching it are logged, not failed (development only,
//                     for a known bug elsewhere; never set by make test)
// Screenshots and a JSON summary go to build/test-output/web/.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { startServe, CHROMIUM_ARGS } from '../../scripts/web_harness.mjs';
import { playStep, cliEvent, comparePause } from '../../web/tools/lesson_check.mjs';
import { stepOverrides } from '../../web/src/lesson_format.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const outDir = path.join(root, 'build', 'test-output', 'web');
const siteDir = path.join(root, 'build', 'web');
const require = createRequire(path.join(root, 'web', 'package.json'));
const hasGround = fs.existsSync(path.join(root, 'scenes', 'ground.json'));
const SCENE = process.env.SCENE || (hasGround ? 'ground' : 'default');
const BACKEND = process.env.BACKEND === 'mock' ? 'mock' : 'wasm';
const REQUIRE_SUCTION = process.env.REQUIRE_SUCTION !== undefined ? process.env.REQUIRE_SUCTION === '1'
  : (SCENE === 'ground' && hasGround);
const TIMEOUT_S = Number(process.env.E2E_TIMEOUT_S || 900);
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
// the native CLI whose CSV each lesson step's pause is compared with (make test builds it first)
const CLI = process.env.SUCTION || path.join(root, 'build', 'native', 'native', 'suction');
// which lessons are played through and compared with the CLI: every one (default), or only
// why_it_sticks (E2E_LESSONS=first: about 2 minutes less on a 2-core machine)
const E2E_LESSONS = process.env.E2E_LESSONS || 'all';

const t0 = Date.now();
const log = (...a) => console.log(`[e2e ${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...a);
const summary = { scene: SCENE, backend: BACKEND, requireSuction: REQUIRE_SUCTION, checks: [], screenshots: [] };
let failed = false;
function check(ok, what, detail = '') {
  summary.checks.push({ ok: !!ok, what, detail });
  log(`${ok ? 'ok  ' : 'FAIL'} ${what}${detail ? ` (${detail})` : ''}`);
  if (!ok) failed = true;
  return !!ok;
}
class Fatal extends Error {}
function must(ok, what, detail) { if (!check(ok, what, detail)) throw new Fatal(what); }
const sleep = (ms) => new Promise(r => setTimeout(r, ms));   // only as the interval of a polling loop
/** Waits for n animation frames of the page (its requestAnimationFrame callbacks) and returns
 *  { frames, seconds } (the window's length by the page's clock). A window the page's own frames
 *  measure, where one is needed at all (the page draws, sends the drag and moves the camera at
 *  its animation frames): on a loaded machine they come later, and so does what is waited for,
 *  where a fixed time in ms would end the window early (CI runs on a loaded 2-core machine). */
function animationFrames(pg, n) {
  return pg.evaluate((n) => new Promise((resolve) => {
    const t0 = performance.now();
    let k = 0;
    const tick = () => { if (++k >= n) resolve({ frames: k, seconds: (performance.now() - t0) / 1e3 }); else requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  }), n);
}


async function main() {
  fs.mkdirSync(outDir, { recursive: true });
  must(fs.existsSync(path.join(siteDir, 'index.html')), 'build/web exists', 'run make web');
  if (BACKEND === 'wasm') {
    const wasm = fs.existsSync(path.join(siteDir, 'wasm')) ? fs.readdirSync(path.join(siteDir, 'wasm')) : [];
    must(wasm.some(f => f.endsWith('.wasm')), 'build/web/wasm has the wasm module', `found: ${wasm.join(' ') || 'nothing'}; run make wasm-web web`);
  } else log('WARNING: BACKEND=mock: the JS mock, not the simulator, is tested');
  must(fs.existsSync(CHROMIUM), `chromium at ${CHROMIUM}`, 'apt-get install chromium (scripts/install-deps.sh)');
  const { chromium } = require('playwright-core');

  const { child: server, base } = await startServe(siteDir);
  log(`server at ${base}`);
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'suction-e2e-'));
  let context;
  try {
    // the server's headers, checked directly
    const r = await fetch(base);
    check(r.headers.get('cross-origin-opener-policy') === 'same-origin' && r.headers.get('cross-origin-embedder-policy') === 'require-corp',
          'server sends COOP/COEP');
    const esc = await fetch(`${base}..%2f..%2fMakefile`);
    check(esc.status === 403 || esc.status === 404, 'server refuses paths outside build/web', `HTTP ${esc.status}`);

    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM, headless: true, viewport: { width: 1280, height: 800 },
      args: [...CHROMIUM_ARGS],
      timeout: 120000,
    });
    const page = context.pages()[0] || await context.newPage();
    page.setDefaultTimeout(120000);
    const consoleErrors = [], pageErrors = [];
    page.on('console', m => {
      if (m.type() === 'error') consoleErrors.push(m.text());
      if (process.env.E2E_VERBOSE) log('console:', m.type(), m.text());
    });
    page.on('pageerror', e => pageErrors.push(String(e && e.stack || e)));
    page.on('worker', w => log(`worker started: ${w.url().replace(base, '')}`));

    const url = `${base}?scene=${encodeURIComponent(SCENE)}${BACKEND === 'mock' ? '&backend=mock' : ''}`;
    log(`open ${url}`);
    await page.goto(url, { waitUntil: 'load' });
    const S = () => page.evaluate(() => window.suctionDebug.snapshot());
    must(await page.evaluate(() => window.crossOriginIsolated === true), 'crossOriginIsolated === true');

    // the scene loads (or an error is shown)
    await page.waitForFunction(() => { const s = window.suctionDebug.snapshot(); return (s.loaded && s.frames > 0) || s.errors.some(e => !e.startsWith('backend')); },
                               null, { timeout: 180000, polling: 250 });
    let s = await S();
    const allowed = process.env.E2E_ALLOW_ERRORS ? new RegExp(process.env.E2E_ALLOW_ERRORS) : null;
    const realErrors = (st) => st.errors.filter(e => !e.startsWith('backend:') && !(allowed && allowed.test(e)));
    must(realErrors(s).length === 0, 'the page loads the scene without errors', realErrors(s).join(' | '));
    check(s.backend === BACKEND, `backend is ${BACKEND}`, `${s.backend} ${s.module || ''} ${s.version || ''}`);
    check(s.workerCrossOriginIsolated === true, 'the worker is cross-origin isolated (wasm threads possible)');
    if (BACKEND === 'wasm') {
      const cores = await page.evaluate(() => navigator.hardwareConcurrency || 1);
      check(s.simThreads === Math.max(1, Math.min(4, cores)), 'the compliance runs on min(4, cores) threads',
            `${s.simThreads} threads, ${cores} cores`);
    }
    must(s.scene === SCENE, `scene '${SCENE}' loaded`, `got ${s.scene}; scenes: ${s.scenes.join(', ')}`);
    check(s.scenes.length >= 2 && s.scenes.includes('default'), 'the scene picker lists every scene', s.scenes.join(', '));
    const optionCount = await page.locator('#scene option').count();
    check(optionCount === s.scenes.length, 'the scene picker has one option per scene', `${optionCount}`);
    summary.duration = s.duration; summary.pAtm = s.pAtm;
    // quality levels: the page opens at interactive; the selector rebuilds at reference and back
    check(s.quality === 'interactive', 'the page opens at interactive quality', `${s.quality}, dt ${s.dt}`);
    const dtInteractive = s.dt;
    await page.selectOption('#quality', 'reference');
    await page.waitForFunction(() => window.suctionDebug.snapshot().quality === 'reference', null, { timeout: 60000, polling: 100 });
    s = await S();
    check(s.quality === 'reference' && s.step === 0 && s.dt <= dtInteractive, 'the quality selector rebuilds the scene at reference quality',
          `dt ${s.dt} (interactive ${dtInteractive}), step ${s.step}`);
    // the rebuilt scene's first frame from the worker, then two animation frames: the view draws
    // a new frame at the next one (it asks for a drawing), so the picture shows it
    const framesBefore = s.frames;
    await page.selectOption('#quality', 'interactive');
    await page.waitForFunction((f0) => { const x = window.suctionDebug.snapshot(); return x.quality === 'interactive' && x.loaded && x.frames > f0; },
                               framesBefore, { timeout: 60000, polling: 100 });
    await animationFrames(page, 2);
    s = await S();
    summary.quality = s.quality; summary.dt = s.dt;
    await shot(page, 'loaded');
    const checksum0 = s.positionsChecksum;
    {
      const m = await meterPlacement(page);
      check(m.ok, 'the frame-rate meter lies in the 3D view, over neither the header nor a control', JSON.stringify(m));
    }

    // the controls panel is lil-gui's: its "wireframe" toggle (a lil-gui boolean controller,
    // checkbox #show-wire) turns every body's material to wireframe and back
    check(await page.locator('#controls .lil-gui').count() > 0, 'the controls panel is a lil-gui panel');
    check(!s.view.wireframe && !s.controls.show.wireframe, 'the bodies start solid');
    await page.click('#show-wire');
    await page.waitForFunction(() => window.suctionDebug.snapshot().view.wireframe, null, { timeout: 10000, polling: 100 }).catch(() => {});
    s = await S();
    check(s.view.wireframe && s.controls.show.wireframe, 'the lil-gui wireframe toggle draws every body as wireframe',
          `view ${s.view.wireframe}, control ${s.controls.show.wireframe}`);
    await page.click('#show-wire');
    await page.waitForFunction(() => !window.suctionDebug.snapshot().view.wireframe, null, { timeout: 10000, polling: 100 }).catch(() => {});
    s = await S();
    check(!s.view.wireframe && !s.controls.show.wireframe, 'toggled again: solid bodies');

    // drawing: auto picks fast on a software renderer (SwiftShader here), and a paused page with
    // nothing changing draws about once a second, not at every animation frame
    s = await S();
    log(`WebGL renderer: ${s.render.glRenderer || '(unknown)'}; drawing ${s.render.quality} (${s.render.mode})`);
    check(s.render.mode === 'auto' && s.render.quality === (s.render.software ? 'fast' : 'full'),
          'drawing quality: fast exactly on a software renderer (?render=auto)',
          `${s.render.quality}, software ${s.render.software}, '${s.render.glRenderer}'`);
    const dpr = await page.evaluate(() => Math.min(2, window.devicePixelRatio || 1));
    check(s.render.antialias === (s.render.quality === 'full') &&
          s.render.pixelRatio === (s.render.quality === 'full' ? dpr : dpr / 2),
          'fast drawing: no antialiasing, half the pixels per side', `antialias ${s.render.antialias}, pixel ratio ${s.render.pixelRatio}`);
    // The window has to last (nothing happens to wait for): 180 animation frames, 3 s at 60 Hz,
    // counted by the page's requestAnimationFrame, since what is checked is that the page does
    // not draw at every animation frame. At most 5 drawings in 3 s, as before (the idle drawing
    // once a second, and some slack), in proportion where the window lasted longer by the page's
    // clock: a loaded machine's slower frames make a longer window, with more idle drawings.
    const draws0 = s.render.draws;
    const win = await animationFrames(page, 180);
    s = await S();
    const drawn = s.render.draws - draws0, most = Math.max(5, Math.floor(5 * win.seconds / 3));
    check(drawn <= most, 'a paused page with nothing changing draws at most about once a second',
          `${drawn} drawings in ${win.frames} animation frames, ${win.seconds.toFixed(2)} s (at most ${most})`);

    // play until a cavity goes below ambient (or the scene ends)
    // as fast as the machine allows, up to real time
    await page.selectOption('#speed-mode', 'realtime');
    await page.fill('#speed', process.env.E2E_SPEED || '1');
    await page.click('#play');
    await page.waitForFunction(() => window.suctionDebug.snapshot().step > 0, null, { timeout: 120000, polling: 200 });
    s = await S();
    check(s.step > 0, 'steps advance after play', `step ${s.step}`);
    // the page counts, per frame, cavities, cavity meshes, phases and the lowest pressure
    let shotBelow = false;
    const deadline = Date.now() + Math.max(60000, (TIMEOUT_S - 120) * 1000 - (Date.now() - t0));
    let lastStep = -1, stalled = Date.now();
    const minDp = Number(process.env.E2E_MIN_DP || 1000);
    const below = (st) => st.minPressureSeen !== null && st.minPressureSeen < st.pAtm - minDp;
    for (;;) {
      s = await S();
      if (below(s) && !shotBelow && s.cavities > 0) { await shot(page, 'suction'); shotBelow = true; }
      if (realErrors(s).length) break;
      if (below(s) && (shotBelow || s.cavities === 0) && s.phasesSeen.some(p => p === 'holding' || p === 'leaking')) break;
      if (!s.playing && s.step > 0 && s.time >= s.duration - 1e-9) break;   // the scene ended
      if (s.step !== lastStep) { lastStep = s.step; stalled = Date.now(); }
      if (Date.now() - stalled > 60000) { check(false, 'the simulation keeps stepping', `stuck at step ${s.step}`); break; }
      if (Date.now() > deadline) { log('time limit for the suction phase reached'); break; }
      await sleep(250);
    }
    const sawCavity = s.framesWithCavity > 0, minP = s.minPressureSeen;
    summary.minPressure = minP;
    summary.phases = s.phasesSeen;
    summary.stepReached = s.step; summary.timeReached = s.time; summary.rtf = s.rtf;
    log(`t = ${s.time.toFixed(3)} s, step ${s.step}, RTF ${s.rtf}, frames with cavities: ${s.framesWithCavity}, min P: ${minP}, phases: ${s.phasesSeen.join(' ')}`);
    check(realErrors(s).length === 0, 'no simulation error while playing', realErrors(s).join(' | '));
    check(s.positionsChecksum !== checksum0, 'positions changed while playing');
    if (sawCavity) {
      check(below(s), `a cavity pressure more than ${minDp} Pa below ambient in the plot data`, `min P = ${minP.toFixed(0)} Pa, P_atm = ${s.pAtm}`);
      check(s.framesWithCavityMesh === s.framesWithCavity, 'a cavity mesh is in the three.js scene whenever cavities > 0',
            `${s.framesWithCavityMesh} of ${s.framesWithCavity} frames`);
      check(s.phasesSeen.some(p => p === 'holding' || p === 'leaking'), 'the phase panel showed holding (or leaking)', s.phasesSeen.join(' '));
    } else if (REQUIRE_SUCTION) {
      check(false, 'a cavity pressure below ambient in the plot data',
            `scene '${SCENE}' produced NO cavity in ${s.step} steps (t = ${s.time.toFixed(3)} s): ` +
            'the suction physics (cavity detection + pressure constraint) is not in place or did not seal');
    } else {
      log(`note: scene '${SCENE}' produced no cavity (suction physics not in place yet?): checked stepping and positions only`);
    }
    if (!shotBelow) await shot(page, 'played');

    // accessibility: axe-core (web/node_modules, a dev dependency) over the whole page as played
    // (header, 3D view, phase panel, plots, P-V diagram, controls): no serious or critical violation
    {
      const found = await checkAccessibility(page, 'in the page');
      if (found) summary.axe = found;
    }

    // live tuning: with the cup holding, turn up the leak in the parameter panel and choose the
    // adiabatic gas law (a choice field, from the schema's enum; issue 51), and apply: the running
    // simulation takes both (no restart), from then on the air in the plots' samples grows at the
    // new rate (N, the amount: dN/dt = leak while sealed, whatever the law), and the air's
    // temperature moves, so that its chart appears
    s = await S();
    if (sawCavity && BACKEND === 'wasm') {
      // From t = 0 again, stepped one step at a time, paused, to t = 0.9 s, where ground's cup
      // holds (from about 0.8 s; it lets go at 1.35 s), so that where the change lands does not
      // depend on how busy the machine is: waiting for a phase while it played let the change
      // land at t = 0.46 s ('sealed' at ambient while still pressed: stop 53's CI failed there)
      // or as late as 1.30 s with a native build beside it (2 samples before the release).
      await page.click('#reset');
      await page.waitForFunction(() => window.suctionDebug.snapshot().time < 0.05, null, { timeout: 30000, polling: 50 });
      s = await pauseSettled(page, S);
      if (s.time > 0.05) {
        await page.click('#reset');
        await page.waitForFunction(() => window.suctionDebug.snapshot().time < 0.05, null, { timeout: 30000, polling: 50 });
        s = await S();
      }
      const tHold = 0.9;   // ground holds from about 0.8 s and lets go at 1.35 s
      for (let k = 0; k < 400 && s.time < tHold - 1e-9; ++k) { await stepOnce(page); s = await S(); }
      check(s.phase === 'holding' && !s.playing, 'stepped, paused, to where the cup holds', `t = ${s.time.toFixed(3)} s, phase ${s.phase}`);
      // the forces on the cup drawn in the view (off by default): the air's arrow carries
      // (P_atm − P)·A of the cavity and points down onto the ground, the hand's pulls up
      check(s.view.loads.every(a => !a.shown), 'the forces on the cup are not drawn by default');
      await page.check('#show-loads');
      await page.waitForFunction(() => window.suctionDebug.snapshot().view.loads.some(a => a.shown), null, { timeout: 10000, polling: 50 });
      s = await S();
      {
        const air = s.view.loads.find(a => a.kind === 'air'), hand = s.view.loads.find(a => a.kind === 'hand');
        const last = s.samples[s.samples.length - 1], cav = last && last.cavities.find(c => !c.dormant);
        const expected = cav ? (s.pAtm - cav.pressure) * cav.area : NaN;
        check(air && air.shown && Math.abs(air.value - expected) <= 1e-9 * expected && air.dir[2] < -0.99 &&
              new RegExp(`= ${expected.toFixed(1)} N`).test(air.label) && hand && hand.shown && hand.dir[2] > 0.9 && hand.value > 1,
              'forces drawn: the air\'s (P_atm − P)·A onto the ground and the hand\'s pull, with their values',
              JSON.stringify({ air, hand, expected }));
      }
      await page.uncheck('#show-loads');
      const leak = 0.05, stepBefore = s.step;
      // the leak field is a lil-gui text controller (data-key from src/scene_params.js); apply is its button
      const leakInput = '#controls .lil-gui input[data-key="leak_rate"]';
      must(await page.locator(leakInput).count() === 1, 'the controls panel has the leak rate field',
           `fields: ${s.controls.fields.map(f => f.key).join(', ') || 'none'}`);
      await page.fill(leakInput, String(leak));
      const lawSelect = '#controls .lil-gui select[data-key="law"]';
      must(await page.locator(lawSelect).count() === 1, 'the controls panel has the gas law choice',
           `fields: ${s.controls.fields.map(f => f.key).join(', ') || 'none'}`);
      await page.selectOption(lawSelect, 'adiabatic');
      await page.click('#controls .lil-gui button#apply');
      await page.waitForFunction(() => /changed live at t = .*leak_rate/.test(document.getElementById('banner-text').textContent),
                                 null, { timeout: 60000, polling: 100 });
      const note = await page.textContent('#banner-text');
      const tTuned = Number(/changed live at t = ([0-9.]+)/.exec(note)[1]);
      await page.click('#play');  // on from where it is
      s = await S();
      check(s.step >= stepBefore, 'a live change does not restart the scene', `step ${stepBefore} -> ${s.step}: ${note}`);
      const leakField = s.controls.fields.find(f => f.key === 'leak_rate');
      check(leakField && Number(leakField.value) === leak && Number(leakField.initial) === leak,
            'the lil-gui leak field holds the running value after the live change', JSON.stringify(leakField));
      await page.waitForFunction((t) => window.suctionDebug.snapshot().time > t + 0.15 || window.suctionDebug.snapshot().cavities === 0, tTuned,
                                 { timeout: 120000, polling: 100 });
      s = await S();
      const after = s.samples.filter(x => x.t > tTuned + 1e-9 && x.cavities.length === 1 && !x.cavities[0].dormant);
      if (after.length >= 3) {
        const a = after[0], b = after[after.length - 1];
        const rate = (b.cavities[0].air - a.cavities[0].air) / (b.t - a.t);
        check(Math.abs(rate - leak) < 0.02 * leak, 'after the live change the air grows at the new leak rate',
              `dN/dt = ${rate.toExponential(4)} J/s over ${(b.t - a.t).toFixed(2)} s, leak ${leak} J/s`);
        summary.liveLeakRate = rate;
      } else check(false, 'samples of the sealed cup after the live change', `${after.length} samples after t = ${tTuned}`);
      check(/gas\/law = "adiabatic"/.test(note), 'the gas law changed live with the leak', note);
      const warm = after.map(x => x.cavities[0]).filter(c => Math.abs(c.temperature - 293.15) > 0.01);
      check(warm.length > 0, 'with the adiabatic law the air\'s temperature moves (its volume and the leak\'s enthalpy)',
            `${warm.length} of ${after.length} samples off 293.15 K after t = ${tTuned}`);
      await page.waitForFunction(() => document.getElementById('plot-temperature') !== null, null, { timeout: 30000, polling: 200 });
      check(await page.locator('#plot-temperature').count() === 1, 'the temperature chart appears when the air\'s temperature moves');
      summary.adiabaticTemperatures = warm.length ? [Math.min(...warm.map(c => c.temperature)), Math.max(...warm.map(c => c.temperature))] : null;
    }

    // the plots (uPlot): paused, the cursor over the pressure plot; its legend reads the sample
    // under it (time and pressure, as plotted); a drag zooms (the CSV then holds the rows shown),
    // a double-click shows everything again; PNG export
    if (sawCavity) await checkPlots(page, S);

    // drag the cup by its handle with real mouse events
    s = await S();
    if (s.drivers.length === 0) {
      log(`note: scene '${SCENE}' has no driver: dragging not tested`);
    } else {
      // aimed at a cup that stands still: paused, the grab point is where the cup is when the
      // button goes down (playing, the handle moved away from it on a loaded machine between the
      // snapshot and the press, and the press orbited the camera); played once the drag is on
      s = await pauseSettled(page, S);
      await page.waitForFunction(() => window.suctionDebug.snapshot().grabPoint !== null, null, { timeout: 60000, polling: 200 });
      s = await S();
      const g = s.grabPoint, before = s.positionsChecksum, off0 = s.driverOffsets[0] || [0, 0, 0];
      log(`grab at (${g.x.toFixed(0)}, ${g.y.toFixed(0)})`);
      await page.mouse.move(g.x, g.y);
      await page.mouse.down();
      // one move per animation frame: the view sends the drag's target to the worker at each
      for (let i = 1; i <= 12; ++i) { await page.mouse.move(g.x + 3 * i, g.y - 6 * i); await animationFrames(page, 1); }
      const during = await S();
      check(during.dragging, 'pointer-down on the cup starts a drag');
      // play (pressed in the page: the mouse holds the drag), past the scene's end if it is
      // there; held until the worker has taken the drag (the driver's offset moves)
      await page.evaluate(() => document.getElementById('play').click());
      await page.waitForFunction((o) => { const d = window.suctionDebug.snapshot().driverOffsets[0];
        return d && Math.hypot(d[0] - o[0], d[1] - o[1], d[2] - o[2]) > 0; }, off0, { timeout: 60000, polling: 50 })
        .catch(() => log('drag: the driver\'s offset did not move in 60 s while held'));
      await page.mouse.up();
      let moved = false, off = off0;
      for (let i = 0; i < 200 && !moved; ++i) {
        s = await S();
        off = s.driverOffsets[0] || off0;
        moved = Math.hypot(off[0] - off0[0], off[1] - off0[1], off[2] - off0[2]) > 1e-4 && s.positionsChecksum !== before;
        if (!moved && !s.playing) await page.click('#play');   // the scene may have reached its end: go on
        if (!moved) await sleep(300);
      }
      check(moved, 'dragging moved the driver offset and the positions', `offset ${off.map(v => v.toExponential(2)).join(', ')}`);
      summary.dragOffset = off;
      await shot(page, 'dragged');
    }
    s = await S();
    check(realErrors(s).length === 0, 'no error shown in the page', realErrors(s).join(' | '));
    check(consoleErrors.length === 0, 'no console error', consoleErrors.slice(0, 5).join(' | '));
    check(pageErrors.length === 0, 'no page error', pageErrors.slice(0, 5).join(' | '));
    await page.click('#play').catch(() => {});

    // a scene file of the user's with a mistyped key ("open…"): rejected by the real reader,
    // the banner names the key's JSON pointer and the key it resembles, as the CLI does
    if (BACKEND === 'wasm') {
      const doc = JSON.parse(fs.readFileSync(path.join(root, 'scenes', `${SCENE}.json`), 'utf8'));
      doc.settings = doc.settings || {};
      doc.settings.cavity = Object.assign({}, doc.settings.cavity, { leak_rat: 0.1 });
      await page.setInputFiles('#scene-file', { name: 'typo.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(doc)) });
      const shown = await page.waitForFunction(() => !document.getElementById('banner').hidden &&
        /leak_rat/.test(document.getElementById('banner-text').textContent), null, { timeout: 60000, polling: 200 })
        .then(() => page.textContent('#banner-text')).catch(() => '');
      check(shown.includes("/settings/cavity/leak_rat: unknown key; did you mean 'leak_rate'?"),
            'a scene file with a mistyped key is rejected with its pointer in the page', shown.slice(0, 200));
      s = await S();
      check(!s.loaded, 'the rejected scene is not loaded');
    }

    // the simulator's warnings reach the page as warnings (the amber banner), once per kind with
    // the step they first came at, not as errors: block_on_ground with a 300 ms step, where the
    // CLI warns that the block's contact penetrates 883 mm at step 1
    if (BACKEND === 'wasm' && s.scenes.includes('block_on_ground')) {
      await page.click('#banner-close');
      const errorsBefore = s.errors.length;
      await page.selectOption('#scene', 'block_on_ground');
      await page.waitForFunction(() => { const x = window.suctionDebug.snapshot(); return x.loaded && x.scene === 'block_on_ground'; },
                                 null, { timeout: 60000, polling: 100 });
      s = await pauseSettled(page, S);
      const dtInput = '#controls .lil-gui input[data-key="dt"]';
      must(await page.locator(dtInput).count() === 1, 'the controls panel has the time step field', `fields: ${s.controls.fields.map(f => f.key).join(', ')}`);
      await page.fill(dtInput, '300');   // the panel's unit: ms
      await page.click('#controls .lil-gui button#apply');
      await page.waitForFunction(() => /settings\/dt = 0\.3\b/.test(document.getElementById('banner-text').textContent), null, { timeout: 60000, polling: 100 })
        .catch(async () => log(`no note of the change; banner: ${await page.textContent('#banner-text')}; errors: ${(await S()).errors.join(' | ')}`));
      const noteLevel = (await S()).bannerLevel;
      await page.click('#play');
      await page.waitForFunction(() => { const x = window.suctionDebug.snapshot(); return x.warnings.length >= 2 || x.step >= 6; }, null,
                                 { timeout: 120000, polling: 100 });
      s = await pauseSettled(page, S);
      const text = await page.textContent('#banner-text');
      const lines = text.split('\n').filter(l => /^warning: /.test(l));
      log(`warnings: ${s.warnings.length} from the simulator; banner (${s.bannerLevel}): ${text.replace(/\n/g, ' | ').slice(0, 300)}`);
      check(noteLevel === 'info', 'the live change is a note (blue), not an error', `banner level ${noteLevel}`);
      check(s.warnings.length >= 1 && s.warnings.some(w => /penetrates/.test(w)) && s.bannerLevel === 'warning' &&
            lines.length === 1 && /^warning: step \d+ \(t = [0-9.]+ s\): .*penetrates/.test(lines[0]) &&
            (s.warnings.length === 1 || /and \d+ more steps? with the same warning/.test(lines[0])),
            'the simulator\'s warning is shown once, amber, with its step (and a count of the steps that repeated it)',
            `${s.warnings.length} warnings; ${lines.join(' | ').slice(0, 300)}`);
      check(s.errors.length === errorsBefore, 'a warning is not an error', s.errors.slice(errorsBefore).join(' | '));
      summary.warningShown = lines[0] || null;

      // share: the link of what is on screen (block_on_ground, its 300 ms step) reopens the same
      // scene with the same value: after reset and the same 3 steps, the same positions
      await page.click('#share');
      await page.waitForFunction(() => window.suctionDebug.snapshot().shareUrl !== null, null, { timeout: 10000, polling: 100 });
      s = await S();
      const shareUrl = s.shareUrl;
      check(/[?&]scene=block_on_ground\b/.test(shareUrl) && new URL(shareUrl).searchParams.getAll('set').includes('/settings/dt=0.3'),
            'the share link names the scene and the changed value', shareUrl);
      const stepN = async (pg, n) => {
        const SS = () => pg.evaluate(() => window.suctionDebug.snapshot());
        await pauseSettled(pg, SS);
        await pg.click('#reset');
        await pg.waitForFunction(() => window.suctionDebug.snapshot().step === 0, null, { timeout: 30000, polling: 50 });
        for (let k = 0; k < n; ++k) await stepOnce(pg);
        return SS();
      };
      const here = await stepN(page, 3);
      const page2 = await context.newPage();
      page2.on('pageerror', e => pageErrors.push(String(e && e.stack || e)));
      await page2.goto(shareUrl, { waitUntil: 'load' });
      await page2.waitForFunction(() => { const x = window.suctionDebug.snapshot();
                                          return x.loaded && x.scene === 'block_on_ground' && x.changed.length > 0; },
                                  null, { timeout: 60000, polling: 100 });
      const there = await stepN(page2, 3);
      check(there.dt === 0.3 && there.step === here.step && there.positionsChecksum === here.positionsChecksum,
            'the shared link reopens the scene with its value: the same positions after the same steps',
            `dt ${there.dt} / ${here.dt}, step ${there.step} / ${here.step}, checksum ${there.positionsChecksum} / ${here.positionsChecksum}`);
      // a link with a bad value is refused by its pointer, as a scene file's would be
      await page2.goto(new URL('?scene=ground&set=/settings/dt=abc&set=oops', shareUrl).toString(), { waitUntil: 'load' });
      const bad = await page2.waitForFunction(() => /\/settings\/dt/.test(document.getElementById('banner-text').textContent) &&
                                                    /set=oops/.test(document.getElementById('banner-text').textContent),
                                              null, { timeout: 60000, polling: 100 })
        .then(() => page2.textContent('#banner-text')).catch(async () => page2.textContent('#banner-text'));
      check(/\/settings\/dt = abc/.test(bad) && /set=oops: expected a JSON pointer/.test(bad),
            'a link with a bad value names it (the pointer, as a scene file\'s; a malformed entry)', bad.replace(/\n/g, ' | ').slice(0, 300));
      await page2.close();
    }

    // lessons (issue 50): ?lesson=why_it_sticks, predicted with the keyboard, played to each
    // step's event, the explanation's numbers those of the sample there; the share link of a
    // step; a bad lesson name
    if (BACKEND === 'wasm' && fs.existsSync(path.join(siteDir, 'lessons', 'why_it_sticks.json'))) await checkLessons(context, base);
    else log('note: no lessons in build/web (or BACKEND=mock): lessons not tested');

    // every other lesson played through, each step's pause compared with the CLI's CSV
    if (BACKEND === 'wasm' && fs.existsSync(path.join(siteDir, 'lessons', 'index.json'))) {
      if (E2E_LESSONS === 'first') log('note: E2E_LESSONS=first: only why_it_sticks is played through');
      else await checkEveryLesson(context, base);
    }

    // the weight drawn with the forces (rigid_lift's cube), and the phase panel counting the
    // hand's body's contacts (air_tunnel one_hole after the cup has left the block)
    if (BACKEND === 'wasm') await checkWeightAndPhase(context, base);

    // keyboard only: the lesson list opened, a lesson started and played with Tab, arrows, Space, Enter
    if (BACKEND === 'wasm' && fs.existsSync(path.join(siteDir, 'lessons', 'index.json'))) await checkKeyboard(context, base);

    // a phone: a narrow layout with the plots below the view; one finger orbits, two pinch, a finger drags the cup
    await checkTouch(chromium, base);
  } finally {
    if (context) await context.close().catch(() => {});
    server.kill('SIGTERM');
    fs.rmSync(userDataDir, { recursive: true, force: true });
  }
}

// axe-core over the page as it is now: no serious or critical violation (`where` names the
// state); returns every violation found, or null when axe-core is not installed (a failed check)
async function checkAccessibility(pg, where) {
  const axeFile = path.join(root, 'web', 'node_modules', 'axe-core', 'axe.min.js');
  if (!check(fs.existsSync(axeFile), 'axe-core is installed (web/package.json; make web-deps)', axeFile)) return null;
  await pg.addScriptTag({ content: fs.readFileSync(axeFile, 'utf8') });
  const found = await pg.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
    .map(v => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 4).map(n => n.target.join(' ')) })));
  const bad = found.filter(v => v.impact === 'serious' || v.impact === 'critical');
  check(bad.length === 0, `axe-core: no serious or critical accessibility violation ${where}`,
        bad.length ? JSON.stringify(bad) : `${found.length} minor or moderate: ${found.map(v => v.id).join(', ') || 'none'}`);
  return found;
}

// pauses and waits until the worker has taken it: the step stops moving (steps already in flight
// land first; a loaded machine took 5 more steps after the page said paused). Once the worker
// says paused, at most one frame is still to come (the steps it ran before, sent when the page
// acks the last frame, at its next animation frame); settled: no new frame and the same step
// over 15 animation frames (250 ms at 60 Hz, longer where the page's frames come slower).
// The button is pressed in the page, in the task that reads the page's state: pressed only while
// the page says playing, it pauses; it cannot turn into a play where the run ends in between (a
// click after a snapshot that said playing, once the scene's end had stopped it, played on).
async function pauseSettled(page, S) {
  let s;
  await page.evaluate(() => { if (window.suctionDebug.snapshot().playing) document.getElementById('play').click(); });
  await page.waitForFunction(() => !window.suctionDebug.snapshot().playing, null, { timeout: 30000, polling: 50 });
  let last = null;
  for (let i = 0; i < 300; ++i) {
    s = await S();
    if (last && s.step === last.step && s.frames === last.frames) break;
    last = s;
    await animationFrames(page, 15);
  }
  return s;
}

// one step of the paused page (its step button), returned when the step has landed
async function stepOnce(pg) {
  const before = await pg.evaluate(() => window.suctionDebug.snapshot().step);
  await pg.click('#step');
  await pg.waitForFunction((b) => window.suctionDebug.snapshot().step > b, before, { timeout: 30000, polling: 20 });
}

async function checkPlots(page, S) {
  // paused, the last frame landed
  let s = await pauseSettled(page, S);
  if (!check(!s.playing, 'paused for the plot checks')) return;
  // the plots' last redraw (at most 10 a second): every sample received is drawn
  await page.waitForFunction(() => { const p = window.suctionDebug.snapshot().plots; return p.samples > 0 && p.shown === p.samples; },
                             null, { timeout: 30000, polling: 50 }).catch(() => log('plots: not every sample drawn after 30 s'));
  await page.locator('#plot-pressure').scrollIntoViewIfNeeded();
  await plotAtRest(page, '#plot-pressure');
  s = await S();
  const P = s.plots, area = P.pressureArea;
  log(`plots: paused at t = ${s.time.toFixed(3)} s (playing ${s.playing}), ${P.samples} samples, span ${P.xMin} .. ${P.xMax}`);
  if (!check(area && P.samples > 0 && P.xMax > P.xMin, 'the uPlot plots are drawn', JSON.stringify(P))) return;
  check(P.series.some(x => /^P #\d+ \[kPa\]$/.test(x)) && P.series.includes('holding force [N]'), 'the plots show pressure per cavity and the holding force', P.series.join(', '));
  // a sample of the last ones with an active cavity: the cursor goes to its time
  const cands = s.samples.filter(x => x.cavities.some(c => !c.dormant));
  if (!check(cands.length > 0, 'samples with an active cavity to read back')) return;
  const sucking = cands.filter(x => x.cavities.some(c => !c.dormant && c.pressure < s.pAtm - 100));   // a reading that is not P_atm
  const pool = sucking.length ? sucking : cands;
  const target = pool[Math.floor(pool.length / 2)];
  const x = area.left + (target.t - P.xMin) / (P.xMax - P.xMin) * area.width, y = area.top + area.height / 2;
  await page.mouse.move(x - 20, y);
  await page.mouse.move(x, y, { steps: 4 });
  await legendReads(page, '#plot-pressure');
  s = await S();
  const legend = await page.$$eval('#plot-pressure .u-legend .u-series', rows => rows.map(r => ({
    label: (r.querySelector('.u-label') || {}).textContent || '', value: (r.querySelector('.u-value') || {}).textContent || '' })));
  const cur = s.plots.cursor;
  log(`plots: cursor at x = ${x.toFixed(0)} px for t = ${target.t}: ${JSON.stringify(cur)}, t = ${s.time.toFixed(3)} s, span ${s.plots.xMin} .. ${s.plots.xMax}`);
  const tRow = legend[0], pRow = legend.find(r => /^P #\d+/.test(r.label));
  if (!check(cur && tRow && pRow, 'the uPlot cursor is over the pressure plot', JSON.stringify({ cur, legend }))) return;
  const sample = s.samples.find(x => x.t === cur.t);
  const id = Number(/^P #(\d+)/.exec(pRow.label)[1]);
  const cav = sample && sample.cavities.find(c => c.id === id && !c.dormant);
  const tShown = Number(tRow.value), pShown = Number(pRow.value);
  check(sample && Math.abs(tShown - cur.t) <= 0.5e-4 + 1e-12 && Math.abs(cur.t - target.t) < 0.02 * (P.xMax - P.xMin),
        'the legend shows the time of the sample under the cursor', `legend t = ${tRow.value} s, sample t = ${cur.t}, aimed at ${target.t}`);
  check(cav && Math.abs(pShown - cav.pressure / 1e3) <= 0.5e-3 + 1e-9,
        'the legend\'s pressure is that sample\'s pressure (within its 3 decimals)',
        `legend ${pRow.label} = ${pRow.value}, sample P = ${cav ? (cav.pressure / 1e3).toFixed(6) : 'none'} kPa at t = ${cur.t}`);
  summary.cursorReadout = { t: tRow.value, label: pRow.label, value: pRow.value, sampleKPa: cav ? cav.pressure / 1e3 : null };
  // the P-V diagram follows the cursor: its point for that cavity is the sample's P and V (the
  // values plotted), and its isotherm passes through the point (P·V = c)
  await page.waitForFunction((t) => { const p = window.suctionDebug.snapshot().pv; return p && p.t === t; }, cur.t,
                             { timeout: 10000, polling: 50 }).catch(() => {});
  s = await S();
  const pvPoint = s.pv && s.pv.points.find(q => q.id === id);
  check(s.pv && s.pv.t === cur.t && pvPoint && cav &&
        Math.abs(pvPoint.P - cav.pressure / 1e3) <= 1e-12 * pvPoint.P && Math.abs(pvPoint.V - cav.volume * 1e6) <= 1e-12 * pvPoint.V &&
        Math.abs(pvPoint.c - pvPoint.P * pvPoint.V) <= 1e-12 * pvPoint.c && pvPoint.track > 1,
        'the P–V point at the cursor\'s time is the plotted P and V, on its isotherm',
        `pv ${JSON.stringify(s.pv && { t: s.pv.t, point: pvPoint })}, sample P ${cav ? cav.pressure / 1e3 : 'none'} kPa, V ${cav ? cav.volume * 1e6 : 'none'} cm³`);
  check(await page.locator('#pv canvas').count() === 1 && /P .* kPa, V .* cm³/.test(await page.textContent('#pv-caption')),
        'the P–V diagram is drawn with its readout', await page.textContent('#pv-caption'));
  summary.pvPoint = pvPoint || null;
  // zoom: drag across the middle third of the pressure plot
  const x1 = area.left + area.width / 3, x2 = area.left + 2 * area.width / 3;
  const span = [P.xMin + (P.xMax - P.xMin) / 3, P.xMin + 2 * (P.xMax - P.xMin) / 3];
  await page.mouse.move(x1, y); await page.mouse.down(); await page.mouse.move(x2, y, { steps: 6 }); await page.mouse.up();
  await page.waitForFunction((w) => { const p = window.suctionDebug.snapshot().plots; return p.zoomed && p.xMax - p.xMin < 0.9 * w; },
                             P.xMax - P.xMin, { timeout: 30000, polling: 50 }).catch(() => log('plots: no zoom after 30 s'));
  s = await S();
  const tol = 0.02 * (P.xMax - P.xMin);
  check(s.plots.zoomed && Math.abs(s.plots.xMin - span[0]) < tol && Math.abs(s.plots.xMax - span[1]) < tol,
        'dragging across a plot zooms to that time span', `${s.plots.xMin} .. ${s.plots.xMax}, dragged ${span[0].toFixed(3)} .. ${span[1].toFixed(3)}`);
  const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 30000 }), page.click('#plot-csv')]);
  const csv = fs.readFileSync(await dl.path(), 'utf8').trim().split('\n');
  const times = csv.slice(1).map(l => Number(l.split(',')[0]));
  check(/^t \[s\],P #\d+ \[kPa\],/.test(csv[0]) && csv.length - 1 === s.plots.shown && times.length > 0 &&
        times.every(t => t >= s.plots.xMin - 1e-9 && t <= s.plots.xMax + 1e-9),
        'CSV export: the header with units, the time first, one row per sample shown', `${csv.length - 1} rows, ${s.plots.shown} shown; ${csv[0]}`);
  await page.dblclick('#plot-pressure .u-over');
  await page.waitForFunction(() => { const x = window.suctionDebug.snapshot(), p = x.plots;
    return !p.zoomed && p.xMin <= 0 && p.xMax >= x.duration - 1e-9; }, null, { timeout: 30000, polling: 50 }).catch(() => log('plots: still zoomed 30 s after the double-click'));
  s = await S();
  check(!s.plots.zoomed && s.plots.xMin <= 0 && s.plots.xMax >= s.duration - 1e-9, 'a double-click shows the whole time span again',
        `${s.plots.xMin} .. ${s.plots.xMax}`);
  const [png] = await Promise.all([page.waitForEvent('download', { timeout: 30000 }), page.click('#plot-png')]);
  const head = fs.readFileSync(await png.path()).subarray(0, 8);
  check(head.equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), 'PNG export: a PNG file', png.suggestedFilename());
  await page.mouse.move(5, 5);

  // compare: keep this run's curves, reset, run 5 steps: every chart has the kept run's series
  // beside the new ones, and the legend under the cursor reads both at one time
  const kept = s.samples.slice();
  await page.click('#plot-keep');
  await page.click('#reset');
  await page.waitForFunction(() => window.suctionDebug.snapshot().step === 0, null, { timeout: 30000, polling: 50 });
  for (let k = 0; k < 5; ++k) await stepOnce(page);
  await page.waitForFunction(() => { const p = window.suctionDebug.snapshot().plots;   // the charts' redraw with both runs
                                     return p.previous > 0 && p.series.includes('holding force (previous) [N]') && p.shown >= 5; },
                             null, { timeout: 30000, polling: 50 }).catch(() => {});
  s = await S();
  check(s.plots.previous > 0 && s.plots.series.includes('holding force (previous) [N]') && s.plots.series.some(x => /^P #\d+ \(previous\) \[kPa\]$/.test(x)),
        'keep: the kept run\'s curves are drawn beside the new run\'s', s.plots.series.join(', '));
  const tc = s.samples[s.samples.length - 1].t;
  const pa = s.plots.pressureArea;
  const fx = pa.left + (tc - s.plots.xMin) / (s.plots.xMax - s.plots.xMin) * pa.width;
  const fr = await chartBox(page, '#plot-force');
  await page.mouse.move(fr.x + (tc - s.plots.xMin) / (s.plots.xMax - s.plots.xMin) * fr.width - 15, fr.y + fr.height / 2);
  await page.mouse.move(fr.x + (tc - s.plots.xMin) / (s.plots.xMax - s.plots.xMin) * fr.width, fr.y + fr.height / 2, { steps: 3 });
  await legendReads(page, '#plot-force', ['holding force [N]', 'holding force (previous) [N]']);
  const rows = await page.$$eval('#plot-force .u-legend .u-series', r => r.map(x => ({
    label: (x.querySelector('.u-label') || {}).textContent || '', value: (x.querySelector('.u-value') || {}).textContent || '' })));
  const nowRow = rows.find(r => r.label === 'holding force [N]'), oldRow = rows.find(r => r.label === 'holding force (previous) [N]');
  const oldSample = kept.find(x => Math.abs(x.t - Number(rows[0].value)) < 1e-4);
  check(nowRow && oldRow && /\d/.test(nowRow.value) && /\d/.test(oldRow.value) && oldSample &&
        Math.abs(Number(oldRow.value) - oldSample.force) <= 0.5e-3 + 1e-6 * Math.abs(oldSample.force),
        'the legend reads both runs under the cursor', `${JSON.stringify(rows)}; kept sample ${oldSample ? oldSample.force : 'none'} N at t = ${rows[0] && rows[0].value} (aimed ${fx.toFixed(0)} px, t = ${tc})`);
  await page.mouse.move(5, 5);
  // back to the top, where the 3D view is (the drag below aims at it)
  await page.evaluate(() => { window.scrollTo(0, 0); for (const e of document.querySelectorAll('aside')) e.scrollTop = 0; });
}

/** Waits until the chart `sel` lies still in the window (its plotting area at the same place at
 *  two animation frames running, inside the viewport): after a scroll, before aiming at it. */
function plotAtRest(page, sel) {
  return page.waitForFunction((q) => {
    const e = document.querySelector(`${q} .u-over`);
    if (!e) return false;
    const r = e.getBoundingClientRect(), key = [r.left, r.top, r.width, r.height].join();
    const still = window.__e2eRect === key;
    window.__e2eRect = key;
    return still && r.top >= 0 && r.bottom <= window.innerHeight && r.width > 0;
  }, sel, { timeout: 30000, polling: 'raf' }).catch(() => log(`${sel}: not at rest in the window after 30 s`));
}

/** Scrolls the chart `sel` into view and returns its plotting area's box once it lies still.  A
 *  chart is built anew when its series change (a cavity appears: on ground at interactive quality
 *  at the 5th step, the very step the keep check stops at), so an element found a moment before may
 *  be gone: it is looked up again, up to five times. */
async function chartBox(page, sel) {
  for (let k = 0; ; ++k) {
    try {
      await page.locator(sel).scrollIntoViewIfNeeded({ timeout: 5000 });
      await plotAtRest(page, sel);
      const box = await page.locator(`${sel} .u-over`).boundingBox({ timeout: 5000 });
      if (box) return box;
    } catch (e) {
      if (k >= 4) throw e;
      log(`${sel}: rebuilt while aimed at (${String(e.message).split('\n')[0]}); again`);
    }
    await page.waitForTimeout(200);
  }
}

/** Waits until the legend of the chart `sel` reads a sample under the cursor: its time row shows
 *  a time (with `labels`: the cursor's, as the page's snapshot has it, over the pressure chart),
 *  and each series labelled in `labels` shows a number. */
function legendReads(page, sel, labels = null) {
  return page.waitForFunction(([q, want]) => {
    const rows = [...document.querySelectorAll(`${q} .u-legend .u-series`)].map(r => ({
      label: (r.querySelector('.u-label') || {}).textContent || '', value: (r.querySelector('.u-value') || {}).textContent || '' }));
    if (!rows.length || !/\d/.test(rows[0].value)) return false;
    if (want) return want.every(l => rows.some(r => r.label === l && /\d/.test(r.value)));
    const c = window.suctionDebug.snapshot().plots.cursor;
    return c !== null && Math.abs(Number(rows[0].value) - c.t) <= 0.5e-4 + 1e-12;
  }, [sel, labels], { timeout: 30000, polling: 50 }).catch(() => log(`${sel}: the legend did not read the cursor's sample in 30 s`));
}

// ---- lessons ----------------------------------------------------------------------------------------
/** What a lesson's quantity NAME should be at samples[i] (src/lesson_events.js, recomputed here
 *  from the page's samples), or undefined for one this test does not recompute. */
function expectedQuantity(name, samples, i, pAtm) {
  const inst = (x, q) => {
    const act = x.cavities.filter(c => !c.dormant);
    const low = act.reduce((a, c) => (a === null || c.pressure < a.pressure ? c : a), null);
    const P = low ? low.pressure : pAtm;
    return { t: x.t, step: x.step, pressure_kPa: P / 1e3, dp_kPa: (pAtm - P) / 1e3, p_atm_kPa: pAtm / 1e3,
             volume_cm3: low ? low.volume * 1e6 : 0, air_mJ: low ? low.air * 1e3 : 0, pv_mJ: low ? low.pressure * low.volume * 1e3 : 0,
             area_cm2: low ? low.area * 1e4 : 0, holding_force: x.force, hand_force: x.hand, cavities: act.length }[q];
  };
  const upTo = samples.slice(0, i + 1);
  const active = (x) => x.cavities.some(c => !c.dormant);
  let m;
  if ((m = /^at\.sealed\.(.+)$/.exec(name))) { const x = upTo.find(active); return x ? inst(x, m[1]) : undefined; }
  if ((m = /^last_cavity\.(.+)$/.exec(name))) { const x = upTo.filter(active).at(-1); return x ? inst(x, m[1]) : undefined; }
  if (name === 'max_holding_force') return Math.max(...upTo.map(x => x.force));
  if (name === 'max_hand_force') return Math.max(...upTo.map(x => x.hand));
  if (name === 'min_pressure_kPa') return Math.min(...upTo.filter(active).flatMap(x => x.cavities.filter(c => !c.dormant).map(c => c.pressure / 1e3)));
  return inst(samples[i], name);
}

/** A new page of `context` at `url`, its page errors and console errors gathered in `errors`. */
async function openPage(context, url, errors) {
  const pg = await context.newPage();
  pg.setDefaultTimeout(120000);
  pg.on('pageerror', e => errors.push(String(e && e.stack || e)));
  pg.on('console', m => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  await pg.goto(url, { waitUntil: 'load' });
  return pg;
}

async function checkLessons(context, base) {
  const { placeholders } = await import('../../web/src/lesson_text.js');
  const doc = JSON.parse(fs.readFileSync(path.join(siteDir, 'lessons', 'why_it_sticks.json'), 'utf8'));
  const errors = [];
  const open = (url) => openPage(context, url, errors);
  const tL = Date.now();
  const pg = await open(`${base}?lesson=why_it_sticks`);
  const S = () => pg.evaluate(() => window.suctionDebug.snapshot());
  const waitStatus = (statuses, timeout = 180000) => pg.waitForFunction((st) => { const x = window.suctionDebug.snapshot();
    return (x.lesson && st.includes(x.lesson.status)) || x.errors.length > 0; }, statuses, { timeout, polling: 100 });
  await waitStatus(['predict', 'ready']);
  let s = await S();
  must(s.errors.length === 0 && s.lesson && s.lesson.name === 'why_it_sticks', 'the lesson opens from ?lesson=why_it_sticks', s.errors.join(' | '));
  check(await pg.textContent('#lesson-title') === doc.title && /^step 1 of 3: /.test(await pg.textContent('#lesson-progress')) &&
        s.scene === doc.steps[0].scene && await pg.textContent('#lesson-watch') === doc.steps[0].watch,
        'the open lesson shows its title, its step k of n and what to watch, on its scene',
        `${await pg.textContent('#lesson-title')} | ${await pg.textContent('#lesson-progress')} | ${s.scene}`);
  check(s.controls.show.loads === true && s.view.show.loads === true, 'the lesson turns the forces on the cup on');
  // play waits for the prediction
  await pg.click('#lesson-play');
  s = await S();
  check(!s.playing && s.step === 0 && /prediction first/.test(await pg.textContent('#lesson-status')),
        'the lesson plays only once the prediction is made', `playing ${s.playing}, step ${s.step}, ${await pg.textContent('#lesson-status')}`);

  /** Predicts (choice j) with the keyboard, plays with it, waits for the pause at the step's event. */
  const predictAndPlay = async (k, j) => {
    const step = doc.steps[k];
    await pg.focus('#lesson-choice-0');
    for (let n = 0; n < j; ++n) await pg.keyboard.press('ArrowDown');   // a radio group: the arrows choose
    await pg.keyboard.press('Tab');
    const onSubmit = await pg.evaluate(() => document.activeElement && document.activeElement.id);
    await pg.keyboard.press('Enter');
    await pg.waitForFunction(() => { const l = window.suctionDebug.snapshot().lesson; return l && l.prediction !== null; }, null, { timeout: 10000, polling: 50 });
    const onPlay = await pg.evaluate(() => document.activeElement && document.activeElement.id);
    s = await S();
    check(onSubmit === 'lesson-predict-submit' && onPlay === 'lesson-play' && s.lesson.prediction.choice === j &&
          await pg.textContent('#lesson-prediction') === `Your prediction: ${step.predict.choices[j]}. Now play and see.`,
          `step ${k + 1}: the prediction is made with the keyboard (arrows, tab, enter), then play has the focus`,
          `focus ${onSubmit} -> ${onPlay}, ${JSON.stringify(s.lesson.prediction)}`);
    await pg.keyboard.press('Enter');   // ▶ play to ...
    await waitStatus(['done', 'missed'], 300000);
    // the frame of the step where it paused
    await pg.waitForFunction(() => { const x = window.suctionDebug.snapshot();
      return x.lesson.event && x.step === x.lesson.event.step && x.samples.some(y => y.step === x.lesson.event.step); }, null, { timeout: 60000, polling: 50 });
    s = await S();
    const ev = s.lesson.event, i = s.samples.findIndex(x => x.step === ev.step);
    return { step, ev, i, at: s.samples[i], before: s.samples[i - 1] };
  };
  /** The explanation's numbers are those of the sample at the pause (and of the run before it). */
  const checkExplained = async (k, i) => {
    const ph = placeholders(doc.steps[k].explain), shown = s.lesson.explain;
    let checked = 0;
    const bad = [];
    ph.forEach((p, j) => {
      const e = expectedQuantity(p.name, s.samples, i, s.pAtm), got = shown[j];
      if (e === undefined || !got) return;
      const want = e * p.scale, digits = (got.shown.split('.')[1] || '').length;
      ++checked;
      if (!(Math.abs(got.value - want) <= 1e-9 * Math.max(1, Math.abs(want)) && Math.abs(Number(got.shown) - want) <= 0.5 * 10 ** -digits + 1e-9)) {
        bad.push(`${p.name}: shown ${got.shown} (${got.value}), sample ${want}`);
      }
    });
    check(shown.length === ph.length && checked >= 3 && bad.length === 0 && !/\{/.test(await pg.textContent('#lesson-explain')),
          `step ${k + 1}: the explanation shows the numbers measured at the pause (${checked} of ${ph.length} recomputed from the samples)`,
          bad.join('; ') || shown.map(x => `${x.name}=${x.shown}`).join(' '));
  };

  /** The pause of step k within one step of its event in the CLI's CSV (same scene, values). */
  const versusCli = async (k, ev) => {
    const step = doc.steps[k];
    const c = await cliEvent({ cli: CLI, root, step, duration: s.duration, until: step.pause_at === 'end' ? null : ev.t + 2.5 * s.dt });
    const cmp = comparePause({ event: ev, dt: s.dt }, c);
    check(cmp.ok, `why_it_sticks step ${k + 1}: the pause at ${step.pause_at} is within one step of the event in the CLI's CSV`, cmp.text);
    (summary.lessonsVsCli = summary.lessonsVsCli || []).push({ lesson: 'why_it_sticks', step: k + 1, event: step.pause_at, page: { t: ev.t, step: ev.step },
                                                               cli: { t: c.t ?? null, step: c.step ?? null }, cliSeconds: c.seconds ?? null });
  };

  // step 1: pause at t=0.7 (pressed, held): the first step at or after 0.7 s
  let r = await predictAndPlay(0, doc.steps[0].predict.answer);
  check(s.lesson.status === 'done' && !s.playing && r.ev.name === 't=0.7' && s.time === r.at.t &&
        r.at.t >= 0.7 - 1e-9 && r.before.t < 0.7 - 1e-9 && s.lesson.result && s.lesson.result.right === true,
        'step 1 pauses at its event: the first step at or after t = 0.7 s', `t ${r.at.t} (before ${r.before && r.before.t}), step ${r.ev.step}, page t ${s.time}`);
  await checkExplained(0, r.i);
  summary.lesson = { step1: { t: r.at.t, phase: s.phase } };
  await versusCli(0, r.ev);

  // step 2 (next): pause at t=1.2, in the pull: the phase panel says holding there
  await pg.click('#lesson-next');
  await waitStatus(['predict']);
  r = await predictAndPlay(1, doc.steps[1].predict.answer);
  check(s.lesson.status === 'done' && r.ev.name === 't=1.2' && r.at.t >= 1.2 - 1e-9 && r.before.t < 1.2 - 1e-9 && s.phase === 'holding' &&
        s.time === r.at.t, 'step 2 pauses at t = 1.2 s, the cup holding', `t ${r.at.t}, phase ${s.phase}`);
  await checkExplained(1, r.i);
  summary.lesson.step2 = { t: r.at.t, phase: s.phase, explain: s.lesson.explain.map(x => `${x.name}=${x.shown}`) };
  await versusCli(1, r.ev);
  // the share link carries the lesson and the step, and reopens them
  await pg.click('#share');
  await pg.waitForFunction(() => window.suctionDebug.snapshot().shareUrl !== null, null, { timeout: 10000, polling: 50 });
  const url = (await S()).shareUrl;
  const q = new URL(url).searchParams;
  check(q.get('lesson') === 'why_it_sticks' && q.get('step') === '2' && !q.has('set'), 'the share link carries the lesson and its step', url);
  const pg2 = await open(url);
  await pg2.waitForFunction(() => { const x = window.suctionDebug.snapshot(); return (x.lesson && x.lesson.status === 'predict') || x.errors.length > 0; },
                            null, { timeout: 180000, polling: 100 });
  const s2 = await pg2.evaluate(() => window.suctionDebug.snapshot());
  check(s2.lesson && s2.lesson.step === 2 && s2.scene === 'ground' && /^step 2 of 3: /.test(await pg2.textContent('#lesson-progress')) && s2.errors.length === 0,
        'the shared link reopens the lesson at its step', `${s2.lesson && s2.lesson.step} ${await pg2.textContent('#lesson-progress')} ${s2.errors.join(' | ')}`);

  // the header's list of lessons (keyboard: it opens on the first lesson, Escape closes it);
  // the P-V lesson opened from it shows the P-V diagram
  await pg2.focus('#lessons-button');
  await pg2.keyboard.press('Enter');
  await pg2.waitForFunction(() => !document.getElementById('lesson-list').hidden, null, { timeout: 10000, polling: 50 });
  const items = await pg2.$$eval('#lesson-items button', b => b.map(x => x.dataset.lesson));
  const listed = JSON.parse(fs.readFileSync(path.join(siteDir, 'lessons', 'index.json'), 'utf8')).lessons.map(l => l.name);
  const focused = await pg2.evaluate(() => document.activeElement && document.activeElement.dataset.lesson);
  await pg2.keyboard.press('Escape');
  const closed = await pg2.evaluate(() => document.getElementById('lesson-list').hidden && document.activeElement.id === 'lessons-button');
  check(items.length >= 5 && items.join() === listed.join() && focused === items[0] && closed &&
        await pg2.getAttribute('#lessons-button', 'aria-expanded') === 'false',
        'the header\'s lessons button lists every lesson (keyboard: opens on the first, Escape closes)', items.join(', '));
  if (items.includes('boyle_in_the_cup')) {
    await pg2.click('#lessons-button');
    await pg2.click('#lesson-items button[data-lesson=boyle_in_the_cup]');
    await pg2.waitForFunction(() => { const l = window.suctionDebug.snapshot().lesson; return l && l.name === 'boyle_in_the_cup' && l.status === 'predict'; },
                              null, { timeout: 120000, polling: 100 });
    check(await pg2.textContent('#lesson-title') === "Boyle's law in the cup" &&
          await pg2.evaluate(() => document.getElementById('pv-section').classList.contains('lesson-highlight')) &&
          new URL(pg2.url()).searchParams.get('lesson') === 'boyle_in_the_cup',
          'a lesson opened from the list: its title, the P–V diagram shown, the address names it', pg2.url());
  }

  // step 3: pause at the release: the sample there has no cavity, the one before had one, the phase says released
  await pg.click('#lesson-next');
  await waitStatus(['predict']);
  r = await predictAndPlay(2, doc.steps[2].predict.answer);
  const has = (x) => x && x.cavities.some(c => !c.dormant);
  check(s.lesson.status === 'done' && r.ev.name === 'released' && s.phase === 'released' && !has(r.at) && has(r.before),
        'step 3 pauses at the release: the first step with the cavity gone, the phase panel says released', `t ${r.at.t}, phase ${s.phase}`);
  await checkExplained(2, r.i);
  summary.lesson.step3 = { t: r.at.t, phase: s.phase };
  await versusCli(2, r.ev);

  // accessibility of the open lesson (prediction made, explanation shown)
  await checkAccessibility(pg, 'with a lesson open');
  await shot(pg, 'lesson');

  // a teacher's lesson with mistakes (an unknown scene, a bad pointer, a step with no event) is
  // refused, each mistake named by its JSON pointer in the banner (served here in place of a file)
  const indexText = fs.readFileSync(path.join(siteDir, 'lessons', 'index.json'), 'utf8');
  await pg2.route('**/lessons/index.json', (rt) => rt.fulfill({ status: 200, contentType: 'application/json',
    body: JSON.stringify({ lessons: [...JSON.parse(indexText).lessons, { name: 'broken', file: 'broken.json', title: 'Broken', summary: 's', steps: 2 }] }) }));
  await pg2.route('**/lessons/broken.json', (rt) => rt.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({
    title: 'Broken', summary: 'three mistakes',
    steps: [{ scene: 'groundd', watch: 'w', pause_at: 'sealed', explain: 'x' },
            { scene: 'ground', set: { '/settings/cavity/leak_rat': 0.1 }, watch: 'w', explain: 'x' }] }) }));
  await pg2.goto(`${base}?lesson=broken`, { waitUntil: 'load' });
  const refused = await pg2.waitForFunction(() => /broken\.json/.test(document.getElementById('banner-text').textContent), null, { timeout: 120000, polling: 100 })
    .then(() => pg2.textContent('#banner-text')).catch(() => pg2.textContent('#banner-text'));
  check(refused.includes("lessons/broken.json: /steps/0/scene: unknown scene 'groundd'; did you mean 'ground'?") &&
        refused.includes("lessons/broken.json: /steps/1/set/~1settings~1cavity~1leak_rat: unknown key 'leak_rat' in /settings/cavity; did you mean 'leak_rate'?") &&
        refused.includes('lessons/broken.json: /steps/1/pause_at: missing: every step pauses at an event') &&
        (await pg2.evaluate(() => window.suctionDebug.snapshot().lesson)) === null,
        'a lesson file with mistakes is refused, each named by its JSON pointer in the banner', refused.replace(/\n/g, ' | ').slice(0, 500));
  await pg2.unrouteAll();

  // a lesson that does not exist: named in the banner, with the lessons there are
  await pg2.goto(`${base}?lesson=nope`, { waitUntil: 'load' });
  const text = await pg2.waitForFunction(() => /no lesson 'nope'/.test(document.getElementById('banner-text').textContent), null, { timeout: 120000, polling: 100 })
    .then(() => pg2.textContent('#banner-text')).catch(() => pg2.textContent('#banner-text'));
  const s3 = await pg2.evaluate(() => window.suctionDebug.snapshot());
  check(/^error: lesson: no lesson 'nope' .*why_it_sticks/m.test(text) && s3.bannerLevel === 'error' && s3.lesson === null,
        'a bad ?lesson= name is an error in the banner that lists the lessons', text.replace(/\n/g, ' | ').slice(0, 300));
  check(errors.length === 0, 'no page or console error in the lesson pages', errors.slice(0, 5).join(' | '));
  summary.lesson.seconds = (Date.now() - tL) / 1000;
  log(`lessons checked in ${summary.lesson.seconds.toFixed(1)} s`);
  await pg.close(); await pg2.close();
}

/** Every lesson but why_it_sticks (checkLessons plays it) played through, step by step as a
 *  student would from its link (?lesson=NAME&step=K): its prediction answered, played to its
 *  pause; the pause on the step of its event, and within one step of the same event found in the
 *  native CLI's CSV of the same scene with the same values (web/tools/lesson_check.mjs, which
 *  validate_lesson --play uses too). */
async function checkEveryLesson(context, base) {
  const tA = Date.now();
  const index = JSON.parse(fs.readFileSync(path.join(siteDir, 'lessons', 'index.json'), 'utf8')).lessons;
  if (!check(fs.existsSync(CLI), 'the native CLI is built, to compare each lesson\'s pause with its CSV',
             `no ${CLI.startsWith(root + path.sep) ? path.relative(root, CLI) : CLI}: make native (make test builds it before the web tests), or SUCTION=/path/to/suction`)) return;
  let pageSeconds = 0, cliSeconds = 0;
  for (const { name } of index) {
    if (name === 'why_it_sticks') continue;
    const doc = JSON.parse(fs.readFileSync(path.join(siteDir, 'lessons', `${name}.json`), 'utf8'));
    for (let k = 1; k <= doc.steps.length; ++k) {
      const step = doc.steps[k - 1];
      const what = `${name} step ${k} (${step.scene}${stepOverrides(step).map(([p, v]) => ` ${p}=${v}`).join('')}, pause at ${step.pause_at})`;
      const r = await playStep(context, base, { name, k, step });
      pageSeconds += r.seconds;
      const ev = r.event;
      const predicted = !step.predict || (r.lesson && r.lesson.prediction !== null && r.lesson.result !== null);
      if (!check(r.status === 'done' && ev && !ev.missed && r.pageStep === ev.step && predicted && r.errors.length === 0,
                 `${what}: its prediction answered, it pauses at its event, on that step`,
                 `${r.status}, event ${JSON.stringify(ev && { t: ev.t, step: ev.step, missed: ev.missed })}, page at step ${r.pageStep}, ` +
                 `prediction ${JSON.stringify(r.lesson && r.lesson.prediction)} judged ${JSON.stringify(r.lesson && r.lesson.result)}; ${r.errors.join(' | ')}`)) continue;
      // the CLI to a few steps past the page's pause (enough to find the event within one step of it)
      const c = await cliEvent({ cli: CLI, root, step, duration: r.duration, until: step.pause_at === 'end' ? null : ev.t + 2.5 * r.dt });
      cliSeconds += c.seconds || 0;
      const cmp = comparePause(r, c);
      check(cmp.ok, `${what}: the pause is within one step of the event in the CLI's CSV`, `${cmp.text} (page ${r.seconds.toFixed(1)} s, CLI ${(c.seconds || 0).toFixed(1)} s)`);
      (summary.lessonsVsCli = summary.lessonsVsCli || []).push({ lesson: name, step: k, event: step.pause_at, page: { t: ev.t, step: ev.step },
                                                                 cli: { t: c.t ?? null, step: c.step ?? null }, pageSeconds: r.seconds, cliSeconds: c.seconds ?? null });
    }
  }
  summary.everyLessonSeconds = { total: (Date.now() - tA) / 1000, pages: pageSeconds, cli: cliSeconds };
  log(`every lesson played and compared with the CLI in ${summary.everyLessonSeconds.total.toFixed(1)} s ` +
      `(pages ${pageSeconds.toFixed(1)} s, CLI ${cliSeconds.toFixed(1)} s)`);
}

/** The weight drawn with the forces: rigid_lift's cube, m·g = cube_g/1000 × g straight down at
 *  its centre, with its value; none for the cup (the hand's) or the fixed ground. Then the phase
 *  panel with the hand's body's contacts: air_tunnel one_hole, once the cup has left the block
 *  (which rests on the ground: contacts, and no cavity), reads free, not pressing. */
async function checkWeightAndPhase(context, base) {
  const tW = Date.now();
  const errors = [];
  const open = async (url) => {
    const pg = await openPage(context, url, errors);
    await pg.waitForFunction(() => { const x = window.suctionDebug.snapshot(); return (x.loaded && x.frames > 0 && (x.changed.length > 0 || !/[?&]set=/.test(location.search))) || x.errors.length > 0; },
                             null, { timeout: 180000, polling: 100 });
    return pg;
  };
  if (fs.existsSync(path.join(root, 'scenes', 'rigid_lift.json'))) {
    const doc = JSON.parse(fs.readFileSync(path.join(root, 'scenes', 'rigid_lift.json'), 'utf8'));
    const cubeG = doc.parameters.cube_g.default;
    const pg = await open(`${base}?scene=rigid_lift`);
    const S = () => pg.evaluate(() => window.suctionDebug.snapshot());
    await stepOnce(pg);
    let s = await S();
    check(!s.view.loads.some(a => a.shown), 'rigid_lift: no force drawn before "forces" is ticked');
    await pg.check('#show-loads');
    await pg.waitForFunction(() => window.suctionDebug.snapshot().view.loads.some(a => a.kind === 'weight' && a.shown), null, { timeout: 30000, polling: 50 }).catch(() => {});
    s = await S();
    const weights = s.view.loads.filter(a => a.kind === 'weight');
    const w = weights[0], want = cubeG / 1000 * s.gravity;
    check(weights.length === 1 && w.shown && Math.abs(w.value - want) <= 1e-9 * want && w.dir[0] === 0 && w.dir[1] === 0 && w.dir[2] === -1 &&
          Math.abs(w.origin[2] - doc.bodies.find(b => b.name === 'cube').position[2]) < 1e-3 &&
          w.label.endsWith(`= ${want.toFixed(2)} N`) && /cube/.test(w.label),
          'rigid_lift: the cube\'s weight m·g drawn straight down at its centre, with its value (the cup, the hand\'s, and the ground have none)',
          `${JSON.stringify(weights)}; cube_g ${cubeG} g × g ${s.gravity} = ${want} N`);
    await pg.uncheck('#show-loads');
    await pg.waitForFunction(() => !window.suctionDebug.snapshot().view.loads.some(a => a.shown), null, { timeout: 30000, polling: 50 }).catch(() => {});
    check(!(await S()).view.loads.some(a => a.shown), 'rigid_lift: the weight goes with the other forces when "forces" is unticked');
    await pg.close();
  }
  if (fs.existsSync(path.join(root, 'scenes', 'air_tunnel.json'))) {
    const pg = await open(`${base}?scene=air_tunnel&set=${encodeURIComponent('/parameters/config==one_hole')}`);
    const S = () => pg.evaluate(() => window.suctionDebug.snapshot());
    let s = await S();
    must(s.errors.length === 0 && s.scene === 'air_tunnel' && s.changed.some(([p]) => p === '/parameters/config'),
         'air_tunnel opens with config = one_hole', `${s.errors.join(' | ')} ${JSON.stringify(s.changed)}`);
    await pg.selectOption('#speed-mode', 'realtime');
    await pg.fill('#speed', '10000');
    await pg.dispatchEvent('#speed', 'change');
    await pg.click('#play');
    // until the cup has left the block: its body's contacts were > 0 and have been 0 for 0.1 s
    const left = await pg.waitForFunction(() => { const x = window.suctionDebug.snapshot();
      const i = x.samples.findIndex(y => y.handContacts > 0);
      const off = x.samples.filter((y, j) => j > i && i >= 0 && y.handContacts === 0);
      const lastOn = x.samples.filter(y => y.handContacts > 0).at(-1);
      return x.errors.length > 0 || x.step > 0 && x.time >= x.duration - 1e-9 ||
             (lastOn && off.length && x.samples.at(-1).handContacts === 0 && x.samples.at(-1).t >= lastOn.t + 0.1); },
    null, { timeout: 300000, polling: 100 }).then(() => true).catch(() => false);
    s = await pauseSettled(pg, S);
    const last = s.samples.at(-1), lastOn = s.samples.filter(y => y.handContacts > 0).at(-1);
    check(left && s.errors.length === 0 && last.handContacts === 0 && last.contacts > 0 && !last.cavities.some(c => !c.dormant) && s.phase === 'free',
          'air_tunnel one_hole: after the cup has left the block (which still touches the ground), the phase panel reads free, not pressing',
          `t = ${s.time.toFixed(3)} s: phase ${s.phase}; the hand's body's contacts ${last.handContacts} (last touching at t = ${lastOn ? lastOn.t.toFixed(3) : '—'}), ` +
          `all contacts ${last.contacts}, active cavities ${last.cavities.filter(c => !c.dormant).length}; ${s.errors.join(' | ')}`);
    summary.oneHole = { t: s.time, phase: s.phase, contacts: last.contacts, handContacts: last.handContacts, leftAt: lastOn ? lastOn.t : null };
    await pg.close();
  }
  check(errors.length === 0, 'no page or console error in the weight and one_hole pages', errors.slice(0, 5).join(' | '));
  summary.weightAndPhaseSeconds = (Date.now() - tW) / 1000;
  log(`weight and one_hole phase checked in ${summary.weightAndPhaseSeconds.toFixed(1)} s`);
}

// ---- keyboard and touch -------------------------------------------------------------------------------
/** Where the frame-rate meter (stats.js) is: inside the 3D view, over no part of the header, no
 *  control and no panel. */
function meterPlacement(pg) {
  return pg.evaluate(() => {
    const m = document.querySelector('#frame-meter #stats');
    if (!m) return { ok: false, why: 'no stats.js meter in #frame-meter' };
    const box = (e) => e.getBoundingClientRect();
    const mb = box(m), vb = box(document.getElementById('view')), hb = box(document.querySelector('header'));
    const over = (a, b) => a.width > 0 && a.height > 0 && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const covered = [...document.querySelectorAll('header, header *, #legend, #hint, aside, #lesson, #banner')].filter(e => over(box(e), mb))
      .map(e => e.id || e.tagName.toLowerCase());
    const inside = mb.left >= vb.left && mb.right <= vb.right && mb.top >= vb.top && mb.bottom <= vb.bottom;
    return { ok: inside && covered.length === 0, meter: [mb.left, mb.top, mb.width, mb.height].map(Math.round),
             view: [vb.left, vb.top, vb.width, vb.height].map(Math.round), headerBottom: Math.round(hb.bottom), covered };
  });
}

/** Keyboard only (page.keyboard, no click, no focus()): Tab to the header's lessons button, Enter
 *  opens the list, an arrow moves to the second lesson, Enter opens it (the focus on its title);
 *  Tab to its prediction, Space chooses, Tab, Enter predicts (the focus on play), Enter plays: the
 *  simulated time advances. */
async function checkKeyboard(context, base) {
  const tK = Date.now();
  const errors = [];
  const pg = await openPage(context, `${base}?scene=${encodeURIComponent(SCENE)}`, errors);
  await pg.waitForFunction(() => { const s = window.suctionDebug.snapshot(); return (s.loaded && s.frames > 0) || s.errors.length > 0; },
                           null, { timeout: 180000, polling: 100 });
  const focused = () => pg.evaluate(() => { const e = document.activeElement;
    return e ? { id: e.id, lesson: e.dataset ? e.dataset.lesson || null : null, type: e.type || null } : {}; });
  /** Tab (at most max times) until pred(the focused element); returns it, or null. */
  const tabUntil = async (pred, max = 40) => {
    for (let i = 0; i < max; ++i) { await pg.keyboard.press('Tab'); const f = await focused(); if (pred(f)) return { ...f, tabs: i + 1 }; }
    return null;
  };
  const onButton = await tabUntil(f => f.id === 'lessons-button');
  if (!check(onButton, 'keyboard: Tab reaches the header\'s lessons button', JSON.stringify(onButton))) { await pg.close(); return; }
  await pg.keyboard.press('Enter');
  await pg.waitForFunction(() => !document.getElementById('lesson-list').hidden && document.activeElement &&
                                 document.activeElement.closest('#lesson-items'), null, { timeout: 30000, polling: 50 }).catch(() => {});
  const items = await pg.$$eval('#lesson-items button', b => b.map(x => x.dataset.lesson));
  const first = await focused();
  await pg.keyboard.press('ArrowDown');
  const second = await focused();
  check(items.length >= 2 && first.lesson === items[0] && second.lesson === items[1],
        'keyboard: Enter opens the lesson list on its first lesson, the down arrow moves to the next', `${first.lesson} -> ${second.lesson}`);
  const name = second.lesson;
  await pg.keyboard.press('Enter');
  await pg.waitForFunction((n) => { const x = window.suctionDebug.snapshot();
    return (x.lesson && x.lesson.name === n && ['predict', 'ready'].includes(x.lesson.status) && document.activeElement.id === 'lesson-title') || x.errors.length > 0; },
  name, { timeout: 180000, polling: 100 }).catch(() => {});
  let s = await pg.evaluate(() => window.suctionDebug.snapshot());
  check(s.lesson && s.lesson.name === name && (await focused()).id === 'lesson-title',
        'keyboard: Enter on a lesson opens it, the focus on its title', `${s.lesson && s.lesson.name} ${s.lesson && s.lesson.status}, ${s.errors.join(' | ')}`);
  if (!s.lesson) { check(errors.length === 0, 'no page or console error in the keyboard-only page', errors.slice(0, 5).join(' | ')); await pg.close(); return; }
  if (s.lesson.status === 'predict') {
    const choice = await tabUntil(f => f.type === 'radio' || f.id === 'lesson-play', 10);
    await pg.keyboard.press('Space');
    await pg.keyboard.press('Tab');
    const submit = await focused();
    await pg.keyboard.press('Enter');
    await pg.waitForFunction(() => { const l = window.suctionDebug.snapshot().lesson; return l && l.prediction !== null && document.activeElement.id === 'lesson-play'; },
                             null, { timeout: 30000, polling: 50 }).catch(() => {});
    s = await pg.evaluate(() => window.suctionDebug.snapshot());
    check(choice && choice.type === 'radio' && submit.id === 'lesson-predict-submit' && s.lesson.prediction && (await focused()).id === 'lesson-play',
          'keyboard: Tab to the prediction, Space chooses, Tab, Enter predicts; then play has the focus',
          `${JSON.stringify(choice)} -> ${submit.id} -> ${(await focused()).id}, ${JSON.stringify(s.lesson.prediction)}`);
  } else {
    await tabUntil(f => f.id === 'lesson-play', 10);
  }
  const step0 = s.step;
  await pg.keyboard.press('Enter');   // ▶ play to ...
  await pg.waitForFunction((st) => { const x = window.suctionDebug.snapshot();
    return (x.step > st && x.time > 0 && ['playing', 'paused', 'done'].includes(x.lesson.status)) || x.errors.length > 0; },
  step0, { timeout: 180000, polling: 100 }).catch(() => {});
  s = await pg.evaluate(() => window.suctionDebug.snapshot());
  check(s.step > step0 && s.time > 0 && s.errors.length === 0, 'keyboard: Enter on play plays the lesson\'s step (the simulated time advances)',
        `step ${step0} -> ${s.step}, t = ${s.time}, lesson ${s.lesson && s.lesson.status}, ${s.errors.join(' | ')}`);
  check(errors.length === 0, 'no page or console error in the keyboard-only page', errors.slice(0, 5).join(' | '));
  summary.keyboard = { lesson: name, tabsToLessons: onButton.tabs, seconds: (Date.now() - tK) / 1000 };
  log(`keyboard checked in ${summary.keyboard.seconds.toFixed(1)} s`);
  await pg.close();
}

/** A phone (390 x 844, Playwright's touch emulation: hasTouch, isMobile): the narrow layout, the
 *  plots below the 3D view; one finger orbits (the camera moves), two fingers pinched apart zoom
 *  in (the camera's distance shrinks), a finger on the cup drags it (as the mouse drag: the
 *  driver's offset and the positions change). Touches by CDP's Input.dispatchTouchEvent (Playwright
 *  has taps only). */
async function checkTouch(chromium, base) {
  const tT = Date.now();
  const errors = [];
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS], timeout: 120000 });
  try {
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const pg = await ctx.newPage();
    pg.setDefaultTimeout(120000);
    pg.on('pageerror', e => errors.push(String(e && e.stack || e)));
    pg.on('console', m => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
    await pg.goto(`${base}?scene=${encodeURIComponent(SCENE)}${BACKEND === 'mock' ? '&backend=mock' : ''}`, { waitUntil: 'load' });
    await pg.waitForFunction(() => { const s = window.suctionDebug.snapshot(); return (s.loaded && s.frames > 0) || s.errors.some(e => !e.startsWith('backend')); },
                             null, { timeout: 180000, polling: 100 });
    const S = () => pg.evaluate(() => window.suctionDebug.snapshot());
    let s = await S();
    if (!check(s.loaded, 'phone: the scene loads', s.errors.join(' | '))) return;

    // the layout: one column, the view the screen's width, the plots and the P-V diagram below it
    const [view, plots, pvBox] = await Promise.all(['#view', '#plots', '#pv'].map(q => pg.locator(q).boundingBox()));
    const lay = await pg.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, width: window.innerWidth,
                                           touchHint: getComputedStyle(document.querySelector('#hint .hint-touch')).display !== 'none' }));
    const bottom = view.y + view.height;
    check(view.width >= lay.width - 1 && view.height >= 250 && plots.y >= bottom - 1 && pvBox.y >= bottom - 1 &&
          plots.x >= 0 && plots.x + plots.width <= lay.width + 1 && lay.scrollWidth <= lay.width,
          'phone (390 x 844, touch): the 3D view spans the screen, the plots and the P–V diagram below it, nothing wider than the screen',
          JSON.stringify({ view, plots, pv: pvBox, ...lay }));
    check(lay.touchHint, 'phone: the view\'s hint is the one for fingers');
    const m = await meterPlacement(pg);
    check(m.ok, 'phone: the frame-rate meter lies in the 3D view, over neither the header nor a control', JSON.stringify(m));

    const cdp = await ctx.newCDPSession(pg);
    const touch = (type, pts) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: pts.map(([x, y], id) => ({ x, y, id, radiusX: 4, radiusY: 4, force: 1 })) });
    const gesture = async (from, to, n = 10, start = true) => {   // fingers (put down) moved from -> to in n moves, then lifted
      if (start) await touch('touchStart', from);
      for (let i = 1; i <= n; ++i) await touch('touchMove', from.map(([x, y], k) => [x + (to[k][0] - x) * i / n, y + (to[k][1] - y) * i / n]));
      const during = await S();
      await touch('touchEnd', []);
      return during;
    };
    const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

    // one finger, above the ground (nothing to grab there), across the view: an orbit
    const cam0 = s.view.camera;
    const ox = view.x + 0.5 * view.width, oy = view.y + 0.15 * view.height;
    const during = await gesture([[ox, oy]], [[ox + 90, oy + 10]]);
    const orbited = await pg.waitForFunction((c0) => { const c = window.suctionDebug.snapshot().view.camera;
      return Math.hypot(c.position[0] - c0.position[0], c.position[1] - c0.position[1], c.position[2] - c0.position[2]) > 0.1 * c0.distance; },
    cam0, { timeout: 60000, polling: 100 }).then(() => true).catch(() => false);
    s = await S();
    const cam1 = s.view.camera;
    check(orbited && !during.dragging && Math.abs(cam1.distance - cam0.distance) < 0.05 * cam0.distance,
          'phone: a one-finger drag across the view orbits the camera (it moves, at the same distance)',
          `moved ${dist(cam1.position, cam0.position).toExponential(3)} m, distance ${cam0.distance.toExponential(4)} -> ${cam1.distance.toExponential(4)}, dragging ${during.dragging}`);

    // two fingers pinched apart, the first one put on the cup (a grab), then the second beside
    // it: the grab gives way to the pinch, which zooms in
    s = await S();
    const d0 = s.view.camera.distance, off0 = s.driverOffsets[0] || [0, 0, 0];
    const a = s.grabPoint || { x: view.x + 0.5 * view.width, y: view.y + 0.5 * view.height };
    const A = [a.x, a.y], B = [a.x + 60, a.y];
    await touch('touchStart', [A]);
    const one = await S();
    await touch('touchStart', [A, B]);
    const pinch = await gesture([A, B], [[A[0] - 100, A[1]], [B[0] + 100, B[1]]], 10, false);
    const zoomed = await pg.waitForFunction((d) => window.suctionDebug.snapshot().view.camera.distance < 0.7 * d, d0,
                                            { timeout: 60000, polling: 100 }).then(() => true).catch(() => false);
    s = await S();
    const offP = s.driverOffsets[0] || [0, 0, 0];
    check(zoomed && one.dragging && !pinch.dragging && dist(offP, off0) < 1e-9,
          'phone: a finger on the cup, then a second beside it, pinched apart: the grab gives way, the camera zooms in (its distance shrinks), the cup stays',
          `grab ${one.dragging} (at ${a.x.toFixed(0)}, ${a.y.toFixed(0)}), dragging while pinched ${pinch.dragging}, distance ${d0.toExponential(4)} -> ` +
          `${s.view.camera.distance.toExponential(4)}, driver offset moved ${dist(offP, off0).toExponential(2)} m`);

    // a finger on the cup drags it (as the mouse drag above): put down on its grab point while
    // paused (the cup still, as the mouse's), moved, then played with the finger held
    if (s.drivers.length === 0) log(`note: scene '${SCENE}' has no driver: touch dragging not tested`);
    else {
      // the camera at rest first (the controls' damping after the orbit and the pinch), so that the grab point stays put
      // (the damping moves it at each animation frame: compared 6 frames apart, 100 ms at 60 Hz)
      for (let i = 0, last = null; i < 600; ++i) {
        const c = (await S()).view.camera;
        if (last && dist(c.position, last.position) < 1e-4 * c.distance) break;
        last = c;
        await animationFrames(pg, 6);
      }
      s = await pauseSettled(pg, S);
      await pg.waitForFunction(() => window.suctionDebug.snapshot().grabPoint !== null, null, { timeout: 120000, polling: 100 });
      s = await S();
      const g = s.grabPoint, before = s.positionsChecksum, offA = s.driverOffsets[0] || [0, 0, 0];
      log(`phone: touch grab at (${g.x.toFixed(0)}, ${g.y.toFixed(0)})`);
      await touch('touchStart', [[g.x, g.y]]);
      for (let i = 1; i <= 12; ++i) await touch('touchMove', [[g.x + 20 * i / 12, g.y - 60 * i / 12]]);
      const held = await S();
      // play (pressed in the page: a tap would be a second finger), held until the worker has taken the drag
      await pg.evaluate(() => document.getElementById('play').click());
      await pg.waitForFunction((o) => { const d = window.suctionDebug.snapshot().driverOffsets[0];
        return d && Math.hypot(d[0] - o[0], d[1] - o[1], d[2] - o[2]) > 0; }, offA, { timeout: 60000, polling: 50 })
        .catch(() => log('phone: the driver\'s offset did not move in 60 s while held'));
      await touch('touchEnd', []);
      let moved = false, off = offA;
      for (let i = 0; i < 200 && !moved; ++i) {
        s = await S();
        off = s.driverOffsets[0] || offA;
        moved = dist(off, offA) > 1e-4 && s.positionsChecksum !== before;
        if (!moved && !s.playing) await pg.tap('#play');   // the scene may have reached its end: go on
        if (!moved) await sleep(300);
      }
      check(held.dragging && moved, 'phone: a finger on the cup drags it (the driver offset and the positions move)',
            `dragging ${held.dragging}, offset ${off.map(v => v.toExponential(2)).join(', ')}`);
      summary.touchDragOffset = off;
    }
    const file = path.join(outDir, `${SCENE}_phone.png`);
    await pg.screenshot({ path: file });
    summary.screenshots.push(path.relative(root, file));
    check(errors.length === 0, 'no page or console error on the phone', errors.slice(0, 5).join(' | '));
  } finally {
    await browser.close().catch(() => {});
    summary.touchSeconds = (Date.now() - tT) / 1000;
    log(`phone checked in ${summary.touchSeconds.toFixed(1)} s`);
  }
}

async function shot(page, name) {
  const file = path.join(outDir, `${SCENE}_${name}.png`);
  await page.screenshot({ path: file });
  summary.screenshots.push(path.relative(root, file));
  log(`screenshot ${path.relative(root, file)}`);
}

const watchdog = setTimeout(() => { log(`FAIL: overall time limit ${TIMEOUT_S} s`); process.exit(1); }, TIMEOUT_S * 1000);
main().catch(e => { if (!(e instanceof Fatal)) check(false, 'e2e ran to the end', String(e && e.stack || e)); })
  .finally(() => {
    clearTimeout(watchdog);
    summary.ok = !failed; summary.seconds = (Date.now() - t0) / 1000;
    try { fs.mkdirSync(outDir, { recursive: true }); fs.writeFileSync(path.join(outDir, 'e2e.json'), JSON.stringify(summary, null, 1)); } catch {}
    // the failed checks again at the end: a CI log keeps only its tail
    for (const c of summary.checks.filter(c => !c.ok)) console.log(`e2e failed: ${c.what}${c.detail ? ` (${c.detail})` : ''}`);
    console.log(`e2e (${SCENE}, ${BACKEND}): ${failed ? 'FAIL' : 'PASS'} in ${summary.seconds.toFixed(0)} s`);
    process.exit(failed ? 1 : 0);
  });
