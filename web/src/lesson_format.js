// The lesson file format and its check (pure: the page, web/tools/validate_lesson.mjs and
// web/test/lessons.test.mjs use it). A lesson is a JSON file lessons/NAME.json (schema:
// lessons/lesson.schema.json; docs/web.md, "Lessons"):
//   { "title": "...", "summary": "...", "order"?: 1, "steps": [ STEP, ... ] }
//   STEP = { "scene": NAME, "title"?: "...", "set"?: { POINTER: VALUE }, "show"?: { forces, pv, ... },
//            "watch": "...", "predict"?: PREDICTION, "pause_at": EVENT, "explain": "... {quantity} ..." }
//   PREDICTION = { "question", "choices": [...], "answer": index }
//              | { "question", "unit", "answer_from": QUANTITY, "tolerance": relative }
// validateLesson names every problem by its JSON pointer (RFC 6901: '/' in a key is '~1') and what
// was expected: a missing or mistyped field, an unknown scene, a pointer that is not in the
// scene (checked against the scene file and the scene schema, as far as they tell), a value out
// of a parameter's bounds, an unknown event or quantity. The worker checks the values again when
// it applies them (the core's own check, as for a share link), and so does `suction validate
// --set` in web/tools/validate_lesson.mjs.
import { EVENTS, parseEvent, quantityError, closest } from './lesson_events.js';
import { placeholders } from './lesson_text.js';

export const LESSON_KEYS = Object.freeze(['$schema', 'title', 'summary', 'order', 'steps', 'comment']);
export const STEP_KEYS = Object.freeze(['title', 'scene', 'set', 'show', 'watch', 'predict', 'pause_at', 'explain', 'comment']);
/** show: what the step turns on (true) or off (false): the page's toggles, and the P–V diagram. */
export const SHOW_KEYS = Object.freeze({
  forces: 'the forces drawn in the view: the air\'s (P_atm − P)·A, the hand and the weight of a lifted body (show: forces)',
  contact_forces: 'the contact forces as lines (show: contact forces)',
  cavities: 'the air pockets, coloured by pressure',
  contacts: 'the contact points',
  seam: 'the sealing ring',
  wireframe: 'the surface triangles',
  pv: 'the P–V diagram, scrolled into view and outlined',
});
export const CHOICE_KEYS = Object.freeze(['question', 'choices', 'answer']);
export const NUMBER_KEYS = Object.freeze(['question', 'unit', 'answer_from', 'tolerance']);

/** A JSON pointer token (RFC 6901). */
export const escapeToken = (s) => String(s).replace(/~/g, '~0').replace(/\//g, '~1');
const unescapeToken = (s) => s.replace(/~1/g, '/').replace(/~0/g, '~');
const isObject = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);
const show = (x) => { const s = JSON.stringify(x); return s === undefined ? String(x) : s.length > 60 ? `${s.slice(0, 57)}...` : s; };
const jsonType = (x) => (x === null ? 'null' : Array.isArray(x) ? 'an array' : typeof x === 'object' ? 'an object' : typeof x === 'string' ? 'a string' : typeof x === 'number' ? 'a number' : typeof x === 'boolean' ? 'a boolean' : typeof x);

/** The [pointer, value text] overrides of a step's "set", in order (the worker's override message; the CLI's --set). */
export function stepOverrides(step) {
  return Object.entries((step && isObject(step.set)) ? step.set : {}).map(([p, v]) => [p, JSON.stringify(v)]);
}

/** The probe names of a scene file. */
export function sceneProbeNames(sceneDoc) {
  return Array.isArray(sceneDoc && sceneDoc.probes) ? sceneDoc.probes.map(p => p && p.name).filter(n => typeof n === 'string') : [];
}

/**
 * Checks a lesson. ctx: { scenes: the names of the shipped scenes (null: not checked),
 * sceneDocs: { NAME: the scene's JSON } (the pointers, probes and duration of a step are checked
 * when its scene is there), schema: the scene schema (scenes/schema/scene.schema.json; keys and
 * value types of the pointers) }. Returns [{ path, message }] (empty: good).
 */
