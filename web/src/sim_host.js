// The simulation side of the page: owns a wasm Simulator (docs/wasm-api.md, docs/web.md)
// and turns commands into steps and steps into frame messages. No DOM: it runs
// in the Web Worker (web/src/worker.js) and under node with a mock (web/test/sim_host.test.mjs).
// Its messages, both ways, are those of src/messages.js.
import { TO_WORKER, FROM_WORKER, message, dispatch, checkHandlers, isMessage } from './messages.js';
import { EventWatch } from './lesson_events.js';

const now = () => (globalThis.performance ? performance.now() : Date.now());

// The commands that leave a running warm-up alone (they neither read nor change the simulation);
// any other ends it first, with the reset, so the command finds the scene as loaded.
const WARMUP_GOES_ON = new Set(['ack', 'speed', 'dragSpeed', 'pause']);
/** The page's warm-up (worker.js): its steps, and the wall time it may take at most. */
export const DEFAULT_WARMUP_STEPS = 40;
export const WARMUP_BUDGET_MS = 1500;

function toArray(x) {
  if (Array.isArray(x)) return x;
  if (x && typeof x.size === 'function' && typeof x.get === 'function') { // embind vector
    const a = []; for (let i = 0; i < x.size(); ++i) a.push(x.get(i)); return a;
  }
  return x ? Array.from(x) : [];
}

export class SimHost {
  /** M: the module (from createSuction); post(msg, transferList). */
  /**
   * warmup: null (none) or { steps, budgetMs }: after each load or rebuild the host plays the
   * scene's first `steps` steps unseen (at most budgetMs of wall time, one step per task so a
   * command gets in) and resets it (see startWarmup).
   */
  constructor(M, post, { backend = 'wasm', maxStepsPerTick = 200, tickBudgetMs = 100, quality = 'interactive', warmup = null } = {}) {
    this.M = M;
    this.post = post;
    this.backend = backend;
    this.sim = new M.Simulator();
    this.loaded = false;
    this.playing = false;
    this.mode = 'steps';      // 'steps': stepsPerFrame per tick; 'realtime': timeFactor x wall clock
    this.stepsPerFrame = 1;
    this.timeFactor = 1;
    this.maxStepsPerTick = maxStepsPerTick;
    this.tickBudgetMs = tickBudgetMs;
    this.frameWanted = true;  // the page is ready for the next frame
    this.dirty = true;        // something changed since the last frame
    this.samples = [];        // per-step plot samples not yet sent
    this.drag = new Map();    // driver -> { target: [x,y,z] }
    this.dragSpeed = 0.05;    // m/s: the most a dragged handle moves per simulated second
    this.rtfWindow = [];      // [wallMs, simTime]
    this.timer = null;
    this.lastTickWall = null;
    this.stopAtEnd = true;
    // a lesson's event (src/lesson_events.js): every step's sample goes to the watch, and the run
    // pauses at the step where the event happens ('pauseAt'; 'event' tells the page)
    this.watch = null;
    this.watchFired = null;
    this.watchMissed = false;
    this.probeNames = [];
    this.warmup = warmup && warmup.steps > 0 ? { steps: warmup.steps | 0, budgetMs: Number.isFinite(+warmup.budgetMs) ? +warmup.budgetMs : WARMUP_BUDGET_MS } : null;
    this.warming = null;      // { steps, limit, start, timer } while the warm-up runs
    // the page plays at interactive quality unless asked (docs/validation.md, "Quality levels")
    this.quality = 'reference';
    if (typeof this.sim.setQuality === 'function' && !this.sim.setQuality(quality)) this.quality = quality;
  }

