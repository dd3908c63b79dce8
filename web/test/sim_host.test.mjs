// SimHost (the worker's logic) against the JS mock of the wasm API.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { SimHost } from '../src/sim_host.js';
import { createMockModule } from './mock_simulator.js';

const sceneText = fs.readFileSync(new URL('../../scenes/default.json', import.meta.url), 'utf8');

function makeHost() {
  const msgs = [];
  const host = new SimHost(createMockModule(), (m, transfer) => msgs.push({ m, transfer }), { backend: 'mock' });
  return { host, msgs, of: (type) => msgs.filter(x => x.m.type === type).map(x => x.m) };
}

test('load posts the scene meta and a first frame', () => {
  const { host, msgs, of } = makeHost();
  host.handle({ type: 'load', text: sceneText, name: 'default' });
  const meta = of('loaded')[0];
  assert.ok(meta, 'loaded');
  assert.equal(meta.name, 'default');
  assert.equal(meta.bodies.length, 2);
  assert.ok(meta.bodies[0].soft && meta.bodies[1].fixed);
  assert.ok(meta.bodies[0].indices instanceof Uint32Array);
  assert.deepEqual(meta.drivers, [{ name: 'hand', body: 0 }]);
  assert.equal(meta.pAtm, 101325);
  assert.ok(meta.parameters.some(p => p.name === 'push_mm'));
  const frame = of('frame')[0];
  assert.ok(frame.bodies[0] instanceof Float32Array);
  const f = msgs.find(x => x.m.type === 'frame');
  assert.ok(f.transfer.includes(frame.bodies[0].buffer), 'positions are transferred');
  assert.equal(frame.samples.length, 1);
});

test('a bad scene reports the loader error', () => {
  const { host, of } = makeHost();
  host.handle({ type: 'load', text: '{ nope', name: 'bad' });
  const e = of('error')[0];
  assert.equal(e.where, 'load');
  assert.match(e.message, /JSON/);
  assert.equal(of('loaded').length, 0);
});

test('frames flow only after an ack; samples cover every step', () => {
  const { host, of } = makeHost();
  host.handle({ type: 'load', text: sceneText, name: 'default' });
  assert.equal(of('frame').length, 1);
  host.handle({ type: 'step', n: 5 });
  assert.equal(of('frame').length, 1, 'no frame before the ack');
  host.handle({ type: 'ack' });
  const frames = of('frame');
  assert.equal(frames.length, 2);
  assert.equal(frames[1].step, 5);
  assert.deepEqual(frames[1].samples.map(s => s.step), [1, 2, 3, 4, 5]);
});

test('pressing then pulling gives a cavity below ambient (mock physics), with a holding force', () => {
  const { host, of } = makeHost();
  host.handle({ type: 'load', text: sceneText, name: 'default' });
  host.handle({ type: 'step', n: 120 });
  host.handle({ type: 'ack' });
  const f = of('frame').at(-1);
  const low = f.samples.flatMap(s => s.cavities).filter(c => c.pressure < 101325 - 100);
  assert.ok(low.length > 0, 'some cavity below ambient');
  assert.ok(low.every(c => c.area > 0 && c.force > 0));
  assert.ok(f.profile.totalMs > 0);
});

test('each sample counts the hand\'s body\'s contacts (the first driver\'s), null without a driver', () => {
  const { host, of } = makeHost();
  host.handle({ type: 'load', text: sceneText, name: 'default' });
  // the module's per-body counts: the cup (the driver's body, index 0) 7, the ground 99
  host.sim.bodyContactCounts = () => [7, 99];
  host.handle({ type: 'step', n: 3 });
  host.handle({ type: 'ack' });
  const f = of('frame').at(-1);
  assert.deepEqual(f.samples.map(x => x.handContacts), [7, 7, 7]);
  // a scene without a driver: null (the phase panel then counts every contact)
  const doc = JSON.parse(sceneText);
  delete doc.drivers;
  const { host: h2, of: of2 } = makeHost();
  h2.handle({ type: 'load', text: JSON.stringify(doc), name: 'nodriver' });
  h2.handle({ type: 'step', n: 2 });
  h2.handle({ type: 'ack' });
  assert.deepEqual(of2('frame').at(-1).samples.map(x => x.handContacts), [null, null]);
});

test('frames carry the bodies\' masses and centres of mass (the weights drawn)', () => {
  const { host, of } = makeHost();
  host.handle({ type: 'load', text: sceneText, name: 'default' });
  host.handle({ type: 'step', n: 2 });
  host.handle({ type: 'ack' });
  const f = of('frame').at(-1);
  assert.equal(f.masses.length, 2);
  assert.ok(f.masses[0] > 0 && f.masses[1] === 0, `masses ${f.masses}`);
  assert.deepEqual(f.centres[0], host.sim.bodyCenterOfMass(0));
  assert.equal(f.centres[1], null, 'no centre for a body forces do not move');
});

