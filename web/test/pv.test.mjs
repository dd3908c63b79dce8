// The P–V diagram's numbers (src/pv_data.js): the point is the sample's state at the time
// shown, the isotherm passes through it and is P·V = N for isothermal air, a leak moves the
// point off its old isotherm, the track breaks where the cavity was absent.
import test from 'node:test';
import assert from 'node:assert/strict';
import { pvOf, isotherm, ticks, activeIds } from '../src/pv_data.js';

const P_ATM = 101325;
// a sealed cup pulled up: isothermal air (N = P V constant) while sealed, then a leak adds air
function pulled() {
  const out = [];
  let N = P_ATM * 2e-6;                      // J: 2 cm³ at ambient
  for (let i = 0; i <= 40; ++i) {
    const t = 0.01 * i, V = (2 + 0.05 * i) * 1e-6;
    if (i > 30) N += 0.1 * 0.01;             // 0.1 J/s of air leaks in after t = 0.3 s
    out.push({ t, pAtm: P_ATM, cavities: [{ id: 0, pressure: N / V, volume: V, air: N, temperature: 293.15, dormant: false }] });
  }
  return out;
}

test('the point is the state at the time shown, in the plots\' units, on its isotherm P·V = N', () => {
  const s = pulled();
  for (const t of [null, 0.2, 0.305]) {
    const pv = pvOf(s, { t });
    const k = t === null ? s.length - 1 : s.findLastIndex(x => x.t <= t);
    const c = s[k].cavities[0];
    assert.equal(pv.t, s[k].t);
    assert.equal(pv.cavities.length, 1);
    const { point, c: pvC } = pv.cavities[0];
    assert.ok(Math.abs(point.P - c.pressure / 1e3) < 1e-12 * point.P, 'P in kPa');
    assert.ok(Math.abs(point.V - c.volume * 1e6) < 1e-12 * point.V, 'V in cm³');
    assert.ok(Math.abs(pvC - point.P * point.V) < 1e-12 * pvC);
    assert.ok(Math.abs(pvC - c.air * 1e3) < 1e-9 * pvC, 'isothermal air: P·V = N (kPa·cm³ = mJ)');
    assert.equal(pv.cavities[0].track.length, k + 1, 'the track up to the time shown');
    for (const q of isotherm(pvC, pv.range.vMax * 1.1, 200)) assert.ok(Math.abs(q.P * q.V - pvC) < 1e-9 * pvC, 'the curve is P·V = c');
  }
});

test('air leaking in moves the point to a higher isotherm; sealed, it stays on its own', () => {
  const s = pulled();
  const c = (t) => pvOf(s, { t }).cavities[0].c;
  assert.ok(Math.abs(c(0.1) - c(0.3)) < 1e-9 * c(0.1), 'sealed: the same isotherm while the volume grows');
  assert.ok(c(0.4) > c(0.3) * 1.01, `a leak: the isotherm rises (${c(0.3)} -> ${c(0.4)} mJ)`);
});

test('an adiabatic expansion crosses isotherms without any air moving', () => {
  const g = 1.4, V0 = 2e-6, P0 = P_ATM;
  const s = [0, 1, 2].map(i => {
    const V = V0 * (1 + 0.2 * i), P = P0 * (V0 / V) ** g;
    return { t: i * 0.1, pAtm: P_ATM, cavities: [{ id: 3, pressure: P, volume: V, air: P0 * V0, temperature: 293.15 * (V0 / V) ** (g - 1), dormant: false }] };
  });
  const cs = [0, 0.1, 0.2].map(t => pvOf(s, { t }).cavities[0]);
  assert.ok(cs[2].c < cs[0].c * 0.95, 'P·V falls: the curve through the point is the cooler air\'s isotherm');
  assert.equal(cs[2].point.N, cs[0].point.N * 1e3 / 1e3, 'the amount N itself is unchanged');
});

test('dormant and absent cavities: no point before the first seal; the track breaks where the cavity was gone', () => {
  const s = pulled().slice(0, 6);
  s[0].cavities = [];
  s[2].cavities[0].dormant = true;
  s[3].cavities = [];
  const pv = pvOf(s);
  assert.deepEqual(activeIds(s), [0]);
  const track = pv.cavities[0].track;
  assert.equal(track.filter(Boolean).length, 3, 'samples 1, 4, 5');
  assert.equal(track[1], null, 'one break between the runs');
  assert.equal(pvOf(s, { t: 0 }).cavities.length, 0, 'nothing trapped at t = 0');
  assert.equal(pvOf([], {}).cavities.length, 0);
});

test('two cavities each get their point; the range covers the tracks and P_atm', () => {
  const s = pulled().map(x => ({ ...x, cavities: [...x.cavities, { ...x.cavities[0], id: 5, pressure: x.cavities[0].pressure * 0.5 }] }));
  const pv = pvOf(s);
  assert.deepEqual(pv.cavities.map(c => c.id), [0, 5]);
  assert.ok(pv.range.pMax >= P_ATM / 1e3 && pv.range.pMin <= Math.min(...pv.cavities.map(c => c.point.P)));
  assert.ok(pv.range.vMax >= Math.max(...pv.cavities.map(c => c.point.V)));
});

test('ticks fall on 1, 2, 5 times a power of ten within the span', () => {
  assert.deepEqual(ticks(0, 10, 5), [0, 2, 4, 6, 8, 10]);
  assert.deepEqual(ticks(0, 0.7, 4), [0, 0.2, 0.4, 0.6]);
  for (const v of ticks(23.4, 101.3, 4)) assert.ok(v >= 23.4 && v <= 101.3);
  assert.deepEqual(isotherm(0, 1, 1), []);
});