  // ---- commands (from the page: src/messages.js TO_WORKER; 'init' is the worker's own) --------
  /** The handler of each command, made once (every type of TO_WORKER but init). */
  get commands() {
    if (this._commands) return this._commands;
    this._commands = checkHandlers(TO_WORKER, {
      load: (msg) => this.load(msg.text, msg.baseDir || '', msg.name),
      play: () => { this.playing = true; this.lastTickWall = null; this.simDebt = 0; this.rtfWindow = []; this.status(); this.schedule(); },
      pause: () => { this.playing = false; this.status(); },
      step: (msg) => { this.runSteps(Math.max(1, msg.n | 0), Infinity); this.dirty = true; this.maybeFrame(); },
      reset: () => this.reset(),
      speed: (msg) => {
        if (msg.mode) this.mode = msg.mode;
        if (msg.stepsPerFrame) this.stepsPerFrame = Math.max(1, msg.stepsPerFrame | 0);
        if (msg.timeFactor) this.timeFactor = Math.max(1e-4, +msg.timeFactor);
        this.simDebt = 0; this.rtfWindow = [];
      },
      override: (msg) => this.override(msg.list),
      quality: (msg) => this.setQuality(msg.name),
      drag: (msg) => { this.drag.set(msg.driver, { target: msg.target.slice(0, 3) }); },
      dragSpeed: (msg) => { this.dragSpeed = +msg.value; },
      pauseAt: (msg) => this.pauseAt(msg.event),
      ack: () => { this.frameWanted = true; if (this.warming) return; this.maybeFrame(); if (this.playing) this.schedule(); },
    }, ['init']);
    return this._commands;
  }

  /** Runs one command; an unknown one (or 'init', the worker's own) is reported as an error. */
  handle(msg) {
    if (!isMessage(TO_WORKER, msg) || msg.type === 'init') { this.error('worker', `unknown command '${msg && msg.type}'`); return undefined; }
    if (this.warming && !WARMUP_GOES_ON.has(msg.type)) this.endWarmup(false);
    return dispatch(TO_WORKER, this.commands, msg);
  }

  /** Posts the message `type` of FROM_WORKER (src/messages.js). */
  send(type, fields = {}, transfer = []) { this.post(message(FROM_WORKER, type, fields), transfer); }

  error(where, text) { this.send('error', { where, message: String(text) }); }

  /**
   * Calls an optional query (probes, profile, ...); a failure is reported once per query (per
   * load) and replaced by `fallback`, so one broken getter does not stop the simulation.
   */
  safe(name, fn, fallback) {
    try { return fn(); } catch (e) {
      this.failed = this.failed || new Set();
      if (!this.failed.has(name)) {
        this.failed.add(name);
        this.error('query', `${name}() failed: ${e && e.message || e} (reported once; shown as empty)`);
      }
      return fallback;
    }
  }
  status() { this.send('status', { playing: this.playing }); }

  load(text, baseDir, name) {
    this.playing = false;
    this.watch = null;   // a lesson arms its event after the load it asks for
    let err;
    try { err = this.sim.load(text, baseDir); } catch (e) { err = String(e && e.message || e); }
    if (err) { this.error('load', err); this.status(); return false; }
    this.sceneText = text;
    this.afterRebuild(name);
    return true;
  }

  /**
   * Applies [pointer, value] changes. Live first (Simulator.tune: the running simulation takes
   * them from its next step on, no reset, playing goes on); from the first change the running
   * simulation cannot take (another mesh: "cannot change while the simulation runs: ...") on,
   * the rest are applied with setOverride, which rebuilds and starts again. Posts 'overridden'
   * with what was applied, whether it all went live, and the time it took effect.
   */
  override(list) {
    const applied = [];
    let i = 0, restart = '';
    if (typeof this.sim.tune === 'function' && this.loaded) {
      for (; i < list.length; ++i) {
        const [pointer, value] = list[i];
        let err;
        try { err = this.sim.tune(pointer, value); } catch (e) { err = String(e && e.message || e); }
        if (err && /cannot change while the simulation runs/.test(err)) { restart = err; break; }
        if (err) {
          this.error('override', `${pointer} = ${value}: ${err}`);
          this.send('overridden', { applied, requested: list.length, live: true, time: this.sim.time() });
          return;
        }
        applied.push([pointer, value]);
      }
      if (i === list.length) {
        this.send('overridden', { applied, requested: list.length, live: true, time: this.sim.time(), dt: this.sim.dt() });
        this.dirty = true; this.frameWanted = true; this.maybeFrame();
        return;
      }
    }
    this.playing = false;
    for (; i < list.length; ++i) {
      const [pointer, value] = list[i];
      let err;
      try { err = this.sim.setOverride(pointer, value); } catch (e) { err = String(e && e.message || e); }
      if (err) { this.error('override', `${pointer} = ${value}: ${err}`); break; }
      applied.push([pointer, value]);
    }
    this.send('overridden', { applied, requested: list.length, live: false, restart });
    this.afterRebuild();
  }

