// The forces drawn in the view (src/forces.js): the air's arrow carries (P_atm − P)·A, points
// from the cup towards the surface it holds (either way up), turns round above ambient; the
// hand's is the driver's reaction at its body.
import test from 'node:test';
import assert from 'node:assert/strict';
import { forceArrows, centroid } from '../src/forces.js';

const P_ATM = 101325;
const box = (cx, cy, cz) => new Float32Array([cx - 1, cy, cz, cx + 1, cy, cz, cx, cy - 1, cz, cx, cy + 1, cz]);
const meta = { pAtm: P_ATM, bodies: [{ soft: true }, { soft: false }], drivers: [{ name: 'hand', body: 0 }] };

function frame({ cupZ = 0.02, cavZ = 0.005, p = 50000, area = 7.6e-4, reaction = [0, 0, 30] } = {}) {
  return { bodies: [box(0, 0, cupZ), box(0, 0, 0)],
           cavities: [{ id: 3, dormant: false, pressure: p, area, normal: [0, 0, 1], force: (P_ATM - p) * area,
                        positions: box(0, 0, cavZ), bodies: [0, 1] }],
           drivers: [{ reaction }] };
}

test('the air pushes the cup onto the surface with (P_atm − P)·A', () => {
  const [air] = forceArrows(frame(), meta);
  assert.equal(air.kind, 'air');
  assert.ok(Math.abs(air.value - (P_ATM - 50000) * 7.6e-4) < 1e-9);
  assert.deepEqual(air.dir, [0, 0, -1], 'the cup is above its cavity: down onto the ground');
  assert.deepEqual(air.origin, centroid(box(0, 0, 0.005)));
  assert.match(air.label, /^air \(P_atm − P\)·A = 39\.0 N$/);
});

test('a cup under a ceiling is pushed up; air above ambient pushes the cup off', () => {
  assert.deepEqual(forceArrows(frame({ cupZ: -0.02 }), meta)[0].dir, [0, 0, 1]);
  const off = forceArrows(frame({ p: 120000 }), meta)[0];
  assert.deepEqual(off.dir, [0, 0, 1]);
  assert.ok(Math.abs(off.value - (120000 - P_ATM) * 7.6e-4) < 1e-9);
  assert.match(off.label, /pushes off/);
});

test('the hand: the driver\'s reaction at its body, and nothing for a dormant cavity', () => {
  const f = frame({ reaction: [3, 0, 4] });
  f.cavities[0].dormant = true;
  const arrows = forceArrows(f, meta);
  assert.equal(arrows.length, 1);
  assert.equal(arrows[0].kind, 'hand');
  assert.equal(arrows[0].value, 5);
  assert.deepEqual(arrows[0].dir, [0.6, 0, 0.8]);
  assert.match(arrows[0].label, /^hand 5\.0 N$/, 'a driver named hand is not named twice');
  const named = forceArrows(f, { ...meta, drivers: meta.drivers.map(d => ({ ...d, name: 'hand_a' })) });
  assert.match(named[0].label, /^hand \(hand_a\) 5\.0 N$/, 'another name is given');
});

test('the weight: m·g straight down at the centre of mass of each body forces move, not the hand\'s own', () => {
  const f = frame();
  // the cup (driven: the hand carries it), a 200 g cube, the fixed ground
  f.bodies.push(box(0, 0, 0.025));
  f.masses = [0.02, 0.2, 0];
  f.centres = [[0, 0, 0.06], [0.001, 0, 0.025], null];
  const m = { ...meta, gravity: 9.81, bodies: [{ name: 'cup', soft: true }, { name: 'cube', soft: false }, { name: 'ground', soft: false }] };
  const w = forceArrows(f, m).filter(a => a.kind === 'weight');
  assert.equal(w.length, 1, 'only the cube: the cup is the hand\'s, the ground does not move');
  assert.equal(w[0].id, 1);
  assert.ok(Math.abs(w[0].value - 0.2 * 9.81) < 1e-12);
  assert.deepEqual(w[0].dir, [0, 0, -1]);
  assert.deepEqual(w[0].origin, [0.001, 0, 0.025]);
  assert.equal(w[0].label, 'weight of cube m·g = 200 g × 9.81 m/s² = 1.96 N');
  // no masses in the frame (an older module), no gravity: no weight
  assert.equal(forceArrows(frame(), m).filter(a => a.kind === 'weight').length, 0);
  assert.equal(forceArrows(f, { ...m, gravity: 0 }).filter(a => a.kind === 'weight').length, 0);
  // a heavier body's mass in kg
  f.masses[1] = 2.5;
  assert.match(forceArrows(f, m).find(a => a.kind === 'weight').label, /= 2\.50 kg × 9\.81 m\/s² = 24\.53 N$/);
});
