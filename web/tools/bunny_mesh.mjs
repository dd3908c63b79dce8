#!/usr/bin/env node
// Coarse, smoothed, closed collision mesh of the Stanford bunny (scenes/meshes/bunny.obj).
//
//   node web/tools/bunny_mesh.mjs OUT.obj        (or: import { bunnyMeshObj } from ...)
//
// Source: the npm package `bunny` (v1.0.1, public domain; the Stanford 3D scanning repository's
// bunny, 1839 vertices / 3674 triangles, y up, in units of ~1.6 cm). The output is z up
// (data +y -> +z, a right-handed rotation about x), scaled to the scan's natural size (0.016 m
// per unit: ~0.155 m high, ~0.12 m deep, as the original bun_zipper.ply), its bounding box
// centred at x = y = 0 and its lowest point at z = 0, in metres.
//
// The package's triangles happen to be closed already (the scan's holes were filled), but they
// are irregular, noisy, and far from the triangle shapes a collision mesh wants; the route does
// not rely on them being closed or clean:
//   1. signed distance on a regular grid (h = 2.5 mm): exact distance to the triangles in a
//      band of a few cells, the sign by a majority vote of the ray-crossing parities along x, y
//      and z (robust to small holes and to rays through edges);
//   2. the field is read as a uniform cubic B-spline (C2; its control values are the grid's, so
//      it is also a light [1 4 1]/6 blur that removes the scan's noise);
//   3. its zero level set is extracted by marching tetrahedra (each cube in 6 tetrahedra around
//      a common diagonal: watertight, 2-manifold) and the largest component is kept;
//   4. isotropic remeshing (Botsch & Kobbelt) to a target edge length that depends on the
//      curvature and is finer on the back (below): split long edges, collapse short ones (link
//      condition, no folded or sliver triangle), flip edges towards valence 6 or better
//      angles, tangential relaxation, vertices projected back on the B-spline level set;
//   5. a few Taubin lambda/mu smoothing steps, interleaved with flips and relaxation.
// Everything uses only + - * / sqrt in a fixed order: the output is the same bytes everywhere.

import bunny from 'bunny';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';

const UNIT = 0.016;        // metres per unit of the package's coordinates
const H = 0.0025;          // grid spacing of the signed distance field [m]
const BAND = 4;            // exact distances within this many cells of the surface
// Target edge length of the remeshed surface: sqrt(8 * CHORD / kappa) for a chord error CHORD on
// a curvature kappa (the Frobenius norm of the field's Hessian, >= the largest principal
// curvature), between EDGE_MIN and EDGE_MAX: long edges on the body, short ones on the ears.
const EDGE_MAX = 0.008, EDGE_MIN = 0.004, CHORD = 0.0008; // [m]
// A finer patch on the back, where a suction cup (35 mm) seals: edges of EDGE_BACK within
// BACK_RADIUS of BACK_CENTRE (placed coordinates, metres: behind the ears, the highest part of
// the body), growing linearly to EDGE_MAX over BACK_RAMP. There the facets deviate from the
// smooth surface by ~EDGE_BACK^2 / (8 R) = 0.05 mm on the back (R ~ 35 mm across the body,
// ~48 mm along it), and adjacent facets meet at ~3 degrees (at most ~8).
const EDGE_BACK = 0.004, BACK_CENTRE = [0.018, -0.012, 0.100], BACK_RADIUS = 0.03, BACK_RAMP = 0.02;

// ---------------------------------------------------------------------------------- vectors
const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a, b) => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a, s) => [a[0] * s, a[1] * s, a[2] * s];
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = a => Math.sqrt(dot(a, a));
const dist2 = (a, b) => { const x = a[0] - b[0], y = a[1] - b[1], z = a[2] - b[2]; return x * x + y * y + z * z; };

/** Squared distance from p to triangle abc (Ericson, Real-Time Collision Detection 5.1.5). */
function pointTriDist2(p, a, b, c) {
  const ab = sub(b, a), ac = sub(c, a), ap = sub(p, a);
  const d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return dist2(p, a);
  const bp = sub(p, b), d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return dist2(p, b);
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) { const v = d1 / (d1 - d3); return dist2(p, add(a, scale(ab, v))); }
  const cp = sub(p, c), d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return dist2(p, c);
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) { const w = d2 / (d2 - d6); return dist2(p, add(a, scale(ac, w))); }
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return dist2(p, add(b, scale(sub(c, b), w)));
  }
  const den = 1 / (va + vb + vc), v = vb * den, w = vc * den;
  return dist2(p, add(a, add(scale(ab, v), scale(ac, w))));
}

