// A link that reproduces what is on screen (pure; web/test/share.test.mjs): the scene, the
// quality and every value changed since the scene was loaded, as the page's URL parameters
//   ?scene=NAME&quality=reference&set=/materials/neoprene/young=2e6&set=/parameters/push_mm=6
// (`set` is the CLI's --set: a JSON pointer, '=', the value's JSON text). Opening one loads the
// scene and sends the values through the same check as a scene file's (the worker's override:
// a bad value is named by its pointer in the banner); a `set` that is not POINTER=VALUE is
// named here. With a lesson open (src/lessons.js) the link names the lesson and its step
// instead of the scene (`?lesson=why_it_sticks&step=2`, the step counted from 1; the lesson step
// names its scene and values) and carries as `set` only the values changed beyond the step's.

/** The URL search string of a state: { scene, quality, sets: [[pointer, valueText], ...], lesson, step }. */
export function shareSearch({ scene, quality = 'interactive', sets = [], lesson = null, step = null }) {
  const q = new URLSearchParams();
  if (lesson) {
    q.set('lesson', lesson);
    q.set('step', String(step || 1));
  } else if (scene) q.set('scene', scene);
  if (quality && quality !== 'interactive') q.set('quality', quality);
  // the last value of each pointer is the one that holds
  const last = new Map();
  for (const [p, v] of sets) { last.delete(p); last.set(p, v); }
  for (const [p, v] of last) q.append('set', `${p}=${v}`);
  return `?${q.toString()}`;
}

/** The state a URL's search parameters ask for: { scene, quality, sets, lesson, step, errors }. */
export function parseShare(search) {
  const q = search instanceof URLSearchParams ? search : new URLSearchParams(search);
  const errors = [], sets = [];
  const quality = q.get('quality');
  if (quality !== null && quality !== 'interactive' && quality !== 'reference')
    errors.push(`quality=${quality}: expected interactive or reference`);
  for (const s of q.getAll('set')) {
    const m = /^(\/[^=]*)=(.*)$/s.exec(s);
    if (!m || m[2] === '') errors.push(`set=${s}: expected a JSON pointer, '=' and a value, e.g. set=/settings/dt=0.005`);
    else sets.push([m[1], m[2]]);
  }
  let lesson = q.get('lesson'), step = null;
  if (lesson !== null && !/^[A-Za-z0-9_-]+$/.test(lesson)) {
    errors.push(`lesson=${lesson}: expected a lesson's name (its file lessons/NAME.json without .json: letters, digits, _ and -)`);
    lesson = null;
  }
  const stepText = q.get('step');
  if (stepText !== null) {
    if (!/^[1-9]\d*$/.test(stepText)) errors.push(`step=${stepText}: expected a step number, 1 for the first`);
    else if (lesson === null) errors.push(`step=${stepText}: a step belongs to a lesson (lesson=NAME&step=${stepText})`);
    else step = Number(stepText);
  }
  if (lesson !== null && step === null) step = 1;
  return { scene: q.get('scene'), quality: quality === 'reference' ? 'reference' : 'interactive', sets, lesson, step, errors };
}
