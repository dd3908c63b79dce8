// What the scripts that drive the page share (tests/web/e2e.mjs, bench/browser_rtf.mjs,
// web/test/serve.test.mjs, scripts/page_picture.mjs): scripts/serve.mjs started as a child on a
// free port, the headless chromium flags that work here (docs/web.md), and (page_picture.mjs)
// finding build/web, playwright-core and chromium, launching it, and opening a scene.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const serveScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'serve.mjs');
/** The repository's root. */
export const ROOT = path.resolve(path.dirname(serveScript), '..');

/**
 * Starts `node scripts/serve.mjs siteDir` on a free port (PORT=0: the server picks it, so no
 * other process can take it in between). Resolves { child, base } once it listens, base being
 * `http://localhost:PORT/`; rejects (and kills it) when it exits or does not start in time.
 */
export function startServe(siteDir, { timeoutMs = 15000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [serveScript, siteDir],
                        { env: { ...process.env, PORT: '0', HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => { child.kill('SIGTERM'); reject(new Error(`serve.mjs did not start: ${out}`)); }, timeoutMs);
    child.stdout.on('data', d => {
      out += d;
      const m = out.match(/http:\/\/localhost:(\d+)\//);
      if (m) { clearTimeout(timer); resolve({ child, base: `http://localhost:${m[1]}/` }); }
    });
    child.stderr.on('data', d => { out += d; });
    child.on('exit', code => { clearTimeout(timer); reject(new Error(`serve.mjs exited (${code}): ${out}`)); });
  });
}

/** Headless chromium here (Debian's, SwiftShader WebGL; docs/web.md). */
export const CHROMIUM_ARGS = Object.freeze([
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--enable-unsafe-swiftshader',
]);


/**
 * What a page-driving script needs, checked up front: build/web (with a wasm module), the scenes
 * asked for, chromium and playwright-core. Returns { siteDir, executablePath, chromium };
 * throws an Error whose message names the command that makes what is missing.
 */
export function pageTools({ scenes = [], siteDir = path.join(ROOT, 'build', 'web'),
                            executablePath = process.env.CHROMIUM || '/usr/bin/chromium' } = {}) {
  const rel = (p) => path.relative(ROOT, p);
  if (!fs.existsSync(path.join(siteDir, 'index.html'))) throw new Error(`${rel(siteDir)}/index.html is missing: build the page first (make wasm-web web)`);
  const wdir = path.join(siteDir, 'wasm');
  if (!(fs.existsSync(wdir) && fs.readdirSync(wdir).some(f => f.endsWith('.wasm')))) throw new Error(`no wasm module in ${rel(wdir)}: run make wasm-web web`);
  for (const s of scenes) {
    if (!fs.existsSync(path.join(siteDir, 'scenes', `${s}.json`))) {
      const have = fs.readdirSync(path.join(siteDir, 'scenes')).filter(f => f.endsWith('.json') && f !== 'index.json').map(f => f.replace(/\.json$/, ''));
      throw new Error(`scene '${s}': ${rel(siteDir)}/scenes/${s}.json is missing (make web after adding it; scenes: ${have.join(' ')})`);
    }
  }
  if (!fs.existsSync(executablePath)) throw new Error(`no chromium at ${executablePath}: apt-get install chromium (scripts/install-deps.sh), or set CHROMIUM=/path/to/chromium`);
  let chromium;
  try { ({ chromium } = createRequire(path.join(ROOT, 'web', 'package.json'))('playwright-core')); } catch (e) {
    throw new Error(`playwright-core is not installed in web/node_modules: run make web-deps (npm ci in web/) (${e.message.split('\n')[0]})`);
  }
  return { siteDir, executablePath, chromium };
}

/**
 * Launches headless chromium (CHROMIUM_ARGS, a fresh user-data-dir) as a persistent context.
 * Resolves { context, close }; close() closes it and removes the user-data-dir.
 */
export async function launchChromium(chromium, executablePath, { viewport = { width: 1280, height: 800 }, timeoutMs = 120000 } = {}) {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'suction-page-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(userDataDir, { executablePath, headless: true, viewport, args: [...CHROMIUM_ARGS], timeout: timeoutMs });
  } catch (e) { fs.rmSync(userDataDir, { recursive: true, force: true }); throw e; }
  return {
    context,
    close: async () => { await context.close().catch(() => {}); fs.rmSync(userDataDir, { recursive: true, force: true }); },
  };
}

/**
 * Opens `${base}?scene=SCENE` (plus `query`, e.g. 'render=full') in `page` and waits until the
 * page has loaded the scene with the wasm backend and received a frame (window.suctionDebug.snapshot()).
 * Resolves the snapshot's { scene, backend, duration, version }; throws on a load error, a page
 * that is not cross-origin isolated, or another backend.
 */
export async function openScene(page, base, scene, { query = '', timeoutMs = 180000 } = {}) {
  await page.goto(`${base}?scene=${encodeURIComponent(scene)}${query ? `&${query}` : ''}`, { waitUntil: 'load' });
  if (!await page.evaluate(() => window.crossOriginIsolated === true)) throw new Error('the page is not cross-origin isolated (serve.mjs headers?)');
  await page.waitForFunction(() => { const s = window.suctionDebug.snapshot(); return (s.loaded && s.frames > 0) || s.errors.some(e => !e.startsWith('backend')); },
                             null, { timeout: timeoutMs, polling: 250 });
  const s = await page.evaluate(() => { const s = window.suctionDebug.snapshot(); return { scene: s.scene, errors: s.errors, backend: s.backend, duration: s.duration, version: s.version }; });
  if (s.errors.length) throw new Error(`loading ${scene}: ${s.errors.join(' | ')}`);
  if (s.scene !== scene) throw new Error(`the page loaded '${s.scene}', not '${scene}'`);
  if (s.backend !== 'wasm') throw new Error(`backend is ${s.backend}, not wasm`);
  return s;
}
