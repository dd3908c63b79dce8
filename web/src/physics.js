// Small pure helpers shared by the worker and the page (unit-tested in web/test/physics.test.mjs).
// Presentation only: every physical quantity the page shows (pressures, volumes, the holding
// force (P_atm - P)*A and its area) comes from the core through the wasm module.

/**
 * Colour of a cavity by its pressure: blue below ambient, white at ambient, red above.
 * `span` is the pressure difference (Pa) that gives the full colour. Returns [r, g, b] in 0..1.
 */
export function pressureColor(pressure, pAtm, span = 20000) {
  const x = Math.max(-1, Math.min(1, (pressure - pAtm) / span));
  if (x < 0) return [1 + x, 1 + 0.6 * x, 1];           // towards (0, 0.4, 1)
  return [1, 1 - 0.8 * x, 1 - 0.8 * x];                 // towards (1, 0.2, 0.2)
}

/** An order-dependent checksum of float arrays: changes when any position changes. */
export function positionsChecksum(arrays) {
  let s = 0, w = 1;
  for (const a of arrays) {
    if (!a) continue;
    for (let i = 0; i < a.length; ++i) { s += a[i] * w; w = w === 7 ? 1 : w + 1; }
  }
  return s;
}

/** Formats a number with SI-ish precision for the panels. */
export function fmt(x, digits = 3) {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1e5 || a < 1e-3) return x.toExponential(digits - 1);
  return x.toPrecision(digits);
}
