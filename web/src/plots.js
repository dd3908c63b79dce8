// The live plots (uPlot, lib/uplot): cavity pressure, volume and air and the forces against
// time, four charts with one time axis, like Fig. 4 of Bernardin et al. 2023. The samples live
// in a ring buffer (src/plot_data.js: the newest CAPACITY steps, memory flat). The charts share
// the cursor (the legends read the values under it) and the zoom: drag across a chart to zoom in
// on that time span, double-click to see it all again. CSV: the plotted series over the span
// shown; PNG: the four charts as one picture.
import uPlot from 'uplot';
import { RingBuffer, PANELS, COLORS, columnsOf, csvOf, visibleRange, withPrevious } from './plot_data.js';
const SYNC_KEY = 'suction-plots';
const MIN_REDRAW_MS = 100;   // the charts redraw at most 10 times a second while data comes in

/** Legend text of a value: 4 decimals for the time, 4 significant digits (at least 3 decimals) else. */
function legendValue(v, digits) {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  return digits !== undefined ? v.toFixed(digits) : Math.abs(v) >= 1e4 || (v !== 0 && Math.abs(v) < 1e-3) ? v.toExponential(4) : v.toFixed(3);
}

function download(name, href) {
  const a = document.createElement('a');
  a.href = href; a.download = name;
  document.body.appendChild(a); a.click(); a.remove();
}

export class Plots {
  /** container: the element the charts go into; capacity: samples kept (steps). */
  constructor(container, { capacity = 6000 } = {}) {
    this.container = container;
    this.samples = new RingBuffer(capacity);
    this.pAtm = 101325;
    this.duration = 1;
    this.scene = 'suction';
    this.charts = [];          // [{ panel, u, series: [column index in cols.series] }]
    this.key = null;           // which series the charts have (cavity ids, driver)
    this.cols = null;          // the columns drawn last
    this.zoomed = false;       // a time span chosen by dragging (kept while data comes in)
    this.dirty = true;
    this.lastDrawn = -Infinity;
    this.syncing = false;
    this.previous = null;      // a kept earlier run's columns (compare), drawn faded beside this one
    window.addEventListener('resize', () => this.resize());
  }

  /** A new scene (or reset): no samples, the whole time span. */
  clear({ pAtm, duration, scene } = {}) {
    this.samples.clear();
    if (pAtm !== undefined) this.pAtm = pAtm;
    if (duration !== undefined) this.duration = duration || 1;
    if (scene !== undefined) this.scene = scene;
    this.zoomed = false;
    this.dirty = true;
  }

  /** Compare: keeps this run's curves, drawn faded on every chart beside the next runs' until
   *  cleared (a new scene clears them); null when there is nothing to keep. */
  keepAsPrevious() {
    const own = columnsOf(this.samples.toArray(), { pAtm: this.pAtm });
    if (!own.t.length) return null;
    this.previous = { t: own.t.slice(), ids: own.ids.slice(), series: own.series.map(s => ({ ...s, values: s.values.slice() })) };
    this.key = null; this.dirty = true;
    return this.previous;
  }

  clearPrevious() { this.previous = null; this.key = null; this.dirty = true; }

  push(samples) { for (const s of samples) this.samples.push(s); if (samples.length) this.dirty = true; }

  /** Redraws the charts if there is something new (at most every MIN_REDRAW_MS unless forced). */
  update(now = performance.now(), force = false) {
    if (!this.dirty || (!force && now - this.lastDrawn < MIN_REDRAW_MS)) return false;
    this.dirty = false; this.lastDrawn = now;
    const all = this.samples.toArray();
    const cols = withPrevious(columnsOf(all, { pAtm: this.pAtm }), this.previous);
    const key = `${cols.ids.join(',')}|${cols.series.map(s => s.label).join(',')}`;
    if (key !== this.key) this.build(cols, key);
    this.cols = cols;
    const t = cols.t;
    let min, max;
    if (this.zoomed && this.charts.length) ({ min, max } = this.charts[0].u.scales.x);
    else { min = Math.min(0, t.length ? t[0] : 0); max = Math.max(this.duration, t.length ? t[t.length - 1] : 0) || 1; }
    for (const c of this.charts) {
      c.u.batch(() => {
        c.u.setData([t, ...c.series.map(i => cols.series[i].values)], false);
        c.u.setScale('x', { min, max });
      });
    }
    return true;
  }

