// A lesson's text with the measured numbers filled in (pure; web/test/lessons.test.mjs).
// In a step's "explain", {NAME} is replaced by the value of the quantity NAME measured at the
// pause (src/lesson_events.js: INSTANT, AGGREGATE, probe.NAME..., at.EVENT.NAME, last_cavity.NAME):
//   {pressure_kPa}        the value with the quantity's usual decimals (kPa: 2, N: 2, s: 3 ...)
//   {pressure_kPa:1}      with 1 decimal (0-6)
//   {probe.object_z.rise*1000:1}   times 1000 (m to mm), 1 decimal; *-1 turns the sign
// Any other brace is text. A quantity with no value at the pause (at.holding.t when the cup never
// held) is shown as '—'.

export const PLACEHOLDER = /\{([A-Za-z_][\w.-]*)(?:\*(-?[0-9]*\.?[0-9]+(?:e[-+]?\d+)?))?(?::([0-6]))?\}/g;

/** The placeholders of a text: [{ raw, name, scale, digits (null: the default), index }]. */
export function placeholders(text) {
  const out = [];
  for (const m of String(text).matchAll(PLACEHOLDER)) {
    out.push({ raw: m[0], name: m[1], scale: m[2] === undefined ? 1 : Number(m[2]), digits: m[3] === undefined ? null : Number(m[3]), index: m.index });
  }
  return out;
}

/** The decimals a quantity is shown with unless the placeholder says: by its name's unit. */
export function defaultDigits(name) {
  const base = name.replace(/^(at\.[a-z]+\.|last_cavity\.)/, '');
  if (/^(step|contacts|cavities)$/.test(base)) return 0;
  if (/(^t$|_t$|\.t$|_s$)/.test(base)) return 3;
  if (/_cm3$/.test(base)) return 3;
  if (/_kPa$/.test(base)) return 1;
  if (/_K$/.test(base)) return 1;
  if (/^probe\./.test(base)) return 3;
  return 2;   // mJ, cm², N
}

/** A value as shown: fixed decimals, '—' when there is none; −0.00 is 0.00. */
export function formatValue(v, digits) {
  if (typeof v !== 'number' || !Number.isFinite(v)) return '—';
  const s = v.toFixed(digits);
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}

/**
 * The text cut into pieces: strings, and for each placeholder { name, value (scaled; null when
 * not measured), shown (the text shown), digits }. values: name -> number.
 */
export function fillText(text, values) {
  const out = [];
  let at = 0;
  text = String(text);
  for (const p of placeholders(text)) {
    if (p.index > at) out.push(text.slice(at, p.index));
    const raw = values ? values[p.name] : undefined;
    const value = typeof raw === 'number' && Number.isFinite(raw) ? raw * p.scale : null;
    const digits = p.digits ?? defaultDigits(p.name);
    out.push({ name: p.name, value, shown: formatValue(value, digits), digits, scale: p.scale });
    at = p.index + p.raw.length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

/** The text with its placeholders filled, as one string. */
export function fillString(text, values) {
  return fillText(text, values).map(x => (typeof x === 'string' ? x : x.shown)).join('');
}

/**
 * A number prediction judged: { within, error (relative), answer } — within when
 * |guess − answer| <= tolerance · |answer| (an answer of 0: |guess| <= tolerance).
 */
export function judgeNumber(guess, answer, tolerance) {
  if (!Number.isFinite(guess) || !Number.isFinite(answer)) return { within: false, error: NaN, answer };
  const scale = Math.abs(answer) > 0 ? Math.abs(answer) : 1;
  const error = (guess - answer) / scale;
  return { within: Math.abs(error) <= tolerance + 1e-12, error, answer };
}