// ---------------------------------------------------------------------------- input surface
function loadBunny() {
  // data (x, y, z), y up  ->  (x, -z, y), z up: a rotation of +90 degrees about x.
  const P = bunny.positions.map(([x, y, z]) => [x * UNIT, -z * UNIT, y * UNIT]);
  const T = bunny.cells.map(c => [c[0], c[1], c[2]]);
  return { P, T };
}

// ---------------------------------------------------------------------- signed distance grid
function signedDistanceGrid(P, T) {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const p of P) for (let k = 0; k < 3; ++k) { lo[k] = Math.min(lo[k], p[k]); hi[k] = Math.max(hi[k], p[k]); }
  const margin = (BAND + 3) * H;
  const n = [0, 0, 0], o = [0, 0, 0];
  for (let k = 0; k < 3; ++k) {
    n[k] = Math.ceil((hi[k] - lo[k] + 2 * margin) / H) + 1;
    o[k] = (lo[k] + hi[k]) / 2 - (n[k] - 1) * H / 2;
  }
  const [nx, ny, nz] = n;
  const N = nx * ny * nz;
  const id = (i, j, k) => i + nx * (j + ny * k);
  const node = (i, j, k) => [o[0] + i * H, o[1] + j * H, o[2] + k * H];

  // Inside votes: crossing parity of rays along each axis (the grid's lines).
  const votes = new Uint8Array(N);
  for (let ax = 0; ax < 3; ++ax) {
    const u = (ax + 1) % 3, v = (ax + 2) % 3;          // the ray's cross-section coordinates
    const nu = n[u], nv = n[v], na = n[ax];
    const hits = Array.from({ length: nu * nv }, () => []);
    for (const [ia, ib, ic] of T) {
      const a = P[ia], b = P[ib], c = P[ic];
      const u0 = Math.ceil((Math.min(a[u], b[u], c[u]) - o[u]) / H), u1 = Math.floor((Math.max(a[u], b[u], c[u]) - o[u]) / H);
      const v0 = Math.ceil((Math.min(a[v], b[v], c[v]) - o[v]) / H), v1 = Math.floor((Math.max(a[v], b[v], c[v]) - o[v]) / H);
      const det = (b[u] - a[u]) * (c[v] - a[v]) - (c[u] - a[u]) * (b[v] - a[v]);
      if (det === 0) continue;
      for (let jv = v0; jv <= v1; ++jv) for (let ju = u0; ju <= u1; ++ju) {
        const pu = o[u] + ju * H, pv = o[v] + jv * H;
        // barycentric coordinates of the ray's foot in the triangle's projection
        const s = ((pu - a[u]) * (c[v] - a[v]) - (c[u] - a[u]) * (pv - a[v])) / det;
        const t = ((b[u] - a[u]) * (pv - a[v]) - (pu - a[u]) * (b[v] - a[v])) / det;
        if (s < 0 || t < 0 || s + t > 1) continue;
        hits[ju + nu * jv].push(a[ax] + s * (b[ax] - a[ax]) + t * (c[ax] - a[ax]));
      }
    }
    const ijk = [0, 0, 0];
    for (let jv = 0; jv < nv; ++jv) for (let ju = 0; ju < nu; ++ju) {
      const h = hits[ju + nu * jv];
      if (h.length === 0) continue;
      h.sort((x, y) => x - y);
      let m = 0;
      for (let ka = 0; ka < na; ++ka) {
        const pa = o[ax] + ka * H;
        while (m < h.length && h[m] < pa) ++m;
        if (m % 2 === 1) { ijk[ax] = ka; ijk[u] = ju; ijk[v] = jv; votes[id(ijk[0], ijk[1], ijk[2])]++; }
      }
    }
  }

  // Unsigned distance within the band, exact (each triangle rasterised into its box + band).
  const far = BAND * H;
  const d2 = new Float64Array(N).fill(far * far);
  for (const [ia, ib, ic] of T) {
    const a = P[ia], b = P[ib], c = P[ic];
    const r0 = [], r1 = [];
    for (let k = 0; k < 3; ++k) {
      r0.push(Math.max(0, Math.ceil((Math.min(a[k], b[k], c[k]) - far - o[k]) / H)));
      r1.push(Math.min(n[k] - 1, Math.floor((Math.max(a[k], b[k], c[k]) + far - o[k]) / H)));
    }
    for (let k = r0[2]; k <= r1[2]; ++k) for (let j = r0[1]; j <= r1[1]; ++j) for (let i = r0[0]; i <= r1[0]; ++i) {
      const q = id(i, j, k), e = pointTriDist2(node(i, j, k), a, b, c);
      if (e < d2[q]) d2[q] = e;
    }
  }
  const phi = new Float64Array(N);
  for (let q = 0; q < N; ++q) phi[q] = votes[q] >= 2 ? -Math.sqrt(d2[q]) : Math.sqrt(d2[q]);
  // the placement of the scan itself (its box centred in x, y, lowest point at z = 0), close to
  // the output's (which is measured on the smoothed surface): locates the back patch
  const place = [-(lo[0] + hi[0]) / 2, -(lo[1] + hi[1]) / 2, -lo[2]];
  return { n, o, phi, place };
}