export function validateLesson(doc, { scenes = null, sceneDocs = {}, schema = null } = {}) {
  const errors = [];
  const err = (path, message) => errors.push({ path, message });
  if (!isObject(doc)) { err('', `expected a lesson object { "title", "summary", "steps" }, got ${jsonType(doc)}`); return errors; }
  unknownKeys(doc, LESSON_KEYS, '', err);
  text(doc, 'title', '', err, true);
  text(doc, 'summary', '', err, true);
  if (doc.order !== undefined && !(Number.isInteger(doc.order) && doc.order >= 0)) err('/order', `expected an integer >= 0 (the place in the list of lessons, smallest first), got ${show(doc.order)}`);
  if (doc.$schema !== undefined && typeof doc.$schema !== 'string') err('/$schema', `expected a string (the schema's path or URL), got ${jsonType(doc.$schema)}`);
  if (doc.steps === undefined) { err('/steps', 'missing: expected an array of steps, at least one'); return errors; }
  if (!Array.isArray(doc.steps) || doc.steps.length === 0) { err('/steps', `expected an array of steps, at least one, got ${Array.isArray(doc.steps) ? 'an empty array' : jsonType(doc.steps)}`); return errors; }
  doc.steps.forEach((step, i) => checkStep(step, `/steps/${i}`, { scenes, sceneDocs, schema }, err));
  return errors;
}

/** One line per problem: "FILE: POINTER: message" (as suction validate writes a scene's). */
export function formatErrors(errors, file = 'lesson') {
  return errors.map(e => `${file}: ${e.path || '/'}: ${e.message}`);
}

function unknownKeys(obj, allowed, path, err) {
  for (const k of Object.keys(obj)) {
    if (allowed.includes(k)) continue;
    const near = closest(k, allowed);
    err(`${path}/${escapeToken(k)}`, `unknown key${near ? ` (did you mean '${near}'?)` : ''}: expected one of ${allowed.join(', ')}`);
  }
}

function text(obj, key, path, err, required) {
  const v = obj[key];
  if (v === undefined) { if (required) err(`${path}/${key}`, 'missing: expected a non-empty string'); return false; }
  if (typeof v !== 'string' || v.trim() === '') { err(`${path}/${key}`, `expected a non-empty string, got ${show(v)}`); return false; }
  return true;
}

function checkStep(step, path, ctx, err) {
  if (!isObject(step)) { err(path, `expected a step object { "scene", "watch", "pause_at", "explain", ... }, got ${jsonType(step)}`); return; }
  unknownKeys(step, STEP_KEYS, path, err);
  text(step, 'title', path, err, false);
  // the scene
  let sceneDoc = null;
  if (step.scene === undefined) err(`${path}/scene`, 'missing: expected the name of a shipped scene (scenes/NAME.json without .json)');
  else if (typeof step.scene !== 'string' || step.scene === '') err(`${path}/scene`, `expected a scene's name, got ${show(step.scene)}`);
  else if (ctx.scenes && !ctx.scenes.includes(step.scene)) {
    const near = closest(step.scene, ctx.scenes);
    err(`${path}/scene`, `unknown scene '${step.scene}'${near ? `; did you mean '${near}'?` : ''} (the scenes: ${ctx.scenes.join(', ')})`);
  } else sceneDoc = ctx.sceneDocs[step.scene] || null;
  // the values it sets
  if (step.set !== undefined) {
    if (!isObject(step.set)) err(`${path}/set`, `expected an object { "/json/pointer": value, ... }, got ${jsonType(step.set)}`);
    else {
      const earlier = new Map();
      for (const [pointer, value] of Object.entries(step.set)) {
        const msg = checkSet(pointer, value, sceneDoc, ctx.schema, earlier, step.scene);
        if (msg) err(`${path}/set/${escapeToken(pointer)}`, msg);
        earlier.set(pointer, value);
      }
    }
  }
  // what it shows
  if (step.show !== undefined) {
    if (!isObject(step.show)) err(`${path}/show`, `expected an object { "forces": true, "pv": true, ... }, got ${jsonType(step.show)}`);
    else {
      unknownKeys(step.show, Object.keys(SHOW_KEYS), `${path}/show`, err);
      for (const [k, v] of Object.entries(step.show)) {
        if (SHOW_KEYS[k] && typeof v !== 'boolean') err(`${path}/show/${escapeToken(k)}`, `expected true or false, got ${show(v)}`);
      }
    }
  }
  const probes = sceneDoc ? sceneProbeNames(sceneDoc) : null;
  if (text(step, 'watch', path, err, true) && placeholders(step.watch).length) {
    err(`${path}/watch`, `'${placeholders(step.watch)[0].raw}': the watch text is shown before the step plays, so it has no measured values (placeholders belong in "explain")`);
  }
  // the prediction
  if (step.predict !== undefined) checkPredict(step.predict, `${path}/predict`, probes, err);
  // the event
  if (step.pause_at === undefined) err(`${path}/pause_at`, `missing: every step pauses at an event: ${Object.keys(EVENTS).join(', ')} or t=SECONDS`);
  else {
    const ev = parseEvent(step.pause_at);
    if (!ev) {
      const near = typeof step.pause_at === 'string' ? closest(step.pause_at, Object.keys(EVENTS)) : null;
      err(`${path}/pause_at`, `unknown event ${show(step.pause_at)}${near ? `; did you mean '${near}'?` : ''}: expected one of ${Object.keys(EVENTS).join(', ')} or t=SECONDS (e.g. t=1.25)`);
    } else if (ev.kind === 'time' && sceneDoc && sceneDoc.settings && typeof sceneDoc.settings.duration === 'number' &&
               ev.t > sceneDoc.settings.duration + 1e-9 && !(step.set && step.set['/settings/duration'] !== undefined)) {
      err(`${path}/pause_at`, `${step.pause_at} is after the scene's end (${step.scene}: duration ${sceneDoc.settings.duration} s)`);
    }
  }
  // the answer
  if (text(step, 'explain', path, err, true)) {
    for (const p of placeholders(step.explain)) {
      const q = quantityError(p.name, probes);
      if (q) err(`${path}/explain`, `{${p.name}}: ${q}`);
    }
  }
}

