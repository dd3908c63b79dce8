#!/usr/bin/env node
// A picture of the page at a moment of a scene: serves build/web (scripts/serve.mjs on a free
// port), opens the page in the headless chromium of the e2e test and the browser bench
// (playwright-core from web/node_modules, SwiftShader WebGL, scripts/web_harness.mjs), picks the
// scene, applies --set, moves the camera, plays at the page's top speed (`× real time` 10000)
// until the simulated time nears --at, pauses, steps one step at a time up to --at (or plays to
// the scene's end when --at is past it) and takes a screenshot of the whole page: the 3D view,
// the phase panel and the plots, 1280 × 800 like docs/img/*_page.png.
//
//   node scripts/page_picture.mjs SCENE --at SECONDS --out FILE.png [--set NAME=VALUE ...]
//                                 [--orbit DX,DY] [--pan DX,DY] [--zoom F] [--render MODE]
//                                 [--size W,H] [--timeout S] [--quality interactive|reference]
//     SCENE        scenes/<SCENE>.json as the page lists it
//     --at S       simulated time of the picture [s] (past the scene's duration: its end)
//     --out FILE   the PNG
//     --set N=V    a scene parameter N (the page's "scene parameters" panel, then apply: a
//                  number) or a JSON pointer /A/B=V (the page's override message, the CLI's
//                  --set: `--set /parameters/config==one_hole`, `--set /settings/dt=0.005`);
//                  repeatable, applied in order before play
//     --orbit DX,DY  drag the view by DX,DY pixels with the left button from the view's top
//                  left corner (OrbitControls: DX turns about the vertical, DY tilts)
//     --pan DX,DY  drag with the right button (moves the view)
//     --zoom F     brings the camera F times closer to the point it looks at (F < 1: away),
//                  by wheel events at the view's centre (three's OrbitControls: 0.95 per 100)
//                  The camera moves after the page framed the movable bodies at load, in the
//                  order orbit, pan, zoom.
//     --render M   the page's ?render= (auto, the default, is the page's fast drawing here;
//                  full: antialiased, full resolution, slower to play)
//     --size W,H   the viewport (default 1280,800)
//     --quality Q  the page's quality (?quality=): interactive (the page's default) or reference
//                  (the scene as written, as the CLI runs it by default); the picture's numbers
//                  are then the CLI's at that quality
//     --timeout S  wall-clock limit for the whole run (default 1800 s)
//     --plot-cursor T  before the picture, the mouse over the pressure plot at time T [s]: the
//                  plots' cursor and legends show the values there
//     --element SEL  a picture of that element only (a CSS selector, e.g. aside), not the page
//   Environment: CHROMIUM (default /usr/bin/chromium), PICTURE_VERBOSE=1 echoes the page's console.
//   Prints the time, step, phase and lowest cavity pressure of the picture. Exit status: 0 a
//   picture was taken, 1 the scene failed (load or override error, a diverging step, a page
//   error, the time limit), 2 something is missing (build/web, the scene, chromium,
//   playwright-core) or a bad argument.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServe, pageTools, launchChromium, openScene } from './web_harness.mjs';