// ------------------------------------------------------------- cubic B-spline field (C2)
function bspline(t) { // weights and derivative weights of the 4 control points at offset t in [0,1)
  const t2 = t * t, t3 = t2 * t, s = 1 - t;
  return {
    w: [s * s * s / 6, (3 * t3 - 6 * t2 + 4) / 6, (-3 * t3 + 3 * t2 + 3 * t + 1) / 6, t3 / 6],
    d: [-s * s / 2, (3 * t2 - 4 * t) / 2, (-3 * t2 + 2 * t + 1) / 2, t2 / 2],
    dd: [s, 3 * t - 2, 1 - 3 * t, t],
  };
}

function makeField({ n, o, phi, place }) {
  const [nx, ny, nz] = n;
  const at = (i, j, k) => phi[Math.min(nx - 1, Math.max(0, i)) + nx * (Math.min(ny - 1, Math.max(0, j)) + ny * Math.min(nz - 1, Math.max(0, k)))];
  /** value and gradient at p */
  function evalField(p) {
    const g = [0, 0, 0], b = [];
    for (let k = 0; k < 3; ++k) {
      const x = (p[k] - o[k]) / H, i = Math.floor(x);
      g[k] = i; b.push(bspline(x - i));
    }
    let f = 0, fx = 0, fy = 0, fz = 0;
    for (let c = 0; c < 4; ++c) for (let bb = 0; bb < 4; ++bb) for (let a = 0; a < 4; ++a) {
      const v = at(g[0] + a - 1, g[1] + bb - 1, g[2] + c - 1);
      const wx = b[0].w[a], wy = b[1].w[bb], wz = b[2].w[c];
      f += v * wx * wy * wz;
      fx += v * b[0].d[a] * wy * wz;
      fy += v * wx * b[1].d[bb] * wz;
      fz += v * wx * wy * b[2].d[c];
    }
    return { f, g: [fx / H, fy / H, fz / H] };
  }
  /** target edge length at p, from the curvature bound |Hessian|_F */
  function edgeLength(p) {
    const g = [0, 0, 0], b = [];
    for (let k = 0; k < 3; ++k) {
      const x = (p[k] - o[k]) / H, i = Math.floor(x);
      g[k] = i; b.push(bspline(x - i));
    }
    let xx = 0, yy = 0, zz = 0, xy = 0, xz = 0, yz = 0;
    for (let c = 0; c < 4; ++c) for (let bb = 0; bb < 4; ++bb) for (let a = 0; a < 4; ++a) {
      const v = at(g[0] + a - 1, g[1] + bb - 1, g[2] + c - 1);
      const X = b[0], Y = b[1], Z = b[2];
      xx += v * X.dd[a] * Y.w[bb] * Z.w[c];
      yy += v * X.w[a] * Y.dd[bb] * Z.w[c];
      zz += v * X.w[a] * Y.w[bb] * Z.dd[c];
      xy += v * X.d[a] * Y.d[bb] * Z.w[c];
      xz += v * X.d[a] * Y.w[bb] * Z.d[c];
      yz += v * X.w[a] * Y.d[bb] * Z.d[c];
    }
    const kappa = Math.sqrt(xx * xx + yy * yy + zz * zz + 2 * (xy * xy + xz * xz + yz * yz)) / (H * H);
    const l = Math.min(EDGE_MAX, Math.max(EDGE_MIN, Math.sqrt(8 * CHORD / Math.max(kappa, 1e-9))));
    const r = norm(sub(add(p, place), BACK_CENTRE));
    const back = r <= BACK_RADIUS ? EDGE_BACK : EDGE_BACK + (EDGE_MAX - EDGE_BACK) * Math.min(1, (r - BACK_RADIUS) / BACK_RAMP);
    return Math.min(l, back);
  }
  /** the B-spline at the grid's nodes: phi blurred by [1 4 1]/6 along each axis */
  function nodeValues() {
    const out = new Float64Array(phi.length);
    const w = [1 / 6, 4 / 6, 1 / 6];
    for (let k = 0; k < nz; ++k) for (let j = 0; j < ny; ++j) for (let i = 0; i < nx; ++i) {
      let s = 0;
      for (let c = 0; c < 3; ++c) for (let bb = 0; bb < 3; ++bb) for (let a = 0; a < 3; ++a)
        s += w[a] * w[bb] * w[c] * at(i + a - 1, j + bb - 1, k + c - 1);
      out[i + nx * (j + ny * k)] = s;
    }
    return out;
  }
  /** Newton steps along the gradient onto the zero level set */
  function project(p) {
    let q = p;
    for (let it = 0; it < 6; ++it) {
      const { f, g } = evalField(q);
      const gg = dot(g, g);
      if (gg < 1e-12) break;
      q = sub(q, scale(g, f / gg));
      if (Math.abs(f) < 1e-9) break;
    }
    return q;
  }
  return { evalField, nodeValues, project, edgeLength };
}

