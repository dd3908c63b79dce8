// Lessons (docs/web.md, "Lessons"): the validator (every shipped lesson passes; each kind of bad
// field is named by its JSON pointer and what was expected), the schema and the validator agree,
// the events detected from sample streams (mock samples; the worker pausing at one is in
// sim_host.test.mjs), the quantities measured there and the placeholder filling.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { validateLesson, formatErrors, stepOverrides, LESSON_KEYS, STEP_KEYS, SHOW_KEYS, CHOICE_KEYS, NUMBER_KEYS } from '../src/lesson_format.js';
import { EVENTS, EventWatch, parseEvent, quantityError, instantValues } from '../src/lesson_events.js';
import { fillText, fillString, placeholders, formatValue, judgeNumber, defaultDigits } from '../src/lesson_text.js';

const root = new URL('../../', import.meta.url);
const read = (p) => fs.readFileSync(new URL(p, root), 'utf8');
const scenes = fs.readdirSync(new URL('scenes/', root)).filter(f => f.endsWith('.json')).map(f => f.replace(/\.json$/, ''));
const sceneDocs = Object.fromEntries(scenes.map(n => [n, JSON.parse(read(`scenes/${n}.json`))]));
const schema = JSON.parse(read('scenes/schema/scene.schema.json'));
const ctx = { scenes, sceneDocs, schema };
const lessonFiles = fs.readdirSync(new URL('lessons/', root)).filter(f => f.endsWith('.json') && f !== 'lesson.schema.json');

// ---- the validator ---------------------------------------------------------------------------------
test('every shipped lesson passes the check, and there are at least five', () => {
  assert.ok(lessonFiles.length >= 5, lessonFiles.join(' '));
  for (const f of lessonFiles) {
    const doc = JSON.parse(read(`lessons/${f}`));
    assert.deepEqual(formatErrors(validateLesson(doc, ctx), `lessons/${f}`), [], f);
  }
});

test('the issue\'s five lessons are there, over their scenes, the forces and P-V shown where they teach them', () => {
  const L = (n) => JSON.parse(read(`lessons/${n}.json`));
  assert.ok(L('why_it_sticks').steps.every(s => s.scene === 'ground' && s.show.forces === true));
  assert.ok(L('boyle_in_the_cup').steps.every(s => s.show.pv === true));
  const leak = L('leak_and_release');
  assert.ok(leak.steps.every(s => s.scene === 'popup_toy') && leak.steps.some(s => s.predict && s.set && s.set['/parameters/leak_mj_per_s'] > 8));
  assert.ok(L('curvature_and_seal').steps.every(s => s.scene === 'curved_surfaces'));
  assert.deepEqual(L('cup_shapes').steps.map(s => s.scene).sort(), ['cup_shapes_octopus', 'cup_shapes_plunger', 'cup_shapes_store']);
});

/** A good lesson to break one field of. */
function good() {
  return {
    title: 'A lesson', summary: 'What it teaches.',
    steps: [{
      scene: 'popup_toy', set: { '/parameters/leak_mj_per_s': 16, '/settings/cavity/p_max': 101325 }, show: { forces: true, pv: false },
      watch: 'Watch the air plot.',
      predict: { question: 'When does it pop?', unit: 's', answer_from: 't', tolerance: 0.2 },
      pause_at: 'released', explain: 'At {t} s, {last_cavity.pressure_kPa:2} kPa, {probe.head_z.rise*1:1} mm, {at.holding.air_mJ} mJ.',
    }, {
      scene: 'ground', watch: 'w', predict: { question: 'q', choices: ['a', 'b'], answer: 1 }, pause_at: 't=1.2', explain: 'x',
    }],
  };
}
/** The problems of good() changed by `edit`, as { path: message }. */
function problems(edit) {
  const doc = good();
  edit(doc);
  return Object.fromEntries(validateLesson(doc, ctx).map(e => [e.path, e.message]));
}

test('the good example passes', () => { assert.deepEqual(validateLesson(good(), ctx), []); });

test('the lesson\'s own fields: named by path, with what was expected', () => {
  assert.match(validateLesson([], ctx)[0].message, /expected a lesson object/);
  assert.match(problems(d => { delete d.title; })['/title'], /^missing: expected a non-empty string/);
  assert.match(problems(d => { d.summary = 42; })['/summary'], /expected a non-empty string, got 42/);
  assert.match(problems(d => { d.titel = 'x'; })['/titel'], /unknown key \(did you mean 'title'\?\): expected one of/);
  assert.match(problems(d => { d.steps = []; })['/steps'], /at least one, got an empty array/);
  assert.match(problems(d => { d.order = 1.5; })['/order'], /expected an integer >= 0/);
  assert.match(problems(d => { delete d.steps; })['/steps'], /^missing/);
  assert.match(problems(d => { d.steps[1] = 'ground'; })['/steps/1'], /expected a step object/);
});

