// The lessons (docs/web.md, "Lessons"): a short sequence of steps over the shipped scenes, each
// step loading its scene with its values, saying what to watch, asking for a prediction, playing
// until its event (the worker pauses there: src/sim_host.js pauseAt, src/lesson_events.js) and
// then explaining with the numbers measured at the pause (src/lesson_text.js). The files are
// lessons/NAME.json (lessons/lesson.schema.json), listed in lessons/index.json by web/build.mjs
// and checked on opening by src/lesson_format.js. DOM only here; the rules live in the pure modules.
//
// Reached from the header's "lessons" button (a list of the lessons) and from the URL,
// ?lesson=NAME&step=K (K from 1; what the share button writes while a lesson is open).
import { validateLesson, formatErrors, stepOverrides } from './lesson_format.js';
import { parseEvent } from './lesson_events.js';
import { fillText, judgeNumber, formatValue, defaultDigits } from './lesson_text.js';

/** A step's "show" keys -> the controls panel's toggles (src/controls.js); pv is the lesson's own. */
const SHOW_TO_CONTROLS = Object.freeze({ forces: 'loads', contact_forces: 'forces', cavities: 'cavities', contacts: 'contacts', seam: 'seam', wireframe: 'wireframe' });

/** An event in words: "the seal ('sealed')", "t = 1.2 s", "the scene's end". */
export function eventLabel(name) {
  const ev = parseEvent(name);
  if (!ev) return String(name);
  if (ev.kind === 'time') return `t = ${name.slice(2)} s`;
  if (ev.kind === 'end') return "the scene's end";
  return { contact: 'the first contact', sealed: 'the seal', pressing: 'pressing', holding: 'holding', leaking: 'leaking', released: 'the release' }[name] || name;
}

/**
 * host: { sceneNames(), sceneFile(name), schema(), loadSceneText(name, text, sets), send(type, fields),
 *         play(), isPlaying(), setShow(toggles), showError(where, text), setUrl(params|null) }
 */