function checkPredict(pr, path, probes, err) {
  if (!isObject(pr)) { err(path, `expected { "question", "choices", "answer" } or { "question", "unit", "answer_from", "tolerance" }, got ${jsonType(pr)}`); return; }
  const isChoice = pr.choices !== undefined || pr.answer !== undefined;
  const isNumber = pr.answer_from !== undefined || pr.tolerance !== undefined || pr.unit !== undefined;
  if (isChoice && isNumber) {
    err(path, 'expected either a choice (question, choices, answer) or a number (question, unit, answer_from, tolerance), not both');
    return;
  }
  if (!isChoice && !isNumber) {
    err(path, 'expected either a choice (question, choices, answer) or a number (question, unit, answer_from, tolerance)');
    text(pr, 'question', path, err, true);
    return;
  }
  unknownKeys(pr, isChoice ? CHOICE_KEYS : NUMBER_KEYS, path, err);
  text(pr, 'question', path, err, true);
  if (isChoice) {
    const c = pr.choices;
    if (c === undefined) err(`${path}/choices`, 'missing: expected an array of at least two answers (strings)');
    else if (!Array.isArray(c) || c.length < 2) err(`${path}/choices`, `expected an array of at least two answers (strings), got ${show(c)}`);
    else c.forEach((x, i) => { if (typeof x !== 'string' || x.trim() === '') err(`${path}/choices/${i}`, `expected a non-empty string, got ${show(x)}`); });
    const n = Array.isArray(c) ? c.length : 0;
    if (pr.answer === undefined) err(`${path}/answer`, `missing: expected the index of the right choice (0 to ${Math.max(0, n - 1)})`);
    else if (!Number.isInteger(pr.answer) || pr.answer < 0 || (n >= 2 && pr.answer >= n)) {
      err(`${path}/answer`, `expected the index of the right choice, an integer from 0 to ${Math.max(0, n - 1)}, got ${show(pr.answer)}`);
    }
  } else {
    if (pr.unit === undefined) err(`${path}/unit`, 'missing: expected the unit of the answer (a string, may be empty)');
    else if (typeof pr.unit !== 'string') err(`${path}/unit`, `expected a string, got ${show(pr.unit)}`);
    if (pr.answer_from === undefined) err(`${path}/answer_from`, 'missing: expected the quantity measured at the pause that answers it (e.g. t, pressure_kPa, probe.NAME)');
    else {
      const q = quantityError(pr.answer_from, probes);
      if (q) err(`${path}/answer_from`, q);
    }
    if (pr.tolerance === undefined) err(`${path}/tolerance`, 'missing: expected the relative tolerance of a good guess, a number in (0, 1] (0.1: within 10 %)');
    else if (typeof pr.tolerance !== 'number' || !(pr.tolerance > 0 && pr.tolerance <= 1)) {
      err(`${path}/tolerance`, `expected a number in (0, 1] (0.1: within 10 %), got ${show(pr.tolerance)}`);
    }
  }
}