test('a step: an unknown scene, a missing one, an unknown key', () => {
  assert.match(problems(d => { d.steps[1].scene = 'groundd'; })['/steps/1/scene'], /unknown scene 'groundd'; did you mean 'ground'\?/);
  assert.match(problems(d => { delete d.steps[1].scene; })['/steps/1/scene'], /^missing: expected the name of a shipped scene/);
  assert.match(problems(d => { d.steps[0].wach = 'x'; })['/steps/0/wach'], /did you mean 'watch'/);
  assert.match(problems(d => { d.steps[0].title = ''; })['/steps/0/title'], /non-empty string/);
});

test('set: a bad pointer, a pointer not in the scene, a value out of bounds or of the wrong type', () => {
  const set = (p, v) => problems(d => { d.steps[0].set = { [p]: v }; });
  assert.match(set('settings/dt', 0.01)['/steps/0/set/settings~1dt'], /expected a JSON pointer/);
  assert.match(set('/parameters/leak', 3)['/steps/0/set/~1parameters~1leak'], /no parameter 'leak' in scene 'popup_toy'.*leak_mj_per_s/);
  assert.match(set('/parameters/leak_mj_per_s', -1)['/steps/0/set/~1parameters~1leak_mj_per_s'], /-1 is below the parameter's min 0/);
  assert.match(set('/parameters/leak_mj_per_s', 'lots')['/steps/0/set/~1parameters~1leak_mj_per_s'], /expected a number \(or an "=expression"\), got "lots"/);
  assert.match(set('/settings/cavity/leak_rat', 0.1)['/steps/0/set/~1settings~1cavity~1leak_rat'], /unknown key 'leak_rat' in \/settings\/cavity; did you mean 'leak_rate'\?/);
  assert.match(set('/settings/cavity/leak_rate', 'abc')['/steps/0/set/~1settings~1cavity~1leak_rate'], /expected a number or an "=expression", got "abc"/);
  assert.match(set('/settings/dt', 0)['/steps/0/set/~1settings~1dt'], /expected a value > 0, got 0/);
  assert.match(set('/materials/rubber/young', 1e6)['/steps/0/set/~1materials~1rubber~1young'], /\/materials\/rubber is not in scene 'popup_toy'/);
  assert.match(set('/bodies/9/mesh/radius', 0.02)['/steps/0/set/~1bodies~19~1mesh~1radius'], /\/bodies\/9 is not in scene/);
  assert.match(set('/settings/cavity/gas/law', 'nope')['/steps/0/set/~1settings~1cavity~1gas~1law'], /set \/settings\/cavity\/gas to \{\} first/);
  assert.match(problems(d => { d.steps[0].set = 3; })['/steps/0/set'], /expected an object/);
  // what passes: a pointer the schema knows, created first when its parent is missing, an expression
  assert.deepEqual(problems(d => { d.steps[0].set = { '/settings/cavity/gas': {}, '/settings/cavity/gas/law': 'adiabatic',
                                                      '/parameters/stiffness': '=2*400', '/materials/silicone/young': 2e6 }; }), {});
  assert.deepEqual(stepOverrides({ set: { '/a': 1, '/b': '=x', '/c': { d: true } } }), [['/a', '1'], ['/b', '"=x"'], ['/c', '{"d":true}']]);
});

test('show, watch, pause_at, explain', () => {
  assert.match(problems(d => { d.steps[0].show = { force: true }; })['/steps/0/show/force'], /did you mean 'forces'/);
  assert.match(problems(d => { d.steps[0].show = { pv: 'yes' }; })['/steps/0/show/pv'], /expected true or false/);
  assert.match(problems(d => { delete d.steps[0].watch; })['/steps/0/watch'], /^missing/);
  assert.match(problems(d => { d.steps[0].watch = 'see {t}'; })['/steps/0/watch'], /placeholders belong in "explain"/);
  // a step with no event is refused
  assert.match(problems(d => { delete d.steps[0].pause_at; })['/steps/0/pause_at'], /^missing: every step pauses at an event: contact, sealed/);
  assert.match(problems(d => { d.steps[0].pause_at = 'relased'; })['/steps/0/pause_at'], /unknown event "relased"; did you mean 'released'\?/);
  assert.match(problems(d => { d.steps[1].pause_at = 't=9'; })['/steps/1/pause_at'], /t=9 is after the scene's end \(ground: duration 1.8 s\)/);
  assert.match(problems(d => { d.steps[0].explain = '{pressure_kpa}'; })['/steps/0/explain'], /\{pressure_kpa\}: unknown quantity 'pressure_kpa'; did you mean 'pressure_kPa'\?/);
  assert.match(problems(d => { d.steps[0].explain = '{probe.head_zz}'; })['/steps/0/explain'], /no probe 'head_zz' in the scene; did you mean 'head_z'\?/);
  assert.match(problems(d => { d.steps[0].explain = '{at.hold.t}'; })['/steps/0/explain'], /at\.hold: expected an event/);
  assert.match(problems(d => { delete d.steps[0].explain; })['/steps/0/explain'], /^missing/);
});

test('predict: a choice or a number, each field checked', () => {
  assert.match(problems(d => { d.steps[1].predict.answer = 2; })['/steps/1/predict/answer'], /integer from 0 to 1, got 2/);
  assert.match(problems(d => { d.steps[1].predict.choices = ['a']; })['/steps/1/predict/choices'], /at least two answers/);
  assert.match(problems(d => { d.steps[1].predict.choices = ['a', 3]; })['/steps/1/predict/choices/1'], /non-empty string, got 3/);
  assert.match(problems(d => { d.steps[1].predict.unit = 's'; })['/steps/1/predict'], /not both/);
  assert.match(problems(d => { d.steps[1].predict = { question: 'q' }; })['/steps/1/predict'], /either a choice .* or a number/);
  assert.match(problems(d => { d.steps[0].predict.tolerance = 0; })['/steps/0/predict/tolerance'], /in \(0, 1\]/);
  assert.match(problems(d => { d.steps[0].predict.answer_from = 'time'; })['/steps/0/predict/answer_from'], /unknown quantity 'time'/);
  assert.match(problems(d => { delete d.steps[0].predict.unit; })['/steps/0/predict/unit'], /^missing/);
  assert.match(problems(d => { d.steps[0].predict.answer = 1; })['/steps/0/predict'], /not both/);
  assert.match(problems(d => { d.steps[0].predict.hint = 'x'; })['/steps/0/predict/hint'], /unknown key/);
});

test('the schema and the validator know the same keys and events', () => {
  const ls = JSON.parse(read('lessons/lesson.schema.json'));
  assert.deepEqual(Object.keys(ls.properties).sort(), [...LESSON_KEYS].sort());
  assert.deepEqual([...ls.required].sort(), ['steps', 'summary', 'title']);
  const st = ls.$defs.step;
  assert.deepEqual(Object.keys(st.properties).sort(), [...STEP_KEYS].sort());
  assert.deepEqual([...st.required].sort(), ['explain', 'pause_at', 'scene', 'watch']);
  assert.deepEqual(Object.keys(st.properties.show.properties).sort(), Object.keys(SHOW_KEYS).sort());
  assert.deepEqual(st.properties.pause_at.anyOf[0].enum, Object.keys(EVENTS));
  assert.ok(new RegExp(st.properties.pause_at.anyOf[1].pattern).test('t=1.25') && parseEvent('t=1.25').t === 1.25);
  assert.deepEqual(Object.keys(ls.$defs.predict_choice.properties).sort(), [...CHOICE_KEYS].sort());
  assert.deepEqual(Object.keys(ls.$defs.predict_number.properties).sort(), [...NUMBER_KEYS].sort());
});

// ---- events from sample streams ------------------------------------------------------------------------
const P = 101325;
const cav = (pressure, volume, extra = {}) => ({ id: 0, pressure, volume, air: pressure * volume, area: 8e-4, force: (P - pressure) * 8e-4, dormant: false, ...extra });
const smp = (step, dt, cavs, contacts, extra = {}) => ({ t: step * dt, step, pAtm: P, contacts, cavities: cavs, force: cavs.reduce((a, c) => a + c.force, 0), hand: 0, probes: [], ...extra });

/** A ground-like run, dt = 10 ms: free until step 5, touching, sealed at step 10 with air
 *  pushed out until step 30, held at P_atm to step 40, pulled (the air kept, the volume growing)
 *  to step 70, a leak from step 70 to 80 (1 % more air a step), released at step 80. Probe 'z' rises. */
function groundLike() {
  const dt = 0.01, out = [];
  for (let i = 0; i <= 100; ++i) {
    let cavs = [], contacts = i >= 5 ? 20 : 0;
    if (i >= 10 && i < 30) cavs = [cav(P, 3e-6 - (i - 10) * 1e-7)];                 // air pushed out at P_atm
    else if (i >= 30 && i < 40) cavs = [cav(P, 1e-6)];                              // held
    else if (i >= 40 && i < 70) { const V = 1e-6 * (1 + 0.05 * (i - 39)); cavs = [cav(P * 1e-6 / V, V)]; }   // Boyle
    else if (i >= 70 && i < 80) { const V = 2.5e-6, N = P * 1e-6 * (1 + 0.01 * (i - 69)); cavs = [cav(N / V, V)]; }   // leaking
    if (i >= 80) contacts = 0;
    out.push(smp(i, dt, cavs, contacts, { hand: i < 40 ? -5 : 0.5 * (i - 40), probes: [i * 1e-3] }));
  }
  return out;
}

test('events from a sample stream: each at its first sample, once', () => {
  const run = groundLike();
  const firstStep = (event, opts = {}) => {
    const w = new EventWatch(event, { duration: 1.0, probeNames: ['z'], ...opts });
    const hits = run.filter(s => w.push(s)).map(s => s.step);
    assert.ok(hits.length <= 1, `${event} fired ${hits.length} times`);
    return hits.length ? hits[0] : null;
  };
  assert.equal(firstStep('contact'), 5);
  assert.equal(firstStep('pressing'), 5);       // touching, no seal yet: the phase panel says pressing
  assert.equal(firstStep('sealed'), 10);
  assert.equal(firstStep('holding'), 40);       // the first step of the pull, below ambient
  assert.equal(firstStep('leaking'), 70);       // N grew by 1 % (> 0.2 %) in the last 0.05 s
  assert.equal(firstStep('released'), 80);
  assert.equal(firstStep('end'), 100);
  assert.equal(firstStep('t=0.55'), 55);
  assert.equal(firstStep('t=0.5'), 50);          // 50 * 0.01 = 0.5000000000000001: at or after
  assert.equal(firstStep('end', { duration: 5 }), null);
  assert.throws(() => new EventWatch('later'), /unknown event 'later'/);
});

test('the phase at each event is what the phase panel shows (classifyPhase over the last second)', () => {
  const run = groundLike();
  for (const event of ['pressing', 'holding', 'leaking', 'released']) {
    const w = new EventWatch(event);
    for (const s of run) if (w.push(s)) break;
    assert.equal(w.phase, event);
  }
  const w = new EventWatch('sealed');
  for (const s of run) if (w.push(s)) break;
  assert.equal(w.phase, 'sealed');   // the first sample of a pocket at ambient
});

test('pressing counts the hand\'s body\'s contacts (as the phase panel): a block resting on the ground does not press', () => {
  // contacts throughout (a block on the ground), the hand's body touching only from step 5 to 9
  const run = Array.from({ length: 20 }, (_, i) => smp(i, 0.01, [], 200, { handContacts: i >= 5 && i < 10 ? 30 : 0 }));
  const at = (event) => { const w = new EventWatch(event); return run.findIndex(x => w.push(x)); };
  assert.equal(at('contact'), 0, 'contact: any contact');
  assert.equal(at('pressing'), 5, 'pressing: the hand\'s body touches');
  const w = new EventWatch('end', { duration: 1 });
  for (const x of run) w.push(x);
  assert.equal(w.phase, 'free', 'the hand\'s body off everything: free');
});

test('reset re-arms: the same stream fires again at the same step', () => {
  const run = groundLike();
  const w = new EventWatch('holding');
  const a = run.findIndex(s => w.push(s));
  assert.equal(w.push(run[a + 1]), false);
  w.reset();
  assert.equal(run.findIndex(s => w.push(s)), a);
});

test('what is measured at a pause: the sample, the run so far, earlier events, the last cavity, probes', () => {
  const run = groundLike();
  const w = new EventWatch('released', { duration: 1.0, probeNames: ['z'] });
  let at = null;
  for (const s of run) if (w.push(s)) { at = s; break; }
  const v = w.fired;
  assert.equal(v.t, at.t); assert.equal(v.step, 80);
  assert.equal(v.pressure_kPa, P / 1e3); assert.equal(v.volume_cm3, 0); assert.equal(v.cavities, 0); assert.equal(v.holding_force, 0);
  // the pull's lowest pressure: V = 2.55e-6 at step 69
  const s69 = run[69].cavities[0];
  assert.ok(Math.abs(v.min_pressure_kPa - s69.pressure / 1e3) < 1e-12);
  assert.ok(Math.abs(v.max_holding_force - s69.force) < 1e-12);
  assert.ok(Math.abs(v.max_dp_kPa - (P - s69.pressure) / 1e3) < 1e-12);
  assert.equal(v.max_hand_force, 0.5 * 40);
  assert.equal(v.min_hand_force, -5);
  // the events before it, with their own values
  assert.equal(v['at.sealed.t'], run[10].t);
  assert.ok(Math.abs(v['at.sealed.volume_cm3'] - 3) < 1e-12);
  assert.equal(v['at.holding.step'], 40);
  assert.ok(Math.abs(v['at.holding.air_mJ'] - P * 1e-6 * 1e3) < 1e-9);
  assert.ok(Math.abs(v.hold_s - (run[80].t - run[40].t)) < 1e-12);
  // the last sample with a cavity (step 79), and P·V of it
  const c79 = run[79].cavities[0];
  assert.equal(v['last_cavity.step'], 79);
  assert.ok(Math.abs(v['last_cavity.pressure_kPa'] - c79.pressure / 1e3) < 1e-12);
  assert.ok(Math.abs(v['last_cavity.pv_mJ'] - c79.pressure * c79.volume * 1e3) < 1e-9);
  // a probe: its value and its run
  assert.equal(v['probe.z'], 0.08);
  assert.equal(v['probe.z.start'], 0); assert.equal(v['probe.z.max'], 0.08); assert.equal(v['probe.z.rise'], 0.08);
  // every quantity a lesson may name is defined here (but probes, by the scene)
  for (const name of Object.keys(v)) assert.equal(quantityError(name, ['z']), null, name);
  assert.equal(quantityError('at.end.t'), null);
  assert.match(quantityError('probe.y', ['z']), /no probe 'y'/);
});

test('instantValues takes the lowest-pressure active cavity and the summed force', () => {
  const s = smp(3, 0.01, [cav(90000, 2e-6), { ...cav(80000, 1e-6), id: 1 }, { ...cav(10000, 1e-6), id: 2, dormant: true, force: 0 }], 4);
  const v = instantValues(s);
  assert.equal(v.pressure_kPa, 80); assert.equal(v.volume_cm3, 1); assert.equal(v.cavities, 2);
  assert.ok(Math.abs(v.holding_force - (P - 90000 + P - 80000) * 8e-4) < 1e-12);
  assert.ok(Math.abs(v.pv_mJ - 80) < 1e-9); assert.ok(Math.abs(v.area_cm2 - 8) < 1e-12);
});

// ---- the text ----------------------------------------------------------------------------------------------
test('placeholders: parsed with their decimals and factor; other braces are text', () => {
  assert.deepEqual(placeholders('a {t} b {probe.z.rise*1000:1} {x*-1} { not } {1}').map(p => [p.name, p.scale, p.digits]),
                   [['t', 1, null], ['probe.z.rise', 1000, 1], ['x', -1, null]]);
  assert.equal(defaultDigits('pressure_kPa'), 1);
  assert.equal(defaultDigits('at.sealed.t'), 3);
  assert.equal(defaultDigits('hold_s'), 3);
  assert.equal(defaultDigits('volume_cm3'), 3);
  assert.equal(defaultDigits('holding_force'), 2);
  assert.equal(defaultDigits('step'), 0);
});

test('the explanation is filled with the values measured at the pause', () => {
  const values = { t: 1.2000000000000006, pressure_kPa: 29.38712, holding_force: 61.6321, 'probe.z.rise': 0.03578, hand_force: -20.0149, 'at.holding.t': NaN };
  const parts = fillText('At {t} s: P = {pressure_kPa} kPa, {holding_force:1} N; lift {probe.z.rise*1000:1} mm; push {hand_force*-1} N; {at.holding.t}; {nope}.', values);
  const shown = parts.filter(p => typeof p !== 'string');
  assert.deepEqual(shown.map(p => p.shown), ['1.200', '29.4', '61.6', '35.8', '20.01', '—', '—']);
  assert.equal(shown[1].value, 29.38712);
  assert.equal(shown[3].value, 0.03578 * 1000);
  assert.equal(shown[5].value, null);
  assert.equal(fillString('P = {pressure_kPa:2} kPa {x}', values), 'P = 29.39 kPa —');
  assert.equal(formatValue(-0.001, 2), '0.00');
  assert.equal(formatValue(undefined, 2), '—');
});

test('a number prediction is judged against the measured answer, relative', () => {
  assert.deepEqual(judgeNumber(2.3, 2.326, 0.1).within, true);
  const off = judgeNumber(1.6, 2.326, 0.1);
  assert.equal(off.within, false);
  assert.ok(Math.abs(off.error - (1.6 - 2.326) / 2.326) < 1e-12);
  assert.equal(judgeNumber(55, 50, 0.1).within, true);   // exactly 10 %
  assert.equal(judgeNumber(NaN, 50, 0.1).within, false);
});
