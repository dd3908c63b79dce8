// The page: wires the 3D view (src/view.js, three.js), the controls (src/controls.js, lil-gui),
// the plots (src/plots.js, uPlot), the text panels (src/panels.js), the frame-rate meter
// (stats.js) and the link to the simulation worker (src/worker_link.js, the messages of
// src/messages.js). The simulation runs in the worker (src/worker.js); this thread only shows
// what the worker sends and never blocks on it. Scripts read the page through
// window.suctionDebug.snapshot() (src/debug.js).
import Stats from 'stats.js';
import { classifyPhase } from './phase.js';
import { createView } from './view.js';
import { createControls } from './controls.js';
import { Plots } from './plots.js';
import { PvPlot } from './pv_plot.js';
import { Notices } from './notices.js';
import { shareSearch, parseShare } from './share.js';
import { createLessons } from './lessons.js';
import { updatePanels } from './panels.js';
import { connectWorker } from './worker_link.js';
import { installDebug } from './debug.js';
import { MAX_SIM_THREADS, parseThreads } from './threads.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);

const state = {
  ready: false, backend: null, module: null, version: '', workerIsolated: null, simThreads: 1,
  scenes: [], schema: null, sceneName: null, sceneDoc: null, meta: null, loaded: false,
  playing: false, time: 0, step: 0, rtf: null, lastFrame: null, phase: 'free', frameArrived: false, warm: null,
};

// the snapshot for scripts (src/debug.js): it counts errors from the start
const debug = installDebug({ state: () => state, parts: () => ({ view, plots, controls, pv, lessons }) });

// ---- the banner: errors, the simulator's warnings, notes (src/notices.js) ---------------------
const notices = new Notices();
function drawBanner() {
  const level = notices.level();
  $('banner').hidden = level === null;
  $('banner').className = `banner banner-${level || 'info'}`;
  $('banner').setAttribute('role', level === 'error' ? 'alert' : 'status');
  $('banner-text').textContent = notices.lines().join('\n');
}
function showError(where, message) {
  debug.error(`${where ? where + ': ' : ''}${message}`);
  notices.add('error', where, message);
  drawBanner();
}
// the simulator's warnings of a step: amber, one line per kind with its first step and a count
function showWarning(message) {
  debug.warning(message);
  notices.add('warning', '', message);   // false for a repeat: its count still changes the line
  drawBanner();
}
// a passing note (not an error): what a live change did
function showNote(text) { notices.add('info', '', text); drawBanner(); }
function clearBanner() { notices.clear(); drawBanner(); }
$('banner-close').onclick = clearBanner;
window.addEventListener('error', (e) => showError('page', e.message));
window.addEventListener('unhandledrejection', (e) => showError('page', e.reason && e.reason.message || e.reason));

// ---- the parts -----------------------------------------------------------------------------
const view = createView($('canvas3d'), { renderParam: params.get('render'),
                                          onDrag: (driver, target) => link.send('drag', { driver, target }) });
const plots = new Plots($('plots'));
$('plot-csv').onclick = () => plots.exportCSV();
$('plot-png').onclick = () => plots.exportPNG();
$('plot-keep').onclick = () => { if (plots.keepAsPrevious()) { $('plot-forget').hidden = false; plots.update(performance.now(), true); } };
$('plot-forget').onclick = () => { plots.clearPrevious(); $('plot-forget').hidden = true; };
const pv = new PvPlot($('pv'));
const controls = createControls($('controls'), {
  onShow: (show) => view.setShow(show),
  onApply: (list) => { clearBanner(); link.send('override', { list }); },
  onError: (text) => showError('parameters', text),
});
// stats.js: new states shown per second (FPS), and the page's time per state (MS; click toggles),
// in the 3D view's top left corner (in the header it hung below it and wrapped its controls)
const stats = new Stats();
stats.domElement.title = 'frames: new simulation states shown per second (click: ms the page spent on each)';
$('frame-meter').appendChild(stats.domElement);

// ---- lessons (src/lessons.js): the header's list, ?lesson=NAME&step=K, the lesson panel --------------
const lessons = createLessons({
  sceneNames: () => state.scenes.map(s => s.name),
  sceneFile: (name) => (state.scenes.find(s => s.name === name) || { file: `${name}.json` }).file,
  schema: () => state.schema,
  // a step's scene, its values sent once it has loaded (as a share link's: checked by the worker)
  loadSceneText: (name, text, sets) => {
    clearBanner();
    $('scene').value = name;
    state.linkSets = sets.length ? { scene: name, sets } : null;
    startLoad(text, name);
  },
  send: (type, fields) => link.send(type, fields),
  play: () => link.send('play'),
  isPlaying: () => state.playing,
  setShow: (toggles) => controls.setShow(toggles),
  showError,
  // the address shows the lesson and step (or, closed, the scene)
  setUrl: (where) => {
    const u = new URL(location.href);
    for (const k of ['lesson', 'step', 'scene', 'set']) u.searchParams.delete(k);
    if (where) { u.searchParams.set('lesson', where.lesson); u.searchParams.set('step', String(where.step)); }
    else if (state.sceneName) u.searchParams.set('scene', state.sceneName);
    history.replaceState(null, '', u);
  },
});

