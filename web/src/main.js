// The page: three.js rendering and the UI. The simulation runs in a module worker
// (src/worker.js); this thread only renders what the worker sends and never blocks on it.
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { classifyPhase, PHASE_TEXT } from './phase.js';
import { RingBuffer, drawPlot } from './plot.js';
import { pressureColor, positionsChecksum, fmt } from './physics.js';
import { editableFields, displayValue, overridesFor, getPointer } from './scene_params.js';
import { parseRenderMode, isSoftwareRenderer, renderSettings, shouldDraw } from './render_quality.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);

// ---- state -------------------------------------------------------------------------------
const state = {
  ready: false, backend: null, module: null, version: '', workerIsolated: null,
  scenes: [], sceneName: null, sceneDoc: null, meta: null, loaded: false,
  playing: false, time: 0, step: 0, frames: 0, rtf: null, fps: null,
  lastFrame: null, phase: 'free', errors: [], checksum: 0, grab: null,
  drag: null, cavitiesInScene: 0,
  framesWithCavity: 0, framesWithCavityMesh: 0, phasesSeen: new Set(), minPressureSeen: null,
};
const samples = new RingBuffer(6000);

// ---- error banner --------------------------------------------------------------------------
function showError(where, message) {
  const text = `${where ? where + ': ' : ''}${message}`;
  state.errors.push(text);
  const el = $('banner-text');
  el.textContent = el.textContent && !$('banner').hidden ? `${el.textContent}\n${text}` : text;
  $('banner').hidden = false;
}
// a passing note in the banner (not an error): what a live change did
function showNote(text) {
  $('banner-text').textContent = text;
  $('banner').hidden = false;
}
function clearBanner() { $('banner').hidden = true; $('banner-text').textContent = ''; }
$('banner-close').onclick = clearBanner;
window.addEventListener('error', (e) => showError('page', e.message));
window.addEventListener('unhandledrejection', (e) => showError('page', e.reason && e.reason.message || e.reason));

// ---- three.js ------------------------------------------------------------------------------
const canvas = $('canvas3d');
// the WebGL renderer's name, from a throw-away context: on a software renderer the drawing
// competes with the simulation for the CPU (src/render_quality.js)
function webglRendererName() {
  try {
    const gl = document.createElement('canvas').getContext('webgl');
    if (!gl) return '';
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER) || '');
    const lose = gl.getExtension('WEBGL_lose_context');
    if (lose) lose.loseContext();
    return name;
  } catch { return ''; }
}
const renderMode = parseRenderMode(params.get('render'));
const glRenderer = webglRendererName();
const software = isSoftwareRenderer(glRenderer);
const render = { mode: renderMode.mode, glRenderer, software,
                 ...renderSettings(renderMode.mode, software, window.devicePixelRatio), draws: 0 };
const renderer = new THREE.WebGLRenderer({ canvas, antialias: render.antialias });
renderer.setPixelRatio(render.pixelRatio);
const scene3 = new THREE.Scene();
scene3.background = new THREE.Color(0xe9edf2);
const camera = new THREE.PerspectiveCamera(40, 1, 1e-4, 100);
camera.up.set(0, 0, 1);                      // scenes are z-up
camera.position.set(0.06, -0.09, 0.06);
scene3.add(new THREE.HemisphereLight(0xffffff, 0x667788, 1.6));
const sun = new THREE.DirectionalLight(0xffffff, 1.6);
sun.position.set(1, -2, 3);
scene3.add(sun);

// our pointer handler first: it disables the controls when a drag starts (see onPointerDown)
canvas.addEventListener('pointerdown', onPointerDown);
const controls = new OrbitControls(camera, canvas);
controls.enableDamping = true;
controls.target.set(0, 0, 0.005);

