#!/usr/bin/env node
// A dependency-free static server for the browser front end: serves build/web (and nothing
// else) with the cross-origin isolation headers that SharedArrayBuffer / wasm threads need.
// Usage: node scripts/serve.mjs [dir]     PORT (default 8080) and HOST (default 127.0.0.1; set
// HOST=0.0.0.0 to serve other machines) override the address. PORT=0 picks a free port.
// Prints "suction web: serving <dir> at http://localhost:PORT/" once listening.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.resolve(process.argv[2] || path.join(root, 'build', 'web'));
const port = process.env.PORT === undefined ? 8080 : Number(process.env.PORT);
const host = process.env.HOST || '127.0.0.1';

const MIME = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm', '.json': 'application/json; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.png': 'image/png', '.svg': 'image/svg+xml', '.ico': 'image/x-icon', '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8', '.obj': 'text/plain; charset=utf-8', '.stl': 'application/octet-stream',
  '.msh': 'text/plain; charset=utf-8',
};
const COMMON = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-cache',
};

if (!fs.existsSync(path.join(dir, 'index.html'))) {
  console.error(`serve: ${dir}/index.html is missing: build the site first (make web)`);
  process.exit(2);
}

function send(res, status, body, type = 'text/plain; charset=utf-8', extra = {}) {
  res.writeHead(status, { ...COMMON, 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), ...extra });
  res.end(body);
}

// The URL path of a file or directory under dir: one leading slash, each segment
// percent-encoded (a header carries only Latin-1, and `//host` would be another origin).
function urlPath(file) {
  const rel = path.relative(dir, file);
  return '/' + (rel ? rel.split(path.sep).map(encodeURIComponent).join('/') : '');
}

function handle(req, res) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'method not allowed\n', undefined, { Allow: 'GET, HEAD' });
  let rel;
  // the path as sent ('//sub' is a path here, not a host)
  try { rel = decodeURIComponent(new URL('http://x' + req.url).pathname); } catch { return send(res, 400, 'bad request\n'); }
  if (rel.includes('\0')) return send(res, 400, 'bad request\n');
  // reject anything that would leave the served directory (.. segments, encoded or not)
  if (rel.split(/[\\/]/).includes('..')) return send(res, 403, 'forbidden\n');
  let file = path.resolve(dir, '.' + rel);
  if (file !== dir && !file.startsWith(dir + path.sep)) return send(res, 403, 'forbidden\n');
  let st;
  try { st = fs.statSync(file); } catch { return send(res, 404, 'not found\n'); }
  if (st.isDirectory()) {
    // no directory listing: a directory serves its index.html or nothing
    if (!rel.endsWith('/')) return send(res, 301, '', undefined, { Location: urlPath(file) + '/' });
    file = path.join(file, 'index.html');
    try { st = fs.statSync(file); } catch { return send(res, 404, 'not found\n'); }
  }
  // a symlink could point outside: check the real path too
  let real;
  try { real = fs.realpathSync(file); } catch { return send(res, 404, 'not found\n'); }
  const realDir = fs.realpathSync(dir);
  if (real !== realDir && !real.startsWith(realDir + path.sep)) return send(res, 403, 'forbidden\n');
  const type = MIME[path.extname(file).toLowerCase()] || 'application/octet-stream';
  res.writeHead(200, { ...COMMON, 'Content-Type': type, 'Content-Length': st.size });
  if (req.method === 'HEAD') return res.end();
  fs.createReadStream(file).on('error', () => res.destroy()).pipe(res);
}

// every request inside a try/catch: a bug answers 500 and the server keeps serving
const server = http.createServer((req, res) => {
  try {
    handle(req, res);
  } catch (e) {
    console.error(`serve: ${req.method} ${req.url}: ${e && e.message || e}`);
    if (!res.headersSent) {
      try { send(res, 500, 'internal error\n'); } catch { res.destroy(); }
    } else {
      res.destroy();
    }
  }
});

server.on('error', (e) => { console.error(`serve: ${e.message}`); process.exit(1); });
server.listen(port, host, () => {
  const p = server.address().port;
  console.log(`suction web: serving ${path.relative(process.cwd(), dir) || dir} at http://localhost:${p}/`);
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => { server.close(); process.exit(0); });