test('dragging moves the driver offset smoothly towards its target', () => {
  const { host, of } = makeHost();
  host.handle({ type: 'load', text: sceneText, name: 'default' });
  host.handle({ type: 'drag', driver: 0, target: [0.01, 0, 0] });
  host.handle({ type: 'step', n: 1 });
  host.handle({ type: 'ack' });
  let off = of('frame').at(-1).drivers[0].offset;
  assert.ok(off[0] > 0 && off[0] <= host.dragSpeed * 0.01 + 1e-12, `one step moves at most dragSpeed*dt: ${off[0]}`);
  host.handle({ type: 'step', n: 100 });
  host.handle({ type: 'ack' });
  off = of('frame').at(-1).drivers[0].offset;
  assert.ok(Math.abs(off[0] - 0.01) < 1e-9, `reached: ${off[0]}`);
  host.handle({ type: 'reset' });
  host.handle({ type: 'ack' });
  assert.deepEqual(of('frame').at(-1).drivers[0].offset, [0, 0, 0]);
});

test('overrides go live, report what was applied, and errors are reported', () => {
  const { host, of } = makeHost();
  host.handle({ type: 'load', text: sceneText, name: 'default' });
  host.handle({ type: 'override', list: [['/settings/dt', '0.005']] });
  assert.equal(host.sim.dt(), 0.005);
  assert.deepEqual(of('overridden').at(-1).applied, [['/settings/dt', '0.005']]);
  assert.equal(of('overridden').at(-1).live, true);
  assert.equal(of('overridden').at(-1).dt, 0.005);
  assert.equal(of('loaded').length, 1, 'no rebuild');
  host.handle({ type: 'override', list: [['/nope/x', '1']] });
  assert.equal(of('error').at(-1).where, 'override');
  assert.equal(host.sim.dt(), 0.005, 'the old simulation is kept');
});

test('live tuning keeps playing and the clock; a mesh change restarts with the rest', () => {
  const { host, of } = makeHost();
  host.handle({ type: 'load', text: sceneText, name: 'default' });
  host.handle({ type: 'play' });
  clearTimeout(host.timer); host.timer = null;
  host.handle({ type: 'step', n: 20 });
  const t = host.sim.time();
  host.handle({ type: 'override', list: [['/settings/duration', '3'], ['/parameters/pull_mm', '25']] });
  let o = of('overridden').at(-1);
  assert.equal(o.live, true);
  assert.equal(o.time, t);
  assert.equal(host.playing, true, 'still playing');
  assert.equal(host.sim.time(), t, 'no reset');
  assert.deepEqual(o.applied.map(a => a[0]), ['/settings/duration', '/parameters/pull_mm']);
  // a bad one is reported and changes nothing
  host.handle({ type: 'override', list: [['/no/such/place', '1']] });
  assert.equal(of('error').at(-1).where, 'override');
  assert.equal(host.sim.time(), t);
  // a mesh: the live part first, then a rebuild from the change that needs it
  host.handle({ type: 'override', list: [['/parameters/push_mm', '5'], ['/bodies/0/mesh/radius', '0.02'], ['/settings/dt', '0.005']] });
  o = of('overridden').at(-1);
  assert.equal(o.live, false);
  assert.match(o.restart, /body 'cup': its mesh differs/);
  assert.deepEqual(o.applied.map(a => a[0]), ['/parameters/push_mm', '/bodies/0/mesh/radius', '/settings/dt']);
  assert.equal(host.playing, false);
  assert.equal(host.sim.time(), 0, 'started again');
  assert.equal(of('loaded').length, 2, 'rebuilt once');
  clearTimeout(host.timer); host.timer = null;
});

test('a diverging step pauses and reports', () => {
  const { host, of } = makeHost();
  host.handle({ type: 'load', text: sceneText, name: 'default' });
  host.handle({ type: 'override', list: [['/settings/dt', '0.1']] }); // the mock diverges above 0.05
  host.handle({ type: 'ack' });
  host.handle({ type: 'play' });
  clearTimeout(host.timer); host.timer = null;
  host.tick();
  const e = of('error').at(-1);
  assert.equal(e.where, 'step');
  assert.match(e.message, /diverg/);
  assert.equal(host.playing, false);
  clearTimeout(host.timer); host.timer = null;
});

test('play runs ticks and stops at the end of the scene', async () => {
  const { host, of } = makeHost();
  host.handle({ type: 'load', text: sceneText, name: 'default' });
  host.handle({ type: 'speed', stepsPerFrame: 50 });
  host.handle({ type: 'play' });
  for (let i = 0; i < 3000 && host.playing; ++i) { host.handle({ type: 'ack' }); await new Promise(r => setTimeout(r, 1)); }
  assert.equal(host.playing, false);
  assert.equal(of('end').length, 1);
  assert.ok(Math.abs(host.sim.time() - host.sim.duration()) < 1e-9);
});