const bodyGroup = new THREE.Group(); scene3.add(bodyGroup);
const cavityGroup = new THREE.Group(); cavityGroup.name = 'cavities'; scene3.add(cavityGroup);
let bodyMeshes = [];
const cavityMeshes = new Map();            // cavity id -> mesh
const seamLines = new THREE.LineSegments(new THREE.BufferGeometry(), new THREE.LineBasicMaterial({ color: 0xffa000, depthTest: false }));
seamLines.renderOrder = 3; seamLines.name = 'seam'; scene3.add(seamLines);
const contactPoints = new THREE.Points(new THREE.BufferGeometry(), new THREE.PointsMaterial({ color: 0x00a050, size: 5, sizeAttenuation: false, depthTest: false }));
contactPoints.renderOrder = 4; contactPoints.name = 'contacts'; scene3.add(contactPoints);
const forceLines = new THREE.LineSegments(new THREE.BufferGeometry(), new THREE.LineBasicMaterial({ color: 0xd00060, depthTest: false }));
forceLines.renderOrder = 4; forceLines.name = 'forces'; scene3.add(forceLines);
// springs (the scene's "springs"): a line between each spring's two ends
const springLines = new THREE.LineSegments(new THREE.BufferGeometry(), new THREE.LineBasicMaterial({ color: 0x2050c0 }));
springLines.renderOrder = 2; springLines.name = 'springs'; scene3.add(springLines);
let sceneSize = 0.05;

function resize() {
  const w = canvas.clientWidth, h = canvas.clientHeight;
  if (canvas.width !== Math.floor(w * renderer.getPixelRatio()) || canvas.height !== Math.floor(h * renderer.getPixelRatio())) {
    renderer.setSize(w, h, false);
    camera.aspect = w / Math.max(1, h);
    camera.updateProjectionMatrix();
    requestDraw();
  }
}

// The view is drawn when something changed, not at every animation frame: a new state from the
// worker, any message of the worker, the camera (the controls' change events, damping
// included), the canvas size, or any input on the page (a checkbox that shows or hides
// something); at the latest 1 s after the last drawing.
let drawRequested = true, lastDrawn = -Infinity;
function requestDraw() { drawRequested = true; }
controls.addEventListener('change', requestDraw);
for (const type of ['input', 'change', 'click', 'keydown', 'pointerdown', 'pointermove', 'pointerup', 'wheel'])
  document.addEventListener(type, requestDraw, { capture: true, passive: true });
window.addEventListener('resize', requestDraw);

const BODY_COLORS = { soft: 0x4f8fd8, rigid: 0xc8a060, fixed: 0x9a9ea6 };

function buildBodies(meta) {
  for (const m of bodyMeshes) { bodyGroup.remove(m); m.geometry.dispose(); m.material.dispose(); }
  bodyMeshes = meta.bodies.map((b, i) => {
    const g = new THREE.BufferGeometry();
    g.setIndex(new THREE.BufferAttribute(b.indices, 1));
    const color = b.soft ? BODY_COLORS.soft : b.fixed ? BODY_COLORS.fixed : BODY_COLORS.rigid;
    const mat = new THREE.MeshStandardMaterial({ color, roughness: 0.7, metalness: 0.0, side: THREE.DoubleSide,
                                                 transparent: b.soft, opacity: b.soft ? 0.8 : 1, wireframe: $('show-wire').checked });
    const mesh = new THREE.Mesh(g, mat);
    mesh.name = `body:${b.name}`;
    mesh.userData = { body: i, driver: meta.drivers.findIndex(d => d.body === i) };
    mesh.frustumCulled = false;
    bodyGroup.add(mesh);
    return mesh;
  });
}

function setPositions(mesh, arr) {
  const g = mesh.geometry;
  const a = g.getAttribute('position');
  if (!a || a.array.length !== arr.length) g.setAttribute('position', new THREE.BufferAttribute(arr, 3));
  else { a.array.set(arr); a.needsUpdate = true; }
  g.computeVertexNormals();
  g.computeBoundingSphere();
  g.computeBoundingBox();
}

function fitCamera() {
  const box = new THREE.Box3();
  // frame the movable bodies (the ground is large); fall back to everything
  for (const m of bodyMeshes) if (!state.meta.bodies[m.userData.body].fixed && m.geometry.boundingBox) box.union(m.geometry.boundingBox);
  if (box.isEmpty()) for (const m of bodyMeshes) if (m.geometry.boundingBox) box.union(m.geometry.boundingBox);
  if (box.isEmpty()) return;
  const c = box.getCenter(new THREE.Vector3()), s = box.getSize(new THREE.Vector3());
  sceneSize = Math.max(s.x, s.y, s.z, 1e-3);
  const d = 3.6 * sceneSize;
  controls.target.copy(c);
  camera.position.set(c.x + 0.55 * d, c.y - 0.9 * d, c.z + 0.45 * d);
  camera.near = sceneSize * 1e-3; camera.far = sceneSize * 1e3;
  camera.updateProjectionMatrix();
  controls.update();
}

