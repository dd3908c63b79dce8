// How the page draws the 3D view (docs/web.md, "Drawing on a software renderer").
//   full  antialiased, at the display's pixel ratio (at most 2)
//   fast  no antialiasing, half the pixels per side
//   auto  (the default) fast where WebGL runs on a software renderer (SwiftShader, llvmpipe:
//         a machine or browser without a usable GPU), full otherwise.
// On a software renderer every drawn frame is rasterized on the CPU the simulation needs: on
// the 2-core machine, headless Chromium's SwiftShader took a whole core at 5 frames per second
// and the simulation ran 1.4 to 1.6 times slower than with nothing drawn.
// Chosen by the URL: ?render=auto|full|fast.  Pure functions, tested under node
// (web/test/render_quality.test.mjs).

export const RENDER_MODES = Object.freeze(['auto', 'full', 'fast']);

const SOFTWARE_RENDERERS = /swiftshader|llvmpipe|softpipe|software rasterizer|microsoft basic render/i;

/// Whether a WebGL renderer string (UNMASKED_RENDERER_WEBGL, or RENDERER) names a renderer
/// that runs on the CPU.
export function isSoftwareRenderer(name) {
  return typeof name === 'string' && SOFTWARE_RENDERERS.test(name);
}

/// The `render` URL parameter: { mode } or, for a value that is not a mode, { mode: 'auto',
/// error } (the page shows the error and goes on with auto).
export function parseRenderMode(value) {
  if (value === null || value === undefined || value === '') return { mode: 'auto' };
  const v = String(value).trim().toLowerCase();
  if (RENDER_MODES.includes(v)) return { mode: v };
  return { mode: 'auto', error: `?render=${value}: expected one of ${RENDER_MODES.join(', ')}; using auto` };
}

/// What a mode means on this machine: { quality: 'full' | 'fast', antialias, pixelRatio,
/// reason } (reason: a short text for the page's panel).
export function renderSettings(mode, software, devicePixelRatio) {
  const dpr = Math.min(2, Number(devicePixelRatio) > 0 ? Number(devicePixelRatio) : 1);
  const quality = mode === 'full' || mode === 'fast' ? mode : (software ? 'fast' : 'full');
  const reason = mode === 'auto'
    ? (software ? 'auto: software renderer' : 'auto: hardware renderer')
    : `?render=${mode}`;
  return quality === 'fast'
    ? { quality, antialias: false, pixelRatio: dpr / 2, reason }
    : { quality, antialias: true, pixelRatio: dpr, reason };
}

/// Whether the render loop draws this animation frame: something changed (a new state from
/// the worker, the camera, the canvas size, the user's input: `dirty`), or `maxIdleMs` passed
/// since the last drawing (a safety net for a change nothing reported).
export function shouldDraw(dirty, now, lastDrawn, maxIdleMs = 1000) {
  return dirty || !(now - lastDrawn < maxIdleMs);
}