  /**
   * Pauses the run at the first step (since the load or the last reset) where `event` happens
   * (src/lesson_events.js: contact, sealed, pressing, holding, leaking, released, end, t=T);
   * null: no more. Armed at step 0, the watch takes the current sample first. Kept across
   * reset and rebuilds (an override that restarts), dropped by a load.
   */
  pauseAt(event) {
    this.watch = null; this.watchFired = null; this.watchMissed = false;
    if (event === null || event === undefined || event === '') return;
    try {
      this.watch = new EventWatch(event, { duration: this.loaded ? this.sim.duration() : Infinity, probeNames: this.probeNames });
    } catch (e) { this.error('pauseAt', e.message); return; }
    if (this.loaded && this.sim.stepCount() === 0 && this.watch.push(this.sampleNow())) this.eventReached(this.watch.fired);
  }

  /** The armed event happened at the sample just taken: pause, and tell the page. */
  eventReached(values) {
    this.watchFired = null;
    this.playing = false;
    this.send('event', { name: this.watch.event, t: values.t, step: values.step, values, missed: false });
    this.status();
  }

  /** 'reference' | 'interactive': a loaded scene is rebuilt (overrides kept) and starts again */
  setQuality(name) {
    if (typeof this.sim.setQuality !== 'function') { this.error('quality', 'this module has no quality levels'); return; }
    this.playing = false;
    let err;
    try { err = this.sim.setQuality(name); } catch (e) { err = String(e && e.message || e); }
    if (err) { this.error('quality', err); this.status(); return; }
    this.quality = name;
    if (this.loaded) this.afterRebuild();
    else this.status();
  }

  reset() {
    this.playing = false;
    try { this.sim.reset(); } catch (e) { this.error('reset', e && e.message || e); }
    for (let k = 0; k < this.driverCount; ++k) this.sim.setDriverOffset(k, 0, 0, 0);
    this.drag.clear();
    this.samples = [];
    if (this.watch) { this.watch.reset(); this.watchFired = null; this.watchMissed = false; }
    this.send('reset');
    this.status();
    this.recordSample();
    if (this.watchFired) this.eventReached(this.watchFired);
    this.dirty = true; this.frameWanted = true; this.maybeFrame();
  }

  afterRebuild(name) {
    const s = this.sim;
    this.loaded = true;
    this.failed = new Set();
    this.drag.clear();
    this.samples = [];
    this.driverCount = s.driverCount();
    const bodies = [];
    for (let i = 0; i < s.bodyCount(); ++i) {
      bodies.push({ name: s.bodyName(i), soft: !!s.bodyIsSoft(i), fixed: !!s.bodyIsFixed(i),
                    indices: new Uint32Array(s.surfaceIndices(i)) });
    }
    const drivers = [];
    for (let k = 0; k < this.driverCount; ++k) drivers.push({ name: s.driverName(k), body: s.driverBody(k) });
    this.handBody = drivers.length ? drivers[0].body : -1;
    const meta = {
      backend: this.backend, version: this.M.version ? this.M.version() : '',
      name: name ?? s.sceneName(), sceneName: s.sceneName(), description: s.sceneDescription(),
      dt: s.dt(), duration: s.duration(), quality: this.quality,
      qualityChanges: typeof s.qualityChanges === 'function' ? toArray(this.safe('qualityChanges', () => s.qualityChanges(), [])) : [], pAtm: s.pAtm(), gravity: s.gravity(), bodies, drivers,
      parameters: toArray(this.safe('parameters', () => s.parameters(), [])).map(p => ({ name: p.name, value: p.value, min: p.min ?? null, max: p.max ?? null,
                                                        unit: p.unit ?? '', doc: p.doc ?? '' })),
      probeNames: toArray(this.safe('probeNames', () => s.probeNames(), [])),
    };
    this.probeNames = meta.probeNames.slice();
    if (this.watch) { this.watch.reset({ duration: s.duration(), probeNames: this.probeNames }); this.watchFired = null; this.watchMissed = false; }
    this.send('loaded', meta, bodies.map(b => b.indices.buffer));
    this.status();
    this.recordSample();
    if (this.watchFired) this.eventReached(this.watchFired);
    this.dirty = true; this.frameWanted = true; this.maybeFrame();
    this.startWarmup();
  }

