// The messages between the page (main thread) and the simulation worker, defined once. Both
// sides build them with message() and take them apart with dispatch(): a type that is not
// listed here is an error on either side (web/test/messages.test.mjs, docs/web.md "Messages").
// Messages stay plain objects { type, ...fields } (structured clone; the benches read `type`).
// A field name ending in '?' is optional.

/**
 * @typedef {{type:'init', backend:'wasm'|'mock', simThreads?:number, warmup?:number}} InitMsg
 *            simThreads: the simulation's threads (the page's ?threads=); absent: the machine's
 *            cores, 1 to 4. warmup: the steps of the warm-up after each load (the page's
 *            ?warmup=; 0: none; absent: DEFAULT_WARMUP_STEPS of src/sim_host.js)
 * @typedef {{type:'load', text:string, name?:string, baseDir?:string}} LoadMsg
 * @typedef {{type:'play'}|{type:'pause'}|{type:'reset'}|{type:'ack'}} PlainMsg
 * @typedef {{type:'step', n:number}} StepMsg
 * @typedef {{type:'speed', mode?:'steps'|'realtime', stepsPerFrame?:number, timeFactor?:number}} SpeedMsg
 * @typedef {{type:'override', list:Array<[string, string]>}} OverrideMsg   JSON pointer, value text (the CLI's --set)
 * @typedef {{type:'quality', name:'interactive'|'reference'}} QualityMsg
 * @typedef {{type:'drag', driver:number, target:number[]}} DragMsg          target: the driver offset [m]
 * @typedef {{type:'dragSpeed', value:number}} DragSpeedMsg                  m/s
 * @typedef {{type:'pauseAt', event:string|null}} PauseAtMsg   a lesson's event (src/lesson_events.js); null: none
 * @typedef {InitMsg|LoadMsg|PlainMsg|StepMsg|SpeedMsg|OverrideMsg|QualityMsg|DragMsg|DragSpeedMsg|PauseAtMsg} ToWorker
 *
 * @typedef {{type:'ready', backend:string, module:string, version:string, crossOriginIsolated:boolean,
 *            threads:boolean, simThreads:number}} ReadyMsg
 * @typedef {{type:'loaded', backend:string, version:string, name:string, sceneName:string, description:string,
 *            dt:number, duration:number, quality:string, qualityChanges:string[], pAtm:number, gravity:number,
 *            bodies:Array<{name:string, soft:boolean, fixed:boolean, indices:Uint32Array}>,
 *            drivers:Array<{name:string, body:number}>, parameters:Array<object>, probeNames:string[]}} LoadedMsg
 * @typedef {{type:'frame', time:number, step:number, playing:boolean, bodies:Float32Array[], masses:number[],
 *            centres:Array<number[]|null>, cavities:object[],
 *            contacts:Float32Array, contactCount:number, springs:Float32Array, drivers:object[], probes:number[],
 *            profile:object, samples:object[], rtf:number|null}} FrameMsg
 * @typedef {{type:'status', playing:boolean}} StatusMsg
 * @typedef {{type:'reset'}} ResetMsg
 * @typedef {{type:'end', time:number}} EndMsg
 * @typedef {{type:'overridden', applied:Array<[string, string]>, requested:number, live:boolean, time?:number,
 *            dt?:number, restart?:string}} OverriddenMsg
 * @typedef {{type:'error', where:string, message:string, fatal?:boolean}} ErrorMsg
 * @typedef {{type:'event', name:string, t:number, step:number, values:Object<string, number>, missed:boolean}} EventMsg
 *            the armed event happened at step `step` (the run paused there), or (missed) the scene
 *            ended without it; values: what was measured there (src/lesson_events.js)
 * @typedef {{type:'warm', steps:number, ms:number, complete:boolean}} WarmMsg
 *            the warm-up after a load or rebuild ended (SimHost.startWarmup): `steps` played unseen
 *            in `ms`, then the scene was reset; complete: false when a command ended it early
 * @typedef {ReadyMsg|LoadedMsg|FrameMsg|StatusMsg|ResetMsg|EndMsg|OverriddenMsg|ErrorMsg|EventMsg|WarmMsg} FromWorker
 */

