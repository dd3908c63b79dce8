// The simulation worker (a module worker): loads the wasm module, owns the Simulator through
// SimHost, and talks to the page with the messages of src/messages.js (docs/web.md, "Messages").
// `host` and the imported `SimHost` keep these names: bench/browser_soak.mjs appends code that uses them.
import { SimHost, DEFAULT_WARMUP_STEPS, WARMUP_BUDGET_MS } from './sim_host.js';
import { TO_WORKER, FROM_WORKER, message, dispatch } from './messages.js';
import { meshCacheFiles, meshFiles, meshPathIsLocal } from './mesh_files.js';
import { simulationThreads } from './threads.js';

let host = null;
const queue = [];
const post = (msg, transfer = []) => self.postMessage(msg, transfer);
const send = (type, fields) => post(message(FROM_WORKER, type, fields));

// The wasm module's one name (docs/wasm-api.md, "Modules").
const MODULE_NAMES = ['suction_wasm.js'];

async function loadWasm() {
  let lastError = null;
  for (const name of MODULE_NAMES) {
    const url = new URL(`../wasm/${name}`, import.meta.url).href;
    let mod;
    try { mod = await import(url); } catch (e) { lastError = e; continue; }
    const factory = mod.default || mod.createSuction;
    if (typeof factory !== 'function') { lastError = new Error(`${name} has no default export`); continue; }
    const r = factory({
      locateFile: (path) => new URL(`../wasm/${path}`, import.meta.url).href,
      mainScriptUrlOrBlob: url,
      print: (s) => console.log('[wasm]', s),
      printErr: (s) => console.warn('[wasm]', s),
    });
    return { M: await (r.ready || r), name };
  }
  throw new Error(`the wasm module could not be loaded from wasm/ (${MODULE_NAMES.join(' or ')}): ` +
                  `${lastError && lastError.message || lastError}. Build it with 'make wasm-web web'.`);
}

async function loadMock() {
  let mod;
  try { mod = await import('../mock/mock_simulator.js'); } catch (e) {
    throw new Error('?backend=mock: this site was built without the JS mock (a development aid); ' +
                    "build it with 'node web/build.mjs --with-mock'");
  }
  return { M: mod.createMockModule(), name: 'mock' };
}

async function init(backend, threads, warmupSteps) {
  try {
    const { M, name } = backend === 'mock' ? await loadMock() : await loadWasm();
    // the warm-up after each load (src/sim_host.js, startWarmup): the page's ?warmup=, else the default
    const steps = Number.isInteger(warmupSteps) && warmupSteps >= 0 ? warmupSteps : DEFAULT_WARMUP_STEPS;
    host = new SimHost(M, post, { backend: backend === 'mock' ? 'mock' : 'wasm',
                                  warmup: steps > 0 ? { steps, budgetMs: WARMUP_BUDGET_MS } : null });
    // the compliance, the factorization and the element pass on up to 4 threads (the module
    // starts 3 workers; the same numbers for any count): the page's ?threads=, else the cores
    const simThreads = M.setThreads && self.crossOriginIsolated === true
      ? M.setThreads(simulationThreads(threads, navigator.hardwareConcurrency)) : 1;
    send('ready', { backend: host.backend, module: name, version: M.version ? M.version() : '',
                    crossOriginIsolated: self.crossOriginIsolated === true,
                    threads: typeof SharedArrayBuffer !== 'undefined', simThreads });
    while (queue.length) run(queue.shift());
  } catch (e) {
    send('error', { where: 'init', message: String(e && e.message || e), fatal: true });
  }
}

/**
 * Scenes that read mesh files: fetch them from the server (build/web/scenes/) and write them
 * into the module's in-memory file system under /tmp, which becomes the scene's baseDir.
 */
async function stageMeshFiles(msg) {
  let doc;
  try { doc = JSON.parse(msg.text); } catch { return msg; }   // the loader reports bad JSON
  const files = [...meshFiles(doc)];
  const caches = [...meshCacheFiles(doc)].filter(f => !files.includes(f));
  if (!files.length && !caches.length) return msg;
  if (!host.M.writeFile) throw new Error('this module cannot receive mesh files (no writeFile)');
  for (const f of [...files, ...caches]) {
    const optional = !files.includes(f);   // a mesh cache the server lacks: meshed at load
    if (!meshPathIsLocal(f)) {
      if (optional) continue;
      throw new Error(`mesh file '${f}': only files in the scene's folder (or below it) can be loaded in the browser`);
    }
    const r = await fetch(new URL(`../${msg.baseDir || 'scenes'}/${f}`, import.meta.url));
    if (!r.ok && optional) continue;
    if (!r.ok) throw new Error(`mesh file '${f}': HTTP ${r.status}`);
    const err = host.M.writeFile(`/tmp/${f}`, new Uint8Array(await r.arrayBuffer()));
    if (err) throw new Error(`mesh file '${f}': ${err}`);
  }
  return { ...msg, baseDir: '/tmp' };
}

// commands run one at a time, in order (a load may wait for its mesh files)
let chain = Promise.resolve();
function run(msg) {
  chain = chain.then(async () => {
    try { host.handle(msg.type === 'load' ? await stageMeshFiles(msg) : msg); } catch (e) {
      send('error', { where: msg.type, message: String(e && e.message || e) });
    }
  });
}

// init is the worker's; every other command goes to SimHost (queued until the module is ready)
const forward = (msg) => { if (!host) queue.push(msg); else run(msg); };
const handlers = Object.fromEntries(Object.keys(TO_WORKER).map(type => [type, forward]));
handlers.init = (msg) => init(msg.backend, msg.simThreads, msg.warmup);
self.onmessage = (ev) => {
  try { dispatch(TO_WORKER, handlers, ev.data); } catch (e) { send('error', { where: 'worker', message: String(e && e.message || e) }); }
};

self.addEventListener('error', (e) => send('error', { where: 'worker', message: String(e.message || e) }));
self.addEventListener('unhandledrejection', (e) => send('error', { where: 'worker', message: String(e.reason && e.reason.message || e.reason) }));
