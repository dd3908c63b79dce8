// The share link's parameters (src/share.js): what is on screen round-trips through the URL,
// the last value of a pointer wins, malformed entries are named.
import test from 'node:test';
import assert from 'node:assert/strict';
import { shareSearch, parseShare } from '../src/share.js';

test('scene, quality and the changed values round-trip through the link', () => {
  const state = { scene: 'pull_test', quality: 'reference',
                  sets: [['/materials/neoprene/young', '2e6'], ['/parameters/wet', 'true'], ['/settings/cavity/gas/law', '"adiabatic"']] };
  const back = parseShare(shareSearch(state));
  assert.deepEqual(back, { ...state, lesson: null, step: null, errors: [] });
});

test('a lesson and its step round-trip through the link, with the values changed beyond the step\'s', () => {
  const state = { lesson: 'leak_and_release', step: 2, quality: 'reference', sets: [['/parameters/stiffness', '600']] };
  const s = shareSearch({ ...state, scene: 'popup_toy' });
  assert.equal(s, '?lesson=leak_and_release&step=2&quality=reference&set=%2Fparameters%2Fstiffness%3D600');
  assert.deepEqual(parseShare(s), { ...state, scene: null, errors: [] });
  // the first step by default, both ways
  assert.equal(shareSearch({ lesson: 'why_it_sticks' }), '?lesson=why_it_sticks&step=1');
  assert.equal(parseShare('?lesson=why_it_sticks').step, 1);
});

test('a malformed lesson or step is named', () => {
  const bad = parseShare('?lesson=../x&step=0');
  assert.equal(bad.lesson, null);
  assert.equal(bad.step, null);
  assert.equal(bad.errors.length, 2);
  assert.match(bad.errors[0], /^lesson=\.\.\/x: expected a lesson's name/);
  assert.match(bad.errors[1], /^step=0: expected a step number, 1 for the first/);
  assert.match(parseShare('?scene=ground&step=2').errors[0], /^step=2: a step belongs to a lesson/);
  assert.match(parseShare('?lesson=x&step=two').errors[0], /^step=two: expected a step number/);
});

test('the last value of a pointer is the one in the link; interactive is the default', () => {
  const s = shareSearch({ scene: 'ground', sets: [['/settings/dt', '0.02'], ['/settings/cavity/leak_rate', '0.05'], ['/settings/dt', '0.3']] });
  assert.equal(s, '?scene=ground&set=%2Fsettings%2Fcavity%2Fleak_rate%3D0.05&set=%2Fsettings%2Fdt%3D0.3');
  assert.deepEqual(parseShare(s).sets, [['/settings/cavity/leak_rate', '0.05'], ['/settings/dt', '0.3']]);
  assert.equal(parseShare(s).quality, 'interactive');
});

test('a value may hold "=" and JSON; a malformed entry or quality is named', () => {
  assert.deepEqual(parseShare('?set=/parameters/note="a=b"').sets, [['/parameters/note', '"a=b"']]);
  const bad = parseShare('?scene=ground&quality=fast&set=dt=0.3&set=/settings/dt=');
  assert.equal(bad.errors.length, 3);
  assert.match(bad.errors[0], /^quality=fast: expected interactive or reference/);
  assert.match(bad.errors[1], /^set=dt=0\.3: expected a JSON pointer/);
  assert.match(bad.errors[2], /^set=\/settings\/dt=: expected/);
  assert.deepEqual(bad.sets, []);
});
