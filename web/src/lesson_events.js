// The events a lesson step can pause at, and what is measured there (pure; unit-tested in
// web/test/lessons.test.mjs). Everything is read from the per-step plot samples (src/sim_host.js
// recordSample: { t, step, pAtm, contacts, cavities: [{ pressure, volume, air, area, force,
// temperature, dormant }], force, hand, probes }), never from the wall clock: the worker feeds
// an EventWatch every step it takes and pauses at the step where the lesson's event happens, so
// the pause lands on the same step however fast or slow the machine is (docs/web.md, "Lessons").
//
// Events (the first sample, since the scene was loaded or reset, where ...):
//   contact    some contact: a body touches another (contacts > 0)
//   sealed     a cavity is active: the lip has closed a pocket of air (the phase panel then says
//              sealed, or holding when the pocket formed below ambient)
//   pressing, holding, leaking, released
//              the phase panel (src/phase.js classifyPhase over the last second of samples, as
//              the page computes it) names that phase
//   end        the scene's end: t reaches its duration
//   t=T        simulated time T [s] (the first step at or after T)
import { classifyPhase } from './phase.js';

/** The named events, with what each means (docs/web.md lists the same). */
export const EVENTS = Object.freeze({
  contact: 'the first contact: a body touches another',
  sealed: 'the seal closes: the first step with an active cavity (air trapped under the lip)',
  pressing: 'the phase panel first says pressing: pushed on, air squeezed out (or touching with no seal yet)',
  holding: 'the phase panel first says holding: the trapped air is thinner than the atmosphere',
  leaking: 'the phase panel first says leaking: below ambient, but air flows back in',
  released: 'the phase panel first says released: the seal broke and the cup let go',
  end: "the scene's end (its settings.duration)",
});
const TIME_EVENT = /^t=(\d+(?:\.\d+)?)$/;

/** { name, kind: 'contact'|'sealed'|'phase'|'end'|'time', t? } of an event name, or null. */
export function parseEvent(name) {
  if (typeof name !== 'string') return null;
  if (Object.prototype.hasOwnProperty.call(EVENTS, name)) {
    return { name, kind: ['contact', 'sealed', 'end'].includes(name) ? name : 'phase' };
  }
  const m = TIME_EVENT.exec(name);
  return m ? { name, kind: 'time', t: Number(m[1]) } : null;
}

// ---- what is measured --------------------------------------------------------------------------
/** Values of one sample (the lowest-pressure active cavity's, like the phase panel's words). */
export const INSTANT = Object.freeze({
  t: 'simulated time [s]',
  step: 'the step',
  pressure_kPa: "the trapped air's absolute pressure P (the lowest of the active cavities; P_atm when none) [kPa]",
  dp_kPa: 'P_atm − P [kPa]',
  p_atm_kPa: 'the atmosphere, P_atm [kPa]',
  volume_cm3: "that cavity's volume V [cm³] (0 when none)",
  air_mJ: "that cavity's air N = P·V as the simulator keeps it [mJ]",
  pv_mJ: 'P·V computed from the P and V shown [mJ]',
  area_cm2: "that cavity's area A, its shadow along the sealing ring's normal [cm²]",
  holding_force: '(P_atm − P)·A summed over the active cavities [N]',
  hand_force: "the first driver's force on its body along z [N] (the hand's pull; negative: pushing)",
  temperature_K: "that cavity's air temperature [K] (with a gas law other than isothermal)",
  contacts: 'contact points',
  cavities: 'active cavities',
});
/** Values over every sample since the scene was loaded or reset, up to the pause. */
export const AGGREGATE = Object.freeze({
  min_pressure_kPa: 'the lowest pressure of an active cavity so far [kPa]',
  max_dp_kPa: 'the largest P_atm − P so far [kPa]',
  max_holding_force: 'the largest (P_atm − P)·A so far [N]',
  max_hand_force: "the largest hand force so far [N] (the hardest pull)",
  min_hand_force: 'the smallest hand force so far [N] (the hardest push: negative)',
  max_volume_cm3: 'the largest cavity volume so far [cm³]',
  hold_s: 'time since holding began, t − at.holding.t [s]',
});
/** Suffixes of probe.NAME: its value at the pause, and over the run so far. */
export const PROBE_STATS = Object.freeze({ min: 'lowest so far', max: 'highest so far', start: 'at the first sample', rise: 'max − start', drop: 'start − min' });

