// The P–V diagram beside the time plots (src/pv_data.js does the numbers): each cavity's state
// as a moving point with its track, the isotherm P·V = c through the point (dashed: for
// isothermal air c is the cavity's air N, so a point that leaves its curve has gained or lost
// air), and P_atm as a grey line. It follows the time plots' cursor: over a plot, the points
// show the state at the cursor's time; elsewhere the latest. Drawn on a plain canvas, at most
// as often as the time plots.
import { pvOf, isotherm, ticks } from './pv_data.js';
import { COLORS, activeIds } from './plot_data.js';

export class PvPlot {
  constructor(container, { height = 220 } = {}) {
    this.container = container;
    this.height = height;
    this.canvas = document.createElement('canvas');
    this.canvas.id = 'pv-canvas';
    this.canvas.setAttribute('role', 'img');
    this.container.appendChild(this.canvas);
    this.caption = document.createElement('p');
    this.caption.id = 'pv-caption';
    this.caption.className = 'pv-caption';
    this.container.appendChild(this.caption);
    this.last = null;
  }

  /** Redraws from the plots' samples (oldest first) at time t (null: the latest). */
  update(samples, { t = null } = {}) {
    const pv = pvOf(samples, { t });
    const order = activeIds(samples);
    this.last = pv;
    this.draw(pv, order);
    const text = pv.cavities.length
      ? pv.cavities.map(c => `#${c.id}: P ${c.point.P.toFixed(2)} kPa, V ${c.point.V.toFixed(3)} cm³, P·V ${c.c.toFixed(3)} mJ` +
                             (c.point.N !== null ? ` (air N ${c.point.N.toFixed(3)} mJ)` : '') +
                             (pv.t !== null && c.point.t < pv.t - 1e-9 ? `, last trapped at t = ${c.point.t.toFixed(3)} s` : '')).join('; ') +
        (pv.t !== null ? ` at t = ${pv.t.toFixed(3)} s` : '')
      : 'no trapped air yet: the diagram starts when a cavity seals';
    this.caption.textContent = text;
    this.canvas.setAttribute('aria-label', `P–V diagram: ${text}`);
  }

  draw(pv, order) {
    const dpr = (typeof window !== 'undefined' && window.devicePixelRatio) || 1;
    const width = Math.max(200, this.container.clientWidth || 420), height = this.height;
    const cv = this.canvas;
    if (cv.width !== Math.round(width * dpr) || cv.height !== Math.round(height * dpr)) {
      cv.width = Math.round(width * dpr); cv.height = Math.round(height * dpr);
      cv.style.width = `${width}px`; cv.style.height = `${height}px`;
    }
    const ctx = cv.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    ctx.fillStyle = '#fff'; ctx.fillRect(0, 0, width, height);
    const m = { left: 56, right: 10, top: 10, bottom: 34 };
    const w = width - m.left - m.right, h = height - m.top - m.bottom;
    const vMax = pv.range.vMax * 1.08;
    const pLo = Math.max(0, pv.range.pMin - 0.05 * (pv.range.pMax - pv.range.pMin + 1));
    const pHi = pv.range.pMax + 0.08 * (pv.range.pMax - pLo + 1);
    const X = (V) => m.left + (V / vMax) * w;
    const Y = (P) => m.top + (1 - (P - pLo) / (pHi - pLo)) * h;
    // axes and ticks
    ctx.strokeStyle = '#999'; ctx.lineWidth = 1; ctx.fillStyle = '#333';
    ctx.font = '11px system-ui, sans-serif';
    ctx.beginPath(); ctx.moveTo(m.left, m.top); ctx.lineTo(m.left, m.top + h); ctx.lineTo(m.left + w, m.top + h); ctx.stroke();
    ctx.textAlign = 'center'; ctx.textBaseline = 'top';
    for (const v of ticks(0, vMax, 5)) { ctx.fillText(`${+v.toPrecision(4)}`, X(v), m.top + h + 3); }
    ctx.fillText('V (cm³)', m.left + w / 2, m.top + h + 18);
    ctx.textAlign = 'right'; ctx.textBaseline = 'middle';
    for (const p of ticks(pLo, pHi, 4)) { ctx.fillText(`${+p.toPrecision(4)}`, m.left - 4, Y(p)); }
    ctx.save(); ctx.translate(12, m.top + h / 2); ctx.rotate(-Math.PI / 2); ctx.textAlign = 'center';
    ctx.fillText('P (kPa)', 0, 0); ctx.restore();
    // P_atm
    ctx.save(); ctx.beginPath(); ctx.rect(m.left, m.top, w, h); ctx.clip();
    ctx.setLineDash([4, 3]); ctx.strokeStyle = '#888';
    ctx.beginPath(); ctx.moveTo(m.left, Y(pv.pAtm)); ctx.lineTo(m.left + w, Y(pv.pAtm)); ctx.stroke();
    for (const c of pv.cavities) {
      const color = COLORS[Math.max(0, order.indexOf(c.id)) % COLORS.length];
      // the isotherm through the point
      const curve = isotherm(c.c, vMax, pHi);
      ctx.setLineDash([5, 4]); ctx.strokeStyle = color; ctx.globalAlpha = 0.55; ctx.lineWidth = 1;
      ctx.beginPath(); curve.forEach((q, i) => (i ? ctx.lineTo(X(q.V), Y(q.P)) : ctx.moveTo(X(q.V), Y(q.P)))); ctx.stroke();
      // the track
      ctx.setLineDash([]); ctx.globalAlpha = 0.8; ctx.lineWidth = 1.5;
      ctx.beginPath();
      let pen = false;
      for (const q of c.track) {
        if (!q) { pen = false; continue; }
        if (pen) ctx.lineTo(X(q.V), Y(q.P)); else { ctx.moveTo(X(q.V), Y(q.P)); pen = true; }
      }
      ctx.stroke();
      // the point
      ctx.globalAlpha = 1; ctx.fillStyle = color;
      ctx.beginPath(); ctx.arc(X(c.point.V), Y(c.point.P), 4.5, 0, 2 * Math.PI); ctx.fill();
    }
    ctx.restore();
  }

  /** Read-only facts for src/debug.js: the time shown and each cavity's point and isotherm constant. */
  info() {
    const pv = this.last;
    if (!pv) return { t: null, points: [] };
    return { t: pv.t, pAtm: pv.pAtm,
             points: pv.cavities.map(c => ({ id: c.id, t: c.point.t, V: c.point.V, P: c.point.P, N: c.point.N, c: c.c,
                                             track: c.track.filter(Boolean).length })) };
  }
}
