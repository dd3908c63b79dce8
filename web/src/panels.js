// The text panels: the clock and RTF readouts, "what is happening" (the phase, the forces in
// words) and the time per step of the core's stages. DOM only; main.js calls it per frame.
import { PHASE_TEXT } from './phase.js';
import { fmt } from './physics.js';

const $ = (id) => document.getElementById(id);

export function updatePanels(f, { phase, meta }) {
  $('clock').textContent = `t = ${f.time.toFixed(3)} s · step ${f.step}`;
  $('rtf').textContent = f.rtf === null ? 'RTF –' : `RTF ${fmt(f.rtf, 2)}×`;
  const ph = $('phase');
  ph.textContent = phase; ph.className = `phase ${phase}`;
  $('phase-text').textContent = PHASE_TEXT[phase];
  $('force-text').innerHTML = forceExplanation(f, meta);
  // timing
  const p = f.profile || {};
  const stages = [['free motion', 'freeMotionMs'], ['collision', 'collisionMs'], ['cavities', 'cavitiesMs'],
                  ['compliance', 'complianceMs'], ['solve', 'solveMs'], ['leak', 'leakMs'], ['correction', 'correctionMs']];
  const total = p.totalMs || stages.reduce((a, [, k]) => a + (p[k] || 0), 0);
  $('timing-total').textContent = `${fmt(total, 3)} ms total` + (p.iterations !== undefined ? ` · ${p.iterations} iterations · ${p.contacts ?? 0} contacts · ${p.constraints ?? 0} rows` : '');
  $('timing-table').innerHTML = stages.filter(([, k]) => p[k] !== undefined).map(([label, k]) =>
    `<tr><td>${label}</td><td style="text-align:right">${fmt(p[k], 3)} ms</td><td style="width:45%"><div class="bar" style="width:${total > 0 ? Math.min(100, 100 * p[k] / total) : 0}%"></div></td></tr>`).join('');
}

// a mass [kg] in words: "1.23 kg" or "456 g"
function weightText(kg) {
  return kg >= 1 ? `${fmt(kg, 3)} kg` : `${fmt(kg * 1e3, 3)} g`;
}

export function forceExplanation(f, meta) {
  const pAtm = meta.pAtm;
  const act = f.cavities.filter(c => !c.dormant);
  if (!act.length) return `No air is trapped: the pressure is the same on both sides of the cup (P<sub>atm</sub> = ${fmt(pAtm / 1e3, 4)} kPa), so the air holds nothing.`;
  const c = act.reduce((a, b) => (b.pressure < a.pressure ? b : a));
  const dp = pAtm - c.pressure;
  const total = act.reduce((a, b) => a + b.force, 0);
  const words = Math.abs(dp) < 1 ? 'the same as the atmosphere' : dp > 0 ? `${fmt(dp / 1e3, 3)} kPa <b>below</b> the atmosphere` : `${fmt(-dp / 1e3, 3)} kPa <b>above</b> the atmosphere`;
  return `The trapped air is at P = ${fmt(c.pressure / 1e3, 4)} kPa, ${words} (P<sub>atm</sub> − P = ${fmt(dp / 1e3, 3)} kPa). ` +
    `It acts on the area A = ${fmt(c.area * 1e4, 3)} cm² (the area it pulls the cup with: for a cup on a surface, the area inside the lip), ` +
    `so the air ${dp >= 0 ? 'presses the cup onto the surface' : 'pushes the cup away'} with (P<sub>atm</sub> − P)·A = ${fmt(Math.abs(total), 3)} N` +
    (dp >= 1 ? `, the weight of ${weightText(total / meta.gravity)}.` : '.') +
    (act.length > 1 ? ` (${act.length} cavities; the numbers are for the lowest pressure, the force is the sum.)` : '') +
    ` V = ${fmt(c.volume * 1e6, 3)} cm³, N = P·V = ${fmt(c.air * 1e3, 3)} mJ.`;
}

