#!/usr/bin/env node
// The pictures of docs/web.md that show what the page teaches with, taken in the headless
// chromium of the e2e test (scripts/web_harness.mjs; build/web from make web), run by hand:
//
//   node web/tools/screenshots.mjs [--only forces,compare,phone] [--out docs/img]
//
//   forces   forces_page.png: ground stepped to t = 1.2 s (the pull, the cup holding) with "forces
//            on the cup" ticked: the air's (P_atm − P)·A and the hand's pull, with their values
//   compare  compare_page.png: ground stepped to its end, kept (the plots' keep), the leak rate
//            set to 0.1 J/s and applied, reset and stepped to its end again: the plots hold both
//            runs, the kept one faded, and the mouse over the pressure plot at t = 1.2 s reads both
//   phone    phone_page.png: ground at t = 1.2 s on a phone (390 x 844, Playwright's touch
//            emulation), the narrow layout: two screens side by side, the top of the page (the
//            header, the 3D view) and scrolled down to the plots below it
//
// 1280 x 800 (the phone 390 x 844, one pixel per CSS pixel). Prints what each picture shows.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServe, pageTools, CHROMIUM_ARGS, ROOT } from '../../scripts/web_harness.mjs';

const args = process.argv.slice(2);
const o = { only: ['forces', 'compare', 'phone'], out: path.join(ROOT, 'docs', 'img') };
for (let i = 0; i < args.length; ++i) {
  const a = args[i], val = () => args[++i];
  if (a === '--only') o.only = val().split(',');
  else if (a === '--out') o.out = path.resolve(val());
  else if (a === '-h' || a === '--help') {
    console.log(fs.readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1, 17).map(l => l.replace(/^\/\/ ?/, '')).join('\n'));
    process.exit(0);
  } else { console.error(`screenshots: unknown argument ${a} (--help)`); process.exit(2); }
}
const known = ['forces', 'compare', 'phone'];
if (o.only.some(n => !known.includes(n))) { console.error(`screenshots: --only: ${known.join(', ')}`); process.exit(2); }

const S = (page) => page.evaluate(() => window.suctionDebug.snapshot());

/** Opens ?scene=NAME and waits for its first frame. */
async function open(page, base, scene) {
  await page.goto(`${base}?scene=${scene}`, { waitUntil: 'load' });
  await page.waitForFunction(() => { const s = window.suctionDebug.snapshot(); return (s.loaded && s.frames > 0) || s.errors.length > 0; },
                             null, { timeout: 300000, polling: 200 });
  const s = await S(page);
  if (s.errors.length) throw new Error(`${scene}: ${s.errors.join(' | ')}`);
}

/** Steps (the step button, one at a time: the same steps on any machine) to the first step at or
 *  after t (t past the scene's duration: its end). */
async function stepTo(page, t) {
  let s = await S(page);
  const target = Math.min(t, s.duration);
  while (s.time < target - 1e-9 && s.errors.length === 0) {
    const before = s.step;
    await page.click('#step');
    await page.waitForFunction((b) => window.suctionDebug.snapshot().step > b || window.suctionDebug.snapshot().errors.length > 0,
                               before, { timeout: 120000, polling: 20 });
    s = await S(page);
  }
  if (s.errors.length) throw new Error(s.errors.join(' | '));
  return s;
}

/** Waits for the view to be drawn twice more (it draws on change), the mouse off the controls unless kept. */
async function drawn(page) {
  const n = (await S(page)).render.draws;
  await page.waitForFunction((k) => window.suctionDebug.snapshot().render.draws >= k + 2, n, { timeout: 30000, polling: 100 }).catch(() => {});
}

async function save(page, name, opts = {}) {
  const file = path.join(o.out, name);
  fs.mkdirSync(o.out, { recursive: true });
  await page.screenshot({ path: file, ...opts });
  const s = await S(page);
  console.log(`${path.relative(process.cwd(), file)}: ${(fs.statSync(file).size / 1024).toFixed(0)} KB; ${s.scene} at t = ${s.time.toFixed(3)} s, step ${s.step}, phase ${s.phase}`);
}

