import test from 'node:test';
import assert from 'node:assert/strict';
import { pressureColor, positionsChecksum, fmt } from '../src/physics.js';

// The area, the seal's normal and the holding force are the core's (tests/cavity/test_cavity.cpp).

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