const t0 = Date.now();
const log = (...a) => console.error(`[page_picture ${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...a);
function die(msg, code = 2) { console.error(`page_picture: ${msg}`); process.exit(code); }

function parseArgs(argv) {
  const o = { scene: null, at: null, out: null, sets: [], orbit: null, pan: null, zoom: 1, render: 'auto', size: [1280, 800], timeout: 1800,
              quality: 'interactive',
              plotCursor: null, element: null };
  const pair = (a, v) => { const m = /^(-?[\d.]+),(-?[\d.]+)$/.exec(v); if (!m) die(`${a} ${v}: expected X,Y`); return [Number(m[1]), Number(m[2])]; };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    const val = () => { if (i + 1 >= argv.length) die(`${a} needs a value`); return argv[++i]; };
    if (a === '--at') { o.at = Number(val()); if (!(o.at >= 0)) die('--at: expected seconds >= 0'); }
    else if (a === '--out') o.out = val();
    else if (a === '--set') { const v = val(), k = v.indexOf('='); if (k <= 0) die(`--set ${v}: expected NAME=VALUE or /POINTER=VALUE`); o.sets.push([v.slice(0, k), v.slice(k + 1)]); }
    else if (a === '--orbit') o.orbit = pair(a, val());
    else if (a === '--pan') o.pan = pair(a, val());
    else if (a === '--zoom') { o.zoom = Number(val()); if (!(o.zoom > 0)) die('--zoom: expected a factor > 0'); }
    else if (a === '--render') { o.render = val(); if (!['auto', 'full', 'fast'].includes(o.render)) die('--render: auto, full or fast'); }
    else if (a === '--quality') { o.quality = val(); if (!['interactive', 'reference'].includes(o.quality)) die('--quality: interactive or reference'); }
    else if (a === '--size') o.size = pair(a, val());
    else if (a === '--plot-cursor') { o.plotCursor = Number(val()); if (!Number.isFinite(o.plotCursor)) die('--plot-cursor: expected seconds'); }
    else if (a === '--element') o.element = val();
    else if (a === '--timeout') { o.timeout = Number(val()); if (!(o.timeout > 0)) die('--timeout: expected seconds > 0'); }
    else if (a === '-h' || a === '--help') {
      console.log(fs.readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1, 41).map(l => l.replace(/^\/\/ ?/, '')).join('\n'));
      process.exit(0);
    } else if (a.startsWith('-')) die(`unknown option ${a} (--help)`);
    else if (o.scene) die(`one scene only (got ${o.scene} and ${a})`);
    else o.scene = a.replace(/^scenes\//, '').replace(/\.json$/, '');
  }
  if (!o.scene || o.at === null || !o.out) die('usage: page_picture.mjs SCENE --at SECONDS --out FILE.png [--set NAME=VALUE ...] (--help)');
  return o;
}

// In the page, before its scripts: keep the simulation worker (src/worker.js) so that --set
// /POINTER=VALUE can send the page's own `override` message, the one its apply button sends.
function keepWorker() {
  const Native = window.Worker;
  window.Worker = class extends Native {
    constructor(...a) { super(...a); window.__pictureWorker = this; }
  };
}

const snap = (page) => page.evaluate(() => {
  const s = window.suctionDebug.snapshot();
  return { time: s.time, step: s.step, playing: s.playing, frames: s.frames, phase: s.phase, errors: s.errors, duration: s.duration,
           minPressure: s.minPressure, cavities: s.cavities, draws: s.render.draws };
});

/** --set: a scene parameter through the panel, a pointer through the override message; waits for the reload. */
async function applySet(page, name, value) {
  const marked = await page.evaluate(({ name, value }) => {
    // the controls panel (lil-gui, web/src/controls.js): scene parameters have data-key="param:NAME"
    for (const inp of document.querySelectorAll('#controls input[data-key]')) inp.dataset.stale = '1';
    if (name.startsWith('/') || !Number.isFinite(Number(value)) || value.trim() === '') {
      const pointer = name.startsWith('/') ? name : `/parameters/${name}`;
      window.__pictureWorker.postMessage({ type: 'override', list: [[pointer, value]] });
      return { how: 'override', pointer };
    }
    const keys = [...document.querySelectorAll('#controls input[data-key^="param:"]')].map(i => i.dataset.key.slice(6));
    if (!keys.includes(name)) return { error: `no scene parameter '${name}' (the panel has: ${keys.join(', ') || 'none'}); use /POINTER=VALUE for other values` };
    return { how: 'panel' };
  }, { name, value });
  if (marked.error) throw new Error(marked.error);
  if (marked.how === 'panel') {
    await page.fill(`#controls input[data-key="param:${name}"]`, value);
    await page.click('#apply');
  }
  log(`--set ${name}=${value} (${marked.how === 'panel' ? 'the scene parameters panel, apply' : `override ${marked.pointer}`})`);
  // the page rebuilds the panels on the worker's `loaded`; an override error shows in the banner
  await page.waitForFunction(() => !document.querySelector('#controls input[data-stale]') ||
                                   window.suctionDebug.snapshot().errors.length > 0, null, { timeout: 180000, polling: 200 });
  const s = await snap(page);
  if (s.errors.length) throw new Error(`--set ${name}=${value}: ${s.errors.join(' | ')}`);
  await page.waitForFunction((f) => window.suctionDebug.snapshot().frames > f, s.frames, { timeout: 60000, polling: 200 }).catch(() => {});
}