function updateCavities(cavities, pAtm) {
  const seen = new Set();
  for (const c of cavities) {
    seen.add(c.id);
    let m = cavityMeshes.get(c.id);
    if (!m) {
      // drawn after the bodies without depth test: the cavity shows through the cup (x-ray)
      const mat = new THREE.MeshPhongMaterial({ color: 0xffffff, transparent: true, opacity: 0.6, side: THREE.DoubleSide,
                                                depthWrite: false, depthTest: false, shininess: 60 });
      m = new THREE.Mesh(new THREE.BufferGeometry(), mat);
      m.name = `cavity:${c.id}`; m.renderOrder = 2; m.frustumCulled = false;
      cavityMeshes.set(c.id, m); cavityGroup.add(m);
    }
    const g = m.geometry;
    const idx = g.getIndex();
    if (!idx || idx.array.length !== c.indices.length) g.setIndex(new THREE.BufferAttribute(c.indices, 1));
    else { idx.array.set(c.indices); idx.needsUpdate = true; }
    setPositions(m, c.positions);
    const [r, gg, b] = pressureColor(c.pressure, pAtm);
    m.material.color.setRGB(r, gg, b);
    m.material.opacity = c.dormant ? 0.15 : 0.55;
  }
  for (const [id, m] of cavityMeshes) {
    if (!seen.has(id)) { cavityGroup.remove(m); m.geometry.dispose(); m.material.dispose(); cavityMeshes.delete(id); }
  }
  // sealing rings
  let n = 0; for (const c of cavities) n += c.seam.length;
  const seam = new Float32Array(n); let o = 0;
  for (const c of cavities) { seam.set(c.seam, o); o += c.seam.length; }
  seamLines.geometry.setAttribute('position', new THREE.BufferAttribute(seam, 3));
  seamLines.geometry.computeBoundingSphere();
  state.cavitiesInScene = cavityGroup.children.length;
}

function updateContacts(contacts) {
  const m = contacts.length / 6;
  const pts = new Float32Array(3 * m), seg = new Float32Array(6 * m);
  let fmax = 0;
  for (let k = 0; k < m; ++k) fmax = Math.max(fmax, Math.hypot(contacts[6 * k + 3], contacts[6 * k + 4], contacts[6 * k + 5]));
  const scale = fmax > 0 ? 0.3 * sceneSize / fmax : 0; // arrows: the largest force is 30 % of the scene size
  for (let k = 0; k < m; ++k) {
    const p = contacts.subarray(6 * k, 6 * k + 3), f = contacts.subarray(6 * k + 3, 6 * k + 6);
    pts.set(p, 3 * k);
    seg.set(p, 6 * k);
    seg.set([p[0] + scale * f[0], p[1] + scale * f[1], p[2] + scale * f[2]], 6 * k + 3);
  }
  contactPoints.geometry.setAttribute('position', new THREE.BufferAttribute(pts, 3));
  contactPoints.geometry.computeBoundingSphere();
  forceLines.geometry.setAttribute('position', new THREE.BufferAttribute(seg, 3));
  forceLines.geometry.computeBoundingSphere();
}

function updateSprings(springs) {
  springLines.geometry.setAttribute('position', new THREE.BufferAttribute(springs || new Float32Array(0), 3));
  springLines.geometry.computeBoundingSphere();
  state.springsInScene = springs ? springs.length / 6 : 0;
}

function applyToggles() {
  cavityGroup.visible = $('show-cavities').checked;
  contactPoints.visible = $('show-contacts').checked;
  forceLines.visible = $('show-forces').checked;
  seamLines.visible = $('show-seam').checked;
  for (const m of bodyMeshes) m.material.wireframe = $('show-wire').checked;
}
for (const id of ['show-cavities', 'show-contacts', 'show-forces', 'show-seam', 'show-wire']) $(id).onchange = applyToggles;

// ---- grabbing: pointer on a driven body (or shift anywhere) drags its driver ----------------
const raycaster = new THREE.Raycaster();
function ndc(ev) {
  const r = canvas.getBoundingClientRect();
  return new THREE.Vector2(((ev.clientX - r.left) / r.width) * 2 - 1, -((ev.clientY - r.top) / r.height) * 2 + 1);
}
function pick(ev) {
  raycaster.setFromCamera(ndc(ev), camera);
  const hits = raycaster.intersectObjects(bodyMeshes, false);
  return hits.length ? hits[0] : null;
}
function driverCentroid(k) {
  const m = bodyMeshes[state.meta.drivers[k].body];
  return m && m.geometry.boundingBox ? m.geometry.boundingBox.getCenter(new THREE.Vector3()) : new THREE.Vector3();
}

