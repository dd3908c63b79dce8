// A lesson step played in the page, and its event found in the native CLI's CSV of the same
// scene with the same values (docs/web.md, "Lessons"): shared by web/tools/validate_lesson.mjs
// --play and the e2e test (tests/web/e2e.mjs), which checks that each step's pause lands within
// one step of the event's time in the CLI's CSV.
//
//   playStep(context, base, { name, k, step })  the page at ?lesson=NAME&step=K: its prediction
//                                              answered, played at the page's top speed to its
//                                              pause; what the page shows there
//   cliEvent({ cli, root, step, event, ... })   `suction run scenes/SCENE.json --quality
//                                              interactive --set P=V ... --csv FILE`, the CSV's
//                                              rows made into samples and fed to the page's own
//                                              EventWatch (src/lesson_events.js): the first row
//                                              where the event happens
//
// What the CSV gives the samples (docs/cli.md, "CSV columns"): t, step, contacts, cavities (the
// active ones), pressure_min (the lowest active pressure; P_atm where there is no cavity, which
// is where P_atm is read), volume_total, air_total (Σ N over the active cavities), holding_force.
// The phase rules (src/phase.js) read the lowest active pressure and the active cavities' total
// air, so one cavity made of pressure_min, volume_total and air_total gives the same phase as
// the cavities themselves. What it does not give: the contacts touching the first driver's body
// (the hand's), which the phase panel counts for `pressing` without a cavity (src/phase.js rule
// 5); a `pressing` event in a scene with a driver is therefore not looked for in the CSV (the
// comparison says so and fails), rather than guessed from every contact.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { EventWatch, parseEvent } from '../src/lesson_events.js';
import { stepOverrides } from '../src/lesson_format.js';

// ---- the CLI's CSV -------------------------------------------------------------------------------
/** One CSV line split on commas; a quoted field (a probe name with a comma) kept whole (RFC 4180). */
function splitCsvLine(line) {
  const out = [];
  let cur = '', quoted = false;
  for (let i = 0; i < line.length; ++i) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') { cur += '"'; ++i; } else if (ch === '"') quoted = false; else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { out.push(cur); cur = ''; } else cur += ch;
  }
  out.push(cur);
  return out;
}

const csvNumber = (s) => (s === 'inf' ? Infinity : s === '-inf' ? -Infinity : s === 'nan' ? NaN : Number(s));

/** { header: [names], rows: [{ name: number }] } of `suction run --csv` text. */
export function parseCsv(text) {
  const lines = text.split('\n').filter(l => l.length);
  const header = splitCsvLine(lines[0]);
  const rows = lines.slice(1).map(l => { const v = splitCsvLine(l); return Object.fromEntries(header.map((h, i) => [h, csvNumber(v[i])])); });
  return { header, rows };
}

const NEEDED = ['step', 't', 'contacts', 'cavities', 'pressure_min', 'volume_total', 'air_total', 'holding_force'];

/**
 * The page's plot samples (src/sim_host.js sampleNow) made from the CSV's rows: { t, step, pAtm,
 * contacts, cavities: [one of pressure_min, volume_total, air_total] or [], force, hand: NaN,
 * probes: [] }, without handContacts (not in the CSV). pAtm: pressure_min of a row without a
 * cavity (docs/cli.md: P_atm there), else `pAtm`.
 */
export function csvSamples(text, { pAtm = NaN } = {}) {
  const { header, rows } = parseCsv(text);
  const missing = NEEDED.filter(c => !header.includes(c));
  if (missing.length) throw new Error(`the CSV has no column ${missing.join(', ')} (header: ${header.join(',')})`);
  const free = rows.find(r => r.cavities === 0);
  const pa = free ? free.pressure_min : pAtm;
  if (!Number.isFinite(pa)) throw new Error('P_atm: every row of the CSV has a cavity and none was given');
  return rows.map(r => ({
    t: r.t, step: r.step, pAtm: pa, contacts: r.contacts,
    cavities: r.cavities > 0 ? [{ id: 0, pressure: r.pressure_min, volume: r.volume_total, air: r.air_total, area: NaN,
                                  force: r.holding_force, temperature: NaN, dormant: false }] : [],
    force: r.holding_force, hand: NaN, probes: [],
  }));
}

