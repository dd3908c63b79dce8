// scripts/serve.mjs (the page's static server) against hostile paths: a directory whose name
// is beyond Latin-1 requested without its trailing slash (the redirect's header used to throw
// and kill the server), and `/%2fsub` (it used to answer `Location: //sub/`, which a browser
// reads as another host). Runs the real script on a free port over a temporary site.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServe } from '../../scripts/web_harness.mjs';

async function withServer(fn) {
  const site = fs.mkdtempSync(path.join(os.tmpdir(), 'suction-serve-'));
  fs.writeFileSync(path.join(site, 'index.html'), '<p>ok</p>');
  for (const d of ['sub', '日本 ü']) {
    fs.mkdirSync(path.join(site, d));
    fs.writeFileSync(path.join(site, d, 'index.html'), `<p>${d}</p>`);
  }
  const { child, base } = await startServe(site);
  try {
    await fn(base.replace(/\/$/, ''));
  } finally {
    child.kill();
    fs.rmSync(site, { recursive: true, force: true });
  }
}

test('serve: a non-Latin-1 directory without its slash redirects, percent-encoded, and the server lives on', async () => {
  await withServer(async (base) => {
    const r = await fetch(`${base}/${encodeURIComponent('日本 ü')}`, { redirect: 'manual' });
    assert.equal(r.status, 301);
    assert.equal(r.headers.get('location'), `/${encodeURIComponent('日本 ü')}/`);
    const follow = await fetch(`${base}${r.headers.get('location')}`);
    assert.equal(follow.status, 200);
    assert.match(await follow.text(), /日本 ü/);
    assert.equal((await fetch(`${base}/`)).status, 200, 'still serving');
  });
});

test('serve: redirects stay on the same origin (one leading slash)', async () => {
  await withServer(async (base) => {
    for (const p of ['/%2fsub', '//sub', '/%2F%2Fsub', '/sub']) {
      const r = await fetch(`${base}${p}`, { redirect: 'manual' });
      assert.equal(r.status, 301, p);
      assert.equal(r.headers.get('location'), '/sub/', p);
    }
    assert.equal((await fetch(`${base}/..%2f..%2fetc/passwd`)).status, 403);
  });
});