export function createLessons(host) {
  const $ = (id) => document.getElementById(id);
  let index = null;     // [{ name, title, summary, steps }] from lessons/index.json
  let cur = null;       // the open lesson: { name, doc, texts, i, status, prediction, result, event, extraSets }

  // ---- the list (header: "lessons") -------------------------------------------------------------
  async function loadIndex() {
    if (index) return index;
    try {
      const r = await fetch('lessons/index.json');
      if (!r.ok) throw new Error(`lessons/index.json: HTTP ${r.status}`);
      index = (await r.json()).lessons || [];
    } catch (e) {
      index = [];
      $('lessons-button').disabled = true;
      $('lessons-button').title = `no lessons: ${e.message}`;
    }
    const ul = $('lesson-items');
    ul.innerHTML = '';
    for (const l of index) {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.type = 'button'; b.className = 'lesson-open'; b.dataset.lesson = l.name;
      b.textContent = l.title;
      b.setAttribute('aria-describedby', `lesson-summary-${l.name}`);
      // opened, the focus goes to the lesson's title (the list's button is gone): Tab goes on into the lesson
      b.onclick = () => { showList(false); open(l.name, 1).then(errs => { for (const e of errs) host.showError('lesson', e); if (cur) $('lesson-title').focus(); }); };
      const p = document.createElement('p');
      p.id = `lesson-summary-${l.name}`; p.className = 'muted';
      p.textContent = `${l.summary} (${l.steps} step${l.steps === 1 ? '' : 's'})`;
      li.append(b, p);
      ul.appendChild(li);
    }
    return index;
  }

  function showList(on) {
    $('lesson-list').hidden = !on;
    $('lessons-button').setAttribute('aria-expanded', String(on));
    if (on) { const first = document.querySelector('#lesson-items button'); if (first) first.focus(); }
  }
  $('lessons-button').onclick = async () => { await loadIndex(); showList($('lesson-list').hidden); };
  $('lesson-list-close').onclick = () => { showList(false); $('lessons-button').focus(); };
  // keys in the list: Escape closes it; the arrows (and Home, End) move between the lessons
  $('lesson-list').addEventListener('keydown', (e) => {
    if (e.key === 'Escape') { showList(false); $('lessons-button').focus(); return; }
    const items = [...document.querySelectorAll('#lesson-items button')];
    const i = items.indexOf(document.activeElement);
    const to = { ArrowDown: i + 1, ArrowUp: i - 1, Home: 0, End: items.length - 1 }[e.key];
    if (to === undefined || !items.length) return;
    e.preventDefault();
    items[Math.max(0, Math.min(items.length - 1, i < 0 && e.key === 'ArrowUp' ? items.length - 1 : to))].focus();
  });

  // ---- opening a lesson ---------------------------------------------------------------------------
  /**
   * Opens lesson `name` at step k (from 1). extraSets: [pointer, value text] applied after the
   * step's own (a share link's). Resolves the problems as lines (empty: opened).
   */
  async function open(name, k = 1, { extraSets = [] } = {}) {
    const list = await loadIndex();
    if (!list.some(l => l.name === name)) {
      return [`no lesson '${name}' (lessons/${name}.json is not among the page's lessons: ${list.map(l => l.name).join(', ') || 'none'})`];
    }
    let doc;
    try {
      const r = await fetch(`lessons/${encodeURIComponent(name)}.json`);
      if (!r.ok) return [`lessons/${name}.json: HTTP ${r.status}`];
      doc = JSON.parse(await r.text());
    } catch (e) { return [`lessons/${name}.json: ${e.message}`]; }
    // the scenes of its steps: their text (to load) and JSON (to check pointers, probes, durations)
    const names = host.sceneNames();
    const texts = {}, sceneDocs = {};
    const wanted = new Set((Array.isArray(doc.steps) ? doc.steps : []).map(s => s && s.scene).filter(n => typeof n === 'string' && names.includes(n)));
    for (const s of wanted) {
      const r = await fetch(`scenes/${host.sceneFile(s)}`);
      if (!r.ok) return [`scenes/${host.sceneFile(s)}: HTTP ${r.status}`];
      texts[s] = await r.text();
      try { sceneDocs[s] = JSON.parse(texts[s]); } catch { /* the loader names it */ }
    }
    const errors = validateLesson(doc, { scenes: names, sceneDocs, schema: host.schema() });
    if (errors.length) return formatErrors(errors, `lessons/${name}.json`);
    const problems = [];
    if (k > doc.steps.length) { problems.push(`step=${k}: lesson '${name}' has ${doc.steps.length} steps; opened at step 1`); k = 1; extraSets = []; }
    cur = { name, doc, texts, i: 0 };
    $('lesson').hidden = false;
    openStep(k - 1, extraSets);
    return problems;
  }

  function step() { return cur && cur.doc.steps[cur.i]; }

  /** Loads step i's scene with its values, arms its event, shows what to watch. */
  function openStep(i, extraSets = []) {
    Object.assign(cur, { i, status: 'loading', prediction: null, result: null, event: null, extraSets });
    const s = step();
    host.setUrl({ lesson: cur.name, step: i + 1 });
    const sets = [...stepOverrides(s), ...extraSets];
    cur.expectOverride = sets.length > 0;
    host.loadSceneText(s.scene, cur.texts[s.scene], sets);
    host.send('pauseAt', { event: s.pause_at });
    // what the step shows: the view's toggles, the P-V diagram
    const toggles = {};
    for (const [k, v] of Object.entries(s.show || {})) if (SHOW_TO_CONTROLS[k]) toggles[SHOW_TO_CONTROLS[k]] = v;
    host.setShow(toggles);
    const pvSection = $('pv-section');
    pvSection.classList.toggle('lesson-highlight', !!(s.show && s.show.pv));
    if (s.show && s.show.pv) pvSection.scrollIntoView({ block: 'start' });
    buildPrediction(s);
    render();
  }

  // ---- the prediction form ----------------------------------------------------------------------
  function buildPrediction(s) {
    const form = $('lesson-predict');
    const box = $('lesson-answers');
    box.innerHTML = '';
    form.hidden = !s.predict;
    if (!s.predict) return;
    $('lesson-question').textContent = s.predict.question;
    if (s.predict.choices) {
      s.predict.choices.forEach((c, j) => {
        const label = document.createElement('label');
        label.className = 'lesson-choice';
        const input = document.createElement('input');
        input.type = 'radio'; input.name = 'lesson-choice'; input.value = String(j); input.id = `lesson-choice-${j}`;
        label.append(input, ` ${c}`);
        box.appendChild(label);
      });
    } else {
      const label = document.createElement('label');
      label.htmlFor = 'lesson-number';
      label.textContent = `your answer${s.predict.unit ? ` [${s.predict.unit}]` : ''}`;
      const input = document.createElement('input');
      input.type = 'number'; input.step = 'any'; input.id = 'lesson-number'; input.inputMode = 'decimal';
      box.append(label, ' ', input);
    }
    for (const el of form.querySelectorAll('input, button')) el.disabled = false;
  }

  $('lesson-predict').onsubmit = (e) => {
    e.preventDefault();
    const s = step();
    if (!cur || !s.predict || cur.prediction) return;
    if (s.predict.choices) {
      const sel = document.querySelector('#lesson-answers input[name=lesson-choice]:checked');
      if (!sel) { say('choose one of the answers first'); return; }
      cur.prediction = { choice: Number(sel.value), text: s.predict.choices[Number(sel.value)] };
    } else {
      const x = Number($('lesson-number').value);
      if ($('lesson-number').value.trim() === '' || !Number.isFinite(x)) { say('write a number first'); $('lesson-number').focus(); return; }
      cur.prediction = { value: x, text: `${x}${s.predict.unit ? ` ${s.predict.unit}` : ''}` };
    }
    for (const el of $('lesson-predict').querySelectorAll('input, button')) el.disabled = true;
    if (cur.status === 'predict') cur.status = 'ready';
    render();
    if (!$('lesson-play').disabled) $('lesson-play').focus();
  };

  function say(text) { $('lesson-status').textContent = text; }

  // ---- playing to the event -------------------------------------------------------------------------
  /** Whether play must wait (a prediction first); says so in the lesson panel. */
  function blocksPlay() {
    if (!cur || !step().predict || cur.prediction) return false;
    say('make your prediction first, then play');
    const first = document.querySelector('#lesson-answers input');
    if (first) first.focus();
    return true;
  }
  $('lesson-play').onclick = () => {
    if (!cur || blocksPlay()) return;
    if (!host.isPlaying()) host.play();
  };
  $('lesson-back').onclick = () => { if (cur && cur.i > 0) openStep(cur.i - 1); };
  $('lesson-next').onclick = () => { if (cur && cur.i + 1 < cur.doc.steps.length) openStep(cur.i + 1); };
  $('lesson-close').onclick = () => close();

  function ready() {
    if (!cur || cur.status !== 'loading' && cur.status !== 'applying') return;
    cur.status = step().predict && !cur.prediction ? 'predict' : 'ready';
    render();
  }

  /** The scene was loaded (main.js onLoaded): the step's values follow, or it is ready. */
  function onLoaded() {
    if (!cur) return;
    if (cur.status === 'loading') { if (cur.expectOverride) cur.status = 'applying'; else ready(); }
  }
  /** The worker applied the step's values (main.js overridden). */
  function onOverridden(msg) {
    if (!cur || cur.status !== 'applying') return;
    cur.applyError = msg.applied.length !== msg.requested;
    ready();
  }
  function onStatus(playing) {
    if (!cur) return;
    if (playing && (cur.status === 'ready' || cur.status === 'paused')) cur.status = 'playing';
    else if (!playing && cur.status === 'playing') cur.status = 'paused';
    render();
  }
  function onReset() {
    if (!cur || ['loading', 'applying'].includes(cur.status)) return;
    cur.event = null; cur.result = null;
    cur.status = step().predict && !cur.prediction ? 'predict' : 'ready';
    render();
  }
  /** The worker paused at the step's event (or the scene ended without it). */
  function onEvent(msg) {
    if (!cur || msg.name !== step().pause_at) return;
    cur.event = msg;
    cur.status = msg.missed ? 'missed' : 'done';
    const pr = step().predict;
    if (pr && cur.prediction) {
      cur.result = pr.choices ? { right: cur.prediction.choice === pr.answer, answer: pr.choices[pr.answer] }
        : { ...judgeNumber(cur.prediction.value, msg.values[pr.answer_from], pr.tolerance) };
    }
    render();
  }

  function close() {
    if (!cur) return;
    cur = null;
    host.send('pauseAt', { event: null });
    $('lesson').hidden = true;
    $('pv-section').classList.remove('lesson-highlight');
    host.setUrl(null);
  }

  // ---- drawing the panel ------------------------------------------------------------------------------
  function render() {
    if (!cur) return;
    const s = step(), n = cur.doc.steps.length;
    $('lesson-title').textContent = cur.doc.title;
    $('lesson-progress').textContent = `step ${cur.i + 1} of ${n}` + (s.title ? `: ${s.title}` : '');
    $('lesson-watch').textContent = s.watch;
    $('lesson-back').disabled = cur.i === 0;
    $('lesson-next').disabled = cur.i + 1 >= n;
    const where = eventLabel(s.pause_at);
    const play = $('lesson-play');
    play.textContent = `▶ play to ${where}`;
    play.disabled = !['predict', 'ready', 'paused'].includes(cur.status);
    const status = {
      loading: `loading ${s.scene}…`,
      applying: `loading ${s.scene}: setting ${stepOverrides(s).map(([p, v]) => `${p} = ${v}`).join(', ')}…`,
      predict: 'make your prediction, then play',
      ready: `ready: play, the simulation pauses at ${where}` + (cur.applyError ? ' (a value of this step was refused: see the banner)' : ''),
      playing: `playing… it pauses at ${where}`,
      paused: `paused before ${where}: play to go on`,
      done: cur.event && parseEvent(s.pause_at).kind === 'time' ? `paused at t = ${formatValue(cur.event.t, 3)} s (step ${cur.event.step})`
        : `paused at ${where}: t = ${cur.event ? formatValue(cur.event.t, 3) : ''} s, step ${cur.event ? cur.event.step : ''}`,
      missed: `the scene ended (t = ${cur.event ? formatValue(cur.event.t, 3) : ''} s) before ${where}: the numbers below are at its end`,
    }[cur.status];
    $('lesson-status').textContent = status;
    // the prediction and how it went
    const pr = s.predict;
    let said = '';
    if (pr && cur.prediction) {
      said = `Your prediction: ${cur.prediction.text}.`;
      if (cur.result && pr.choices) said += cur.result.right ? ' Right.' : ` What happened: ${cur.result.answer}.`;
      else if (cur.result) {
        const shown = formatValue(cur.result.answer, defaultDigits(pr.answer_from));
        said += Number.isFinite(cur.result.error)
          ? ` Measured: ${shown}${pr.unit ? ` ${pr.unit}` : ''} (${cur.result.within ? 'within' : 'off by more than'} ${Math.round(pr.tolerance * 100)} %: yours is ${cur.result.error >= 0 ? '+' : ''}${Math.round(cur.result.error * 100)} %).`
          : ' (nothing was measured to compare it with)';
      } else said += ' Now play and see.';
    }
    $('lesson-prediction').textContent = said;
    // the explanation, with the numbers measured at the pause
    const ex = $('lesson-explain');
    const show = cur.status === 'done' || cur.status === 'missed';
    ex.hidden = !show;
    ex.innerHTML = '';
    if (show) {
      for (const part of fillText(s.explain, cur.event.values)) {
        if (typeof part === 'string') { ex.append(part); continue; }
        const span = document.createElement('span');
        span.className = 'measured';
        span.dataset.name = part.name;
        span.dataset.value = part.value === null ? '' : String(part.value);
        span.textContent = part.shown;
        span.title = part.value === null ? `${part.name}: not measured at this pause` : `${part.name}, measured at t = ${formatValue(cur.event.t, 3)} s`;
        ex.appendChild(span);
      }
    }
  }

  /** Read-only facts for src/debug.js. */
  function info() {
    if (!cur) return null;
    const s = step();
    return {
      name: cur.name, title: cur.doc.title, step: cur.i + 1, steps: cur.doc.steps.length, stepTitle: s.title || null,
      scene: s.scene, pauseAt: s.pause_at, status: cur.status, prediction: cur.prediction ? { ...cur.prediction } : null,
      result: cur.result ? { ...cur.result } : null,
      event: cur.event ? { name: cur.event.name, t: cur.event.t, step: cur.event.step, missed: cur.event.missed, values: { ...cur.event.values } } : null,
      explain: [...document.querySelectorAll('#lesson-explain .measured')].map(e => ({ name: e.dataset.name, value: e.dataset.value === '' ? null : Number(e.dataset.value), shown: e.textContent })),
    };
  }

  /** The step's own values (a share link carries the others), and where the lesson is. */
  function shareState() {
    return cur ? { lesson: cur.name, step: cur.i + 1, own: stepOverrides(step()) } : null;
  }

  return { loadIndex, open, close, blocksPlay, onLoaded, onOverridden, onStatus, onReset, onEvent, info, shareState, isOpen: () => !!cur };
}