  build(cols, key) {
    for (const c of this.charts) c.u.destroy();
    this.container.innerHTML = '';
    this.charts = [];
    this.key = key;
    const width = Math.max(200, this.container.clientWidth || 420);
    for (const panel of PANELS) {
      const idx = cols.series.map((s, i) => (s.panel === panel.key ? i : -1)).filter(i => i >= 0);
      if (panel.optional && !idx.length) continue;
      const el = document.createElement('div');
      el.className = 'plot'; el.id = `plot-${panel.key}`; el.title = panel.title;
      this.container.appendChild(el);
      let k = 0;
      const colorOf = new Map();
      const series = [{ label: 't [s]', value: (u, v) => legendValue(v, 4) },
        ...idx.map(i => {
          const s = cols.series[i];
          const base = s.label.replace(/ \(previous\)$/, '');
          const color = base === 'P_atm' ? '#888' : base === 'holding force' ? '#000' : base === 'driver z force' ? '#e07000'
            : s.previous ? (colorOf.get(`${panel.key}|${base}`) || '#999') : COLORS[k++ % COLORS.length];
          colorOf.set(`${panel.key}|${base}`, color);
          // an earlier run (compare): the same colour, faded and thin, its line joined across
          // this run's sample times
          return { label: `${s.label} [${s.unit}]`, stroke: s.previous ? `${color}66` : color, width: s.previous ? 1 : 1.5,
                   spanGaps: !!s.previous, dash: base === 'P_atm' ? [4, 3] : s.previous ? [3, 2] : undefined,
                   value: (u, v) => legendValue(v) };
        })];
      const u = new uPlot({
        width, height: 120,
        cursor: { y: false, sync: { key: SYNC_KEY }, drag: { x: true, y: false, setScale: true } },
        scales: { x: { time: false } },
        legend: { live: true },
        axes: [{ size: 28, values: (u, vals) => vals.map(v => `${+v.toPrecision(4)}`) },
               { size: 56, label: `${panel.axis} (${panel.unit})`, labelSize: 14, labelFont: '11px system-ui, sans-serif',
                 values: (u, vals) => vals.map(v => `${+v.toPrecision(4)}`) }],
        series,
        hooks: { setSelect: [(u) => { if (u.select.width > 0) this.zoomed = true; }] },
      }, [cols.t, ...idx.map(i => cols.series[i].values)], el);
      // double-click: uPlot shows the data's span again (every chart: the cursor is synced); we
      // go back to the whole scene's span
      u.over.addEventListener('dblclick', () => { this.zoomed = false; this.dirty = true; queueMicrotask(() => this.update(performance.now(), true)); });
      this.charts.push({ panel, u, series: idx });
    }
  }

  resize() {
    const width = Math.max(200, this.container.clientWidth || 420);
    for (const c of this.charts) if (c.u.width !== width) c.u.setSize({ width, height: c.u.height });
  }

  /** The time under the cursor of any chart (they are synced), or null when it is over none. */
  cursorTime() {
    for (const c of this.charts) {
      const i = c.u.cursor.idx;
      if (i !== null && i !== undefined && c.u.cursor.left >= 0 && c.u.data[0].length > i) return c.u.data[0][i];
    }
    return null;
  }

  /** The time span shown: [min, max] of the x scale (null before the first drawing). */
  span() {
    const x = this.charts.length ? this.charts[0].u.scales.x : null;
    return x && x.min !== undefined && x.min !== null ? [x.min, x.max] : [null, null];
  }

  /** The CSV of what is shown: every plotted series over the span shown (src/plot_data.js csvOf). */
  csv() {
    this.update(performance.now(), true);
    const cols = this.cols || columnsOf(this.samples.toArray(), { pAtm: this.pAtm });
    const [min, max] = this.span();
    return csvOf(cols, min, max);
  }

  exportCSV() {
    const url = URL.createObjectURL(new Blob([this.csv()], { type: 'text/csv' }));
    download(`${this.scene}_plots.csv`, url);
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }

  /** The four charts (their canvases) with their legends' labels, one under the other, as a PNG. */
  png() {
    this.update(performance.now(), true);
    const dpr = window.devicePixelRatio || 1, line = Math.round(16 * dpr);
    const canvases = this.charts.map(c => c.u.ctx.canvas);
    const w = Math.max(1, ...canvases.map(c => c.width));
    const h = canvases.reduce((a, c) => a + c.height + line, 0);
    const out = document.createElement('canvas');
    out.width = w; out.height = Math.max(1, h);
    const ctx = out.getContext('2d');
    ctx.fillStyle = '#fff'; ctx.fillRect(0, 0, out.width, out.height);
    ctx.font = `${Math.round(11 * dpr)}px system-ui, sans-serif`;
    let y = 0;
    this.charts.forEach((c, i) => {
      let x = 4 * dpr;
      for (const s of c.u.series.slice(1)) {
        ctx.fillStyle = s._stroke || s.stroke || '#000';
        const text = s.label;
        ctx.fillRect(x, y + line / 2 - 3 * dpr, 10 * dpr, 6 * dpr);
        ctx.fillStyle = '#222'; ctx.fillText(text, x + 14 * dpr, y + line - 4 * dpr);
        x += ctx.measureText(text).width + 26 * dpr;
      }
      y += line;
      ctx.drawImage(canvases[i], 0, y);
      y += canvases[i].height;
    });
    return out.toDataURL('image/png');
  }

  exportPNG() { download(`${this.scene}_plots.png`, this.png()); }

  /** Read-only facts for src/debug.js: sample count, span, zoom, the cursor, the pressure chart's plotting area. */
  info() {
    const [min, max] = this.span();
    const p = this.charts.find(c => c.panel.key === 'pressure');
    let area = null, cursor = null;
    if (p) {
      const r = p.u.over.getBoundingClientRect();
      area = { left: r.left, top: r.top, width: r.width, height: r.height };
      const i = p.u.cursor.idx;
      if (i !== null && i !== undefined && p.u.data[0].length > i) cursor = { idx: i, t: p.u.data[0][i] };
    }
    const [i0, i1] = this.cols ? visibleRange(this.cols.t, min, max) : [0, 0];
    return { samples: this.samples.length, capacity: this.samples.capacity, xMin: min, xMax: max, zoomed: this.zoomed,
             previous: this.previous ? this.previous.t.length : 0,
             shown: i1 - i0, series: this.cols ? this.cols.series.map(s => `${s.label} [${s.unit}]`) : [], pressureArea: area, cursor };
  }
}