// -------------------------------------------------------------------- marching tetrahedra
// Cube corners: bit 0 = x, bit 1 = y, bit 2 = z. Six tetrahedra around the diagonal 0-7 (Kuhn):
// the same split in every cube, so neighbouring cubes' faces match (a conforming tet mesh).
const KUHN = [[0, 1, 3, 7], [0, 3, 2, 7], [0, 2, 6, 7], [0, 6, 4, 7], [0, 4, 5, 7], [0, 5, 1, 7]];

function marchingTets({ n, o, h }, val) {
  const [nx, ny, nz] = n;
  const V = [], F = [], edgeVert = new Map();
  const pos = q => { const i = q % nx, r = (q - i) / nx, j = r % ny, k = (r - j) / ny; return [o[0] + i * h, o[1] + j * h, o[2] + k * h]; };
  const vertOn = (a, b) => { // a inside (val < 0), b outside
    const key = a < b ? a * nx * ny * nz + b : b * nx * ny * nz + a;
    let v = edgeVert.get(key);
    if (v === undefined) {
      const t = val[a] / (val[a] - val[b]);
      const pa = pos(a), pb = pos(b);
      v = V.length; V.push(add(pa, scale(sub(pb, pa), t))); edgeVert.set(key, v);
    }
    return v;
  };
  // oriented so that the normal (b - a) x (c - a) points to the outside (val > 0)
  const emit = (a, b, c, inside) => {
    const pa = V[a], pb = V[b], pc = V[c];
    const nrm = cross(sub(pb, pa), sub(pc, pa));
    if (dot(nrm, sub(pos(inside.out), pos(inside.in))) < 0) F.push([a, c, b]); else F.push([a, b, c]);
  };
  const corner = new Array(8);
  for (let k = 0; k + 1 < nz; ++k) for (let j = 0; j + 1 < ny; ++j) for (let i = 0; i + 1 < nx; ++i) {
    let anyIn = false, anyOut = false;
    for (let c = 0; c < 8; ++c) {
      const q = (i + (c & 1)) + nx * ((j + ((c >> 1) & 1)) + ny * (k + ((c >> 2) & 1)));
      corner[c] = q; if (val[q] < 0) anyIn = true; else anyOut = true;
    }
    if (!anyIn || !anyOut) continue;
    for (const tet of KUHN) {
      const q = tet.map(c => corner[c]);
      const ins = q.filter(x => val[x] < 0), outs = q.filter(x => val[x] >= 0);
      if (ins.length === 0 || outs.length === 0) continue;
      if (ins.length === 1 || ins.length === 3) {
        const lone = ins.length === 1 ? ins[0] : outs[0], others = ins.length === 1 ? outs : ins;
        const vs = others.map(x => (ins.length === 1 ? vertOn(lone, x) : vertOn(x, lone)));
        emit(vs[0], vs[1], vs[2], ins.length === 1 ? { in: lone, out: others[0] } : { in: others[0], out: lone });
      } else {
        const [a, b] = ins, [c, d] = outs;
        const v0 = vertOn(a, c), v1 = vertOn(a, d), v2 = vertOn(b, d), v3 = vertOn(b, c); // a quad, in cyclic order
        // split along the shorter diagonal
        if (dist2(V[v0], V[v2]) <= dist2(V[v1], V[v3])) {
          emit(v0, v1, v2, { in: a, out: d }); emit(v0, v2, v3, { in: b, out: c });
        } else {
          emit(v0, v1, v3, { in: a, out: c }); emit(v1, v2, v3, { in: b, out: d });
        }
      }
    }
  }
  return { V, F };
}

