// The 3D view (three.js): the bodies, cavities (coloured by pressure), sealing rings, contact
// points and forces, springs; the camera (OrbitControls) and dragging a driven body by its
// handle. It draws only when something changed (src/render_quality.js). No messages and no
// other UI: main.js gives it the worker's `loaded` and `frame` messages and takes its drags.
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { pressureColor } from './physics.js';
import { forceArrows } from './forces.js';
import { parseRenderMode, isSoftwareRenderer, renderSettings, shouldDraw } from './render_quality.js';

/**
 * Sets up the view on `canvas`. renderParam: the page's ?render= (auto, full, fast);
 * onDrag(driver, target): a dragged driver's new offset target [m]. Returns the view's methods.
 */
export function createView(canvas, { renderParam = null, onDrag = () => {} } = {}) {
  let meta = null, loaded = false, lastFrame = null, drag = null;
  const show = { cavities: true, contacts: true, forces: false, seam: true, wireframe: false, loads: false };

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
  const renderMode = parseRenderMode(renderParam);
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

  // our pointer handler first: it decides whether a pointer-down grabs the cup (see onPointerDown)
  canvas.addEventListener('pointerdown', onPointerDown);
  const controls = new OrbitControls(camera, canvas);
  controls.enableDamping = true;
  controls.target.set(0, 0, 0.005);
  // touch (OrbitControls works on pointer events; the canvas has touch-action: none, style.css):
  // one finger orbits, two fingers pinch to zoom (and move together to pan); a finger on the cup
  // drags it (onPointerDown)
  controls.touches = { ONE: THREE.TOUCH.ROTATE, TWO: THREE.TOUCH.DOLLY_PAN };

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
  // the forces (src/forces.js): the air's (P_atm − P)·A, the hand's and the weight of each lifted
  // body, arrows with their values in labels over the view; off by default ("forces" in the panel)
  const loadGroup = new THREE.Group(); loadGroup.name = 'loads'; loadGroup.visible = false; scene3.add(loadGroup);
  const loadColors = { air: 0x1f5fd0, hand: 0xe07000, weight: 0x2e8b3a };
  let loadArrows = [];        // [{ arrow, label (a div), tip: THREE.Vector3, info }]

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
                                                   transparent: b.soft, opacity: b.soft ? 0.8 : 1, wireframe: show.wireframe });
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
    for (const m of bodyMeshes) if (!meta.bodies[m.userData.body].fixed && m.geometry.boundingBox) box.union(m.geometry.boundingBox);
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
  }

  /** What is shown: { cavities, contacts, forces, seam, wireframe } (booleans; missing: unchanged). */
  function setShow(opts) {
    Object.assign(show, opts);
    cavityGroup.visible = show.cavities;
    contactPoints.visible = show.contacts;
    forceLines.visible = show.forces;
    seamLines.visible = show.seam;
    loadGroup.visible = show.loads;
    if (show.loads && lastFrame) updateLoads(lastFrame);
    for (const e of loadArrows) e.label.hidden = !show.loads;
    for (const m of bodyMeshes) m.material.wireframe = show.wireframe;
    requestDraw();
  }

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
    const m = bodyMeshes[meta.drivers[k].body];
    return m && m.geometry.boundingBox ? m.geometry.boundingBox.getCenter(new THREE.Vector3()) : new THREE.Vector3();
  }

  // the pointers down on the canvas (a second finger makes a pinch, not a grab)
  const pointersDown = new Set();
  for (const type of ['pointerup', 'pointercancel']) window.addEventListener(type, (ev) => pointersDown.delete(ev.pointerId), { capture: true });
  window.addEventListener('blur', () => pointersDown.clear());   // (an up the page never saw)

  // A mouse's drag is ours alone (the controls disabled, the event kept from them). A finger's
  // is shared: the controls see it too, with rotation off, so that when a second finger lands
  // the drag ends and the two make the controls' pinch (zoom) wherever the first one was.
  function onPointerDown(ev) {
    pointersDown.delete(ev.pointerId);   // (the mouse's id again, after an up the page never saw)
    const others = pointersDown.size;
    pointersDown.add(ev.pointerId);
    if (drag && drag.touch && ev.pointerId !== drag.pointerId) { endDrag({ pointerId: drag.pointerId }); return; }   // a second finger: pinch
    if (drag) { ev.stopImmediatePropagation(); return; }
    if (!loaded || ev.button !== 0 || !meta.drivers.length || others > 0) return;
    const hit = pick(ev);
    let driver = -1, point = null;
    if (hit && hit.object.userData.driver >= 0) { driver = hit.object.userData.driver; point = hit.point.clone(); }
    else if (ev.shiftKey || ev.altKey) { driver = 0; point = hit ? hit.point.clone() : driverCentroid(0); }
    if (driver < 0) return;
    const touch = ev.pointerType === 'touch';
    if (touch) { controls.enableRotate = false; controls.enablePan = false; }   // the controls track the finger, and do nothing with it alone
    else { controls.enabled = false; ev.stopImmediatePropagation(); }         // OrbitControls ignores this pointer
    canvas.setPointerCapture(ev.pointerId);
    const normal = camera.getWorldDirection(new THREE.Vector3());
    const d = lastFrame && lastFrame.drivers[driver];
    drag = { driver, pointerId: ev.pointerId, touch, plane: new THREE.Plane().setFromNormalAndCoplanarPoint(normal, point),
                   start: point, startOffset: d ? d.offset.slice() : [0, 0, 0], target: null, sent: null };
    canvas.style.cursor = 'grabbing';
  }
  canvas.addEventListener('pointermove', (ev) => {
    const dr = drag;
    if (!dr || ev.pointerId !== dr.pointerId) { hoverCursor(ev); return; }
    raycaster.setFromCamera(ndc(ev), camera);
    const p = raycaster.ray.intersectPlane(dr.plane, new THREE.Vector3());
    if (!p) return;
    const delta = p.sub(dr.start);
    dr.target = [dr.startOffset[0] + delta.x, dr.startOffset[1] + delta.y, dr.startOffset[2] + delta.z];
  });
  function endDrag(ev) {
    const dr = drag;
    if (!dr || ev.pointerId !== dr.pointerId) return;
    flushDrag();
    drag = null;
    controls.enabled = true; controls.enableRotate = true; controls.enablePan = true;
    canvas.style.cursor = '';
  }
  canvas.addEventListener('pointerup', endDrag);
  canvas.addEventListener('pointercancel', endDrag);
  function flushDrag() {
    const dr = drag;
    if (dr && dr.target && dr.target !== dr.sent) {
      onDrag(dr.driver, dr.target);
      dr.sent = dr.target;
    }
  }
  let lastHover = 0;
  function hoverCursor(ev) {
    if (!loaded || performance.now() - lastHover < 50) return;
    lastHover = performance.now();
    const hit = pick(ev);
    canvas.style.cursor = hit && hit.object.userData.driver >= 0 ? 'grab' : '';
  }

  /** Screen point (client px) over the first driver's body where a pointer-down grabs it. */
  function computeGrabPoint() {
    if (!loaded || !meta.drivers.length) return null;
    const m = bodyMeshes[meta.drivers[0].body];
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
  /** A scene was loaded (the worker's `loaded`): new body meshes, the camera framed at the next frame. */
  let needFit = false;
  function load(m) {
    meta = m; loaded = true; lastFrame = null; drag = null;
    buildBodies(m);
    needFit = true;
    setShow({});
  }
  function unload() { loaded = false; }

  /** A new state (the worker's `frame`). */
  function frame(f) {
    lastFrame = f;
    f.bodies.forEach((arr, i) => { if (bodyMeshes[i]) setPositions(bodyMeshes[i], arr); });
    if (needFit) { fitCamera(); needFit = false; }
    updateCavities(f.cavities, meta.pAtm);
    updateContacts(f.contacts);
    updateSprings(f.springs);
    if (show.loads) updateLoads(f);   // (off by default: no centroids per frame then)
    requestDraw();
  }

  function updateLoads(f) {
    const list = meta ? forceArrows(f, meta) : [];
    while (loadArrows.length > list.length) { const a = loadArrows.pop(); loadGroup.remove(a.arrow); a.arrow.dispose(); a.label.remove(); }
    const fmax = Math.max(0, ...list.map(a => a.value));
    const scale = fmax > 0 ? 0.6 * sceneSize / fmax : 0;   // the largest is 60 % of the bodies' size
    list.forEach((a, i) => {
      if (!loadArrows[i]) {
        const arrow = new THREE.ArrowHelper(new THREE.Vector3(0, 0, 1), new THREE.Vector3(), 1, 0x000000);
        arrow.renderOrder = 5;
        arrow.line.material.depthTest = false; arrow.cone.material.depthTest = false;
        loadGroup.add(arrow);
        const label = document.createElement('div');
        label.className = 'force-label';
        canvas.parentElement.appendChild(label);
        loadArrows[i] = { arrow, label, tip: new THREE.Vector3(), info: null };
      }
      const e = loadArrows[i], len = Math.max(a.value * scale, 1e-6);
      const o = new THREE.Vector3(...a.origin), d = new THREE.Vector3(...a.dir);
      e.arrow.position.copy(o); e.arrow.setDirection(d);
      e.arrow.setLength(len, Math.min(0.25 * len, 0.08 * sceneSize), Math.min(0.12 * len, 0.04 * sceneSize));
      e.arrow.setColor(loadColors[a.kind] || 0x000000);
      e.tip.copy(o).addScaledVector(d, len);
      e.label.textContent = a.label;
      e.label.style.borderColor = `#${(loadColors[a.kind] || 0).toString(16).padStart(6, '0')}`;
      e.info = a;
    });
  }

  /** The labels follow their arrows' tips on the screen (after the camera moved). */
  function placeLabels() {
    const w = canvas.clientWidth, h = canvas.clientHeight;
    for (const e of loadArrows) {
      const p = e.tip.clone().project(camera);
      const on = show.loads && p.z < 1 && Math.abs(p.x) <= 1 && Math.abs(p.y) <= 1;
      e.label.hidden = !on;
      if (on) { e.label.style.left = `${((p.x + 1) / 2 * w).toFixed(0)}px`; e.label.style.top = `${((1 - p.y) / 2 * h).toFixed(0)}px`; }
    }
  }

  /** Called at every animation frame: sends the drag, moves the camera, draws if needed. */
  function tick(now) {
    resize();
    flushDrag();
    controls.update();
    if (shouldDraw(drawRequested, now, lastDrawn)) {
      drawRequested = false;
      lastDrawn = now;
      ++render.draws;
      renderer.render(scene3, camera);
      placeLabels();
    }
  }

  /** Read-only facts for src/debug.js and the header. */
  function info() {
    return {
      render: { mode: render.mode, quality: render.quality, reason: render.reason, software: render.software, glRenderer: render.glRenderer,
                antialias: render.antialias, pixelRatio: renderer.getPixelRatio(), draws: render.draws },
      cavityMeshes: cavityGroup.children.length, springs: springLines.geometry.getAttribute('position') ? springLines.geometry.getAttribute('position').count / 2 : 0,
      show: { ...show }, wireframe: bodyMeshes.length > 0 && bodyMeshes.every(m => m.material.wireframe),
      dragging: drag !== null,
      camera: { position: camera.position.toArray(), target: controls.target.toArray(), distance: camera.position.distanceTo(controls.target) },
      loads: loadArrows.map(e => ({ kind: e.info.kind, id: e.info.id, value: e.info.value, dir: e.info.dir, origin: e.info.origin,
                                    label: e.label.textContent, shown: show.loads && !e.label.hidden })),
    };
  }

  return { load, unload, frame, tick, setShow, requestDraw, computeGrabPoint, info, renderModeError: renderMode.error };
}