  // ---- warm-up ----------------------------------------------------------------------------
  // WebAssembly is compiled lazily: a function runs as baseline code (V8's Liftoff) from its
  // first call and is recompiled optimized (TurboFan) only once it has been hot, so the first
  // second of a scene in a fresh page runs at about half speed and its first union (CGAL's code)
  // takes 0.3 s instead of 10 ms (docs/validation.md, issue 48 part 14). The warm-up moves that
  // to the time the scene stands loaded: it steps the scene unseen (no frame, no sample, no
  // event), then resets it (Simulator.reset: the loaded state to the bit), and posts 'warm'.
  // Any command but those of WARMUP_GOES_ON ends it first (endWarmup), so play starts at once.

  startWarmup() {
    this.endWarmup(false);
    if (!this.warmup || !this.loaded) return;
    const dt = this.sim.dt(), duration = this.sim.duration();
    const steps = Math.min(this.warmup.steps, Math.max(0, Math.floor(duration / dt + 1e-9)));
    // a scene shorter than one step has nothing to warm: said at once, as a warm-up of none
    if (!(steps > 0)) { this.send('warm', { steps: 0, ms: 0, complete: true }); return; }
    this.warming = { steps: 0, limit: steps, start: now(), timer: null };
    this.warming.timer = setTimeout(() => this.warmTick(), 0);
  }

  warmTick() {
    const w = this.warming;
    if (!w) return;
    w.timer = null;
    let err;
    try { err = this.sim.step(1); } catch (e) { err = String(e && e.message || e); }
    if (!err) w.steps += 1;
    if (err || w.steps >= w.limit || now() - w.start >= this.warmup.budgetMs) { this.endWarmup(!err); return; }
    w.timer = setTimeout(() => this.warmTick(), 0);
  }

  /** Ends a running warm-up: the scene back to its loaded state; 'warm' says how far it got. */
  endWarmup(complete) {
    const w = this.warming;
    if (!w) return;
    if (w.timer !== null) clearTimeout(w.timer);
    this.warming = null;
    if (this.sim.stepCount() > 0) {
      try { this.sim.reset(); } catch (e) { this.error('reset', e && e.message || e); }
    }
    this.send('warm', { steps: w.steps, ms: now() - w.start, complete });
  }

  // ---- stepping -------------------------------------------------------------------------
  schedule() {
    if (this.timer !== null || !this.playing) return;
    this.timer = setTimeout(() => { this.timer = null; this.tick(); }, 0);
  }

  /** How many steps this tick should take. */
  stepsThisTick() {
    if (this.mode !== 'realtime') return this.stepsPerFrame;
    const t = now();
    const wall = this.lastTickWall === null ? 16 : Math.min(100, t - this.lastTickWall);
    this.lastTickWall = t;
    this.simDebt = (this.simDebt || 0) + wall * 1e-3 * this.timeFactor;
    const dt = this.sim.dt();
    const n = Math.min(Math.floor(this.simDebt / dt), this.maxStepsPerTick);
    // What a machine that cannot keep up did not run is dropped, not owed: it runs flat out
    // while behind, and a later, lower speed plays at once instead of paying off a backlog.
    this.simDebt = Math.min(this.simDebt - n * dt, dt);
    return n;
  }

