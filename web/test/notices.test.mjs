// The banner's levels (src/notices.js): errors, warnings once per kind with their first step and
// a count, the latest note only, the banner's level the most serious present.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Notices, warningKind } from '../src/notices.js';

const pen = (step, mm) => `step ${step} (t = ${(0.3 * step).toFixed(1)} s): a contact of 'block' and 'ground' penetrates ${mm} mm at the free-motion shape, ${mm} % of the size of the body it enters (100 mm; warning above settings.contact.penetration_warning): the step is too long for this speed and may let it through; use a smaller time step`;

test('a warning repeated at later steps with other numbers is one line, with its first step and a count', () => {
  const n = new Notices();
  assert.equal(warningKind(pen(1, 883)), warningKind(pen(7, 12.5)));
  assert.equal(n.add('warning', '', pen(1, 883)), true);
  assert.equal(n.add('warning', '', pen(2, 812)), false);
  assert.equal(n.add('warning', '', pen(3, 700)), false);
  assert.equal(n.count('warning'), 1);
  const [line] = n.lines();
  assert.match(line, /^warning: step 1 \(t = 0\.3 s\): .*penetrates 883 mm/);
  assert.match(line, /\(and 2 more steps with the same warning\)$/);
  assert.equal(n.level(), 'warning');
});

test('another kind of warning is a line of its own', () => {
  const n = new Notices();
  n.add('warning', '', pen(1, 883));
  n.add('warning', '', "step 4 (t = 0.08 s): the mesh union of 'cup_a', 'block' and 'ground' failed (mesh 0 self-intersects); their cavities are kept as they were");
  assert.equal(n.count('warning'), 2);
});

test('errors come first and colour the banner; notes are blue, and only the latest is kept', () => {
  const n = new Notices();
  n.add('info', '', 'changed live at t = 0.82 s: /settings/cavity/leak_rate = 0.05');
  assert.equal(n.level(), 'info');
  n.add('info', '', 'changed live at t = 0.90 s: /settings/dt = 0.3');
  assert.equal(n.count('info'), 1);
  assert.match(n.lines()[0], /^note: changed live at t = 0\.90/);
  n.add('warning', '', pen(5, 100));
  assert.equal(n.level(), 'warning');
  n.add('error', 'load', '/settings/dt: expected a positive number');
  assert.equal(n.level(), 'error');
  assert.deepEqual(n.lines().map(l => l.split(':')[0]), ['error', 'warning', 'note']);
  n.clear('warning');
  assert.equal(n.count('warning'), 0);
  assert.equal(n.level(), 'error');
  n.clear();
  assert.equal(n.level(), null);
  assert.deepEqual(n.lines(), []);
  assert.throws(() => n.add('fatal', '', 'x'), /unknown notice level/);
});