const pictures = {
  async forces(page, base) {
    await open(page, base, 'ground');
    await stepTo(page, 1.2);
    await page.check('#show-loads');
    await page.waitForFunction(() => window.suctionDebug.snapshot().view.loads.some(a => a.shown), null, { timeout: 30000, polling: 100 });
    await page.evaluate(() => { document.querySelector('aside').scrollTop = 0; });   // (ticking it scrolled to the panel)
    await page.mouse.move(5, 795);
    await drawn(page);
    const s = await S(page);
    console.log(`  forces: ${s.view.loads.filter(a => a.shown).map(a => a.label).join('; ')}`);
    await save(page, 'forces_page.png');
  },

  async compare(page, base) {
    await open(page, base, 'ground');
    let s = await stepTo(page, Infinity);
    const first = s.samples.slice();
    await page.click('#plot-keep');
    await page.fill('#controls .lil-gui input[data-key="leak_rate"]', '0.1');
    await page.click('#controls .lil-gui button#apply');
    await page.waitForFunction(() => /leak_rate/.test(document.getElementById('banner-text').textContent), null, { timeout: 60000, polling: 100 });
    await page.click('#banner-close');
    await page.click('#reset');
    await page.waitForFunction(() => window.suctionDebug.snapshot().step === 0, null, { timeout: 60000, polling: 50 });
    s = await stepTo(page, Infinity);
    const released = (x) => { const i = x.findIndex((q, k) => k > 0 && x[k - 1].cavities.some(c => !c.dormant) && !q.cavities.some(c => !c.dormant)); return i > 0 ? x[i].t : null; };
    console.log(`  compare: released at t = ${released(first)} s (kept run), ${released(s.samples)} s (leak 0.1 J/s); previous series: ${s.plots.previous}`);
    // the side panel at its plots, the mouse over the pressure plot at t = 1.2 s
    await page.evaluate(() => { const a = document.querySelector('aside'); a.scrollTop = document.getElementById('plot-section').offsetTop - a.offsetTop - 4; });
    s = await S(page);
    const r = await page.locator('#plot-pressure .u-over').boundingBox();
    const x = r.x + (1.2 - s.plots.xMin) / (s.plots.xMax - s.plots.xMin) * r.width;
    await page.mouse.move(x - 10, r.y + r.height / 2);
    await page.mouse.move(x, r.y + r.height / 2, { steps: 3 });
    await page.waitForFunction(() => { const c = window.suctionDebug.snapshot().plots.cursor; return c && Math.abs(c.t - 1.2) < 0.03; }, null, { timeout: 30000, polling: 100 }).catch(() => {});
    await drawn(page);
    await save(page, 'compare_page.png');
  },

  async phone(page, base) {
    await open(page, base, 'ground');
    await stepTo(page, 1.2);
    await drawn(page);
    // two screens side by side: the top of the page, and scrolled down to the plots (a full-page
    // screenshot would drop the touch emulation while it is taken: the mouse's hint, another layout)
    const top = await page.screenshot();
    await page.evaluate(() => window.scrollTo(0, document.getElementById('plot-section').getBoundingClientRect().top + window.scrollY - 6));
    await page.waitForFunction(() => window.scrollY > 0, null, { timeout: 30000, polling: 50 });
    const plots = await page.screenshot();
    const both = await page.context().newPage();
    const data = await both.evaluate(async ([a, b]) => {
      const load = (b64) => new Promise((res, rej) => { const i = new Image(); i.onload = () => res(i); i.onerror = rej; i.src = `data:image/png;base64,${b64}`; });
      const [ia, ib] = await Promise.all([load(a), load(b)]);
      const gap = 16, cv = document.createElement('canvas');
      cv.width = ia.width + gap + ib.width; cv.height = Math.max(ia.height, ib.height);
      const g = cv.getContext('2d');
      g.fillStyle = '#fff'; g.fillRect(0, 0, cv.width, cv.height);
      g.drawImage(ia, 0, 0); g.drawImage(ib, ia.width + gap, 0);
      return cv.toDataURL('image/png').split(',')[1];
    }, [top.toString('base64'), plots.toString('base64')]);
    await both.close();
    const file = path.join(o.out, 'phone_page.png');
    fs.mkdirSync(o.out, { recursive: true });
    fs.writeFileSync(file, Buffer.from(data, 'base64'));
    const s = await S(page);
    console.log(`${path.relative(process.cwd(), file)}: ${(fs.statSync(file).size / 1024).toFixed(0)} KB; two screens of ${s.scene} at t = ${s.time.toFixed(3)} s, step ${s.step}, phase ${s.phase}`);
  },
};

let tools;
try { tools = pageTools({ scenes: ['ground'] }); } catch (e) { console.error(`screenshots: ${e.message}`); process.exit(2); }
const { child: server, base } = await startServe(tools.siteDir);
const browser = await tools.chromium.launch({ executablePath: tools.executablePath, headless: true, args: [...CHROMIUM_ARGS], timeout: 120000 });
let code = 0;
try {
  for (const name of o.only) {
    const phone = name === 'phone';
    const ctx = await browser.newContext(phone ? { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true }
                                               : { viewport: { width: 1280, height: 800 } });
    const page = await ctx.newPage();
    page.setDefaultTimeout(600000);
    const errors = [];
    page.on('pageerror', e => errors.push(String(e && e.message || e)));
    await pictures[name](page, base);
    if (errors.length) throw new Error(`${name}: page error: ${errors.join(' | ')}`);
    await ctx.close();
  }
} catch (e) {
  console.error(`screenshots: ${e && e.message || e}`);
  code = 1;
} finally {
  await browser.close().catch(() => {});
  server.kill('SIGTERM');
}
process.exit(code);