function onPointerDown(ev) {
  if (!state.loaded || ev.button !== 0 || !state.meta.drivers.length) return;
  const hit = pick(ev);
  let driver = -1, point = null;
  if (hit && hit.object.userData.driver >= 0) { driver = hit.object.userData.driver; point = hit.point.clone(); }
  else if (ev.shiftKey || ev.altKey) { driver = 0; point = hit ? hit.point.clone() : driverCentroid(0); }
  if (driver < 0) return;
  controls.enabled = false;            // OrbitControls ignores this pointer
  ev.stopImmediatePropagation();
  canvas.setPointerCapture(ev.pointerId);
  const normal = camera.getWorldDirection(new THREE.Vector3());
  const d = state.lastFrame && state.lastFrame.drivers[driver];
  state.drag = { driver, pointerId: ev.pointerId, plane: new THREE.Plane().setFromNormalAndCoplanarPoint(normal, point),
                 start: point, startOffset: d ? d.offset.slice() : [0, 0, 0], target: null, sent: null };
  canvas.style.cursor = 'grabbing';
}
canvas.addEventListener('pointermove', (ev) => {
  const dr = state.drag;
  if (!dr || ev.pointerId !== dr.pointerId) { hoverCursor(ev); return; }
  raycaster.setFromCamera(ndc(ev), camera);
  const p = raycaster.ray.intersectPlane(dr.plane, new THREE.Vector3());
  if (!p) return;
  const delta = p.sub(dr.start);
  dr.target = [dr.startOffset[0] + delta.x, dr.startOffset[1] + delta.y, dr.startOffset[2] + delta.z];
});
function endDrag(ev) {
  const dr = state.drag;
  if (!dr || ev.pointerId !== dr.pointerId) return;
  flushDrag();
  state.drag = null;
  controls.enabled = true;
  canvas.style.cursor = '';
}
canvas.addEventListener('pointerup', endDrag);
canvas.addEventListener('pointercancel', endDrag);
function flushDrag() {
  const dr = state.drag;
  if (dr && dr.target && dr.target !== dr.sent) {
    worker.postMessage({ type: 'drag', driver: dr.driver, target: dr.target });
    dr.sent = dr.target;
  }
}
let lastHover = 0;
function hoverCursor(ev) {
  if (!state.loaded || performance.now() - lastHover < 50) return;
  lastHover = performance.now();
  const hit = pick(ev);
  canvas.style.cursor = hit && hit.object.userData.driver >= 0 ? 'grab' : '';
}

/** Screen point (client px) over the first driver's body where a pointer-down grabs it. */
function computeGrabPoint() {
  if (!state.loaded || !state.meta.drivers.length) return null;
  const m = bodyMeshes[state.meta.drivers[0].body];
  const pos = m && m.geometry.getAttribute('position');
  if (!pos) return null;
  const bb = m.geometry.boundingBox;
  const candidates = [];
  // the top of the handle first (where a hand would grab), then the centre, then vertices
  const top = new THREE.Vector3((bb.min.x + bb.max.x) / 2, (bb.min.y + bb.max.y) / 2, bb.max.z - 0.02 * (bb.max.z - bb.min.z));
  candidates.push(top, bb.getCenter(new THREE.Vector3()));
  for (let i = 0; i < pos.count; i += Math.max(1, Math.floor(pos.count / 50))) candidates.push(new THREE.Vector3().fromBufferAttribute(pos, i));
  const r = canvas.getBoundingClientRect();
  for (const c of candidates) {
    const p = c.clone().project(camera);
    if (Math.abs(p.x) > 0.98 || Math.abs(p.y) > 0.98) continue;
    const x = r.left + (p.x + 1) / 2 * r.width, y = r.top + (1 - p.y) / 2 * r.height;
    const hit = pick({ clientX: x, clientY: y });
    if (hit && hit.object === m) return { x, y, driver: 0 };
  }
  return null;
}