  tick() {
    if (!this.playing || !this.loaded) return;
    // 'steps' mode runs in lockstep with the page: N steps, one frame, wait for its ack.
    // 'realtime' mode keeps stepping (paced by the wall clock) and sends a frame whenever the
    // page is ready for one.
    if (this.mode !== 'realtime' && !this.frameWanted) return;
    const n = this.stepsThisTick();
    if (n > 0) this.runSteps(n);
    this.maybeFrame();
    if (this.playing && this.mode === 'realtime') {
      if (n === 0) { this.timer = setTimeout(() => { this.timer = null; this.tick(); }, 4); }
      else this.schedule();
    }
  }

  /** Moves every dragged driver's offset towards its target, at most dragSpeed*dt per step. */
  applyDrag(dt) {
    for (const [k, d] of this.drag) {
      const cur = toArray(this.sim.driverOffset(k));
      const dx = d.target[0] - cur[0], dy = d.target[1] - cur[1], dz = d.target[2] - cur[2];
      const dist = Math.hypot(dx, dy, dz);
      if (dist < 1e-9) { this.drag.delete(k); continue; }
      const f = Math.min(1, (this.dragSpeed * dt) / dist);
      this.sim.setDriverOffset(k, cur[0] + f * dx, cur[1] + f * dy, cur[2] + f * dz);
    }
  }

  /** Runs up to n steps; stops early (a tick) once budgetMs have passed, so commands get in. */
  runSteps(n, budgetMs = this.tickBudgetMs) {
    const start = now();
    const dt = this.sim.dt();
    for (let i = 0; i < n; ++i) {
      this.applyDrag(dt);
      let err;
      try { err = this.sim.step(1); } catch (e) { err = String(e && e.message || e); }
      if (err) {
        this.playing = false;
        this.error('step', `step ${this.sim.stepCount() + 1} (t = ${this.sim.time().toFixed(4)} s): ${err}`);
        this.status();
        break;
      }
      for (const w of toArray(this.safe('takeWarnings', () => this.sim.takeWarnings(), []))) this.error('warning', w);
      this.recordSample();
      this.dirty = true;
      const atEnd = this.sim.time() >= this.sim.duration() - 1e-9 && this.sim.time() - dt < this.sim.duration() - 1e-9;
      const ended = this.stopAtEnd && this.playing && atEnd;
      if (ended) { this.playing = false; this.send('end', { time: this.sim.time() }); this.status(); }
      if (this.watchFired) { this.eventReached(this.watchFired); break; }
      if (atEnd && this.watch && !this.watch.fired && !this.watchMissed) {
        // the scene ended before the lesson's event: say so, with what was measured at the end
        this.watchMissed = true;
        const values = this.watch.values();
        this.send('event', { name: this.watch.event, t: values.t, step: values.step, values, missed: true });
      }
      if (ended) break;
      if (now() - start > budgetMs && i + 1 < n) break;
    }
    this.rtfWindow.push([now(), this.sim.time()]);
    while (this.rtfWindow.length > 2 && this.rtfWindow[this.rtfWindow.length - 1][0] - this.rtfWindow[0][0] > 2000) this.rtfWindow.shift();
  }

  realTimeFactor() {
    const w = this.rtfWindow;
    if (w.length < 2) return null;
    const dw = (w[w.length - 1][0] - w[0][0]) * 1e-3, ds = w[w.length - 1][1] - w[0][1];
    return dw > 0 ? ds / dw : null;
  }

  /** Cavity k as the core reports it: pressure, volume, air, and the holding force
   *  (P_atm - P)*A with its area and the seal's normal (probes/probes.h cavity_hold). */
  cavity(k) {
    const info = this.sim.cavityInfo(k);
    return { id: info.id, pressure: info.pressure, volume: info.volume, air: info.air, temperature: info.temperature,
             outflow: info.outflow, dormant: !!info.dormant, bodies: Array.from(info.bodies),
             area: info.area, normal: Array.from(info.normal), force: info.holdingForce };
  }

