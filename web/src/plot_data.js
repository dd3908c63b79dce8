// The plots' data, without the drawing (pure; web/test/plot.test.mjs): the ring buffer of the
// worker's per-step samples, the columns the plots draw (src/plots.js, uPlot) and their CSV.
// A sample: { t, step, pAtm, contacts, handContacts, force, hand, cavities: [{ id, pressure, volume, air, temperature, dormant }] }.

/** A bounded FIFO: the newest `capacity` items, oldest first (the plots' memory stays flat). */
export class RingBuffer {
  constructor(capacity) {
    this.capacity = Math.max(1, capacity | 0);
    this.items = new Array(this.capacity);
    this.start = 0;
    this.length = 0;
  }
  push(x) {
    if (this.length < this.capacity) this.items[(this.start + this.length++) % this.capacity] = x;
    else { this.items[this.start] = x; this.start = (this.start + 1) % this.capacity; }
  }
  clear() { this.start = 0; this.length = 0; this.items = new Array(this.capacity); }
  get(i) { return this.items[(this.start + i) % this.capacity]; }
  last() { return this.length ? this.get(this.length - 1) : undefined; }
  toArray() { const a = new Array(this.length); for (let i = 0; i < this.length; ++i) a[i] = this.get(i); return a; }
  /** The samples with t >= tMin (the buffer is in time order). */
  since(tMin) {
    const out = [];
    for (let i = 0; i < this.length; ++i) { const s = this.get(i); if (s.t >= tMin) out.push(s); }
    return out;
  }
}

/** One colour per cavity id (sorted), the same in the time plots and the P–V diagram. */
export const COLORS = Object.freeze(['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf']);

/** Every cavity id active (not dormant) in some sample, sorted. */
export function activeIds(samples) {
  const seen = new Set();
  for (const s of samples) for (const c of s.cavities || []) if (!c.dormant) seen.add(c.id);
  return [...seen].sort((a, b) => a - b);
}

/** The four plots: what each shows and its unit (the series' values are in that unit). */
export const PANELS = Object.freeze([
  { key: 'pressure', title: 'cavity pressure P', axis: 'P', unit: 'kPa' },
  { key: 'volume', title: 'cavity volume V', axis: 'V', unit: 'cm³' },
  { key: 'air', title: 'air N = P·V', axis: 'N = P·V', unit: 'mJ' },
  { key: 'force', title: 'force: holding (P_atm − P)·A, driver z', axis: 'force', unit: 'N' },
  // only when the air's temperature moves (settings.cavity.gas other than isothermal)
  { key: 'temperature', title: 'air temperature T', axis: 'T', unit: 'K', optional: true },
]);

const num = (v) => (Number.isFinite(v) ? v : null);
/** A number as the CSV gives it: 12 significant digits (no 1.1000000000000003). */
export const round12 = (v) => (v === null || v === undefined || !Number.isFinite(v) ? null : +v.toPrecision(12));

/**
 * The plotted columns of `samples` (in time order): { t: [s], series: [{ panel, label, unit,
 * values }] } with one value per sample, null where a series has none (a dormant or absent
 * cavity: the line breaks). Per cavity id (`ids`, sorted; default: every id in the samples):
 * P [kPa], V [cm³], N [mJ]; then P_atm [kPa] (the pressure plot's reference), the holding force
 * (P_atm − P)·A summed over the cavities [N], and the first driver's reaction along z [N] when
 * there is one; T [K] per cavity when some cavity's temperature differs from another's or
 * changes (a gas law other than isothermal: docs/method.md §6.8).
 */