// ------------------------------------------------------------------------- mesh utilities
/** faces incident to each vertex */
function vertexFaces(nv, F) {
  const vf = Array.from({ length: nv }, () => []);
  F.forEach((f, fi) => { for (const v of f) vf[v].push(fi); });
  return vf;
}

/** directed edge "a,b" -> face index */
function directedEdges(F) {
  const m = new Map();
  F.forEach((f, fi) => { for (let e = 0; e < 3; ++e) m.set(f[e] * 4194304 + f[(e + 1) % 3], fi); });
  return m;
}
const dkey = (a, b) => a * 4194304 + b;

/** keep the largest connected component (by faces); drop unused vertices */
function largestComponent(V, F) {
  const vf = vertexFaces(V.length, F);
  const comp = new Int32Array(F.length).fill(-1);
  let best = -1, bestSize = 0, nc = 0;
  for (let s = 0; s < F.length; ++s) {
    if (comp[s] >= 0) continue;
    const stack = [s]; comp[s] = nc; let size = 0;
    while (stack.length) {
      const f = stack.pop(); ++size;
      for (const v of F[f]) for (const g of vf[v]) if (comp[g] < 0) { comp[g] = nc; stack.push(g); }
    }
    if (size > bestSize) { bestSize = size; best = nc; }
    ++nc;
  }
  return compact(V, F.filter((_, i) => comp[i] === best));
}

function compact(V, F) {
  const map = new Int32Array(V.length).fill(-1), V2 = [];
  const F2 = F.map(f => f.map(v => { if (map[v] < 0) { map[v] = V2.length; V2.push(V[v]); } return map[v]; }));
  return { V: V2, F: F2 };
}

const faceNormal = (V, f) => cross(sub(V[f[1]], V[f[0]]), sub(V[f[2]], V[f[0]]));

function vertexNormals(V, F) {
  const N = V.map(() => [0, 0, 0]);
  for (const f of F) { const nf = faceNormal(V, f); for (const v of f) { N[v][0] += nf[0]; N[v][1] += nf[1]; N[v][2] += nf[2]; } }
  return N.map(nv => { const l = norm(nv); return l > 0 ? scale(nv, 1 / l) : [0, 0, 1]; });
}

/** neighbours of every vertex, in a fixed order (by index) */
function neighbours(nv, F) {
  const nb = Array.from({ length: nv }, () => new Set());
  for (const [a, b, c] of F) { nb[a].add(b); nb[a].add(c); nb[b].add(a); nb[b].add(c); nb[c].add(a); nb[c].add(b); }
  return nb.map(s => [...s].sort((x, y) => x - y));
}

// ---------------------------------------------------------------------- isotropic remeshing
// Faces are kept in an array with `null` for removed ones; each pass works on adjacency built
// at its start and skips any edge whose faces were already changed in that pass.

