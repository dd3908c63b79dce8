// The controls panel (lil-gui, lib/lil-gui): what the 3D view shows, and the scene's parameters
// with an apply button. Apply sends the changed values as overrides (JSON pointer, value text:
// src/scene_params.js); the worker takes them live when the running simulation can (no
// restart), otherwise it rebuilds the scene and starts again (src/sim_host.js override).
// Stable handles for scripts: the show toggles' checkboxes have ids show-cavities,
// show-contacts, show-forces, show-loads, show-seam, show-wire; every parameter's input has
// data-key="<field key>" (src/scene_params.js editableFields) or data-key="param:<name>" (the
// scene's own parameters); the apply button has id apply.
import GUI from 'lil-gui';
import { editableFields, displayValue, overridesFor, getPointer } from './scene_params.js';

const SHOW = [
  ['cavities', 'cavities', 'show-cavities', true],
  ['contacts', 'contact points', 'show-contacts', true],
  ['forces', 'contact forces (arrows)', 'show-forces', false],
  ['loads', 'forces: air (P_atm − P)·A, hand, weight', 'show-loads', false],
  ['seam', 'sealing ring', 'show-seam', true],
  ['wireframe', 'wireframe', 'show-wire', false],
];

/**
 * container: the element the panel goes into. onShow(show): a toggle changed ({ cavities,
 * contacts, forces, seam, wireframe }); onApply(list): the overrides [[pointer, valueText]...] of
 * the changed fields; onError(text): a value that is not one.
 */
export function createControls(container, { onShow = () => {}, onApply = () => {}, onError = () => {} } = {}) {
  const gui = new GUI({ container, title: 'controls', width: container.clientWidth || 420 });
  const show = Object.fromEntries(SHOW.map(([k, , , v]) => [k, v]));
  const showFolder = gui.addFolder('show');
  const showControllers = {};
  for (const [key, label, id] of SHOW) {
    const c = showFolder.add(show, key).name(label).onChange(() => onShow({ ...show }));
    c.$input.id = id;
    showControllers[key] = c;
  }

  /** Turns toggles on or off from a script (a lesson step: { loads: true, ... }); the panel follows. */
  function setShow(values) {
    let changed = false;
    for (const [k, v] of Object.entries(values)) {
      if (!(k in show) || show[k] === !!v) continue;
      show[k] = !!v; showControllers[k].updateDisplay(); changed = true;
    }
    if (changed) onShow({ ...show });
  }

  let paramFolder = null, sceneFolder = null, applyButton = null;
  let entries = [];   // { field, obj, key, initial, parameter, controller }

  /**
   * The panel of a loaded scene: doc (its JSON), meta (the worker's `loaded`), schema (the scene
   * schema, scenes/schema/scene.schema.json: which fields the page edits, src/scene_params.js).
   */
  function setScene(doc, meta, schema) {
    for (const f of [paramFolder, sceneFolder]) if (f) f.destroy();
    if (applyButton) applyButton.destroy();
    entries = [];
    const driven = meta.drivers.map(d => meta.bodies[d.body] && meta.bodies[d.body].name);
    paramFolder = gui.addFolder('parameters (live when possible, else reload at t = 0)');
    const values = {};
    for (const f of editableFields(doc || {}, driven, schema)) {
      values[f.key] = f.choices ? (typeof f.value === 'string' ? f.value : f.default) : displayValue(f);
      const c = (f.choices ? paramFolder.add(values, f.key, f.choices) : paramFolder.add(values, f.key))
        .name(f.unit ? `${f.label} [${f.unit}]` : f.label);
      const bound = (x) => +(x / (f.scale || 1)).toPrecision(6);
      const range = [Number.isFinite(f.min) ? `min ${bound(f.min)}` : '', Number.isFinite(f.max) ? `max ${bound(f.max)}` : ''].filter(Boolean).join(', ');
      c.domElement.title = f.choices ? `${f.doc} (${f.pointer}): one of ${f.choices.join(', ')}`
        : `${f.description || f.doc} (${f.pointer}${range ? `; ${range}` : ''}); a number${f.unit ? ` in ${f.unit}` : ''}, or =expression in SI; empty: the default`;
      (c.$input || c.$select).dataset.key = f.key;
      if (f.value === undefined && c.$input) c.$input.placeholder = 'default';
      entries.push({ field: f, obj: values, key: f.key, initial: values[f.key], parameter: false, controller: c });
    }
    sceneFolder = null;
    if (meta.parameters.length) {
      sceneFolder = gui.addFolder('scene parameters');
      const pv = {};
      for (const p of meta.parameters) {
        pv[p.name] = p.value;
        const decl = getPointer(doc || {}, `/parameters/${p.name}`) || {};
        const unit = p.unit || decl.unit || '';
        const lo = Number.isFinite(p.min) ? p.min : undefined, hi = Number.isFinite(p.max) ? p.max : undefined;
        const c = sceneFolder.add(pv, p.name, lo, hi).name(unit ? `${p.name} [${unit}]` : p.name);
        if (lo !== undefined && hi === undefined) c.min(lo);
        if (hi !== undefined && lo === undefined) c.max(hi);
        c.domElement.title = `${p.doc || decl.doc || ''} (/parameters/${p.name}${lo !== undefined ? `, min ${lo}` : ''}${hi !== undefined ? `, max ${hi}` : ''})`;
        c.$input.dataset.key = `param:${p.name}`;
        entries.push({ field: { pointer: `/parameters/${p.name}`, label: p.name, scale: 1 }, obj: pv, key: p.name, initial: pv[p.name], parameter: true, controller: c });
      }
    }
    const actions = { apply: () => apply(doc) };
    applyButton = gui.add(actions, 'apply').name('apply');
    applyButton.$button.id = 'apply';
    applyButton.domElement.title = 'the changed values: live if the running simulation can take them, else the scene reloads and starts again at t = 0';
  }

  function apply(doc) {
    const list = [];
    try {
      for (const e of entries) {
        const v = e.obj[e.key];
        if (String(v).trim() === String(e.initial).trim()) continue;
        if (e.parameter) {
          const x = Number(v);
          if (!Number.isFinite(x)) throw new Error(`${e.field.label}: '${v}' is not a number`);
          list.push([e.field.pointer, String(x)]);
        } else list.push(...overridesFor(doc, e.field, v));
      }
    } catch (err) { onError(err.message); return; }
    if (!list.length) { onError('nothing changed'); return; }
    onApply(list);
  }

  /** The running simulation took the values: they are the new starting point. */
  function accept() { for (const e of entries) e.initial = e.obj[e.key]; }

  /** Read-only facts for src/debug.js. */
  function info() {
    return { show: { ...show }, fields: entries.map(e => ({ key: e.parameter ? `param:${e.key}` : e.key, value: e.obj[e.key], initial: e.initial })) };
  }

  return { gui, show, setShow, setScene, accept, info };
}
