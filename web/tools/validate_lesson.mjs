#!/usr/bin/env node
// Checks lesson files (docs/web.md, "Lessons: writing one"):
//
//   node web/tools/validate_lesson.mjs lessons/my_lesson.json ...   # or no file: every lessons/*.json
//   node web/tools/validate_lesson.mjs --play lessons/my_lesson.json # and play each step in the page
//
// 1. the page's own check (web/src/lesson_format.js): every field, the scene names, the pointers
//    of "set" against the scene file and the scene schema, the events, the quantities in
//    "explain" and "answer_from" (with the scene's probes); each problem is a line
//    FILE: JSON-POINTER: what was expected;
// 2. the core's check of each step's scene with its values, `suction validate SCENE --set P=V ...
//    --quality interactive` (the CLI the native build makes: build/native/native/suction, or
//    $SUCTION; skipped with a note when there is none; --no-core skips it);
// 3. with --play: each step played in headless chromium on the built page (build/web: make web;
//    the lesson file is served in place of the page's copy, so an unbuilt one plays too) at the
//    page's top speed, its prediction answered, to its event; prints the time and step of the
//    pause, whether the event was reached, and the explanation with the measured numbers; with the
//    CLI, the same event found in its CSV of the same scene and values (`suction run ... --csv`,
//    web/tools/lesson_check.mjs), which must be within one step of the page's pause.
//    --quality reference plays at reference quality (default: interactive, the page's).
// Exit status: 0 all good, 1 a problem (a bad field, a refused value, an event not reached in
// --play or a pause more than one step from the CLI's), 2 bad usage or a missing tool.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { validateLesson, formatErrors, stepOverrides } from '../src/lesson_format.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
if (args.includes('-h') || args.includes('--help')) {
  console.log(fs.readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1).filter((l, i, a) => a.slice(0, i + 1).every(x => x.startsWith('//'))).map(l => l.replace(/^\/\/ ?/, '')).join('\n'));
  process.exit(0);
}
const play = args.includes('--play');
const noCore = args.includes('--no-core');
let quality = 'interactive';
const files = [];
for (let i = 0; i < args.length; ++i) {
  const a = args[i];
  if (a === '--play' || a === '--no-core') continue;
  if (a === '--quality') { quality = args[++i]; if (!['interactive', 'reference'].includes(quality)) { console.error('--quality: interactive or reference'); process.exit(2); } continue; }
  if (a.startsWith('-')) { console.error(`validate_lesson: unknown option ${a} (--help)`); process.exit(2); }
  files.push(a);
}
if (!files.length) {
  const dir = path.join(root, 'lessons');
  for (const f of fs.readdirSync(dir).filter(f => f.endsWith('.json') && f !== 'lesson.schema.json').sort()) files.push(path.join(dir, f));
}

const scenesDir = path.join(root, 'scenes');
const scenes = fs.readdirSync(scenesDir).filter(f => f.endsWith('.json')).map(f => f.replace(/\.json$/, '')).sort();
const sceneDocs = {};
for (const s of scenes) { try { sceneDocs[s] = JSON.parse(fs.readFileSync(path.join(scenesDir, `${s}.json`), 'utf8')); } catch { /* suction validate names it */ } }
const schema = JSON.parse(fs.readFileSync(path.join(scenesDir, 'schema', 'scene.schema.json'), 'utf8'));
const cli = process.env.SUCTION || path.join(root, 'build', 'native', 'native', 'suction');
const haveCli = !noCore && fs.existsSync(cli);
if (!noCore && !haveCli) console.log(`note: no ${path.relative(root, cli)} (make native, or SUCTION=/path/to/suction): the core's check of the values is skipped`);

let bad = 0;
const good = [];
for (const file of files) {
  const rel = path.relative(process.cwd(), file) || file;
  let doc;
  try { doc = JSON.parse(fs.readFileSync(file, 'utf8')); } catch (e) { console.log(`${rel}: ${e.code === 'ENOENT' ? 'no such file' : `invalid JSON: ${e.message}`}`); ++bad; continue; }
  const errors = validateLesson(doc, { scenes, sceneDocs, schema });
  for (const line of formatErrors(errors, rel)) console.log(line);
  let refused = 0;
  if (!errors.length && haveCli) {
    doc.steps.forEach((step, i) => {
      const sets = stepOverrides(step).flatMap(([p, v]) => ['--set', `${p}=${v}`]);
      const r = spawnSync(cli, ['validate', path.join(scenesDir, `${step.scene}.json`), ...sets, '--quality', quality], { encoding: 'utf8' });
      if (r.status !== 0) {
        ++refused;
        const lines = `${r.stderr}${r.stdout}`.trim().split('\n').filter(Boolean);
        for (const l of lines) console.log(`${rel}: /steps/${i}: suction validate: ${l.replace(/^.*?scenes\//, 'scenes/')}`);
      }
    });
  }
  if (errors.length || refused) { ++bad; continue; }
  console.log(`OK: ${rel} (${doc.steps.length} steps${haveCli ? ', values checked by suction validate' : ''})`);
  good.push({ file, rel, doc });
}