// ---- the worker ------------------------------------------------------------------------------
const link = connectWorker(new URL('./worker.js', import.meta.url), {
  ready(msg) {
    Object.assign(state, { ready: true, backend: msg.backend, module: msg.module, version: msg.version,
                           workerIsolated: msg.crossOriginIsolated, simThreads: msg.simThreads || 1 });
    const render = view.info().render;
    $('backend').textContent = (msg.backend === 'mock' ? 'MOCK backend (no wasm)'
      : `wasm ${msg.version}` + (state.simThreads > 1 ? `, ${state.simThreads} threads` : '')) +
      (render.quality === 'fast' ? ', fast drawing' : '');
    $('backend').title = `drawing: ${render.quality} (${render.reason}; WebGL renderer: ${render.glRenderer || 'unknown'}); ` +
      '?render=full or ?render=fast chooses';
    if (msg.backend === 'mock') showError('backend', 'running the JS mock of the simulator (?backend=mock): toy physics, not the real solver');
  },
  loaded: onLoaded,
  frame: onFrame,
  status(msg) { state.playing = msg.playing; $('play').textContent = msg.playing ? '❚❚ pause' : '▶ play'; lessons.onStatus(msg.playing); },
  reset() { plots.clear(); lessons.onReset(); },
  end() { $('clock').textContent += ' (end)'; },
  overridden(msg) {
    for (const [ptr, value] of msg.applied) setLocal(state.sceneDoc, ptr, value);
    state.changed.push(...msg.applied);   // what a share link carries
    if (msg.live && msg.applied.length === msg.requested) {
      controls.accept();   // taken by the running simulation: the panel's values are now the running ones
      if (state.meta && msg.dt) state.meta.dt = msg.dt;
      showNote(`changed live at t = ${Number(msg.time).toFixed(2)} s: ${msg.applied.map(([p, v]) => `${p} = ${v}`).join(', ')}`);
    } else if (msg.restart) showNote(`restarted: ${msg.restart.replace(/^.*cannot change while the simulation runs: /, '')}`);
    lessons.onOverridden(msg);
  },
  // a lesson step's event: the worker paused there (src/lessons.js)
  event(msg) { lessons.onEvent(msg); },
  // the worker's warm-up after a load ended (src/sim_host.js, startWarmup): what the benches wait for
  warm(msg) { state.warm = { steps: msg.steps, ms: msg.ms, complete: msg.complete }; },
  error(msg) { if (msg.where === 'warning') showWarning(msg.message); else showError(msg.where, msg.message); },
}, { onAny: () => view.requestDraw(), onError: showError });

// ?threads=N: the simulation's threads (1 to 4; by default the cores, src/threads.js)
const askedThreads = parseThreads(params.get('threads'));
if (params.get('threads') !== null && askedThreads === null)
  showError('threads', `?threads=${params.get('threads')}: expected a whole number from 1 to ${MAX_SIM_THREADS}; using the default`);
// ?warmup=N: the steps the worker plays unseen after each load (0: none; src/sim_host.js)
const warmupText = params.get('warmup');
const askedWarmup = warmupText !== null && /^\d{1,4}$/.test(warmupText) && Number(warmupText) <= 1000 ? Number(warmupText) : null;
if (warmupText !== null && askedWarmup === null)
  showError('warmup', `?warmup=${warmupText}: expected a whole number of steps from 0 to 1000; using the default`);
link.send('init', { backend: params.get('backend') === 'mock' ? 'mock' : 'wasm',
                    ...(askedThreads !== null ? { simThreads: askedThreads } : {}),
                    ...(askedWarmup !== null ? { warmup: askedWarmup } : {}) });
// a link's scene, quality and values (src/share.js): ?quality=reference chooses the quality at
// start (the worker starts at interactive); the values are sent once the scene has loaded
const linked = parseShare(params);
state.linkErrors = linked.errors;   // shown once the scene has loaded (a load clears the banner)
state.linkSets = !linked.lesson && linked.scene && linked.sets.length ? { scene: linked.scene, sets: linked.sets } : null;
if (linked.quality === 'reference') $('quality').value = 'reference';
if ($('quality').value !== 'interactive') link.send('quality', { name: $('quality').value });
$('quality').onchange = () => link.send('quality', { name: $('quality').value });
queueMicrotask(() => sendSpeed());

