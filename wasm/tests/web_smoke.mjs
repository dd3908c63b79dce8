#!/usr/bin/env node
// Browser smoke test of the page module (build/wasm): headless Chromium loads
// suction_wasm.js (-pthread + SIMD) inside a module Web Worker on a
// cross-origin-isolated page, loads scenes/default.json, steps, and reports back.
//   node wasm/tests/web_smoke.mjs [build/wasm/wasm]
// Needs /usr/bin/chromium and playwright-core (web/node_modules).  Not part of ctest (the
// browser is optional); the web front end's e2e test covers the page itself.
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const wasmDir = path.resolve(process.argv[2] || path.join(root, 'build', 'wasm', 'wasm'));
const require = createRequire(path.join(root, 'web', 'package.json'));
const { chromium } = require('playwright-core');

const files = {
  '/index.html': ['text/html', '<!doctype html><meta charset="utf-8"><title>smoke</title><script type="module">' +
    'const w = new Worker("./worker.js", {type: "module"});' +
    'w.onmessage = e => { window.result = e.data; }; w.onerror = e => { window.result = {error: String(e.message)}; };' +
    '</script>'],
  '/worker.js': ['text/javascript', `
    import createSuction from './wasm/suction_wasm.js';
    try {
      const r = createSuction(); const M = await (r.ready || r);
      const sim = new M.Simulator();
      const text = await (await fetch('./default.json')).text();
      const err = sim.load(text, '');
      if (err) throw new Error(err);
      const p0 = Float32Array.from(sim.surfacePositions(0));
      const e2 = sim.step(10);
      const p1 = sim.surfacePositions(0);
      let moved = 0; for (let k = 0; k < p1.length; ++k) moved = Math.max(moved, Math.abs(p1[k] - p0[k]));
      postMessage({ version: M.version(), isolated: self.crossOriginIsolated, stepError: e2,
                    steps: sim.stepCount(), n: p1.length, moved, row: sim.csvRow(),
                    shared: typeof SharedArrayBuffer !== 'undefined' });
      sim.delete();
    } catch (e) { postMessage({ error: String(e && e.stack || e) }); }
  `],
  '/default.json': ['application/json', fs.readFileSync(path.join(root, 'scenes', 'default.json'))],
};
for (const f of fs.readdirSync(wasmDir))
  if (/\.(js|wasm)$/.test(f) && !f.includes('_node'))
    files['/wasm/' + f] = [f.endsWith('.wasm') ? 'application/wasm' : 'text/javascript',
                           fs.readFileSync(path.join(wasmDir, f))];

const server = http.createServer((req, res) => {
  const f = files[new URL(req.url, 'http://x').pathname];
  if (!f) { res.writeHead(404); res.end(); return; }
  res.writeHead(200, { 'Content-Type': f[0], 'Cross-Origin-Opener-Policy': 'same-origin',
                       'Cross-Origin-Embedder-Policy': 'require-corp' });
  res.end(f[1]);
});
await new Promise(ok => server.listen(0, '127.0.0.1', ok));
const url = `http://127.0.0.1:${server.address().port}/index.html`;
const userDir = fs.mkdtempSync(path.join(os.tmpdir(), 'suction-smoke-'));
const browser = await chromium.launchPersistentContext(userDir, {
  executablePath: '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
let code = 1;
try {
  const page = await browser.newPage();
  page.on('console', m => console.log('page:', m.text()));
  await page.goto(url);
  await page.waitForFunction(() => window.result !== undefined, null, { timeout: 60000 });
  const r = await page.evaluate(() => window.result);
  console.log(JSON.stringify(r));
  if (!r.error && r.isolated && !r.stepError && r.steps === 10 && r.moved > 0) code = 0;
} catch (e) {
  console.error(e);
} finally {
  await browser.close();
  server.close();
  fs.rmSync(userDir, { recursive: true, force: true });
}
console.log(code === 0 ? 'web smoke: OK' : 'web smoke: FAILED');
process.exit(code);