if (play && good.length) bad += await playLessons(good);
process.exit(bad ? 1 : 0);

/** Plays every step of each lesson in the page (web/tools/lesson_check.mjs, as the e2e test does);
 *  with the native CLI, finds each event in its CSV of the same scene and values too. Returns the
 *  number of steps whose event was not reached, or (with the CLI) whose pause is more than one
 *  step from the CLI's. */
async function playLessons(list) {
  const { startServe, pageTools, launchChromium } = await import('../../scripts/web_harness.mjs');
  const { playStep, cliEvent, comparePause } = await import('./lesson_check.mjs');
  let tools;
  try { tools = pageTools(); } catch (e) { console.error(`validate_lesson --play: ${e.message}`); process.exit(2); }
  const { child: server, base } = await startServe(tools.siteDir);
  const { context, close } = await launchChromium(tools.chromium, tools.executablePath);
  let missed = 0;
  try {
    // the files asked for are served in place of the page's copies (and listed), built or not
    const index = JSON.parse(fs.readFileSync(path.join(tools.siteDir, 'lessons', 'index.json'), 'utf8')).lessons || [];
    const names = new Map();
    for (const { file, doc } of list) {
      const name = path.basename(file).replace(/\.json$/, '');
      names.set(name, file);
      if (!index.some(l => l.name === name)) index.push({ name, file: `${name}.json`, title: doc.title, summary: doc.summary, steps: doc.steps.length });
    }
    await context.route('**/lessons/*.json', (route) => {
      const name = decodeURIComponent(new URL(route.request().url()).pathname.split('/').pop()).replace(/\.json$/, '');
      if (name === 'index') return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ lessons: index }) });
      if (names.has(name)) return route.fulfill({ status: 200, contentType: 'application/json', body: fs.readFileSync(names.get(name), 'utf8') });
      return route.continue();
    });
    for (const { file, rel, doc } of list) {
      const name = path.basename(file).replace(/\.json$/, '');
      for (let k = 1; k <= doc.steps.length; ++k) {
        const step = doc.steps[k - 1];
        const r = await playStep(context, base, { name, k, step, quality });
        if (r.errors.length) console.log(`${rel}: step ${k}: ${r.errors.join(' | ')}`);
        if (!r.event) { console.log(`${rel}: step ${k}: no pause (${r.status})`); ++missed; continue; }
        const reached = r.status === 'done';
        if (!reached && step.pause_at !== 'end') ++missed;
        console.log(`\n${rel}: step ${k} of ${doc.steps.length} (${step.scene}${step.set ? ' ' + stepOverrides(step).map(([p, v]) => `${p}=${v}`).join(' ') : ''}): ` +
                    `${reached ? 'paused at' : 'did NOT reach'} ${step.pause_at}: t = ${r.event.t.toFixed(4)} s, step ${r.event.step}, phase ${r.phase} ` +
                    `(${r.seconds.toFixed(1)} s)`);
        if (haveCli) {
          // the same scene and values in the CLI, to a few steps past the page's pause
          const until = reached && step.pause_at !== 'end' ? r.event.t + 2.5 * r.dt : null;
          const c = await cliEvent({ cli, root, step, quality, duration: r.duration, until });
          const cmp = comparePause(r, c);
          if (!cmp.ok) ++missed;
          console.log(`  the CLI's CSV: ${cmp.ok ? '' : 'MISMATCH: '}${cmp.text}`);
        }
        if (step.predict && !step.predict.choices) console.log(`  answer_from ${step.predict.answer_from} = ${r.event.values[step.predict.answer_from]}`);
        console.log(`  ${r.explain.replace(/\n/g, '\n  ')}`);
      }
    }
  } finally {
    await close();
    server.kill('SIGTERM');
  }
  return missed;
}