// ---- worker --------------------------------------------------------------------------------
const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
worker.onerror = (e) => showError('worker', e.message || 'the simulation worker failed to start');
worker.onmessage = (ev) => {
  const msg = ev.data;
  requestDraw();
  switch (msg.type) {
    case 'ready':
      state.ready = true; state.backend = msg.backend; state.module = msg.module; state.version = msg.version;
      state.workerIsolated = msg.crossOriginIsolated;
      state.simThreads = msg.simThreads || 1;
      $('backend').textContent = (msg.backend === 'mock' ? 'MOCK backend (no wasm)'
        : `wasm ${msg.version}` + (state.simThreads > 1 ? `, ${state.simThreads} threads` : '')) +
        (render.quality === 'fast' ? ', fast drawing' : '');
      $('backend').title = `drawing: ${render.quality} (${render.reason}; WebGL renderer: ${render.glRenderer || 'unknown'}); ` +
        '?render=full or ?render=fast chooses';
      if (msg.backend === 'mock') showError('backend', 'running the JS mock of the simulator (?backend=mock): toy physics, not the real solver');
      break;
    case 'loaded': onLoaded(msg); break;
    case 'frame': onFrame(msg); break;
    case 'status': state.playing = msg.playing; $('play').textContent = msg.playing ? '❚❚ pause' : '▶ play'; break;
    case 'reset': samples.clear(); break;
    case 'end': $('clock').textContent += ' (end)'; break;
    case 'overridden':
      for (const [ptr, value] of msg.applied) setLocal(state.sceneDoc, ptr, value);
      if (msg.live && msg.applied.length === msg.requested) {
        // taken by the running simulation: the panel's values are now the running ones
        for (const fi of fieldInputs) fi.initial = fi.input.value;
        if (state.meta && msg.dt) state.meta.dt = msg.dt;
        showNote(`changed live at t = ${Number(msg.time).toFixed(2)} s: ${msg.applied.map(([p, v]) => `${p} = ${v}`).join(', ')}`);
      } else if (msg.restart) showNote(`restarted: ${msg.restart.replace(/^.*cannot change while the simulation runs: /, '')}`);
      break;
    case 'error': showError(msg.where, msg.message); break;
    default: console.warn('unknown message from the worker', msg.type);
  }
};
worker.postMessage({ type: 'init', backend: params.get('backend') === 'mock' ? 'mock' : 'wasm' });
// ?quality=reference chooses the quality at start (the worker starts at interactive)
if (params.get('quality') === 'reference') $('quality').value = 'reference';
if ($('quality').value !== 'interactive') worker.postMessage({ type: 'quality', name: $('quality').value });
$('quality').onchange = () => worker.postMessage({ type: 'quality', name: $('quality').value });
sendSpeedLater();
function sendSpeedLater() { queueMicrotask(() => sendSpeed()); }

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

async function loadScene(name) {
  clearBanner();
  state.loaded = false;
  $('scene').value = name;
  const entry = state.scenes.find(s => s.name === name);
  const file = entry ? entry.file : `${name}.json`;
  const r = await fetch(`scenes/${file}`);
  if (!r.ok) { showError('load', `scenes/${file}: HTTP ${r.status}`); return; }
  const text = await r.text();
  try { state.sceneDoc = JSON.parse(text); } catch (e) { state.sceneDoc = {}; }
  state.sceneName = name;
  const u = new URL(location.href); u.searchParams.set('scene', name); history.replaceState(null, '', u);
  worker.postMessage({ type: 'load', text, name, baseDir: 'scenes' });
}
$('scene').onchange = () => loadScene($('scene').value);

function onLoaded(meta) {
  state.meta = meta; state.loaded = true; state.time = 0; state.step = 0;
  state.framesWithCavity = 0; state.framesWithCavityMesh = 0; state.phasesSeen = new Set(); state.minPressureSeen = null;
  samples.clear();
  buildBodies(meta);
  state.needFit = true;
  $('scene-desc').textContent = meta.description;
  if (meta.quality) $('quality').value = meta.quality;
  const changes = meta.qualityChanges || [];
  $('quality').title = meta.quality !== 'interactive' ? 'reference: the scene exactly as written'
    : changes.length ? `interactive: ${changes.join(', ')}`
    : 'interactive: nothing changed (this scene plays at reference quality: see its settings.interactive)';
  buildParamPanel();
  applyToggles();
}