test('real-time pacing: a speed the machine cannot reach leaves no backlog for a later speed', () => {
  const { host } = makeHost();
  host.handle({ type: 'load', text: sceneText, name: 'default' });
  const dt = host.sim.dt();
  host.handle({ type: 'speed', mode: 'realtime', timeFactor: 10000 });
  for (let i = 0; i < 5; ++i) {  // 100 ms of wall clock per tick at 10000x: far beyond the cap
    host.lastTickWall = performance.now() - 100;
    assert.equal(host.stepsThisTick(), host.maxStepsPerTick);
    assert.ok(host.simDebt <= dt + 1e-12, `no backlog kept (${host.simDebt} s)`);
  }
  host.handle({ type: 'speed', timeFactor: 1 });
  host.lastTickWall = performance.now() - 50;  // 50 ms at 1x real time
  const n = host.stepsThisTick();
  assert.ok(n >= Math.floor(0.05 / dt) - 1 && n <= Math.ceil(0.05 / dt) + 1, `${n} steps for 50 ms at dt ${dt}`);
});

test('quality: the worker starts at interactive, a change rebuilds and starts again, a bad name is reported', () => {
  const { host, of } = makeHost();
  assert.equal(host.quality, 'interactive');
  host.handle({ type: 'load', text: sceneText, name: 'default' });
  assert.equal(of('loaded').at(-1).quality, 'interactive');
  assert.deepEqual(of('loaded').at(-1).qualityChanges, []);
  host.handle({ type: 'play' });
  host.handle({ type: 'quality', name: 'reference' });
  assert.equal(of('loaded').length, 2, 'rebuilt');
  assert.equal(of('loaded').at(-1).quality, 'reference');
  assert.equal(of('status').at(-1).playing, false, 'paused: it starts again');
  host.handle({ type: 'quality', name: 'fast' });
  assert.equal(of('error').at(-1).where, 'quality');
  assert.match(of('error').at(-1).message, /unknown quality 'fast'/);
  assert.equal(host.quality, 'reference', 'the old quality is kept');
});

// a lesson's event (src/lesson_events.js): the run pauses at the step where it happens
test('the worker pauses at the armed event and tells the page what it measured (SimHost, mock simulator)', () => {
  const msgs = [];
  const host = new SimHost(createMockModule(), (m) => msgs.push(m), { backend: 'mock' });
  const of = (t) => msgs.filter(m => m.type === t);
  host.handle({ type: 'load', text: sceneText, name: 'default' });
  host.handle({ type: 'pauseAt', event: 'sealed' });
  host.handle({ type: 'play' });   // steps mode, one step a tick: drive it by hand below
  let guard = 0;
  while (!of('event').length && guard++ < 5000) host.handle({ type: 'step', n: 1 });
  const ev = of('event')[0];
  assert.ok(ev, 'an event message');
  assert.equal(ev.name, 'sealed'); assert.equal(ev.missed, false);
  assert.equal(ev.step, host.sim.stepCount(), 'paused at the event\'s step');
  assert.equal(host.playing, false);
  assert.equal(of('status').at(-1).playing, false);
  assert.equal(ev.values.cavities, 1);
  // the page's samples: the event's step is the first with an active cavity
  host.handle({ type: 'ack' });
  const samples = of('frame').flatMap(f => f.samples);
  const first = samples.find(s => s.cavities.some(c => !c.dormant));
  assert.equal(first.step, ev.step);
  assert.equal(first.t, ev.t);
  // stepping on does not fire again; a reset re-arms, and the same step fires
  const n = of('event').length;
  host.handle({ type: 'step', n: 3 });
  assert.equal(of('event').length, n);
  host.handle({ type: 'reset' });
  guard = 0;
  while (of('event').length === n && guard++ < 5000) host.handle({ type: 'step', n: 1 });
  assert.equal(of('event').at(-1).step, ev.step);
  // an event after the end: the end says it was missed, with the values there
  host.handle({ type: 'pauseAt', event: 't=99' });
  host.handle({ type: 'reset' });
  host.handle({ type: 'step', n: Math.round(host.sim.duration() / host.sim.dt()) + 2 });
  const miss = of('event').at(-1);
  assert.equal(miss.missed, true);
  assert.ok(Math.abs(miss.t - host.sim.duration()) < 1e-9);
  // null disarms; a bad name is reported
  host.handle({ type: 'pauseAt', event: null });
  assert.equal(host.watch, null);
  host.handle({ type: 'pauseAt', event: 'soon' });
  assert.match(of('error').at(-1).message, /unknown event 'soon'/);
});

