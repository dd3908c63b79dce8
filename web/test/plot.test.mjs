import test from 'node:test';
import assert from 'node:assert/strict';
import { RingBuffer, columnsOf, csvOf, visibleRange, PANELS } from '../src/plot_data.js';

test('ring buffer keeps the newest items in order, bounded', () => {
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

test('ring buffer memory stays bounded over many pushes', () => {
  const r = new RingBuffer(100);
  for (let i = 0; i < 100000; ++i) r.push({ t: i });
  assert.equal(r.length, 100);
  assert.equal(r.items.length, 100);
  assert.equal(r.get(0).t, 99900);
  assert.equal(r.last().t, 99999);
  const a = r.toArray();
  assert.equal(a.length, 100);
  for (let i = 1; i < a.length; ++i) assert.equal(a[i].t - a[i - 1].t, 1);
});

const SAMPLES = [
  { t: 0, pAtm: 101325, force: 0, hand: NaN, cavities: [] },
  { t: 0.001, pAtm: 101325, force: 2, hand: -1, cavities: [{ id: 3, pressure: 9e4, volume: 1e-6, air: 0.09 },
                                                           { id: 4, pressure: 1e5, volume: 2e-6, air: 0.2, dormant: true }] },
  { t: 0.002, pAtm: 101325, force: 3.5, hand: -2.25, cavities: [{ id: 3, pressure: 8e4, volume: 1.1e-6, air: 0.088 }] },
];

test('columns: one per plotted series, in the plots\' units, null where a cavity is dormant or absent', () => {
  const c = columnsOf(SAMPLES);
  assert.deepEqual(c.t, [0, 0.001, 0.002]);
  assert.deepEqual(c.ids, [3]);   // 4 is only ever dormant
  assert.deepEqual(c.series.map(s => [s.panel, s.label, s.unit]), [
    ['pressure', 'P #3', 'kPa'], ['pressure', 'P_atm', 'kPa'], ['volume', 'V #3', 'cm³'], ['air', 'N #3', 'mJ'],
    ['force', 'holding force', 'N'], ['force', 'driver z force', 'N']]);
  assert.deepEqual(c.series[0].values, [null, 90, 80]);
  assert.deepEqual(c.series[1].values, [101.325, 101.325, 101.325]);
  assert.deepEqual(c.series[4].values, [0, 2, 3.5]);
  assert.deepEqual(c.series[5].values, [null, -1, -2.25]);
  assert.deepEqual(new Set(c.series.map(s => s.panel)), new Set(PANELS.filter(p => !p.optional).map(p => p.key)));
  // no driver: no driver series
  assert.equal(columnsOf([{ t: 0, pAtm: 1e5, force: 0, cavities: [] }]).series.some(s => s.label === 'driver z force'), false);
});

test('the temperature panel: only when the air\'s temperature moves (a gas law other than isothermal)', () => {
  const at = (T0, T1) => [
    { t: 0, pAtm: 101325, force: 0, cavities: [{ id: 1, pressure: 1e5, volume: 1e-6, air: 0.1, temperature: T0 }] },
    { t: 0.01, pAtm: 101325, force: 0, cavities: [{ id: 1, pressure: 9e4, volume: 1.1e-6, air: 0.1, temperature: T1 }] }];
  assert.equal(columnsOf(at(293.15, 293.15)).series.some(s => s.panel === 'temperature'), false);
  const c = columnsOf(at(293.15, 280.5));
  const T = c.series.filter(s => s.panel === 'temperature');
  assert.deepEqual(T.map(s => [s.label, s.unit]), [['T #1', 'K']]);
  assert.deepEqual(T[0].values, [293.15, 280.5]);
  assert.ok(PANELS.find(p => p.key === 'temperature').optional);
});

test('CSV: a header with units, the time first, exact values, empty where there is none', () => {
  const csv = csvOf(columnsOf(SAMPLES));
  assert.equal(csv,
    't [s],P #3 [kPa],P_atm [kPa],V #3 [cm³],N #3 [mJ],holding force [N],driver z force [N]\n' +
    '0,,101.325,,,0,\n' +
    '0.001,90,101.325,1,90,2,-1\n' +
    '0.002,80,101.325,1.1,88,3.5,-2.25\n');
});

test('CSV of a zoomed span: only the rows shown', () => {
  const cols = columnsOf(SAMPLES);
  assert.deepEqual(visibleRange(cols.t, 0.0005, 0.0015), [1, 2]);
  assert.deepEqual(visibleRange(cols.t), [0, 3]);
  const lines = csvOf(cols, 0.0005, 0.0025).trim().split('\n');
  assert.equal(lines.length, 3);
  assert.match(lines[0], /^t \[s\],/);
  assert.deepEqual(lines.slice(1).map(l => l.split(',')[0]), ['0.001', '0.002']);
  assert.equal(csvOf(cols, 1, 2).trim().split('\n').length, 1);   // nothing shown: the header only
});

test('compare: an earlier run beside this one, on the union of their times, labelled (previous)', async () => {
  const { columnsOf, withPrevious } = await import('../src/plot_data.js');
  const sample = (t, p) => ({ t, pAtm: 101325, force: 1, cavities: [{ id: 0, pressure: p, volume: 1e-6, air: p * 1e-6, dormant: false }] });
  const before = columnsOf([sample(0, 100000), sample(0.02, 90000), sample(0.04, 80000)]);
  const now = columnsOf([sample(0, 100000), sample(0.01, 95000), sample(0.02, 91000)]);
  const both = withPrevious(now, before);
  assert.deepEqual(both.t, [0, 0.01, 0.02, 0.04]);
  const cur = both.series.find(s => s.label === 'P #0'), old = both.series.find(s => s.label === 'P #0 (previous)');
  assert.deepEqual(cur.values, [100, 95, 91, null]);
  assert.deepEqual(old.values, [100, null, 90, 80]);
  assert.equal(old.previous, true);
  assert.equal(both.series.filter(s => s.label.startsWith('P_atm')).length, 1, 'P_atm once');
  assert.equal(both.series.length, now.series.length + before.series.length - 1);
  assert.equal(withPrevious(now, null), now);
});
