// classifyPhase(history): the phase of a suction cup from the recent history of plot samples.
// Pure (no DOM, no three.js): unit-tested in web/test/phase.test.mjs and used by the page.
//
// A sample is { t, contacts, handContacts, pAtm, cavities: [{ pressure, volume, air, dormant }] }
// (pressure absolute in Pa, volume in m^3, air N = P*V in J; contacts: every contact of the
// step; handContacts: those touching the first driver's body, the hand's own, null or absent when
// the scene has no driver). History is oldest first.
//
// The rules, applied to the latest sample (documented in docs/web.md):
//   active cavity = a cavity that is not dormant; dp = P_atm - (lowest active pressure).
//   1. active cavity and dp > tolerance:            (the air is thinner than outside)
//        the air N of that cavity grew by more than `leakFraction` over the last
//        `window` seconds  -> 'leaking'  (air comes back in: the seal is failing)
//        else              -> 'holding'  (the atmosphere presses the cup on)
//   2. active cavity and dp < -tolerance (air compressed above ambient), or its air N
//        is dropping (air pushed out under the lip) -> 'pressing'
//   3. active cavity, pressure about ambient        -> 'sealed'
//   4. no active cavity, but an earlier sample had one below ambient -> 'released'
//   5. no active cavity, the hand's body touches something (handContacts > 0; without a driver,
//        any contact)                            -> 'pressing' (touching, no seal yet): a block
//        resting on the ground does not make a cup that has left it press
//   6. otherwise                                     -> 'free'

export const PHASES = ['free', 'pressing', 'sealed', 'holding', 'leaking', 'released'];

export const PHASE_TEXT = {
  free: 'Free: the cup touches nothing (or nothing that traps air).',
  pressing: 'Pressing: the cup is pushed onto the surface; air is squeezed out under the lip.',
  sealed: 'Sealed: the lip closes a pocket of air at about ambient pressure; no force yet.',
  holding: 'Holding: the trapped air is thinner than the atmosphere outside, so the atmosphere presses the cup onto the surface.',
  leaking: 'Leaking: the pressure is below ambient but air is flowing back in; the hold is weakening.',
  released: 'Released: the seal broke, the pressure equalised and the cup let go.',
};

export const DEFAULT_PHASE_OPTIONS = Object.freeze({
  tolerance: 100,        // Pa: |P_atm - P| below this counts as ambient
  window: 0.05,          // s: look-back for air trends
  leakFraction: 0.002,   // relative growth of N over the window that counts as a leak
  expelFraction: 0.002,  // relative drop of N over the window that counts as pressing
});

function activeCavities(sample) {
  return (sample && Array.isArray(sample.cavities)) ? sample.cavities.filter(c => c && !c.dormant) : [];
}

function lowestPressureCavity(sample) {
  let best = null;
  for (const c of activeCavities(sample)) if (best === null || c.pressure < best.pressure) best = c;
  return best;
}

/** The contacts that say the cup presses: the hand's body's own where the sample has them
 *  (a scene with a driver), else every contact. */
export function touching(sample) {
  return Number.isFinite(sample.handContacts) ? sample.handContacts : (sample.contacts | 0);
}

function totalAir(sample) {
  let n = 0;
  for (const c of activeCavities(sample)) n += c.air;
  return n;
}

/** Returns one of PHASES for the latest sample of `history` (oldest first). */
export function classifyPhase(history, options = {}) {
  const o = { ...DEFAULT_PHASE_OPTIONS, ...options };
  if (!Array.isArray(history) || history.length === 0) return 'free';
  const last = history[history.length - 1];
  const pAtm = Number.isFinite(last.pAtm) ? last.pAtm : 101325;
  const low = lowestPressureCavity(last);

  if (low) {
    const dp = pAtm - low.pressure;
    // reference sample: the oldest one within the window that had active cavities
    let ref = null;
    for (let i = history.length - 2; i >= 0; --i) {
      const s = history[i];
      if (last.t - s.t > o.window + 1e-12) break;
      if (activeCavities(s).length > 0) ref = s;
    }
    const nNow = totalAir(last);
    const nRef = ref ? totalAir(ref) : nNow;
    const scale = Math.max(Math.abs(nRef), 1e-30);
    const growth = (nNow - nRef) / scale;
    if (dp > o.tolerance) return growth > o.leakFraction ? 'leaking' : 'holding';
    if (dp < -o.tolerance || growth < -o.expelFraction) return 'pressing';
    return 'sealed';
  }
  for (let i = history.length - 2; i >= 0; --i) {
    const c = lowestPressureCavity(history[i]);
    const p = Number.isFinite(history[i].pAtm) ? history[i].pAtm : pAtm;
    if (c && p - c.pressure > o.tolerance) return 'released';
  }
  if (touching(last) > 0) return 'pressing';
  return 'free';
}
