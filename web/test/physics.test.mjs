import test from 'node:test';
import assert from 'node:assert/strict';
import { seamNormal, projectedArea, meshVolume, holdingForce, pressureColor, positionsChecksum, fmt } from '../src/physics.js';

// unit cube [0,1]^3, outward triangles
const cubeP = new Float32Array([0,0,0, 1,0,0, 0,1,0, 1,1,0, 0,0,1, 1,0,1, 0,1,1, 1,1,1]);
const cubeI = new Uint32Array([0,2,3, 0,3,1, 4,5,7, 4,7,6, 0,1,5, 0,5,4, 2,6,7, 2,7,3, 0,4,6, 0,6,2, 1,3,7, 1,7,5]);

function ring(n, r, z, tilt = 0) {
  const out = [];
  for (let k = 0; k < n; ++k) {
    const a0 = 2 * Math.PI * k / n, a1 = 2 * Math.PI * (k + 1) / n;
    for (const a of [a0, a1]) { const x = r * Math.cos(a), y = r * Math.sin(a); out.push(x, y * Math.cos(tilt), z + y * Math.sin(tilt)); }
  }
  return new Float32Array(out);
}

test('projected area of a unit cube along the axes and a diagonal', () => {
  assert.ok(Math.abs(projectedArea(cubeP, cubeI, [0, 0, 1]) - 1) < 1e-6);
  assert.ok(Math.abs(projectedArea(cubeP, cubeI, [1, 0, 0]) - 1) < 1e-6);
  const d = 1 / Math.sqrt(3);
  assert.ok(Math.abs(projectedArea(cubeP, cubeI, [d, d, d]) - Math.sqrt(3)) < 1e-5);
  assert.equal(projectedArea(null, null), 0);
});

test('mesh volume of the unit cube', () => {
  assert.ok(Math.abs(meshVolume(cubeP, cubeI) - 1) < 1e-6);
});

test('seam normal of a ring, either orientation, tilted', () => {
  const n = seamNormal(ring(32, 0.01, 0.002));
  assert.ok(Math.abs(n[2] - 1) < 1e-6 && Math.abs(n[0]) < 1e-6);
  const fwd = ring(32, 0.01, 0), rev = new Float32Array(fwd.length);  // reversed ring: same normal (oriented up)
  for (let k = 0, m = fwd.length / 6; k < m; ++k) { rev.set(fwd.subarray(6 * k + 3, 6 * k + 6), 6 * (m - 1 - k)); rev.set(fwd.subarray(6 * k, 6 * k + 3), 6 * (m - 1 - k) + 3); }
  assert.ok(Math.abs(seamNormal(rev)[2] - 1) < 1e-6);
  const t = seamNormal(ring(32, 0.01, 0, Math.PI / 6));
  assert.ok(Math.abs(t[2] - Math.cos(Math.PI / 6)) < 1e-5 && Math.abs(Math.abs(t[1]) - Math.sin(Math.PI / 6)) < 1e-5);
  assert.equal(seamNormal(new Float32Array(6)), null);
  assert.equal(seamNormal(null), null);
});

test('holding force and the paper-sized example', () => {
  // 35 mm cup: A = pi (17.5 mm)^2 = 9.62 cm^2; 20 kPa below ambient: about 19 N
  const A = Math.PI * 0.0175 ** 2;
  assert.ok(Math.abs(holdingForce(101325, 81325, A) - 20000 * A) < 1e-9);
  assert.ok(holdingForce(101325, 111325, A) < 0);
});

test('pressure colours: blue below, white at, red above ambient', () => {
  assert.deepEqual(pressureColor(101325, 101325), [1, 1, 1]);
  const lo = pressureColor(60000, 101325), hi = pressureColor(140000, 101325);
  assert.ok(lo[2] > lo[0] && lo[2] === 1);
  assert.ok(hi[0] > hi[2] && hi[0] === 1);
  for (const c of [...lo, ...hi]) assert.ok(c >= 0 && c <= 1);
});

test('checksum changes with any position', () => {
  const a = new Float32Array([1, 2, 3, 4]), b = new Float32Array([1, 2, 3, 4.001]);
  assert.notEqual(positionsChecksum([a]), positionsChecksum([b]));
  assert.equal(positionsChecksum([a]), positionsChecksum([new Float32Array(a)]));
});

test('fmt', () => {
  assert.equal(fmt(0), '0');
  assert.equal(fmt(12.345), '12.3');
  assert.equal(fmt(1e-6), '1.00e-6');
});