// ---- frames -----------------------------------------------------------------------------------
let frameTimes = [];
function onFrame(f) {
  state.lastFrame = f; state.frames++;
  state.time = f.time; state.step = f.step; state.rtf = f.rtf;
  f.bodies.forEach((arr, i) => { if (bodyMeshes[i]) setPositions(bodyMeshes[i], arr); });
  if (state.needFit) { fitCamera(); state.needFit = false; }
  state.checksum = positionsChecksum(f.bodies);
  const pAtm = state.meta.pAtm;
  updateCavities(f.cavities, pAtm);
  updateContacts(f.contacts);
  updateSprings(f.springs);
  for (const s of f.samples) samples.push(s);
  const last = samples.last();
  state.phase = last ? classifyPhase(samples.since(last.t - 1.0)) : 'free';
  state.phasesSeen.add(state.phase);
  if (f.cavities.length > 0) {
    state.framesWithCavity++;
    if (cavityGroup.children.length >= f.cavities.length) state.framesWithCavityMesh++;
  }
  for (const smp of f.samples) for (const c of smp.cavities) {
    if (!c.dormant && (state.minPressureSeen === null || c.pressure < state.minPressureSeen)) state.minPressureSeen = c.pressure;
  }
  updatePanels(f);
  const now = performance.now();
  frameTimes.push(now); while (frameTimes.length > 30) frameTimes.shift();
  state.fps = frameTimes.length > 1 ? 1000 * (frameTimes.length - 1) / (now - frameTimes[0]) : null;
  state.frameArrived = true;
}

function updatePanels(f) {
  $('clock').textContent = `t = ${f.time.toFixed(3)} s · step ${f.step}`;
  $('rtf').textContent = f.rtf === null ? 'RTF –' : `RTF ${fmt(f.rtf, 2)}×`;
  $('fps').textContent = state.fps ? `${state.fps.toFixed(0)} fps` : '';
  const ph = $('phase');
  ph.textContent = state.phase; ph.className = `phase ${state.phase}`;
  $('phase-text').textContent = PHASE_TEXT[state.phase];
  $('force-text').innerHTML = forceExplanation(f);
  // timing
  const p = f.profile || {};
  const stages = [['free motion', 'free_motion'], ['collision', 'collision'], ['cavities', 'cavities'],
                  ['compliance', 'compliance'], ['solve', 'solve'], ['leak', 'leak'], ['correction', 'correction']];
  const total = p.total || stages.reduce((a, [, k]) => a + (p[k] || 0), 0);
  $('timing-total').textContent = `${fmt(total, 3)} ms total` + (p.iterations !== undefined ? ` · ${p.iterations} iterations · ${p.contacts ?? 0} contacts · ${p.constraints ?? 0} rows` : '');
  $('timing-table').innerHTML = stages.filter(([, k]) => p[k] !== undefined).map(([label, k]) =>
    `<tr><td>${label}</td><td style="text-align:right">${fmt(p[k], 3)} ms</td><td style="width:45%"><div class="bar" style="width:${total > 0 ? Math.min(100, 100 * p[k] / total) : 0}%"></div></td></tr>`).join('');
}

// a mass [kg] in words: "1.23 kg" or "456 g"
function weightText(kg) {
  return kg >= 1 ? `${fmt(kg, 3)} kg` : `${fmt(kg * 1e3, 3)} g`;
}

function forceExplanation(f) {
  const pAtm = state.meta.pAtm;
  const act = f.cavities.filter(c => !c.dormant);
  if (!act.length) return `No air is trapped: the pressure is the same on both sides of the cup (P<sub>atm</sub> = ${fmt(pAtm / 1e3, 4)} kPa), so the air holds nothing.`;
  const c = act.reduce((a, b) => (b.pressure < a.pressure ? b : a));
  const dp = pAtm - c.pressure;
  const total = act.reduce((a, b) => a + b.force, 0);
  const words = Math.abs(dp) < 1 ? 'the same as the atmosphere' : dp > 0 ? `${fmt(dp / 1e3, 3)} kPa <b>below</b> the atmosphere` : `${fmt(-dp / 1e3, 3)} kPa <b>above</b> the atmosphere`;
  return `The trapped air is at P = ${fmt(c.pressure / 1e3, 4)} kPa, ${words} (P<sub>atm</sub> − P = ${fmt(dp / 1e3, 3)} kPa). ` +
    `It acts on the area A = ${fmt(c.area * 1e4, 3)} cm² (the cavity's shadow along the sealing ring's normal), ` +
    `so the air ${dp >= 0 ? 'presses the cup onto the surface' : 'pushes the cup away'} with (P<sub>atm</sub> − P)·A = ${fmt(Math.abs(total), 3)} N` +
    (dp >= 1 ? `, the weight of ${weightText(total / state.meta.gravity)}.` : '.') +
    (act.length > 1 ? ` (${act.length} cavities; the numbers are for the lowest pressure, the force is the sum.)` : '') +
    ` V = ${fmt(c.volume * 1e6, 3)} cm³, N = P·V = ${fmt(c.air * 1e3, 3)} mJ.`;
}