/** The scene's JSON as the worker now runs it (after an override). */
function setLocal(doc, pointer, valueText) {
  let v; try { v = JSON.parse(valueText); } catch { v = valueText; }
  const toks = pointer.split('/').slice(1).map(t => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (toks[0] === 'parameters' && toks.length === 2 && doc.parameters && doc.parameters[toks[1]]) { doc.parameters[toks[1]].default = v; return; }
  let cur = doc;
  for (let i = 0; i < toks.length - 1; ++i) { if (cur[toks[i]] === undefined) cur[toks[i]] = {}; cur = cur[toks[i]]; }
  cur[toks[toks.length - 1]] = v;
}

// ---- scenes ----------------------------------------------------------------------------------
async function loadSceneList() {
  const r = await fetch('scenes/index.json');
  if (!r.ok) throw new Error(`scenes/index.json: HTTP ${r.status}`);
  const idx = await r.json();
  state.scenes = idx.scenes || [];
  // the scene schema: which parameters the controls panel edits (src/scene_params.js)
  const rs = await fetch('scenes/schema/scene.schema.json');
  if (!rs.ok) throw new Error(`scenes/schema/scene.schema.json: HTTP ${rs.status}`);
  state.schema = await rs.json();
  const sel = $('scene');
  sel.innerHTML = '';
  for (const s of state.scenes) {
    const o = document.createElement('option');
    o.value = s.name; o.textContent = s.name; o.title = s.description || '';
    sel.appendChild(o);
  }
  const names = state.scenes.map(s => s.name);
  const wanted = params.get('scene');
  return wanted && names.includes(wanted) ? wanted : names.includes('ground') ? 'ground' : names.includes('default') ? 'default' : names[0];
}

/** Sends a scene's text to the worker; mesh files it names resolve against the page's scenes/. */
function startLoad(text, name) {
  state.loaded = false;
  state.changed = [];
  view.unload();
  try { state.sceneDoc = JSON.parse(text); } catch (e) { state.sceneDoc = {}; }
  state.sceneName = name;
  link.send('load', { text, name, baseDir: 'scenes' });
}

async function loadScene(name) {
  lessons.close();   // the scene picker leaves a lesson
  clearBanner();
  $('scene').value = name;
  const entry = state.scenes.find(s => s.name === name);
  const file = entry ? entry.file : `${name}.json`;
  const r = await fetch(`scenes/${file}`);
  if (!r.ok) { showError('load', `scenes/${file}: HTTP ${r.status}`); return; }
  const text = await r.text();
  const u = new URL(location.href); u.searchParams.set('scene', name); history.replaceState(null, '', u);
  startLoad(text, name);
}
$('scene').onchange = () => loadScene($('scene').value);

/** A scene file of the user's (the "open…" button or a file dropped on the page): loaded like a
 *  shipped one; the worker's reader names each problem by its JSON pointer in the banner. */
async function loadSceneFile(file) {
  lessons.close();
  clearBanner();
  startLoad(await file.text(), file.name.replace(/\.json$/i, ''));
}
$('scene-file').onchange = (e) => { const f = e.target.files[0]; if (f) loadSceneFile(f).catch((err) => showError('open', err.message)); e.target.value = ''; };
window.addEventListener('dragover', (e) => { e.preventDefault(); });
window.addEventListener('drop', (e) => {
  e.preventDefault();
  const f = e.dataTransfer && e.dataTransfer.files[0];
  if (f) loadSceneFile(f).catch((err) => showError('open', err.message));
});

function onLoaded(meta) {
  notices.clear('warning');   // a new scene: the last one's warnings no longer apply
  drawBanner();
  Object.assign(state, { meta, loaded: true, time: 0, step: 0, lastFrame: null, phase: 'free', warm: null });
  debug.loaded();
  // compare: a kept run stays across reloads of its scene (a restart, another quality), not to another
  if (plots.previous && plots.scene !== (state.sceneName || meta.name)) { plots.clearPrevious(); $('plot-forget').hidden = true; }
  plots.clear({ pAtm: meta.pAtm, duration: meta.duration, scene: state.sceneName || meta.name });
  view.load(meta);
  $('scene-desc').textContent = meta.description;
  if (meta.quality) $('quality').value = meta.quality;
  const changes = meta.qualityChanges || [];
  $('quality').title = meta.quality !== 'interactive' ? 'reference: the scene exactly as written'
    : changes.length ? `interactive: ${changes.join(', ')}`
    : 'interactive: nothing changed (this scene plays at reference quality: see its settings.interactive)';
  controls.setScene(state.sceneDoc, meta, state.schema);
  view.setShow(controls.show);
  // a share link's malformed entries, and its values, once, on the scene it named (checked by
  // the worker like a scene's)
  for (const e of state.linkErrors || []) showError('link', e);
  state.linkErrors = null;
  for (const e of state.lessonErrors || []) showError('lesson', e);
  state.lessonErrors = null;
  if (state.linkSets && state.linkSets.scene === state.sceneName) {
    const list = state.linkSets.sets;
    state.linkSets = null;
    if (list.length) link.send('override', { list });
  }
  lessons.onLoaded();
}

// ---- share: a link that reproduces what is on screen (src/share.js) ---------------------------
function shareUrl() {
  const u = new URL(location.href);
  const ls = lessons.shareState();
  // in a lesson: the lesson and its step, and only the values changed beyond the step's own
  const own = new Set(ls ? ls.own.map(([p, v]) => `${p}=${v}`) : []);
  const sets = (state.changed || []).filter(([p, v]) => !own.has(`${p}=${v}`));
  u.search = shareSearch({ scene: state.sceneName, quality: $('quality').value, sets, lesson: ls && ls.lesson, step: ls && ls.step });
  return u.toString();
}
$('share').onclick = async () => {
  const url = shareUrl();
  state.shareUrl = url;
  let copied = false;
  try { if (navigator.clipboard) { await navigator.clipboard.writeText(url); copied = true; } } catch { /* not allowed here */ }
  showNote(`${copied ? 'link copied' : 'link (copy it)'}: ${url}`);
};

function onFrame(f) {
  stats.begin();
  Object.assign(state, { lastFrame: f, time: f.time, step: f.step, rtf: f.rtf });
  view.frame(f);
  plots.push(f.samples);
  const last = plots.samples.last();
  state.phase = last ? classifyPhase(plots.samples.since(last.t - 1.0)) : 'free';
  debug.frame(f, state.phase);
  updatePanels(f, { phase: state.phase, meta: state.meta });
  state.frameArrived = true;
  stats.end();
}

// ---- transport (the header) --------------------------------------------------------------------
$('play').onclick = () => { if (!state.playing && lessons.blocksPlay()) return; link.send(state.playing ? 'pause' : 'play'); };
$('step').onclick = () => { if (lessons.blocksPlay()) return; link.send('step', { n: 1 }); };
$('reset').onclick = () => link.send('reset');
function sendSpeed() {
  const mode = $('speed-mode').value, v = Number($('speed').value);
  if (!(v > 0)) { showError('speed', 'the speed must be a positive number'); return; }
  link.send('speed', mode === 'steps' ? { mode, stepsPerFrame: Math.max(1, Math.round(v)) } : { mode, timeFactor: v });
}
$('speed-mode').onchange = () => { $('speed').step = $('speed-mode').value === 'steps' ? '1' : '0.1'; sendSpeed(); };
$('speed').onchange = sendSpeed;
$('speed').oninput = () => { if (Number($('speed').value) > 0) sendSpeed(); };
window.addEventListener('keydown', (e) => {
  if (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT' || e.target.tagName === 'BUTTON') return;
  if (e.code === 'Space') { e.preventDefault(); $('play').click(); }
});

// ---- the loop: draw what changed, then ask the worker for the next frame ----------------------
function loop(now) {
  view.tick(now);
  const drew = plots.update(now);
  // the P-V diagram: with the plots' redraw, and whenever the plots' cursor moves to another time
  const tc = plots.cursorTime();
  if (drew || tc !== state.pvCursor) { state.pvCursor = tc; pv.update(plots.samples.toArray(), { t: tc }); }
  if (state.frameArrived) {
    state.frameArrived = false;
    link.send('ack');   // ready for the next frame
  }
  requestAnimationFrame(loop);
}
requestAnimationFrame(loop);

// ---- start ---------------------------------------------------------------------------------------
if (view.renderModeError) showError('render', view.renderModeError);
loadSceneList().then(async (name) => {
  // ?lesson=NAME&step=K opens a lesson (its step loads its scene); a bad one is named once a scene has loaded
  if (linked.lesson) {
    const problems = await lessons.open(linked.lesson, linked.step, { extraSets: linked.sets });
    if (lessons.isOpen()) { for (const e of problems) showError('lesson', e); return; }
    state.lessonErrors = problems;
  }
  return loadScene(name);
}).catch((e) => showError('scenes', e.message));