/** Page -> worker: type -> its fields. */
export const TO_WORKER = deepFreeze({
  init: ['backend', 'simThreads?', 'warmup?'],
  load: ['text', 'name?', 'baseDir?'],
  play: [],
  pause: [],
  step: ['n'],
  reset: [],
  speed: ['mode?', 'stepsPerFrame?', 'timeFactor?'],
  override: ['list'],
  quality: ['name'],
  drag: ['driver', 'target'],
  dragSpeed: ['value'],
  pauseAt: ['event'],
  ack: [],
});

/** Worker -> page: type -> its fields. */
export const FROM_WORKER = deepFreeze({
  ready: ['backend', 'module', 'version', 'crossOriginIsolated', 'threads', 'simThreads'],
  loaded: ['backend', 'version', 'name', 'sceneName', 'description', 'dt', 'duration', 'quality', 'qualityChanges',
           'pAtm', 'gravity', 'bodies', 'drivers', 'parameters', 'probeNames'],
  frame: ['time', 'step', 'playing', 'bodies', 'masses', 'centres', 'cavities', 'contacts', 'contactCount', 'springs', 'drivers', 'probes',
          'profile', 'samples', 'rtf'],
  status: ['playing'],
  reset: [],
  end: ['time'],
  overridden: ['applied', 'requested', 'live', 'time?', 'dt?', 'restart?'],
  error: ['where', 'message', 'fatal?'],
  event: ['name', 't', 'step', 'values', 'missed'],
  warm: ['steps', 'ms', 'complete'],
});

function deepFreeze(o) { for (const v of Object.values(o)) Object.freeze(v); return Object.freeze(o); }

export class MessageError extends Error {}

function fieldsOf(spec, type) {
  if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(spec, type)) {
    throw new MessageError(`unknown message type '${type}' (known: ${Object.keys(spec).join(', ')})`);
  }
  return spec[type];
}

/**
 * Builds the message `type` of `spec` (TO_WORKER or FROM_WORKER) with `fields`; throws
 * MessageError for an unknown type, a missing required field or a field the type does not have.
 * @returns {{type:string}}
 */
export function message(spec, type, fields = {}) {
  const names = fieldsOf(spec, type);
  const msg = { type };
  for (const f of names) {
    const optional = f.endsWith('?'), name = optional ? f.slice(0, -1) : f;
    if (fields[name] === undefined) {
      if (!optional) throw new MessageError(`message '${type}': field '${name}' is missing`);
    } else msg[name] = fields[name];
  }
  for (const k of Object.keys(fields)) {
    if (k !== 'type' && !names.includes(k) && !names.includes(`${k}?`)) throw new MessageError(`message '${type}' has no field '${k}'`);
  }
  return msg;
}

/** Whether `msg` is a message of `spec` (by its type only). */
export function isMessage(spec, msg) {
  return !!msg && typeof msg.type === 'string' && Object.prototype.hasOwnProperty.call(spec, msg.type);
}

/**
 * Checks that `handlers` has a function for every type of `spec` (but those in `except`) and
 * nothing else; returns handlers. Call once where the handlers are made: a type added to the
 * spec and forgotten on one side fails at start, not at the first such message.
 */
export function checkHandlers(spec, handlers, except = []) {
  for (const type of Object.keys(spec)) {
    if (except.includes(type)) continue;
    if (typeof handlers[type] !== 'function') throw new MessageError(`no handler for message '${type}'`);
  }
  for (const type of Object.keys(handlers)) fieldsOf(spec, type);
  return handlers;
}

/** Calls handlers[msg.type](msg); an unknown type (or one without a handler) throws MessageError. */
export function dispatch(spec, handlers, msg) {
  const type = msg && msg.type;
  fieldsOf(spec, type);
  const h = handlers[type];
  if (typeof h !== 'function') throw new MessageError(`no handler for message '${type}'`);
  return h(msg);
}