// ---- the values a step sets --------------------------------------------------------------------
/** What is wrong with `"set": { pointer: value }` in this scene, or null. */
function checkSet(pointer, value, sceneDoc, schema, earlier, sceneName) {
  if (typeof pointer !== 'string' || !/^(\/([^~/]|~[01])*)+$/.test(pointer)) {
    return `expected a JSON pointer such as /parameters/NAME or /settings/cavity/leak_rate ('/' between keys, '~1' for a '/' and '~0' for a '~' in a key)`;
  }
  if (value === null || value === undefined) return 'expected a value (a number, a string, true or false, or a JSON object)';
  const tokens = pointer.split('/').slice(1).map(unescapeToken);
  if (!sceneDoc) return null;   // the scene is unknown here (reported on /scene) or not given: nothing more to check
  if (tokens[0] === 'parameters') {
    const params = isObject(sceneDoc.parameters) ? sceneDoc.parameters : {};
    const name = tokens[1];
    if (!Object.prototype.hasOwnProperty.call(params, name)) {
      const near = closest(name, Object.keys(params));
      return `no parameter '${name}' in scene '${sceneName}'${near ? `; did you mean '${near}'?` : ''} (its parameters: ${Object.keys(params).join(', ') || 'none'})`;
    }
    if (tokens.length > 3 || (tokens.length === 3 && tokens[2] !== 'default')) return `a scene parameter is set as /parameters/${name} (its value)`;
    if (typeof value === 'string' && value.startsWith('=')) return null;
    if (typeof value !== 'number' || !Number.isFinite(value)) return `expected a number (or an "=expression"), got ${show(value)}`;
    const p = params[name] || {};
    if (typeof p.min === 'number' && value < p.min) return `${value} is below the parameter's min ${p.min}${p.unit ? ` ${p.unit}` : ''}`;
    if (typeof p.max === 'number' && value > p.max) return `${value} is above the parameter's max ${p.max}${p.unit ? ` ${p.unit}` : ''}`;
    return null;
  }
  // the parents must be in the scene (an override adds a key to an existing object), or set before
  let node = sceneDoc;
  for (let i = 0; i < tokens.length - 1; ++i) {
    const prefix = '/' + tokens.slice(0, i + 1).map(escapeToken).join('/');
    const t = tokens[i];
    let next;
    if (Array.isArray(node)) next = /^(0|[1-9]\d*)$/.test(t) ? node[Number(t)] : undefined;
    else if (isObject(node)) next = Object.prototype.hasOwnProperty.call(node, t) ? node[t] : undefined;
    if (next === undefined && earlier.has(prefix)) next = earlier.get(prefix);
    if (next === undefined) {
      const parent = '/' + tokens.slice(0, i).map(escapeToken).join('/');
      const keys = isObject(node) ? Object.keys(node) : [];
      const near = isObject(node) ? closest(t, keys) : null;
      return `${prefix} is not in scene '${sceneName}'${near ? `; did you mean '${near}'?` : ''} (an override adds a key to an object the scene has; ` +
        `${Array.isArray(node) ? `${parent || '/'} has ${node.length} items` : `set ${prefix} to {} first`})`;
    }
    node = next;
  }
  if (!isObject(node) && !Array.isArray(node)) return `${pointer}: its parent is ${jsonType(node)}, not an object`;
  if (Array.isArray(node) && !(/^(0|[1-9]\d*)$/.test(tokens.at(-1)) && Number(tokens.at(-1)) < node.length)) {
    return `${tokens.at(-1)}: expected an index of the array (0 to ${node.length - 1})`;
  }
  return schema ? checkAgainstSchema(schema, tokens, value) : null;
}

const deref = (schema, node) => {
  for (let g = 0; g < 16 && node && node.$ref && node.$ref.startsWith('#/'); ++g) {
    let cur = schema;
    for (const t of node.$ref.slice(2).split('/').map(unescapeToken)) cur = cur && cur[t];
    node = cur;
  }
  return node;
};

/** The schema nodes (a oneOf/anyOf gives several) that a key of `node` leads to; null: unknown key. */
function childSchemas(schema, node, key) {
  const out = [];
  let knows = false, open = false;
  const visit = (n0, depth) => {
    const n = deref(schema, n0);
    if (!n || typeof n !== 'object' || depth > 8) { open = true; return; }
    for (const alt of [...(n.oneOf || []), ...(n.anyOf || []), ...(n.allOf || [])]) visit(alt, depth + 1);
    if (n.type === 'array' || n.items) {
      if (/^(0|[1-9]\d*)$/.test(key)) { knows = true; if (n.items) out.push(n.items); else open = true; }
      return;
    }
    if (n.properties && Object.prototype.hasOwnProperty.call(n.properties, key)) { knows = true; out.push(n.properties[key]); return; }
    for (const [re, sub] of Object.entries(n.patternProperties || {})) {
      if (new RegExp(re).test(key)) { knows = true; out.push(sub); return; }
    }
    if (isObject(n.additionalProperties)) { knows = true; out.push(n.additionalProperties); return; }
    if (n.additionalProperties === undefined && !n.properties && !n.oneOf && !n.anyOf) open = true;
  };
  visit(node, 0);
  return knows || open ? out : null;
}

