import test from 'node:test';
import assert from 'node:assert/strict';
import { RingBuffer, seriesOf, drawPlot } from '../src/plot.js';

test('ring buffer keeps the newest items in order', () => {
  const r = new RingBuffer(3);
  assert.equal(r.last(), undefined);
  for (let i = 1; i <= 5; ++i) r.push({ t: i });
  assert.deepEqual(r.toArray().map(s => s.t), [3, 4, 5]);
  assert.equal(r.length, 3);
  assert.equal(r.last().t, 5);
  assert.deepEqual(r.since(4).map(s => s.t), [4, 5]);
  r.clear();
  assert.equal(r.length, 0);
});

test('series per cavity id, dormant skipped', () => {
  const s = seriesOf([
    { t: 0, force: 0, cavities: [] },
    { t: 1, force: 2, hand: -1, cavities: [{ id: 3, pressure: 9e4, volume: 1e-6, air: 0.09 }, { id: 4, pressure: 1e5, volume: 2e-6, air: 0.2, dormant: true }] },
    { t: 2, force: 3, hand: -2, cavities: [{ id: 3, pressure: 8e4, volume: 1.1e-6, air: 0.088 }] },
  ]);
  assert.deepEqual(s.t, [0, 1, 2]);
  assert.deepEqual(s.force, [0, 2, 3]);
  assert.deepEqual([...s.cavities.keys()], [3]);
  assert.deepEqual(s.cavities.get(3).p, [9e4, 8e4]);
  assert.deepEqual(s.cavities.get(3).t, [1, 2]);
});

test('drawPlot runs against a recording 2D context', () => {
  const calls = [];
  const ctx = new Proxy({}, { get: (o, k) => (k in o ? o[k] : (...a) => calls.push([k, a])), set: (o, k, v) => { o[k] = v; return true; } });
  drawPlot(ctx, 400, 300, [{ t: 0, force: 0, cavities: [{ id: 0, pressure: 1e5, volume: 1e-6, air: 0.1 }] },
                           { t: 0.1, force: 1, cavities: [{ id: 0, pressure: 9e4, volume: 1.1e-6, air: 0.1 }] }], { pAtm: 101325 });
  assert.ok(calls.some(([k]) => k === 'lineTo'));
  assert.ok(calls.some(([k, a]) => k === 'fillText' && /pressure/.test(a[0])));
});
