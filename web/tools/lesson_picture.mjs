#!/usr/bin/env node
// A picture of the page with a lesson open (docs/img/lesson_page.png), in the headless chromium
// of the e2e test (scripts/web_harness.mjs; build/web from make web):
//
//   node web/tools/lesson_picture.mjs why_it_sticks --step 2 --out docs/img/lesson_page.png
//
// opens ?lesson=NAME&step=K, answers the step's prediction (its right answer; --choice J or
// --number X for another), plays at the page's top speed to the step's event and waits for the
// view to be drawn, then takes the picture (1280 x 800, --size W,H). --question: the picture
// before playing, the question unanswered. Prints the time, step and phase of the pause.
import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startServe, pageTools, launchChromium } from '../../scripts/web_harness.mjs';

const args = process.argv.slice(2);
const o = { lesson: null, step: 1, out: 'docs/img/lesson_page.png', size: [1280, 800], choice: null, number: null, question: false };
for (let i = 0; i < args.length; ++i) {
  const a = args[i], val = () => args[++i];
  if (a === '--step') o.step = Number(val());
  else if (a === '--out') o.out = val();
  else if (a === '--size') o.size = val().split(',').map(Number);
  else if (a === '--choice') o.choice = Number(val());
  else if (a === '--number') o.number = val();
  else if (a === '--question') o.question = true;
  else if (a === '-h' || a === '--help') {
    console.log(fs.readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1, 11).map(l => l.replace(/^\/\/ ?/, '')).join('\n'));
    process.exit(0);
  } else if (a.startsWith('-')) { console.error(`lesson_picture: unknown option ${a}`); process.exit(2); }
  else o.lesson = a.replace(/^lessons\//, '').replace(/\.json$/, '');
}
if (!o.lesson || !(o.step >= 1)) { console.error('usage: lesson_picture.mjs LESSON [--step K] [--out FILE.png] [--question] (--help)'); process.exit(2); }

let tools;
try { tools = pageTools(); } catch (e) { console.error(`lesson_picture: ${e.message}`); process.exit(2); }
const { child: server, base } = await startServe(tools.siteDir);
const { context, close } = await launchChromium(tools.chromium, tools.executablePath, { viewport: { width: o.size[0], height: o.size[1] } });
let code = 0;
try {
  const page = context.pages()[0] || await context.newPage();
  page.setDefaultTimeout(600000);
  await page.goto(`${base}?lesson=${encodeURIComponent(o.lesson)}&step=${o.step}`, { waitUntil: 'load' });
  const S = () => page.evaluate(() => window.suctionDebug.snapshot());
  const waitFor = (statuses) => page.waitForFunction((st) => { const x = window.suctionDebug.snapshot();
    return (x.lesson && st.includes(x.lesson.status)) || x.errors.length > 0; }, statuses, { timeout: 600000, polling: 200 });
  await waitFor(['predict', 'ready']);
  let s = await S();
  if (s.errors.length || !s.lesson) throw new Error(s.errors.join(' | ') || 'no lesson opened');
  const doc = JSON.parse(fs.readFileSync(path.join(tools.siteDir, 'lessons', `${o.lesson}.json`), 'utf8'));
  const pr = doc.steps[o.step - 1].predict;
  if (!o.question) {
    if (pr && pr.choices) { await page.check(`#lesson-choice-${o.choice ?? pr.answer}`); await page.click('#lesson-predict-submit'); }
    else if (pr) { await page.fill('#lesson-number', o.number ?? '1'); await page.click('#lesson-predict-submit'); }
    await page.selectOption('#speed-mode', 'realtime');
    await page.fill('#speed', '10000');
    await page.dispatchEvent('#speed', 'change');
    await page.click('#lesson-play');
    await waitFor(['done', 'missed']);
    await page.waitForFunction(() => { const x = window.suctionDebug.snapshot(); return x.lesson.event && x.step === x.lesson.event.step; }, null, { timeout: 60000, polling: 100 });
  } else if (pr && pr.choices && o.choice !== null) await page.check(`#lesson-choice-${o.choice}`);
  // the view is drawn on change: wait for two drawings, move the mouse off the page's controls
  await page.mouse.move(o.size[0] - 5, o.size[1] - 5);
  const draws = (await S()).render.draws;
  await page.waitForFunction((n) => window.suctionDebug.snapshot().render.draws >= n + 2, draws, { timeout: 10000, polling: 100 }).catch(() => {});
  s = await S();
  fs.mkdirSync(path.dirname(path.resolve(o.out)), { recursive: true });
  await page.screenshot({ path: o.out });
  console.log(`${o.out}: lesson ${o.lesson} step ${o.step} (${s.lesson.status}) at t = ${s.time.toFixed(3)} s, step ${s.step}, phase ${s.phase}`);
} catch (e) {
  console.error(`lesson_picture: ${e && e.message || e}`);
  code = 1;
} finally {
  await close();
  server.kill('SIGTERM');
}
process.exit(code);