/** The first of `samples` where `event` happens (the page's EventWatch), or null. */
export function eventInSamples(event, samples, { duration = Infinity } = {}) {
  const w = new EventWatch(event, { duration });
  for (const s of samples) if (w.push(s)) return s;
  return null;
}

/** Why the CSV cannot show `event` for this scene, or null when it can. */
export function csvCannotShow(event, sceneDoc) {
  const e = parseEvent(event);
  if (e && e.name === 'pressing' && Array.isArray(sceneDoc.drivers) && sceneDoc.drivers.length > 0) {
    return "the CLI's CSV has no count of the contacts touching the first driver's body (the hand's), which the phase panel's " +
           "'pressing' counts where there is no cavity (src/phase.js rule 5): not looked for in the CSV";
  }
  return null;
}

const run = (cmd, args, timeoutMs) => new Promise((resolve) => {
  execFile(cmd, args, { timeout: timeoutMs, maxBuffer: 16 << 20 }, (err, stdout, stderr) => resolve({ err, stdout, stderr }));
});

/**
 * The step's event in the CLI's CSV: runs `CLI run scenes/SCENE.json --quality Q --set P=V ...
 * --csv FILE --quiet [--duration UNTIL]` and feeds its rows to the page's EventWatch.
 * until: simulated time to run [s] (the page's pause and a few steps is enough to find an event
 * within one step of it; default: the scene's duration). Returns { t, step, rows, lastT, seconds,
 * command } or { error } (the CLI missing or failing, a column missing, an event the CSV cannot
 * show); t and step are null when the event is not in the rows.
 */
