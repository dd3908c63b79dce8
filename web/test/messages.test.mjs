import test from 'node:test';
import assert from 'node:assert/strict';
import { TO_WORKER, FROM_WORKER, message, dispatch, checkHandlers, isMessage, MessageError } from '../src/messages.js';

// a value for each field, by name (any value of the right shape)
const VALUE = {
  backend: 'wasm', text: '{}', name: 'ground', baseDir: 'scenes', n: 3, mode: 'realtime', stepsPerFrame: 2, timeFactor: 1.5,
  list: [['/settings/dt', '0.001']], driver: 0, target: [0.01, 0, 0], value: 0.05, module: 'suction_wasm.js', version: '1.0',
  crossOriginIsolated: true, threads: true, simThreads: 2, sceneName: 'ground', description: 'd', dt: 0.001, duration: 2,
  quality: 'interactive', qualityChanges: ['dt'], pAtm: 101325, gravity: 9.81, bodies: [{ name: 'cup', indices: new Uint32Array([0, 1, 2]) }],
  drivers: [{ name: 'hand', body: 0 }], parameters: [], probeNames: [], time: 0.5, step: 500, playing: true,
  masses: [0.02, 0.2, 0], centres: [[0, 0, 0.05], [0, 0, 0.025], null], cavities: [], contacts: new Float32Array(6), contactCount: 1, springs: new Float32Array(0), probes: [], profile: { totalMs: 1 },
  samples: [{ t: 0, cavities: [] }], rtf: 0.9, applied: [['/a', '1']], requested: 1, live: true, restart: '', where: 'load',
  message: 'bad', fatal: false, event: 'holding', t: 0.82, values: { t: 0.82, pressure_kPa: 93.1 }, missed: false,
  warmup: 40, steps: 40, ms: 812.5, complete: true,
};

for (const [dir, spec] of [['page -> worker', TO_WORKER], ['worker -> page', FROM_WORKER]]) {
  test(`${dir}: every message type round-trips (make, structured clone, dispatch)`, () => {
    const got = [];
    const handlers = Object.fromEntries(Object.keys(spec).map(type => [type, (m) => got.push(m)]));
    checkHandlers(spec, handlers);
    for (const [type, fields] of Object.entries(spec)) {
      const all = Object.fromEntries(fields.map(f => f.replace(/\?$/, '')).map(f => {
        assert.ok(f in VALUE, `test value for field '${f}' of '${type}'`);
        return [f, VALUE[f]];
      }));
      const msg = message(spec, type, all);
      assert.equal(msg.type, type);
      const copy = structuredClone(msg);
      dispatch(spec, handlers, copy);
      assert.deepEqual(got.pop(), msg);
      // the optional fields may be left out
      const required = Object.fromEntries(fields.filter(f => !f.endsWith('?')).map(f => [f, VALUE[f]]));
      assert.deepEqual(Object.keys(message(spec, type, required)).sort(), ['type', ...Object.keys(required)].sort());
    }
    assert.equal(got.length, 0);
  });

  test(`${dir}: an unknown type is an error`, () => {
    assert.throws(() => message(spec, 'nope'), MessageError);
    assert.throws(() => dispatch(spec, {}, { type: 'nope' }), /unknown message type 'nope'/);
    assert.throws(() => dispatch(spec, {}, null), MessageError);
    assert.throws(() => dispatch(spec, {}, { type: 'toString' }), MessageError);   // not an own key
    assert.equal(isMessage(spec, { type: 'nope' }), false);
  });
}

test('a missing required field, an unknown field, a missing handler are errors', () => {
  assert.throws(() => message(TO_WORKER, 'step', {}), /field 'n' is missing/);
  assert.throws(() => message(TO_WORKER, 'step', { n: 1, m: 2 }), /has no field 'm'/);
  assert.throws(() => checkHandlers(TO_WORKER, { play() {} }), /no handler for message/);
  assert.throws(() => checkHandlers(FROM_WORKER, Object.fromEntries([...Object.keys(FROM_WORKER), 'extra'].map(t => [t, () => {}]))), MessageError);
  assert.throws(() => dispatch(TO_WORKER, {}, { type: 'play' }), /no handler/);
  assert.doesNotThrow(() => checkHandlers(TO_WORKER, Object.fromEntries(Object.keys(TO_WORKER).filter(t => t !== 'init').map(t => [t, () => {}])), ['init']));
});

test('the worker\'s SimHost handles every command but init, and reports an unknown one', async () => {
  const { SimHost } = await import('../src/sim_host.js');
  const { createMockModule } = await import('./mock_simulator.js');
  const posted = [];
  const host = new SimHost(createMockModule(), (m) => posted.push(m), { backend: 'mock' });
  assert.deepEqual(Object.keys(host.commands).sort(), Object.keys(TO_WORKER).filter(t => t !== 'init').sort());
  host.handle({ type: 'nope' });
  assert.equal(posted.at(-1).type, 'error');
  assert.match(posted.at(-1).message, /unknown command 'nope'/);
  for (const m of posted) assert.ok(isMessage(FROM_WORKER, m), m.type);
});
