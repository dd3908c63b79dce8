import test from 'node:test';
import assert from 'node:assert/strict';
import { classifyPhase, PHASES, PHASE_TEXT } from '../src/phase.js';

const P = 101325;
const s = (t, cavities = [], contacts = 0) => ({ t, pAtm: P, contacts, cavities });
const cav = (pressure, volume = 1e-6, extra = {}) => ({ id: 0, pressure, volume, air: pressure * volume, dormant: false, ...extra });

test('every phase has an explanation', () => {
  for (const p of PHASES) assert.ok(PHASE_TEXT[p], p);
});

test('empty history and no contact: free', () => {
  assert.equal(classifyPhase([]), 'free');
  assert.equal(classifyPhase(undefined), 'free');
  assert.equal(classifyPhase([s(0), s(0.01)]), 'free');
});

test('contact without a cavity: pressing', () => {
  assert.equal(classifyPhase([s(0), s(0.01, [], 12)]), 'pressing');
});

test('a cavity above ambient: pressing', () => {
  assert.equal(classifyPhase([s(0, [cav(P + 2000)], 10)]), 'pressing');
});

test('a cavity at ambient whose air is pushed out: pressing', () => {
  const h = [s(0.00, [cav(P, 2.0e-6)], 10), s(0.01, [cav(P, 1.9e-6)], 10), s(0.02, [cav(P, 1.8e-6)], 10)];
  assert.equal(classifyPhase(h), 'pressing');
});

test('a cavity at ambient with constant air: sealed', () => {
  const h = [s(0.00, [cav(P, 1e-6)], 10), s(0.01, [cav(P + 20, 1e-6)], 10), s(0.02, [cav(P - 20, 1e-6)], 10)];
  assert.equal(classifyPhase(h), 'sealed');
});

test('below ambient with constant air: holding', () => {
  const N = P * 1e-6;
  const h = [0, 0.01, 0.02, 0.03].map((t, i) => { const V = 1e-6 * (1 + 0.1 * i); return s(t, [{ id: 0, pressure: N / V, volume: V, air: N, dormant: false }], 10); });
  assert.equal(classifyPhase(h), 'holding');
});

test('below ambient with air coming back in: leaking', () => {
  const h = [0, 0.01, 0.02, 0.03].map((t, i) => {
    const V = 1.2e-6, N = 0.8 * P * 1e-6 * (1 + 0.01 * i);
    return s(t, [{ id: 0, pressure: N / V, volume: V, air: N, dormant: false }], 10);
  });
  assert.equal(classifyPhase(h), 'leaking');
});

test('the air trend only looks back over the window', () => {
  // a big leak long ago, constant air in the last 0.05 s: holding
  const h = [s(0, [cav(0.5 * P, 1e-6)], 10), ...[1, 1.01, 1.02, 1.03].map(t => s(t, [cav(0.8 * P, 1e-6)], 10))];
  assert.equal(classifyPhase(h), 'holding');
});

test('the cavity vanished after holding: released', () => {
  const h = [s(0, [cav(0.7 * P)], 10), s(0.01, [cav(0.6 * P)], 10), s(0.02, [], 0)];
  assert.equal(classifyPhase(h), 'released');
  assert.equal(classifyPhase([...h, s(0.03, [], 3)]), 'released');
});

test('a cavity that only ever was at ambient does not make a release', () => {
  assert.equal(classifyPhase([s(0, [cav(P)], 10), s(0.01, [], 0)]), 'free');
});

test('dormant cavities count as none', () => {
  assert.equal(classifyPhase([s(0, [cav(0.5 * P, 1e-6, { dormant: true })], 0)]), 'free');
  assert.equal(classifyPhase([s(0, [cav(0.5 * P)], 5), s(0.01, [cav(0.5 * P, 1e-6, { dormant: true })], 5)]), 'released');
});

test('the lowest-pressure cavity decides with several cavities', () => {
  assert.equal(classifyPhase([s(0, [cav(P + 5000), { ...cav(0.9 * P), id: 1 }], 10)]), 'holding');
});

test('tolerance option', () => {
  const h = [s(0, [cav(P - 500)], 10)];
  assert.equal(classifyPhase(h), 'holding');
  assert.equal(classifyPhase(h, { tolerance: 1000 }), 'sealed');
});

test('without a cavity, the hand\'s body\'s own contacts decide pressing, not every contact', () => {
  // air_tunnel one_hole: the block rests on the ground (252 contacts) after the cup has left it
  const left = (t, hand) => ({ ...s(t, [], 252), handContacts: hand });
  assert.equal(classifyPhase([left(1.10, 47), left(1.12, 0)]), 'free', 'the cup has left: free, whatever the block touches');
  assert.equal(classifyPhase([left(1.10, 0), left(1.12, 5)]), 'pressing', 'the cup touches: pressing');
  assert.equal(classifyPhase([{ ...s(0, [], 0), handContacts: 3 }]), 'pressing', 'the hand\'s contacts count even when the total says none');
  // no driver (null or absent): every contact counts, as before
  assert.equal(classifyPhase([{ ...s(0, [], 12), handContacts: null }]), 'pressing');
  assert.equal(classifyPhase([s(0, [], 12)]), 'pressing');
  // a release is still a release with the hand's body off everything
  const h = [{ ...s(0, [cav(0.7 * P)], 300), handContacts: 40 }, { ...s(0.01, [], 252), handContacts: 0 }];
  assert.equal(classifyPhase(h), 'released');
});