// ---- the warm-up after a load (SimHost.startWarmup) ----------------------------------------
function makeWarmHost(warmup) {
  const msgs = [];
  const host = new SimHost(createMockModule(), (m, transfer) => msgs.push({ m, transfer }), { backend: 'mock', warmup });
  return { host, msgs, of: (type) => msgs.filter(x => x.m.type === type).map(x => x.m) };
}
const until = async (cond, what) => {
  for (let i = 0; i < 2000 && !cond(); ++i) await new Promise(r => setTimeout(r, 1));
  assert.ok(cond(), `timed out waiting for ${what}`);
};

test('the warm-up plays the scene unseen, resets it to the loaded state and says so', async () => {
  const warm = makeWarmHost({ steps: 7, budgetMs: 1e9 });
  const cold = makeHost();
  warm.host.handle({ type: 'load', text: sceneText, name: 'default' });
  cold.host.handle({ type: 'load', text: sceneText, name: 'default' });
  warm.host.handle({ type: 'ack' });   // the page drew the load's frame: no frame of the warm-up follows
  await until(() => warm.of('warm').length === 1, "'warm'");
  const w = warm.of('warm')[0];
  assert.equal(w.steps, 7);
  assert.equal(w.complete, true);
  assert.ok(w.ms >= 0);
  assert.equal(warm.of('frame').length, 1, 'only the load\'s frame: the warm-up is not shown');
  assert.equal(warm.host.sim.stepCount(), 0, 'reset to the loaded state');
  assert.equal(warm.host.sim.time(), 0);
  // then the scene plays as if there had been no warm-up, to the bit
  for (const h of [warm, cold]) { h.host.handle({ type: 'step', n: 30 }); h.host.handle({ type: 'ack' }); }
  const a = warm.of('frame').at(-1), b = cold.of('frame').at(-1);
  assert.deepEqual(a.samples.map(s => s.step), b.samples.map(s => s.step));
  assert.deepEqual(a.samples, b.samples);
  assert.deepEqual(a.bodies, b.bodies);
});

test('a command ends the warm-up at once; an ack, the speed and a pause leave it running', async () => {
  const { host, of } = makeWarmHost({ steps: 100000, budgetMs: 1e9 });
  host.handle({ type: 'load', text: sceneText, name: 'default' });
  await until(() => host.sim.stepCount() >= 3, 'three warm-up steps');
  host.handle({ type: 'ack' });
  host.handle({ type: 'speed', mode: 'realtime', timeFactor: 2 });
  host.handle({ type: 'pause' });
  assert.equal(of('warm').length, 0, 'still warming');
  assert.equal(of('frame').length, 1, 'an ack during the warm-up sends no frame');
  host.handle({ type: 'step', n: 2 });
  const w = of('warm');
  assert.equal(w.length, 1);
  assert.equal(w[0].complete, false);
  assert.ok(w[0].steps >= 3);
  host.handle({ type: 'ack' });
  const f = of('frame').at(-1);
  assert.equal(f.step, 2, 'the step command ran from the loaded state');
  assert.deepEqual(f.samples.map(s => s.step), [1, 2]);
  await new Promise(r => setTimeout(r, 20));
  assert.equal(host.sim.stepCount(), 2, 'nothing steps after the warm-up ended');
});

test('the warm-up stops at its time budget and at the scene\'s end; a rebuild warms again', async () => {
  const budget = makeWarmHost({ steps: 100000, budgetMs: 0 });
  budget.host.handle({ type: 'load', text: sceneText, name: 'default' });
  await until(() => budget.of('warm').length === 1, "'warm'");
  assert.equal(budget.of('warm')[0].steps, 1, 'one step, then the budget is spent');
  const doc = JSON.parse(sceneText);
  doc.settings.duration = 5 * doc.settings.dt;
  const short = makeWarmHost({ steps: 50, budgetMs: 1e9 });
  short.host.handle({ type: 'load', text: JSON.stringify(doc), name: 'short' });
  await until(() => short.of('warm').length === 1, "'warm'");
  assert.equal(short.of('warm')[0].steps, 5, 'no step beyond the scene\'s duration');
  const none = makeWarmHost({ steps: 50, budgetMs: 1e9 });
  doc.settings.duration = 0.5 * doc.settings.dt;
  none.host.handle({ type: 'load', text: JSON.stringify(doc), name: 'shorter than a step' });
  assert.deepEqual(none.of('warm'), [{ type: 'warm', steps: 0, ms: 0, complete: true }], 'nothing to warm, said at once');
  short.host.handle({ type: 'quality', name: 'reference' });
  await until(() => short.of('warm').length === 2, "the rebuild's 'warm'");
  assert.equal(short.of('warm')[1].steps, 5);
  assert.equal(short.host.sim.stepCount(), 0);
});