const mid = (a, b) => scale(add(a, b), 0.5);
/** squared length of a-b over its squared target length */
const rel2 = (field, a, b) => { const t = field.edgeLength(mid(a, b)); return dist2(a, b) / (t * t); };

function splitLongEdges(M, field) {
  let changed = 0;
  for (;;) {
    const { V, F } = M, de = directedEdges(F), touched = new Uint8Array(F.length);
    const cand = [];
    F.forEach((f, fi) => {
      for (let e = 0; e < 3; ++e) {
        const a = f[e], b = f[(e + 1) % 3];
        if (a < b) { const l = rel2(field, V[a], V[b]); if (l > 16 / 9) cand.push([l, a, b, fi]); }
      }
    });
    if (cand.length === 0) return changed;
    cand.sort((x, y) => y[0] - x[0] || x[1] - y[1] || x[2] - y[2]);
    for (const [, a, b, f1] of cand) {
      const f2 = de.get(dkey(b, a));
      if (touched[f1] || touched[f2]) continue;
      const c = F[f1].find(x => x !== a && x !== b), d = F[f2].find(x => x !== a && x !== b);
      const m = V.length;
      V.push(field.project(scale(add(V[a], V[b]), 0.5)));
      F[f1] = [a, m, c]; F.push([m, b, c]);
      F[f2] = [b, m, d]; F.push([m, a, d]);
      touched[f1] = touched[f2] = 1; ++changed;
    }
  }
}

function collapseShortEdges(M, field) {
  let total = 0;
  for (;;) {
    const { V, F } = M;
    const vf = vertexFaces(V.length, F), de = directedEdges(F);
    const nb = neighbours(V.length, F);
    const touchedV = new Uint8Array(V.length), dead = new Uint8Array(F.length);
    const cand = [];
    F.forEach((f, fi) => {
      for (let e = 0; e < 3; ++e) {
        const a = f[e], b = f[(e + 1) % 3];
        if (a < b) { const l = rel2(field, V[a], V[b]); if (l < 16 / 25) cand.push([l, a, b, fi]); }
      }
    });
    let changed = 0;
    cand.sort((x, y) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2]);
    for (const [, a, b, f1] of cand) {
      if (touchedV[a] || touchedV[b]) continue;
      const f2 = de.get(dkey(b, a));
      const c = F[f1].find(x => x !== a && x !== b), d = F[f2].find(x => x !== a && x !== b);
      // link condition: the common neighbours of a and b are exactly c and d
      const common = nb[a].filter(x => nb[b].includes(x));
      if (common.length !== 2) continue;
      if (nb[c].length <= 3 || nb[d].length <= 3) continue;
      if (nb[a].length + nb[b].length - 4 < 3) continue;
      let touchedRing = false;
      for (const x of nb[a]) if (touchedV[x]) touchedRing = true;
      for (const x of nb[b]) if (touchedV[x]) touchedRing = true;
      if (touchedRing) continue;
      const p = field.project(scale(add(V[a], V[b]), 0.5));
      // no new edge too long, no face flipped or degenerate
      let ok = true;
      for (const x of nb[a]) if (ok && x !== b && rel2(field, p, V[x]) > 16 / 9) ok = false;
      for (const x of nb[b]) if (ok && x !== a && rel2(field, p, V[x]) > 16 / 9) ok = false;
      if (!ok) continue;
      for (const fi of [...vf[a], ...vf[b]]) {
        if (fi === f1 || fi === f2) continue;
        const f = F[fi], g = f.map(x => (x === a || x === b ? -1 : x));
        const n0 = faceNormal(V, f);
        const pts = g.map(x => (x < 0 ? p : V[x]));
        const n1 = cross(sub(pts[1], pts[0]), sub(pts[2], pts[0]));
        const l0 = norm(n0), l1 = norm(n1);
        if (l1 <= 0 || dot(n0, n1) < 0.5 * l0 * l1) { ok = false; break; }
        // the new triangle should not be much worse than a sliver
        if (minAngleSin(pts) < 0.17) { ok = false; break; }
      }
      if (!ok) continue;
      V[b] = p;
      for (const fi of vf[a]) {
        if (fi === f1 || fi === f2) continue;
        F[fi] = F[fi].map(x => (x === a ? b : x));
      }
      dead[f1] = dead[f2] = 1;
      for (const x of nb[a]) touchedV[x] = 1;
      for (const x of nb[b]) touchedV[x] = 1;
      touchedV[a] = touchedV[b] = 1;
      ++changed;
    }
    if (changed === 0) return total;
    total += changed;
    const C = compact(V, F.filter((_, i) => !dead[i]));
    M.V = C.V; M.F = C.F;
  }
}

