import test from 'node:test';
import assert from 'node:assert/strict';
import { RENDER_MODES, isSoftwareRenderer, parseRenderMode, renderSettings, shouldDraw } from '../src/render_quality.js';

test('software renderers are recognized by their WebGL names', () => {
  for (const name of [
    'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)',
    'Google SwiftShader',
    'llvmpipe (LLVM 15.0.6, 256 bits)',
    'Mesa softpipe',
    'ANGLE (Microsoft, Microsoft Basic Render Driver Direct3D11 vs_5_0 ps_5_0)',
  ]) assert.equal(isSoftwareRenderer(name), true, name);
  for (const name of [
    'ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 Direct3D11 vs_5_0 ps_5_0, D3D11)',
    'Apple M2', 'Mesa Intel(R) UHD Graphics 620 (KBL GT2)', 'AMD Radeon Pro 5500M OpenGL Engine',
    'WebKit WebGL', '', undefined, null, 42,
  ]) assert.equal(isSoftwareRenderer(name), false, String(name));
});

test('the render parameter: the three modes, anything else is auto with an error', () => {
  assert.deepEqual(RENDER_MODES, ['auto', 'full', 'fast']);
  assert.deepEqual(parseRenderMode(null), { mode: 'auto' });
  assert.deepEqual(parseRenderMode(''), { mode: 'auto' });
  assert.deepEqual(parseRenderMode('full'), { mode: 'full' });
  assert.deepEqual(parseRenderMode(' FAST '), { mode: 'fast' });
  const bad = parseRenderMode('ultra');
  assert.equal(bad.mode, 'auto');
  assert.match(bad.error, /\?render=ultra: expected one of auto, full, fast/);
});

test('auto draws fast exactly on a software renderer; full and fast are what they say', () => {
  const soft = renderSettings('auto', true, 1);
  assert.deepEqual(soft, { quality: 'fast', antialias: false, pixelRatio: 0.5, reason: 'auto: software renderer' });
  const hard = renderSettings('auto', false, 1);
  assert.deepEqual(hard, { quality: 'full', antialias: true, pixelRatio: 1, reason: 'auto: hardware renderer' });
  assert.equal(renderSettings('full', true, 1).quality, 'full');
  assert.equal(renderSettings('full', true, 1).antialias, true);
  assert.equal(renderSettings('fast', false, 1).quality, 'fast');
  assert.equal(renderSettings('fast', false, 1).reason, '?render=fast');
});

test('pixel ratio: the display\'s, at most 2, halved when fast; a missing ratio counts as 1', () => {
  assert.equal(renderSettings('full', false, 3).pixelRatio, 2);
  assert.equal(renderSettings('fast', false, 3).pixelRatio, 1);
  assert.equal(renderSettings('full', false, 1.5).pixelRatio, 1.5);
  assert.equal(renderSettings('fast', false, 1.5).pixelRatio, 0.75);
  assert.equal(renderSettings('full', false, undefined).pixelRatio, 1);
  assert.equal(renderSettings('fast', false, 0).pixelRatio, 0.5);
});

test('the loop draws on a change, or after a second without one', () => {
  assert.equal(shouldDraw(true, 100, 99), true);
  assert.equal(shouldDraw(false, 100, 99), false);
  assert.equal(shouldDraw(false, 1098, 100), false);
  assert.equal(shouldDraw(false, 1100, 100), true);
  assert.equal(shouldDraw(false, 0, -Infinity), true);       // the first frame
  assert.equal(shouldDraw(false, 500, 100, 300), true);      // a shorter limit
  assert.equal(shouldDraw(false, NaN, 100), true);           // no clock: draw
});