export async function cliEvent({ cli, root, step, event = step.pause_at, quality = 'interactive', duration = Infinity, until = null,
                                 timeoutMs = 600000 }) {
  const scenePath = path.join(root, 'scenes', `${step.scene}.json`);
  if (!cli || !fs.existsSync(cli)) return { error: `no native CLI at ${cli} (make native builds it; make test builds it before the web tests)` };
  const doc = JSON.parse(fs.readFileSync(scenePath, 'utf8'));
  const why = csvCannotShow(event, doc);
  if (why) return { error: why };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lesson-cli-'));
  const csv = path.join(dir, 'run.csv');
  const args = ['run', scenePath, '--quality', quality, ...stepOverrides(step).flatMap(([p, v]) => ['--set', `${p}=${v}`]),
                '--csv', csv, '--quiet', ...(until !== null && until < duration ? ['--duration', String(until)] : [])];
  const shown = (a) => (a.startsWith(root + path.sep) ? path.relative(root, a) : a);
  const command = [cli, ...args].map(shown).map(a => (/[\s"'$]/.test(a) ? `'${a}'` : a)).join(' ');
  const t0 = Date.now();
  try {
    const r = await run(cli, args, timeoutMs);
    const seconds = (Date.now() - t0) / 1000;
    if (r.err) return { error: `${command}: exit ${r.err.code ?? r.err.signal}: ${`${r.stderr}`.trim().split('\n').slice(-3).join(' | ')}`, command, seconds };
    let samples;
    try { samples = csvSamples(fs.readFileSync(csv, 'utf8')); } catch (e) { return { error: `${command}: ${e.message}`, command, seconds }; }
    const at = eventInSamples(event, samples, { duration });
    return { t: at ? at.t : null, step: at ? at.step : null, rows: samples.length, lastT: samples.length ? samples[samples.length - 1].t : NaN,
             seconds, command };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// ---- the page --------------------------------------------------------------------------------------
/**
 * Opens ?lesson=NAME&step=K in a new page of `context` (playwright), answers its prediction (a
 * choice: `answer`, default the right one; a number: `number`, default 1), sets the speed to
 * x real time 10000, plays, and waits for the pause at the step's event (or the scene's end
 * without it) and for the frame of that step. Returns { status: 'done'|'missed'|'error',
 * event: { name, t, step, values, missed }, phase, time, pageStep, dt, duration, explain (the
 * text), lesson (the snapshot's), errors, seconds }. The page is closed unless keepOpen.
 */
export async function playStep(context, base, { name, k, step, quality = 'interactive', answer = null, number = 1,
                                                timeoutMs = 1800000, keepOpen = false, onPage = null }) {
  const t0 = Date.now();
  const errors = [];
  const page = await context.newPage();
  page.setDefaultTimeout(600000);
  page.on('pageerror', e => errors.push(String(e && e.stack || e)));
  page.on('console', m => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  if (onPage) onPage(page);
  const S = () => page.evaluate(() => window.suctionDebug.snapshot());
  const out = { name, k, status: 'error', event: null, phase: null, time: NaN, pageStep: NaN, dt: NaN, duration: NaN, explain: '', lesson: null, errors };
  try {
    await page.goto(`${base}?lesson=${encodeURIComponent(name)}&step=${k}${quality === 'reference' ? '&quality=reference' : ''}`, { waitUntil: 'load' });
    await page.waitForFunction(() => { const s = window.suctionDebug.snapshot(); return (s.lesson && ['predict', 'ready'].includes(s.lesson.status)) || s.errors.length > 0; },
                               null, { timeout: 600000, polling: 200 });
    let s = await S();
    if (s.errors.length) { errors.push(...s.errors); return out; }
    if (step.predict) {
      if (step.predict.choices) await page.check(`#lesson-choice-${answer ?? step.predict.answer}`);
      else await page.fill('#lesson-number', String(number));
      await page.click('#lesson-predict-submit');
    }
    await page.selectOption('#speed-mode', 'realtime');
    await page.fill('#speed', '10000');
    await page.dispatchEvent('#speed', 'change');
    await page.click('#lesson-play');
    await page.waitForFunction(() => { const s = window.suctionDebug.snapshot(); return (s.lesson && ['done', 'missed'].includes(s.lesson.status)) || s.errors.length > 0; },
                               null, { timeout: timeoutMs, polling: 250 });
    // the frame of the step where it paused (the page shows that step)
    await page.waitForFunction(() => { const x = window.suctionDebug.snapshot();
      return x.errors.length > 0 || (x.lesson.event && !x.playing && x.step === x.lesson.event.step); }, null, { timeout: 60000, polling: 50 }).catch(() => {});
    s = await S();
    errors.push(...s.errors);
    Object.assign(out, { status: s.lesson.status, event: s.lesson.event, phase: s.phase, time: s.time, pageStep: s.step, dt: s.dt,
                         duration: s.duration, lesson: s.lesson, explain: await page.textContent('#lesson-explain') });
    return out;
  } catch (e) {
    errors.push(String(e && e.message || e));
    return out;
  } finally {
    out.seconds = (Date.now() - t0) / 1000;
    if (keepOpen) out.page = page; else await page.close().catch(() => {});
  }
}

/**
 * Whether the page's pause is within one step of the CLI's event: { ok, text }. page: playStep's
 * result; cli: cliEvent's.
 */
export function comparePause(page, cli) {
  const ev = page.event;
  if (cli.error) return { ok: false, text: cli.error };
  if (!ev || ev.missed) {
    return { ok: cli.t === null, text: `the page did not reach it${cli.t === null ? ', nor did the CLI' : `; the CLI's CSV has it at t = ${cli.t} (step ${cli.step})`}` };
  }
  if (cli.t === null) return { ok: false, text: `page t = ${ev.t} (step ${ev.step}); not in the CLI's CSV (${cli.rows} rows to t = ${cli.lastT})` };
  const dSteps = ev.step - cli.step;
  const ok = Math.abs(dSteps) <= 1 && Math.abs(ev.t - cli.t) <= page.dt * (1 + 1e-9) + 1e-12;
  return { ok, dSteps, text: `page t = ${ev.t.toFixed(4)} s (step ${ev.step}), CLI t = ${cli.t.toFixed(4)} s (step ${cli.step})` +
                             (dSteps ? `: ${dSteps > 0 ? '+' : ''}${dSteps} step${Math.abs(dSteps) > 1 ? 's' : ''}` : ': the same step') };
}