function minAngleSin(p) {
  let m = Infinity;
  for (let e = 0; e < 3; ++e) {
    const a = p[e], b = p[(e + 1) % 3], c = p[(e + 2) % 3];
    const u = sub(b, a), v = sub(c, a);
    const s = norm(cross(u, v)) / (norm(u) * norm(v));
    const cs = dot(u, v);
    m = Math.min(m, cs < 0 ? 1 : s); // an obtuse angle is never the smallest
  }
  return m;
}

function flipEdges(M) {
  let total = 0;
  for (let pass = 0; pass < 10; ++pass) {
    const { V, F } = M, de = directedEdges(F), nb = neighbours(V.length, F);
    const val = nb.map(x => x.length);
    const touched = new Uint8Array(F.length);
    let changed = 0;
    for (let f1 = 0; f1 < F.length; ++f1) for (let e = 0; e < 3; ++e) {
      if (touched[f1]) break;
      const a = F[f1][e], b = F[f1][(e + 1) % 3];
      if (a > b) continue;
      const f2 = de.get(dkey(b, a));
      if (touched[f2]) continue;
      const c = F[f1][(e + 2) % 3], d = F[f2].find(x => x !== a && x !== b);
      if (nb[c].includes(d) || val[a] <= 3 || val[b] <= 3) continue;
      const dev = (x, t) => (x - t) * (x - t);
      const before = dev(val[a], 6) + dev(val[b], 6) + dev(val[c], 6) + dev(val[d], 6);
      const after = dev(val[a] - 1, 6) + dev(val[b] - 1, 6) + dev(val[c] + 1, 6) + dev(val[d] + 1, 6);
      // flip for valence, or for a much better smallest angle (Delaunay-like)
      const nf1 = [a, d, c], nf2 = [d, b, c];
      const qOld = Math.min(minAngleSin(F[f1].map(x => V[x])), minAngleSin(F[f2].map(x => V[x])));
      const qNew = Math.min(minAngleSin(nf1.map(x => V[x])), minAngleSin(nf2.map(x => V[x])));
      const byValence = after < before && qNew > 0.5 * qOld;
      const byShape = after <= before + 2 && qNew > 1.5 * qOld;
      if (!byValence && !byShape) continue;
      // the new faces must keep the surface's orientation and not fold
      const n0 = add(faceNormal(V, F[f1]), faceNormal(V, F[f2]));
      const n1 = faceNormal(V, nf1), n2 = faceNormal(V, nf2);
      if (dot(n0, n1) <= 0 || dot(n0, n2) <= 0 || dot(n1, n2) < 0.5 * norm(n1) * norm(n2)) continue;
      F[f1] = nf1; F[f2] = nf2;
      touched[f1] = touched[f2] = 1;
      --val[a]; --val[b]; ++val[c]; ++val[d];
      nb[a] = nb[a].filter(x => x !== b); nb[b] = nb[b].filter(x => x !== a); nb[c].push(d); nb[d].push(c);
      ++changed;
      break;
    }
    total += changed;
    if (changed === 0) break;
  }
  return total;
}

/** move each vertex towards the area-weighted centroid of its ring, in the tangent plane, then project */
function relax(M, field, steps = 1) {
  for (let s = 0; s < steps; ++s) {
    const { V, F } = M, N = vertexNormals(V, F);
    const acc = V.map(() => [0, 0, 0]), w = new Float64Array(V.length);
    for (const f of F) {
      const pa = V[f[0]], pb = V[f[1]], pc = V[f[2]];
      const area = norm(faceNormal(V, f));
      const cen = scale(add(pa, add(pb, pc)), 1 / 3);
      for (const v of f) { acc[v][0] += area * cen[0]; acc[v][1] += area * cen[1]; acc[v][2] += area * cen[2]; w[v] += area; }
    }
    M.V = V.map((p, i) => {
      const d = sub(scale(acc[i], 1 / w[i]), p), n = N[i];
      return field.project(add(p, sub(d, scale(n, dot(d, n)))));
    });
  }
}

