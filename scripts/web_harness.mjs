// What the scripts that drive the page share (tests/web/e2e.mjs, bench/browser_rtf.mjs,
// web/test/serve.test.mjs): scripts/serve.mjs started as a child on a free port, and the
// headless chromium flags that work here (docs/web.md).
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const serveScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'serve.mjs');

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