/** The quantities of a sample: INSTANT's and probe.NAME (probeNames: the scene's probes, in order). */
export function instantValues(sample, probeNames = []) {
  const pAtm = Number.isFinite(sample.pAtm) ? sample.pAtm : 101325;
  const act = (sample.cavities || []).filter(c => c && !c.dormant);
  let low = null;
  for (const c of act) if (low === null || c.pressure < low.pressure) low = c;
  const P = low ? low.pressure : pAtm;
  const v = {
    t: sample.t, step: sample.step,
    pressure_kPa: P / 1e3, dp_kPa: (pAtm - P) / 1e3, p_atm_kPa: pAtm / 1e3,
    volume_cm3: low ? low.volume * 1e6 : 0, air_mJ: low ? low.air * 1e3 : 0, pv_mJ: low ? low.pressure * low.volume * 1e3 : 0,
    area_cm2: low && Number.isFinite(low.area) ? low.area * 1e4 : 0,
    holding_force: Number.isFinite(sample.force) ? sample.force : act.reduce((a, c) => a + (c.force || 0), 0),
    hand_force: Number.isFinite(sample.hand) ? sample.hand : NaN,
    temperature_K: low && Number.isFinite(low.temperature) ? low.temperature : NaN,
    contacts: sample.contacts | 0, cavities: act.length,
  };
  const probes = sample.probes || [];
  probeNames.forEach((name, i) => { v[`probe.${name}`] = Number.isFinite(probes[i]) ? probes[i] : NaN; });
  return v;
}

/**
 * Whether `name` is a quantity a lesson may show ({name} in "explain", "answer_from"); null when
 * it is, else what is wrong. probeNames: the scene's probes (null: probe names are not checked).
 */
export function quantityError(name, probeNames = null) {
  if (typeof name !== 'string' || name === '') return 'expected a quantity name';
  if (INSTANT[name] || AGGREGATE[name]) return null;
  // probe.NAME, and with stats: probe.NAME.min (a probe's own name may hold dots)
  const probe = (rest, stats) => {
    const m = /^probe\.(.+)$/.exec(rest);
    if (!m) return undefined;
    let pname = m[1];
    const dot = pname.lastIndexOf('.');
    if (stats && dot > 0 && PROBE_STATS[pname.slice(dot + 1)] && !(probeNames && probeNames.includes(pname))) pname = pname.slice(0, dot);
    if (probeNames && !probeNames.includes(pname)) {
      const near = closest(pname, probeNames);
      return `no probe '${pname}' in the scene${near ? `; did you mean '${near}'?` : ''} (its probes: ${probeNames.join(', ') || 'none'})`;
    }
    return null;
  };
  const p = probe(name, true);
  if (p !== undefined) return p;
  let m = /^at\.([a-z]+)\.(.+)$/.exec(name);
  if (m) {
    if (!Object.prototype.hasOwnProperty.call(EVENTS, m[1])) return `at.${m[1]}: expected an event (${Object.keys(EVENTS).join(', ')})`;
    if (INSTANT[m[2]]) return null;
    const q = probe(m[2], false);
    return q === undefined ? `at.${m[1]}.${m[2]}: expected one of ${Object.keys(INSTANT).join(', ')} or probe.NAME` : q;
  }
  m = /^last_cavity\.(.+)$/.exec(name);
  if (m) {
    if (INSTANT[m[1]]) return null;
    const q = probe(m[1], false);
    return q === undefined ? `last_cavity.${m[1]}: expected one of ${Object.keys(INSTANT).join(', ')} or probe.NAME` : q;
  }
  const known = [...Object.keys(INSTANT), ...Object.keys(AGGREGATE)];
  const near = closest(name, known);
  return `unknown quantity '${name}'${near ? `; did you mean '${near}'?` : ''} (the quantities: ${known.join(', ')}; ` +
    'probe.NAME[.min|.max|.start|.rise|.drop], at.EVENT.QUANTITY, last_cavity.QUANTITY)';
}

/** The closest of `names` to `s` (edit distance at most 2, or a third of its length), or null. */
export function closest(s, names) {
  let best = null, bestD = Infinity;
  for (const n of names) {
    const d = editDistance(String(s).toLowerCase(), String(n).toLowerCase());
    if (d < bestD) { best = n; bestD = d; }
  }
  return best !== null && bestD <= Math.max(2, Math.floor(String(s).length / 3)) && bestD < String(s).length ? best : null;
}

function editDistance(a, b) {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; ++i) {
    let prev = row[0]; row[0] = i;
    for (let j = 1; j <= b.length; ++j) {
      const cur = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length];
}

// ---- the watch -----------------------------------------------------------------------------------
/**
 * Follows the samples of one run and says at which one an event happens. push(sample) for every
 * step, oldest first (reset() when the scene is loaded again or reset); push returns true at the
 * sample where the armed event happens (once). values() is what is measured at the last sample:
 * INSTANT, AGGREGATE, probe.NAME[.stat], at.EVENT.QUANTITY for every event that happened,
 * last_cavity.QUANTITY.
 */