/** Taubin lambda/mu smoothing with uniform (umbrella) weights */
function taubin(M, steps, lambda = 0.5, mu = -0.53) {
  const nb = neighbours(M.V.length, M.F);
  for (let s = 0; s < 2 * steps; ++s) {
    const f = s % 2 === 0 ? lambda : mu, V = M.V;
    M.V = V.map((p, i) => {
      let c = [0, 0, 0];
      for (const x of nb[i]) c = add(c, V[x]);
      return add(p, scale(sub(scale(c, 1 / nb[i].length), p), f));
    });
  }
}

// ---------------------------------------------------------------------------------- driver
export function bunnyMesh() {
  const { P, T } = loadBunny();
  const grid = signedDistanceGrid(P, T);
  const field = makeField(grid);
  const val = field.nodeValues();
  // keep the nodes off the level value: no vertex of the extraction on a grid node
  const eps = 1e-9;
  for (let q = 0; q < val.length; ++q) if (Math.abs(val[q]) < eps) val[q] = val[q] < 0 ? -eps : eps;
  // extract on every second node (5 mm): coarse enough to start the remeshing near its target
  const S = 2, nc = grid.n.map(x => Math.floor((x - 1) / S) + 1), coarse = new Float64Array(nc[0] * nc[1] * nc[2]);
  for (let k = 0; k < nc[2]; ++k) for (let j = 0; j < nc[1]; ++j) for (let i = 0; i < nc[0]; ++i)
    coarse[i + nc[0] * (j + nc[1] * k)] = val[S * i + grid.n[0] * (S * j + grid.n[1] * S * k)];
  const T0 = marchingTets({ n: nc, o: grid.o, h: S * H }, coarse);
  let M = largestComponent(T0.V, T0.F);

  for (let it = 0; it < 12; ++it) {
    splitLongEdges(M, field);
    collapseShortEdges(M, field);
    flipEdges(M);
    relax(M, field, 2);
  }
  taubin(M, 3);
  for (let it = 0; it < 2; ++it) { flipEdges(M); relax(M, field, 1); }
  taubin(M, 2);
  flipEdges(M);

  // place: bounding box centred at x = y = 0, lowest point at z = 0
  const lo3 = [Infinity, Infinity, Infinity], hi3 = [-Infinity, -Infinity, -Infinity];
  for (const p of M.V) for (let k = 0; k < 3; ++k) { lo3[k] = Math.min(lo3[k], p[k]); hi3[k] = Math.max(hi3[k], p[k]); }
  const shift = [-(lo3[0] + hi3[0]) / 2, -(lo3[1] + hi3[1]) / 2, -lo3[2]];
  // round once, so what is measured is what is written
  const r6 = x => { const s = x.toFixed(6); return s === '-0.000000' ? 0 : Number(s); };
  const V = M.V.map(p => [r6(p[0] + shift[0]), r6(p[1] + shift[1]), r6(p[2] + shift[2])]);
  return { V, F: M.F };
}

export function bunnyMeshObj() {
  const { V, F } = bunnyMesh();
  const out = [
    `# generated by web/tools/bunny_mesh.mjs from the npm package bunny (public domain, Stanford 3D scanning repository): ${V.length} vertices, ${F.length} triangles, metres, z up`,
  ];
  for (const p of V) out.push(`v ${p.map(x => x.toFixed(6)).join(' ')}`);
  for (const f of F) out.push(`f ${f[0] + 1} ${f[1] + 1} ${f[2] + 1}`);
  return out.join('\n') + '\n';
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outPath = process.argv[2];
  if (!outPath) { console.error('usage: node web/tools/bunny_mesh.mjs OUT.obj'); process.exit(2); }
  const t0 = Date.now();
  const text = bunnyMeshObj();
  writeFileSync(outPath, text);
  console.log(`${outPath}: ${text.split('\n')[0].slice(2)} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}