export function columnsOf(samples, { pAtm = null, ids = null } = {}) {
  const n = samples.length;
  const t = new Array(n);
  if (!ids) ids = activeIds(samples);
  const col = new Map(ids.map(id => [id, { p: new Array(n).fill(null), V: new Array(n).fill(null), N: new Array(n).fill(null),
                                             T: new Array(n).fill(null) }]));
  let tMin = Infinity, tMax = -Infinity;
  const atm = new Array(n), force = new Array(n), hand = new Array(n);
  let anyHand = false;
  for (let i = 0; i < n; ++i) {
    const s = samples[i];
    t[i] = s.t;
    atm[i] = num((s.pAtm ?? pAtm ?? NaN) / 1e3);
    force[i] = num(s.force ?? 0);
    hand[i] = num(s.hand ?? NaN);
    if (hand[i] !== null) anyHand = true;
    for (const c of s.cavities || []) {
      const e = !c.dormant && col.get(c.id);
      if (!e) continue;
      e.p[i] = num(c.pressure / 1e3); e.V[i] = num(c.volume * 1e6); e.N[i] = num(c.air * 1e3);
      if (Number.isFinite(c.temperature)) {
        e.T[i] = c.temperature;
        tMin = Math.min(tMin, c.temperature); tMax = Math.max(tMax, c.temperature);
      }
    }
  }
  const series = [];
  for (const id of ids) series.push({ panel: 'pressure', label: `P #${id}`, unit: 'kPa', values: col.get(id).p });
  series.push({ panel: 'pressure', label: 'P_atm', unit: 'kPa', values: atm });
  for (const id of ids) series.push({ panel: 'volume', label: `V #${id}`, unit: 'cm³', values: col.get(id).V });
  for (const id of ids) series.push({ panel: 'air', label: `N #${id}`, unit: 'mJ', values: col.get(id).N });
  series.push({ panel: 'force', label: 'holding force', unit: 'N', values: force });
  if (anyHand) series.push({ panel: 'force', label: 'driver z force', unit: 'N', values: hand });
  if (tMax > tMin) for (const id of ids) series.push({ panel: 'temperature', label: `T #${id}`, unit: 'K', values: col.get(id).T });
  return { t, ids, series };
}

/** The index range [i0, i1) of the sorted times t within [tMin, tMax] (all when those are null). */
export function visibleRange(t, tMin = null, tMax = null) {
  let i0 = 0, i1 = t.length;
  if (tMin !== null) while (i0 < i1 && t[i0] < tMin) ++i0;
  if (tMax !== null) while (i1 > i0 && t[i1 - 1] > tMax) --i1;
  return [i0, i1];
}

const csvField = (s) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

/**
 * The CSV of the columns between tMin and tMax (what the plots show): a header line
 * "t [s],P #0 [kPa],...", then one row per sample, the time first; an empty field where a series
 * has no value.
 */
export function csvOf(cols, tMin = null, tMax = null) {
  const lines = [['t [s]', ...cols.series.map(s => `${s.label} [${s.unit}]`)].map(csvField).join(',')];
  const [i0, i1] = visibleRange(cols.t, tMin, tMax);
  for (let i = i0; i < i1; ++i) {
    const row = [String(round12(cols.t[i]))];
    for (const s of cols.series) { const v = round12(s.values[i]); row.push(v === null ? '' : String(v)); }
    lines.push(row.join(','));
  }
  return lines.join('\n') + '\n';
}

/**
 * The columns of this run with a kept earlier run's beside them (the plots' "compare"): one time
 * axis, the union of both runs' sample times (to 1e-9 s), this run's series as they were and
 * each of the earlier run's with `previous: true` and its label + ' (previous)', null where a
 * run has no sample at a time (the earlier run's lines join across them: src/plots.js).
 */
export function withPrevious(cols, prev) {
  if (!prev || !prev.t || !prev.t.length) return cols;
  const a = cols.t, b = prev.t;
  const t = [], ia = [], ib = [];
  let i = 0, j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i] < b[j] - 1e-9)) { t.push(a[i]); ia.push(i++); ib.push(-1); }
    else if (i >= a.length || b[j] < a[i] - 1e-9) { t.push(b[j]); ia.push(-1); ib.push(j++); }
    else { t.push(a[i]); ia.push(i++); ib.push(j++); }
  }
  const pick = (values, idx) => idx.map(k => (k < 0 ? null : values[k]));
  const series = cols.series.map(s => ({ ...s, values: pick(s.values, ia) }));
  for (const s of prev.series) {
    if (s.label === 'P_atm') continue;   // the same line
    series.push({ ...s, label: `${s.label} (previous)`, previous: true, values: pick(s.values, ib) });
  }
  return { t, ids: cols.ids, series };
}
