// The P–V diagram's data, without the drawing (pure; web/test/pv.test.mjs): each cavity's state
// as a point in the (V, P) plane with its track, and the isotherm through the point. Units as
// the time plots': V in cm³, P in kPa, so that P·V is in mJ (the plots' air N).
//
// The isotherm drawn through a cavity's point is P·V = c with c = P·V of the point: for
// isothermal air (the default gas law) c is the cavity's air N, so a point that moves along its
// curve keeps its air, and one that leaves it has gained air (a leak, a merge) or lost it (air
// pushed out under the lip). With another gas law (docs/method.md §6.8) the curve is the
// isotherm at the air's current temperature: an adiabatic compression then crosses isotherms
// without any air moving, which is the point of showing it.

import { activeIds } from './plot_data.js';
export { activeIds };

const finite = (v) => typeof v === 'number' && Number.isFinite(v);

/**
 * pvOf(samples, { t, points }) -> { t, pAtm, cavities: [{ id, track, point, c }], range }
 * samples: the plots' samples, in time order ({ t, pAtm, cavities: [{ id, pressure [Pa],
 * volume [m³], air [J], temperature, dormant }] }). t: the time to show (the plots' cursor);
 * null or undefined: the latest sample. For each cavity active in some sample up to that time:
 * track: [{ t, V, P }] of its active samples up to t, with null between runs of samples where it
 * was absent (the line breaks); point: its state at the last of them ({ t, V, P, N, T });
 * c = point.P * point.V [mJ], the isotherm's constant. range: { vMax, pMin, pMax } covering every
 * track and P_atm.
 */
export function pvOf(samples, { t = null } = {}) {
  let last = samples.length - 1;
  if (t !== null && t !== undefined) while (last >= 0 && samples[last].t > t + 1e-12) --last;
  const shown = samples.slice(0, last + 1);
  const ids = activeIds(shown);
  const pAtmPa = shown.length && finite(shown[shown.length - 1].pAtm) ? shown[shown.length - 1].pAtm : 101325;
  const cavities = [];
  let vMax = 0, pMin = pAtmPa / 1e3, pMax = pAtmPa / 1e3;
  for (const id of ids) {
    const track = [];
    let point = null, gap = false;
    for (const s of shown) {
      const c = (s.cavities || []).find(x => x.id === id && !x.dormant);
      if (!c || !finite(c.pressure) || !finite(c.volume)) { gap = track.length > 0; continue; }
      if (gap) { track.push(null); gap = false; }
      const p = { t: s.t, V: c.volume * 1e6, P: c.pressure / 1e3 };
      track.push(p);
      point = { ...p, N: finite(c.air) ? c.air * 1e3 : null, T: finite(c.temperature) ? c.temperature : null };
      vMax = Math.max(vMax, p.V); pMin = Math.min(pMin, p.P); pMax = Math.max(pMax, p.P);
    }
    if (point) cavities.push({ id, track, point, c: point.P * point.V });
  }
  return { t: shown.length ? shown[shown.length - 1].t : null, pAtm: pAtmPa / 1e3, cavities,
           range: { vMax: vMax > 0 ? vMax : 1, pMin: Math.max(0, pMin), pMax } };
}

/** The isotherm P = c / V over (0, vMax], as n points { V, P } with P <= pCap (the curve leaves
 *  the frame there), from the smallest V whose P is within the cap. */
export function isotherm(c, vMax, pCap, n = 64) {
  if (!(c > 0) || !(vMax > 0)) return [];
  const v0 = Math.min(vMax, pCap > 0 ? c / pCap : vMax * 1e-3);
  const out = [];
  for (let i = 0; i < n; ++i) {
    const V = v0 + (vMax - v0) * (i / (n - 1));
    out.push({ V, P: c / V });
  }
  return out;
}

/** "Nice" tick values over [lo, hi]: about `count` of them, at 1, 2 or 5 times a power of ten. */
export function ticks(lo, hi, count = 5) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map(k => k * mag).find(s => s >= raw) || 10 * mag;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(+v.toPrecision(12));
  return out;
}
