// The CLI's CSV made into the page's samples (web/tools/lesson_check.mjs): the columns read, the
// events found by the page's own EventWatch, and what the CSV cannot show said, not guessed.
import test from 'node:test';
import assert from 'node:assert/strict';
import { parseCsv, csvSamples, eventInSamples, csvCannotShow, comparePause } from '../tools/lesson_check.mjs';

const HEAD = 'step,t,contacts,cavities,pressure_min,volume_total,air_total,holding_force,pgs_iterations,pgs_residual,"a,probe"';
const row = (step, contacts, cav, p, v) => `${step},${step * 0.02},${contacts},${cav},${p},${v},${p * v},${(101325 - p) * 8e-4 * cav},10,1e-7,nan`;

/** A ground-like CSV: touching from step 2, sealed at ambient from 4, pulled below ambient from 8
 *  (the air kept), released at 12. */
function groundCsv() {
  const lines = [HEAD];
  for (let i = 0; i <= 16; ++i) {
    if (i < 4) lines.push(row(i, i >= 2 ? 20 : 0, 0, 101325, 0));
    else if (i < 8) lines.push(row(i, 20, 1, 101325, 1e-6));
    else if (i < 12) { const V = 1e-6 * (1 + 0.1 * (i - 7)); lines.push(row(i, 20, 1, 101325 * 1e-6 / V, V)); }
    else lines.push(row(i, 5, 0, 101325, 0));
  }
  return lines.join('\n') + '\n';
}

test('the CSV: a quoted probe name is one column; nan, inf read as numbers', () => {
  const { header, rows } = parseCsv(`${HEAD}\n0,0,0,0,101325,0,0,0,0,0,inf\n`);
  assert.equal(header.length, 11);
  assert.equal(header[10], 'a,probe');
  assert.equal(rows[0]['a,probe'], Infinity);
  assert.ok(Number.isNaN(parseCsv(groundCsv()).rows[0]['a,probe']));
});

test('rows made into samples: one cavity of pressure_min, volume_total, air_total; P_atm from a row without one', () => {
  const s = csvSamples(groundCsv());
  assert.equal(s.length, 17);
  assert.equal(s[0].pAtm, 101325);
  assert.deepEqual(s[3].cavities, []);
  assert.equal(s[9].cavities.length, 1);
  assert.equal(s[9].cavities[0].pressure, 101325 / 1.2);
  assert.equal(s[9].step, 9);
  assert.ok(!('handContacts' in s[9]), 'not in the CSV: not made up');
  assert.throws(() => csvSamples('step,t\n0,0\n'), /no column contacts, cavities/);
});

test('the events of the CSV, by the page\'s EventWatch', () => {
  const s = csvSamples(groundCsv());
  assert.equal(eventInSamples('contact', s).step, 2);
  assert.equal(eventInSamples('sealed', s).step, 4);
  assert.equal(eventInSamples('holding', s).step, 8);
  assert.equal(eventInSamples('released', s).step, 12);
  assert.equal(eventInSamples('t=0.2', s).step, 10);
  assert.equal(eventInSamples('end', s, { duration: 0.32 }).step, 16);
  assert.equal(eventInSamples('leaking', s), null);
});

test('pressing with a driver is not looked for in the CSV (it lacks the hand\'s body\'s contacts)', () => {
  assert.match(csvCannotShow('pressing', { drivers: [{ name: 'hand' }] }), /no count of the contacts touching the first driver's body/);
  assert.equal(csvCannotShow('pressing', { drivers: [] }), null);
  assert.equal(csvCannotShow('released', { drivers: [{ name: 'hand' }] }), null);
});

test('the page\'s pause against the CLI\'s event: within one step', () => {
  const page = (step) => ({ dt: 0.02, event: { t: step * 0.02, step, missed: false } });
  assert.equal(comparePause(page(68), { t: 68 * 0.02, step: 68 }).ok, true);
  assert.equal(comparePause(page(69), { t: 68 * 0.02, step: 68 }).ok, true);
  assert.equal(comparePause(page(70), { t: 68 * 0.02, step: 68 }).ok, false);
  assert.equal(comparePause(page(68), { t: null, step: null, rows: 70, lastT: 1.38 }).ok, false);
  assert.equal(comparePause(page(68), { error: 'no native CLI' }).ok, false);
  assert.equal(comparePause({ dt: 0.02, event: { t: 2.4, step: 120, missed: true } }, { t: null, step: null }).ok, true);
});