/** Moves the camera with real mouse events on the 3D view (OrbitControls). */
async function moveCamera(page, o) {
  const box = await page.locator('#canvas3d').boundingBox();
  const drag = async (button, [dx, dy], from) => {
    await page.mouse.move(from[0], from[1]);
    await page.mouse.down({ button });
    await page.mouse.move(from[0] + dx, from[1] + dy, { steps: 20 });
    await page.mouse.up({ button });
    await page.waitForTimeout(300);
  };
  // from the view's top left: sky or the fixed ground, never a driven body (a left-drag there
  // would grab it instead); right of the frame-rate meter there (a press on it only switches its mode)
  if (o.orbit) { await drag('left', o.orbit, [box.x + 90, box.y + 60]); log(`orbit ${o.orbit}`); }
  if (o.pan) { await drag('right', o.pan, [box.x + box.width / 2, box.y + box.height / 2]); log(`pan ${o.pan}`); }
  if (o.zoom !== 1) {
    // OrbitControls dollies by 0.95^(|deltaY| / 100) per wheel event, towards its target
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    let left = 100 * Math.log(o.zoom) / Math.log(0.95);    // the total deltaY: < 0 brings it closer
    while (Math.abs(left) > 0.5) {
      const d = Math.sign(left) * Math.min(100, Math.abs(left));
      await page.mouse.wheel(0, d); left -= d;
      await page.waitForTimeout(60);
    }
    log(`zoom ${o.zoom}`);
  }
  await page.waitForTimeout(1000);   // the controls' damping settles
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  let tools;
  try { tools = pageTools({ scenes: [o.scene] }); } catch (e) { die(e.message); }
  const { child: server, base } = await startServe(tools.siteDir);
  const { context, close } = await launchChromium(tools.chromium, tools.executablePath, { viewport: { width: o.size[0], height: o.size[1] } });
  const deadline = Date.now() + o.timeout * 1000;
  const pageErrors = [];
  const check = (s) => {
    if (s.errors.length) throw new Error(s.errors.join(' | '));
    if (pageErrors.length) throw new Error(`page error: ${pageErrors.join(' | ')}`);
    if (Date.now() > deadline) throw new Error(`the ${o.timeout} s limit (--timeout) at t = ${s.time.toFixed(3)} s`);
  };
  try {
    await context.addInitScript(keepWorker);
    for (const p of context.pages()) await p.close().catch(() => {});
    const page = await context.newPage();
    page.setDefaultTimeout(120000);
    page.on('pageerror', e => pageErrors.push(String(e && e.message || e)));
    page.on('console', m => { if (process.env.PICTURE_VERBOSE) log(`console ${m.type()}: ${m.text()}`); });
    const query = [o.render === 'auto' ? '' : `render=${o.render}`, o.quality === 'interactive' ? '' : `quality=${o.quality}`]
      .filter(Boolean).join('&');
    const info = await openScene(page, base, o.scene, { query });
    const quality = await page.evaluate(() => window.suctionDebug.snapshot().quality);
    if (quality !== o.quality) throw new Error(`the page runs ${o.scene} at ${quality} quality, not ${o.quality}`);
    log(`${o.scene} loaded (duration ${info.duration} s, ${info.version}, ${quality} quality)`);
    for (const [name, value] of o.sets) await applySet(page, name, value);
    if (o.orbit || o.pan || o.zoom !== 1) await moveCamera(page, o);

    let s = await snap(page);
    const duration = s.duration;
    const target = Math.min(o.at, duration);
    await page.selectOption('#speed-mode', 'realtime');
    await page.fill('#speed', '10000');
    await page.dispatchEvent('#speed', 'change');
    await page.waitForTimeout(200);
    // play until the time is a little short of the target (how far short: about 1.2 s of wall
    // time at the speed seen so far, the frames lag the worker), then step to it
    let dt = null, rate = null, lastReport = Date.now();
    if (s.time < target - 1e-9) {
      log(`play to t = ${target} s`);
      await page.click('#play');
      let prev = { wall: Date.now(), time: s.time };
      for (;;) {
        await page.waitForTimeout(250);
        s = await snap(page);
        check(s);
        if (s.step > 0) dt = s.time / s.step;
        const now = Date.now();
        if (s.time > prev.time) { const r = (s.time - prev.time) / ((now - prev.wall) / 1000); rate = rate === null ? r : 0.7 * rate + 0.3 * r; prev = { wall: now, time: s.time }; }
        const lead = dt === null ? 0 : Math.max(3 * dt, (rate || 0) * 1.2);
        if (!s.playing || s.time >= target - lead) break;
        if (now - lastReport > 30000) { lastReport = now; log(`t = ${s.time.toFixed(3)} s (step ${s.step}), ${(rate || 0).toFixed(3)} simulated s per s`); }
      }
      if (s.playing) await page.click('#play');   // pause
      await page.waitForFunction(() => !window.suctionDebug.snapshot().playing, null, { timeout: 60000, polling: 100 });
      await page.waitForTimeout(500);              // the frame of the last step
      s = await snap(page);
      check(s);
      if (s.step > 0) dt = s.time / s.step;
    }
    // step up to the target, one step per frame
    while (dt !== null && s.time < target - dt / 2) {
      const before = s.step;
      await page.click('#step');
      await page.waitForFunction((n) => window.suctionDebug.snapshot().step > n || window.suctionDebug.snapshot().errors.length > 0, before, { timeout: 120000, polling: 100 });
      s = await snap(page);
      check(s);
    }
    // the panel scrolled to the parameters by --set: back to the top (the phase panel and plots)
    await page.evaluate(() => { window.scrollTo(0, 0); for (const el of document.querySelectorAll('*')) if (el.scrollTop > 0) el.scrollTop = 0; });
    // the view is drawn on change: wait for two drawings after the last frame
    const draws = s.draws;
    await page.waitForFunction((n) => window.suctionDebug.snapshot().render.draws >= n + 2, draws, { timeout: 10000, polling: 100 }).catch(() => {});
    await page.waitForTimeout(300);
    s = await snap(page);
    check(s);
    if (o.plotCursor !== null) {   // the mouse over the pressure plot (uPlot) at that time
      await page.locator('#plot-pressure').scrollIntoViewIfNeeded();
      const P = await page.evaluate(() => window.suctionDebug.snapshot().plots);
      if (!P.pressureArea || !(P.xMax > P.xMin)) throw new Error('--plot-cursor: the plots are not drawn');
      const x = P.pressureArea.left + (o.plotCursor - P.xMin) / (P.xMax - P.xMin) * P.pressureArea.width;
      await page.mouse.move(x, P.pressureArea.top + P.pressureArea.height / 2, { steps: 4 });
      await page.waitForTimeout(300);
    }
    fs.mkdirSync(path.dirname(path.resolve(o.out)), { recursive: true });
    if (o.element) await page.locator(o.element).screenshot({ path: o.out });
    else await page.screenshot({ path: o.out });
    const p = s.minPressure === null ? 'no active cavity' : `lowest cavity pressure ${(s.minPressure / 1e3).toFixed(2)} kPa (${s.cavities} cavities)`;
    console.log(`${o.out}: ${o.scene} (${o.quality} quality) at t = ${s.time.toFixed(3)} s (step ${s.step}), phase ${s.phase}, ${p}`);
    return 0;
  } catch (e) {
    log(`FAILED: ${String(e && e.message || e).split('\n')[0]}`);
    return 1;
  } finally {
    await close();
    server.kill('SIGTERM');
  }
}

main().then(code => process.exit(code), e => { console.error(`page_picture: ${e && e.stack || e}`); process.exit(1); });