function propertyNames(schema, node) {
  const names = new Set();
  const visit = (n0, depth) => {
    const n = deref(schema, n0);
    if (!n || depth > 8) return;
    for (const alt of [...(n.oneOf || []), ...(n.anyOf || []), ...(n.allOf || [])]) visit(alt, depth + 1);
    for (const k of Object.keys(n.properties || {})) names.add(k);
  };
  visit(node, 0);
  return [...names];
}

/** The JSON types a schema node accepts ('number', 'integer', 'string', 'expression', ...); empty: any. */
function acceptedTypes(schema, node0) {
  const types = new Set();
  const visit = (n0, depth) => {
    const n = deref(schema, n0);
    if (!n || depth > 8) return;
    const alts = [...(n.oneOf || []), ...(n.anyOf || [])];
    for (const alt of alts) visit(alt, depth + 1);
    if (n.type === 'string' && n.pattern === '^=') types.add('expression');
    else if (typeof n.type === 'string') types.add(n.type);
    else if (Array.isArray(n.type)) for (const t of n.type) types.add(t);
    if (n.enum) types.add('enum');
  };
  visit(node0, 0);
  return types;
}

/** Bounds and enum of a node (siblings of a $ref count, as the scene schema writes them). */
function constraints(schema, node0) {
  const c = {};
  for (const n of [node0, deref(schema, node0)]) {
    if (!n) continue;
    for (const k of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'enum']) if (n[k] !== undefined && c[k] === undefined) c[k] = n[k];
  }
  return c;
}

function checkAgainstSchema(schema, tokens, value) {
  let nodes = [schema];
  for (let i = 0; i < tokens.length; ++i) {
    const next = [];
    let unknown = true;
    for (const n of nodes) {
      const c = childSchemas(schema, n, tokens[i]);
      if (c !== null) { unknown = false; next.push(...c); }
    }
    if (unknown) {
      const names = [...new Set(nodes.flatMap(n => propertyNames(schema, n)))];
      const near = closest(tokens[i], names);
      const at = '/' + tokens.slice(0, i).map(escapeToken).join('/');
      return `unknown key '${tokens[i]}' in ${i ? at : 'the scene'}${near ? `; did you mean '${near}'?` : ''}` +
        (names.length ? ` (expected one of ${names.join(', ')})` : '');
    }
    if (!next.length) return null;   // the schema does not say more
    nodes = next;
  }
  // the value: its type, bounds and choices, when every schema node that leads here agrees
  const problems = nodes.map(n => valueProblem(schema, n, value));
  return problems.every(p => p) ? problems[0] : null;
}

function valueProblem(schema, node, value) {
  const types = acceptedTypes(schema, node);
  const c = constraints(schema, node);
  if (c.enum && !c.enum.includes(value)) return `expected one of ${c.enum.map(x => JSON.stringify(x)).join(', ')}, got ${show(value)}`;
  if (!types.size) return null;
  const isExpr = typeof value === 'string' && value.startsWith('=');
  const ok = (types.has('number') && typeof value === 'number') || (types.has('integer') && Number.isInteger(value)) ||
    (types.has('expression') && isExpr) || (types.has('string') && typeof value === 'string') ||
    (types.has('boolean') && typeof value === 'boolean') || (types.has('object') && isObject(value)) ||
    (types.has('array') && Array.isArray(value)) || types.has('enum');
  if (!ok) {
    const names = [...types].filter(t => t !== 'enum').map(t => (t === 'expression' ? 'an "=expression"' : t === 'integer' ? 'an integer' : t === 'object' ? 'an object' : t === 'array' ? 'an array' : `a ${t}`));
    return `expected ${names.join(' or ')}, got ${show(value)}`;
  }
  if (typeof value === 'number') {
    if (c.minimum !== undefined && value < c.minimum) return `expected a value >= ${c.minimum}, got ${value}`;
    if (c.maximum !== undefined && value > c.maximum) return `expected a value <= ${c.maximum}, got ${value}`;
    if (c.exclusiveMinimum !== undefined && value <= c.exclusiveMinimum) return `expected a value > ${c.exclusiveMinimum}, got ${value}`;
    if (c.exclusiveMaximum !== undefined && value >= c.exclusiveMaximum) return `expected a value < ${c.exclusiveMaximum}, got ${value}`;
  }
  return null;
}
