// What the page tells the user in its banner, by level (pure; web/test/notices.test.mjs):
//   error    something failed: a scene that did not load, a step that diverged (red)
//   warning  the simulator's warnings of a step: a failed mesh union, the watchdog's tunnelling,
//            deep contact, a body that left the scene (amber). One line per kind of warning,
//            with the step it first came at and how many steps repeated it: a warning of every
//            step would otherwise bury the rest
//   info     what the page did: a live change, a restart (blue); only the latest is kept
// The banner takes the colour of its most serious line.

export const LEVELS = Object.freeze(['error', 'warning', 'info']);

/** A warning's kind: its text without the step it came at and without its numbers, so that
 *  "step 12 (t = 0.24 s): ... penetrates 883 mm" and the same at step 13 with 812 mm are one. */
export function warningKind(text) {
  return String(text).replace(/^\s*step \d+ \(t = [^)]*\):\s*/, '')
    .replace(/[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?/gi, '#');
}

export class Notices {
  constructor() { this.items = []; }

  /** Adds a line; returns false when it only counted a repeat of a warning already shown. */
  add(level, where, text) {
    if (!LEVELS.includes(level)) throw new Error(`unknown notice level '${level}'`);
    text = String(text);
    if (level === 'warning') {
      const kind = warningKind(text);
      const seen = this.items.find(x => x.level === 'warning' && x.kind === kind);
      if (seen) { seen.count++; return false; }
      this.items.push({ level, where, text, kind, count: 1 });
      return true;
    }
    if (level === 'info') this.items = this.items.filter(x => x.level !== 'info');
    this.items.push({ level, where, text, count: 1 });
    return true;
  }

  /** Forgets every line, or those of one level. */
  clear(level = null) { this.items = level ? this.items.filter(x => x.level !== level) : []; }

  /** The most serious level present, or null when there is nothing to say. */
  level() { return LEVELS.find(l => this.items.some(x => x.level === l)) || null; }

  count(level) { return this.items.filter(x => x.level === level).length; }

  /** The banner's lines, most serious first, in the order they came within a level. */
  lines() {
    const label = { error: 'error', warning: 'warning', info: 'note' };
    const out = [];
    for (const l of LEVELS) {
      for (const x of this.items.filter(i => i.level === l)) {
        const more = x.count > 1 ? ` (and ${x.count - 1} more step${x.count > 2 ? 's' : ''} with the same warning)` : '';
        out.push(`${label[l]}: ${x.where ? x.where + ': ' : ''}${x.text}${more}`);
      }
    }
    return out;
  }
}
