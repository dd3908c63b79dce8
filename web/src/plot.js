// Ring buffer of plot samples and a canvas-2D strip chart (pressure, volume, air per cavity and
// the holding force against time, like Fig. 4 of Bernardin et al. 2023). No library.
// RingBuffer and seriesOf are pure (web/test/plot.test.mjs); drawPlot needs a 2D context.

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

/**
 * The plotted series of a list of samples: { t: [...], cavities: Map id -> {t, p, V, N},
 * force: [...], hand: [...] }. Samples: { t, pAtm, force, hand, cavities: [{id, pressure,
 * volume, air, dormant}] }; dormant cavities are skipped (they break the line).
 */
export function seriesOf(samples) {
  const t = [], force = [], hand = [];
  const cavities = new Map();
  for (const s of samples) {
    t.push(s.t); force.push(s.force ?? 0); hand.push(s.hand ?? NaN);
    for (const c of s.cavities || []) {
      if (c.dormant) continue;
      let e = cavities.get(c.id);
      if (!e) { e = { t: [], p: [], V: [], N: [] }; cavities.set(c.id, e); }
      e.t.push(s.t); e.p.push(c.pressure); e.V.push(c.volume); e.N.push(c.air);
    }
  }
  return { t, force, hand, cavities };
}

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf'];

function niceRange(values, extra = []) {
  let lo = Infinity, hi = -Infinity;
  for (const arr of values) for (const v of arr) if (Number.isFinite(v)) { if (v < lo) lo = v; if (v > hi) hi = v; }
  for (const v of extra) if (Number.isFinite(v)) { if (v < lo) lo = v; if (v > hi) hi = v; }
  if (!Number.isFinite(lo)) { lo = 0; hi = 1; }
  if (hi - lo < 1e-12 * Math.max(1, Math.abs(hi))) { const d = Math.abs(hi) * 0.05 || 1; lo -= d; hi += d; }
  const pad = 0.06 * (hi - lo);
  return [lo - pad, hi + pad];
}

function label(x) {
  const a = Math.abs(x);
  if (a !== 0 && (a >= 1e4 || a < 1e-2)) return x.toExponential(1);
  return (+x.toPrecision(3)).toString();
}

/**
 * Draws the four panels into ctx (w x h CSS pixels). opts: { pAtm, tMin, tMax }.
 * Panels: pressure (kPa, dashed line at ambient), volume (cm^3), air N (mJ), force (N: the
 * holding force (P_atm - P)*A summed over cavities, and the driver's force when there is one).
 */
export function drawPlot(ctx, w, h, samples, opts = {}) {
  const s = seriesOf(samples);
  const pAtm = opts.pAtm ?? 101325;
  ctx.save();
  ctx.clearRect(0, 0, w, h);
  ctx.fillStyle = '#fff'; ctx.fillRect(0, 0, w, h);
  ctx.font = '11px sans-serif';
  const tMin = opts.tMin ?? (s.t.length ? s.t[0] : 0);
  const tMax = opts.tMax ?? (s.t.length ? Math.max(s.t[s.t.length - 1], tMin + 1e-9) : 1);
  const ids = [...s.cavities.keys()];
  const panels = [
    { title: 'cavity pressure P (kPa)', lines: ids.map((id, k) => ({ t: s.cavities.get(id).t, y: s.cavities.get(id).p.map(v => v / 1e3), color: COLORS[k % COLORS.length], name: `#${id}` })), ref: pAtm / 1e3, refName: 'P_atm' },
    { title: 'cavity volume V (cm³)', lines: ids.map((id, k) => ({ t: s.cavities.get(id).t, y: s.cavities.get(id).V.map(v => v * 1e6), color: COLORS[k % COLORS.length] })) },
    { title: 'air N = P·V (mJ)', lines: ids.map((id, k) => ({ t: s.cavities.get(id).t, y: s.cavities.get(id).N.map(v => v * 1e3), color: COLORS[k % COLORS.length] })) },
    { title: 'force (N): holding (P_atm−P)·A, driver', lines: [
      { t: s.t, y: s.force, color: '#000', name: 'holding' },
      ...(s.hand.some(Number.isFinite) ? [{ t: s.t, y: s.hand, color: '#e07000', name: 'driver z' }] : [])] },
  ];
  const left = 52, right = 8, top = 4, gap = 6;
  const ph = (h - top - 16 - gap * (panels.length - 1)) / panels.length;
  panels.forEach((p, i) => {
    const y0 = top + i * (ph + gap);
    const [lo, hi] = niceRange(p.lines.map(l => l.y), p.ref !== undefined && p.lines.length ? [p.ref] : []);
    const X = t => left + (w - left - right) * (t - tMin) / (tMax - tMin);
    const Y = v => y0 + ph - ph * (v - lo) / (hi - lo);
    ctx.strokeStyle = '#ccc'; ctx.lineWidth = 1; ctx.strokeRect(left, y0, w - left - right, ph);
    ctx.fillStyle = '#444';
    ctx.fillText(p.title, left + 4, y0 + 12);
    ctx.fillText(label(hi), 2, y0 + 10); ctx.fillText(label(lo), 2, y0 + ph - 2);
    if (p.ref !== undefined && p.lines.length) {
      ctx.setLineDash([4, 3]); ctx.strokeStyle = '#888';
      ctx.beginPath(); ctx.moveTo(left, Y(p.ref)); ctx.lineTo(w - right, Y(p.ref)); ctx.stroke();
      ctx.setLineDash([]); ctx.fillText(p.refName, w - right - 40, Y(p.ref) - 2);
    }
    for (const l of p.lines) {
      ctx.strokeStyle = l.color; ctx.lineWidth = 1.5; ctx.beginPath();
      let pen = false, tPrev = -Infinity;
      for (let k = 0; k < l.t.length; ++k) {
        const v = l.y[k];
        // break the line at gaps (a cavity that vanished and came back)
        if (!Number.isFinite(v) || l.t[k] - tPrev > 0.1 * (tMax - tMin)) pen = false;
        if (Number.isFinite(v)) { if (pen) ctx.lineTo(X(l.t[k]), Y(v)); else { ctx.moveTo(X(l.t[k]), Y(v)); pen = true; } }
        tPrev = l.t[k];
      }
      ctx.stroke();
    }
    if (!p.lines.length || p.lines.every(l => l.t.length === 0)) { ctx.fillStyle = '#999'; ctx.fillText('no cavity', left + (w - left) / 2 - 20, y0 + ph / 2); }
  });
  ctx.fillStyle = '#444';
  ctx.fillText(`t = ${label(tMin)} s`, left, h - 3);
  ctx.fillText(`${label(tMax)} s`, w - right - 40, h - 3);
  ctx.restore();
}