// ---- parameter panel --------------------------------------------------------------------------
let fieldInputs = [];
function buildParamPanel() {
  const doc = state.sceneDoc || {};
  const driven = state.meta.drivers.map(d => state.meta.bodies[d.body] && state.meta.bodies[d.body].name);
  const fields = editableFields(doc, driven);
  const box = $('param-fields'); box.innerHTML = '';
  fieldInputs = [];
  for (const f of fields) {
    const row = document.createElement('label'); row.className = 'field'; row.title = `${f.doc} (${f.pointer})`;
    const input = document.createElement('input'); input.type = 'text'; input.value = displayValue(f);
    input.placeholder = f.value === undefined ? 'default' : ''; input.dataset.key = f.key;
    row.append(document.createTextNode(f.label), input, Object.assign(document.createElement('span'), { className: 'unit', textContent: f.unit }));
    box.appendChild(row);
    fieldInputs.push({ field: f, input, initial: input.value });
  }
  const sp = $('scene-params'); sp.innerHTML = '';
  if (state.meta.parameters.length) sp.appendChild(Object.assign(document.createElement('h2'), { textContent: 'scene parameters' }));
  for (const p of state.meta.parameters) {
    const row = document.createElement('label'); row.className = 'field';
    const decl = getPointer(doc, `/parameters/${p.name}`) || {};
    row.title = `${decl.doc || ''} (/parameters/${p.name}${Number.isFinite(p.min) ? `, min ${p.min}` : ''}${Number.isFinite(p.max) ? `, max ${p.max}` : ''})`;
    const input = document.createElement('input'); input.type = 'number'; input.value = String(p.value); input.step = 'any';
    if (Number.isFinite(p.min)) input.min = p.min;
    if (Number.isFinite(p.max)) input.max = p.max;
    row.append(document.createTextNode(p.name), input, Object.assign(document.createElement('span'), { className: 'unit', textContent: decl.unit || '' }));
    sp.appendChild(row);
    fieldInputs.push({ field: { pointer: `/parameters/${p.name}`, label: p.name, scale: 1 }, input, initial: input.value, parameter: true });
  }
}
$('apply').onclick = () => {
  const list = [];
  try {
    for (const fi of fieldInputs) {
      if (fi.input.value.trim() === fi.initial.trim()) continue;
      if (fi.parameter) {
        const x = Number(fi.input.value);
        if (!Number.isFinite(x)) throw new Error(`${fi.field.label}: '${fi.input.value}' is not a number`);
        list.push([fi.field.pointer, String(x)]);
      } else list.push(...overridesFor(state.sceneDoc, fi.field, fi.input.value));
    }
  } catch (e) { showError('parameters', e.message); return; }
  if (!list.length) { showError('parameters', 'nothing changed'); return; }
  clearBanner();
  worker.postMessage({ type: 'override', list });
};