export class EventWatch {
  /** event: an EVENTS name or 't=T'; duration: the scene's [s] (for 'end'); probeNames: the scene's probes. */
  constructor(event, { duration = Infinity, probeNames = [], phaseWindow = 1.0 } = {}) {
    this.spec = parseEvent(event);
    if (!this.spec) throw new Error(`unknown event '${event}': expected one of ${Object.keys(EVENTS).join(', ')} or t=SECONDS`);
    this.event = event;
    this.phaseWindow = phaseWindow;
    this.reset({ duration, probeNames });
  }

  /** Forgets the run (a new load or a reset); the event stays armed. */
  reset({ duration = this.duration, probeNames = this.probeNames } = {}) {
    this.duration = duration;
    this.probeNames = probeNames.slice();
    this.window = [];          // the samples of the last phaseWindow seconds (the phase panel's)
    this.first = {};           // event name -> the INSTANT values of its first sample
    this.fired = null;         // the values where the armed event happened
    this.phase = 'free';
    this.count = 0;
    this.agg = { min_pressure_kPa: Infinity, max_dp_kPa: -Infinity, max_holding_force: -Infinity, max_hand_force: -Infinity,
                 min_hand_force: Infinity, max_volume_cm3: -Infinity };
    this.probeStats = this.probeNames.map(() => ({ min: Infinity, max: -Infinity, start: NaN }));
    this.lastValues = null;
    this.lastCavity = null;
  }

  /** Takes the next sample; true when the armed event happens at it (the first time). */
  push(sample) {
    this.window.push(sample);
    let drop = 0;
    while (drop < this.window.length && this.window[drop].t < sample.t - this.phaseWindow) ++drop;
    if (drop) this.window.splice(0, drop);
    this.phase = classifyPhase(this.window);
    const v = instantValues(sample, this.probeNames);
    const a = this.agg;
    if (v.cavities > 0) {
      a.min_pressure_kPa = Math.min(a.min_pressure_kPa, v.pressure_kPa);
      a.max_dp_kPa = Math.max(a.max_dp_kPa, v.dp_kPa);
      a.max_volume_cm3 = Math.max(a.max_volume_cm3, v.volume_cm3);
      this.lastCavity = v;
    }
    a.max_holding_force = Math.max(a.max_holding_force, v.holding_force);
    if (Number.isFinite(v.hand_force)) {
      a.max_hand_force = Math.max(a.max_hand_force, v.hand_force);
      a.min_hand_force = Math.min(a.min_hand_force, v.hand_force);
    }
    this.probeNames.forEach((name, i) => {
      const x = v[`probe.${name}`], st = this.probeStats[i];
      if (!Number.isFinite(x)) return;
      if (this.count === 0 || !Number.isFinite(st.start)) st.start = x;
      st.min = Math.min(st.min, x); st.max = Math.max(st.max, x);
    });
    this.count++;
    const happened = [];
    if (v.contacts > 0) happened.push('contact');
    if (v.cavities > 0) happened.push('sealed');
    if (this.phase !== 'free') happened.push(this.phase);
    if (sample.t >= this.duration - 1e-9) happened.push('end');
    for (const e of happened) if (!this.first[e]) this.first[e] = v;
    this.lastValues = v;
    if (this.fired) return false;
    const s = this.spec;
    const now = s.kind === 'time' ? sample.t >= s.t - 1e-9 : happened.includes(s.name);
    if (now) this.fired = this.values();
    return now;
  }

  /** What is measured at the last sample pushed (see the class comment); {} before the first. */
  values() {
    const v = this.lastValues;
    if (!v) return {};
    const out = { ...v };
    const fin = (x, none) => (Number.isFinite(x) ? x : none);
    const a = this.agg;
    out.min_pressure_kPa = fin(a.min_pressure_kPa, v.p_atm_kPa);
    out.max_dp_kPa = fin(a.max_dp_kPa, 0);
    out.max_holding_force = fin(a.max_holding_force, 0);
    out.max_hand_force = fin(a.max_hand_force, NaN);
    out.min_hand_force = fin(a.min_hand_force, NaN);
    out.max_volume_cm3 = fin(a.max_volume_cm3, 0);
    out.hold_s = this.first.holding ? v.t - this.first.holding.t : NaN;
    this.probeNames.forEach((name, i) => {
      const st = this.probeStats[i];
      out[`probe.${name}.min`] = fin(st.min, NaN);
      out[`probe.${name}.max`] = fin(st.max, NaN);
      out[`probe.${name}.start`] = st.start;
      out[`probe.${name}.rise`] = st.max - st.start;
      out[`probe.${name}.drop`] = st.start - st.min;
    });
    for (const [e, at] of Object.entries(this.first)) for (const [k, x] of Object.entries(at)) out[`at.${e}.${k}`] = x;
    if (this.lastCavity) for (const [k, x] of Object.entries(this.lastCavity)) out[`last_cavity.${k}`] = x;
    return out;
  }
}