  /** The plot sample of the current state: time, step, contacts (all, and the hand's body's),
   *  cavities, forces, probe values. */
  sampleNow() {
    const s = this.sim;
    const pAtm = s.pAtm();
    const cavities = [];
    for (let k = 0; k < s.cavityCount(); ++k) cavities.push(this.cavity(k));
    const hand = this.driverCount > 0 ? toArray(this.safe('driverReaction', () => s.driverReaction(0), [NaN, NaN, NaN]))[2] : NaN;
    return { t: s.time(), step: s.stepCount(), pAtm, contacts: s.contactCount(), handContacts: this.handContacts(), cavities,
             force: cavities.reduce((a, c) => a + c.force, 0), hand,
             probes: Array.from(this.safe('probeValues', () => s.probeValues(), [])) };
  }

  /** The last step's contacts touching the first driver's body (the hand's own: what the phase
   *  panel counts, src/phase.js), or null when the scene has no driver or the module cannot say. */
  handContacts() {
    const s = this.sim;
    if (!(this.driverCount > 0) || typeof s.bodyContactCounts !== 'function') return null;
    const n = toArray(this.safe('bodyContactCounts', () => s.bodyContactCounts(), []))[this.handBody];
    return Number.isFinite(n) ? n : null;
  }

  recordSample() {
    const sample = this.sampleNow();
    this.samples.push(sample);
    if (this.samples.length > 20000) this.samples.splice(0, this.samples.length - 20000);
    if (this.watch && this.watch.push(sample)) this.watchFired = this.watch.fired;
  }

  maybeFrame() {
    if (!this.frameWanted || !this.dirty || !this.loaded) return;
    this.frameWanted = false;
    this.dirty = false;
    const { msg, transfer } = this.frame();
    this.post(msg, transfer);
  }

  /** The frame message: copies of every view (transferable), cavities, contacts, probes... */
  frame() {
    const s = this.sim;
    const transfer = [];
    const bodies = [];
    for (let i = 0; i < s.bodyCount(); ++i) {
      const p = new Float32Array(s.surfacePositions(i)); // copy out of wasm memory
      bodies.push(p); transfer.push(p.buffer);
    }
    const pAtm = s.pAtm();
    const cavities = [];
    for (let k = 0; k < s.cavityCount(); ++k) {
      const c = this.cavity(k);
      c.positions = new Float32Array(s.cavityPositions(k));
      c.indices = new Uint32Array(s.cavityIndices(k));
      c.seam = new Float32Array(s.cavitySeam(k));
      transfer.push(c.positions.buffer, c.indices.buffer, c.seam.buffer);
      cavities.push(c);
    }
    // the bodies' masses and centres of mass (the weights drawn with the forces: src/forces.js);
    // 0 and null where the module cannot say
    const masses = [], centres = [];
    const hasMass = typeof s.bodyMass === 'function' && typeof s.bodyCenterOfMass === 'function';
    for (let i = 0; i < s.bodyCount(); ++i) {
      const m = hasMass ? this.safe('bodyMass', () => s.bodyMass(i), 0) : 0;
      masses.push(m);
      centres.push(m > 0 ? toArray(this.safe('bodyCenterOfMass', () => s.bodyCenterOfMass(i), [])) : null);
    }
    const contacts = new Float32Array(s.contacts());
    transfer.push(contacts.buffer);
    const springs = new Float32Array(s.springs());
    transfer.push(springs.buffer);
    const drivers = [];
    for (let k = 0; k < this.driverCount; ++k) {
      drivers.push({ offset: toArray(s.driverOffset(k)),
                     reaction: toArray(this.safe('driverReaction', () => s.driverReaction(k), [NaN, NaN, NaN])) });
    }
    // the module's ProfileInfo, a plain object (suction_wasm.d.ts): times end in Ms
    const profile = { ...this.safe('profile', () => s.profile(), {}) };
    const msg = message(FROM_WORKER, 'frame', {
      time: s.time(), step: s.stepCount(), playing: this.playing,
      bodies, masses, centres, cavities, contacts, contactCount: s.contactCount(), springs, drivers,
      probes: Array.from(this.safe('probeValues', () => s.probeValues(), [])), profile, samples: this.samples,
      rtf: this.realTimeFactor(),
    });
    this.samples = [];
    return { msg, transfer };
  }
}