// ---- transport ---------------------------------------------------------------------------------
$('play').onclick = () => worker.postMessage({ type: state.playing ? 'pause' : 'play' });
$('step').onclick = () => worker.postMessage({ type: 'step', n: 1 });
$('reset').onclick = () => worker.postMessage({ type: 'reset' });
function sendSpeed() {
  const mode = $('speed-mode').value, v = Number($('speed').value);
  if (!(v > 0)) { showError('speed', 'the speed must be a positive number'); return; }
  worker.postMessage(mode === 'steps' ? { type: 'speed', mode, stepsPerFrame: Math.max(1, Math.round(v)) } : { type: 'speed', mode, timeFactor: v });
}
$('speed-mode').onchange = () => { $('speed').step = $('speed-mode').value === 'steps' ? '1' : '0.1'; sendSpeed(); };
$('speed').onchange = sendSpeed;
$('speed').oninput = () => { if (Number($('speed').value) > 0) sendSpeed(); };
window.addEventListener('keydown', (e) => {
  if (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT') return;
  if (e.code === 'Space') { e.preventDefault(); $('play').click(); }
});

// ---- render loop -----------------------------------------------------------------------------------
const plotCanvas = $('plot');
const plotCtx = plotCanvas.getContext('2d');
function drawPlotNow() {
  const dpr = window.devicePixelRatio || 1;
  const w = plotCanvas.clientWidth, h = plotCanvas.clientHeight;
  if (plotCanvas.width !== Math.round(w * dpr)) { plotCanvas.width = Math.round(w * dpr); plotCanvas.height = Math.round(h * dpr); }
  plotCtx.setTransform(dpr, 0, 0, dpr, 0, 0);
  const all = samples.toArray();
  const duration = state.meta ? state.meta.duration : 1;
  const tMax = Math.max(duration, all.length ? all[all.length - 1].t : 0);
  drawPlot(plotCtx, w, h, all, { pAtm: state.meta ? state.meta.pAtm : 101325, tMin: all.length ? Math.min(0, all[0].t) : 0, tMax: tMax || 1 });
}
renderer.setAnimationLoop((now) => {
  resize();
  flushDrag();
  controls.update();
  if (shouldDraw(drawRequested, now, lastDrawn)) {   // a frame's message requested it too
    drawRequested = false;
    lastDrawn = now;
    ++render.draws;
    renderer.render(scene3, camera);
  }
  if (state.frameArrived) {
    state.frameArrived = false;
    drawPlotNow();
    state.grab = computeGrabPoint();
    worker.postMessage({ type: 'ack' });   // ready for the next frame
  }
});

// ---- the read-only debug object for tests (tests/web/e2e.mjs) ------------------------------------
function debugSnapshot() {
  const f = state.lastFrame;
  const last = samples.last();
  const act = last ? last.cavities.filter(c => !c.dormant) : [];
  return Object.freeze({
    ready: state.ready, backend: state.backend, module: state.module, version: state.version,
    crossOriginIsolated: window.crossOriginIsolated === true, workerCrossOriginIsolated: state.workerIsolated,
    simThreads: state.simThreads,
    scenes: state.scenes.map(s => s.name), scene: state.sceneName, loaded: state.loaded, playing: state.playing,
    time: state.time, step: state.step, frames: state.frames, rtf: state.rtf, fps: state.fps,
    pAtm: state.meta ? state.meta.pAtm : null, duration: state.meta ? state.meta.duration : null,
    quality: state.meta ? state.meta.quality : null, dt: state.meta ? state.meta.dt : null,
    drivers: state.meta ? state.meta.drivers.map(d => ({ ...d })) : [],
    driverOffsets: f ? f.drivers.map(d => d.offset.slice()) : [],
    cavities: f ? f.cavities.length : 0,
    minPressure: act.length ? Math.min(...act.map(c => c.pressure)) : null,
    cavityMeshesInScene: state.cavitiesInScene,
    framesWithCavity: state.framesWithCavity, framesWithCavityMesh: state.framesWithCavityMesh,
    minPressureSeen: state.minPressureSeen, phasesSeen: [...state.phasesSeen],
    contacts: f ? f.contactCount : 0,
    phase: state.phase,
    samples: samples.toArray().slice(-300).map(s => ({ t: s.t, step: s.step, contacts: s.contacts, force: s.force, hand: s.hand,
      cavities: s.cavities.map(c => ({ id: c.id, pressure: c.pressure, volume: c.volume, air: c.air, dormant: c.dormant, area: c.area })) })),
    sampleCount: samples.length,
    positionsChecksum: state.checksum,
    grabPoint: state.grab,
    dragging: state.drag !== null,
    errors: state.errors.slice(),
    bannerVisible: !$('banner').hidden,
    render: { mode: render.mode, quality: render.quality, software: render.software, glRenderer: render.glRenderer,
              antialias: render.antialias, pixelRatio: renderer.getPixelRatio(), draws: render.draws },
  });
}
Object.defineProperty(window, '__suction', { get: debugSnapshot, configurable: false, enumerable: true });

// ---- start ---------------------------------------------------------------------------------------
if (renderMode.error) showError('render', renderMode.error);
loadSceneList().then(loadScene).catch((e) => showError('scenes', e.message));
