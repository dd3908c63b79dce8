// Small pure helpers shared by the worker and the page (unit-tested in web/test/physics.test.mjs).

/**
 * Unit normal of the sealing ring: the vector area of the closed seam polyline (6 floats per
 * segment, p0 p1), i.e. 1/2 sum (a - c) x (b - c) over the segments with c their centroid.
 * Returns null when there is no seam or it is degenerate.
 */
export function seamNormal(seam) {
  if (!seam || seam.length < 18) return null;
  const m = Math.floor(seam.length / 6);
  let cx = 0, cy = 0, cz = 0;
  for (let s = 0; s < m; ++s) { cx += seam[6 * s]; cy += seam[6 * s + 1]; cz += seam[6 * s + 2]; }
  cx /= m; cy /= m; cz /= m;
  let nx = 0, ny = 0, nz = 0;
  for (let s = 0; s < m; ++s) {
    const ax = seam[6 * s] - cx, ay = seam[6 * s + 1] - cy, az = seam[6 * s + 2] - cz;
    const bx = seam[6 * s + 3] - cx, by = seam[6 * s + 4] - cy, bz = seam[6 * s + 5] - cz;
    nx += ay * bz - az * by; ny += az * bx - ax * bz; nz += ax * by - ay * bx;
  }
  const len = Math.hypot(nx, ny, nz);
  if (!(len > 0)) return null;
  // orient "up" (towards +z, the default up of the scenes) so the sign is stable
  const sgn = (nz < 0 || (nz === 0 && (ny < 0 || (ny === 0 && nx < 0)))) ? -1 : 1;
  return [sgn * nx / len, sgn * ny / len, sgn * nz / len];
}

/**
 * Projected area of a closed triangle mesh along the unit direction n: the area of its shadow,
 * 1/2 sum |n . a_t| over its triangles (a_t the vector area of triangle t). For the cavity of
 * a suction cup, with n the normal of the sealing ring, this is the area the pressure
 * difference acts on: the holding force is (P_atm - P) * A.
 */
export function projectedArea(positions, indices, n = [0, 0, 1]) {
  if (!positions || !indices || indices.length < 3) return 0;
  let sum = 0;
  const [ux, uy, uz] = n;
  for (let t = 0; t + 2 < indices.length; t += 3) {
    const i = 3 * indices[t], j = 3 * indices[t + 1], k = 3 * indices[t + 2];
    const ax = positions[j] - positions[i], ay = positions[j + 1] - positions[i + 1], az = positions[j + 2] - positions[i + 2];
    const bx = positions[k] - positions[i], by = positions[k + 1] - positions[i + 1], bz = positions[k + 2] - positions[i + 2];
    const cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
    sum += Math.abs(ux * cx + uy * cy + uz * cz);
  }
  return 0.25 * sum; // 1/2 (shadow counted twice) * 1/2 (triangle = half the cross product)
}

/** Volume of a closed triangle mesh (divergence theorem; positive for outward-facing triangles). */
export function meshVolume(positions, indices) {
  let v = 0;
  for (let t = 0; t + 2 < indices.length; t += 3) {
    const i = 3 * indices[t], j = 3 * indices[t + 1], k = 3 * indices[t + 2];
    v += positions[i] * (positions[j + 1] * positions[k + 2] - positions[j + 2] * positions[k + 1])
       - positions[i + 1] * (positions[j] * positions[k + 2] - positions[j + 2] * positions[k])
       + positions[i + 2] * (positions[j] * positions[k + 1] - positions[j + 1] * positions[k]);
  }
  return v / 6;
}

/** Holding force (N) of one cavity: (P_atm - P) * A, positive when the cup is pressed on. */
export function holdingForce(pAtm, pressure, area) {
  return (pAtm - pressure) * area;
}

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
