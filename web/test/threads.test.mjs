import test from 'node:test';
import assert from 'node:assert/strict';
import { MAX_SIM_THREADS, parseThreads, simulationThreads } from '../src/threads.js';

test('by default the simulation takes the cores, 1 to 4', () => {
  assert.equal(simulationThreads(undefined, 1), 1);
  assert.equal(simulationThreads(undefined, 2), 2);
  assert.equal(simulationThreads(undefined, 3), 3);
  assert.equal(simulationThreads(undefined, 4), 4);
  assert.equal(simulationThreads(undefined, 16), MAX_SIM_THREADS);
  assert.equal(simulationThreads(undefined, undefined), 1);  // a browser that does not say
  assert.equal(simulationThreads(null, 0), 1);
});

test('?threads= asks for a count from 1 to 4; anything else is not a count', () => {
  assert.equal(simulationThreads('2', 2), 2);
  assert.equal(simulationThreads(3, 2), 3);
  assert.equal(simulationThreads('1', 16), 1);
  for (const bad of ['0', '5', '-1', '1.5', 'two', ' ', '2x'])
    assert.equal(parseThreads(bad), null, `'${bad}'`);
  assert.equal(simulationThreads('9', 3), 3);  // not a count: the default
  assert.equal(parseThreads(null), null);
  assert.equal(parseThreads(''), null);
  assert.equal(parseThreads(' 4 '), 4);
});
