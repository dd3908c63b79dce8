#!/usr/bin/env node
// Assembles the static site build/web/ (what scripts/serve.mjs serves, and only that):
//   index.html, style.css, src/*.js       the app (web/)
//   lib/three/three.module.js, three.core.js, addons/controls/OrbitControls.js   (web/node_modules/three)
//   lib/uplot/uPlot.esm.js, uPlot.min.css   the plots (web/node_modules/uplot)
//   lib/lil-gui/lil-gui.esm.js              the controls panel (web/node_modules/lil-gui)
//   lib/stats.js/stats.module.js            the frame-rate meter (web/node_modules/stats.js, see below)
//   lib/<name>/LICENSE*                     each library's licence, as shipped
//   wasm/*                                the wasm module from build/wasm/wasm/ (make wasm-web)
//   mock/mock_simulator.js                the JS mock, only with --with-mock (development: ?backend=mock)
//   scenes/*.json + scenes/index.json     the CLI's scenes and a generated list of them
//   lessons/*.json + lessons/index.json   the lessons (lessons/, docs/web.md "Lessons") and a list of them
// Usage: node web/build.mjs [--out build/web] [--wasm build/wasm/wasm] [--require-wasm] [--with-mock]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const webDir = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(webDir, '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const out = path.resolve(root, opt('--out', 'build/web'));
const wasmDir = path.resolve(root, opt('--wasm', 'build/wasm/wasm'));
const requireWasm = args.includes('--require-wasm');
// the test mock stays out of the site unless asked for (a development aid, not part of the app)
const withMock = args.includes('--with-mock');

function copy(src, dst) {
  fs.mkdirSync(path.dirname(dst), { recursive: true });
  fs.copyFileSync(src, dst);
}

fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });

for (const f of ['index.html', 'style.css']) copy(path.join(webDir, f), path.join(out, f));
for (const f of fs.readdirSync(path.join(webDir, 'src'))) {
  if (f.endsWith('.js')) copy(path.join(webDir, 'src', f), path.join(out, 'src', f));
}
if (withMock) copy(path.join(webDir, 'test', 'mock_simulator.js'), path.join(out, 'mock', 'mock_simulator.js'));
if (fs.existsSync(path.join(webDir, 'favicon.png'))) copy(path.join(webDir, 'favicon.png'), path.join(out, 'favicon.png'));

// three.js: the module build (three.module.js imports ./three.core.js) and the addons we use
const three = path.join(webDir, 'node_modules', 'three');
if (!fs.existsSync(three)) { console.error(`web/build.mjs: ${three} is missing: run 'make web' (npm ci in web/)`); process.exit(1); }
for (const f of ['three.module.js', 'three.core.js']) {
  const src = path.join(three, 'build', f);
  if (fs.existsSync(src)) copy(src, path.join(out, 'lib', 'three', f));
}
copy(path.join(three, 'examples', 'jsm', 'controls', 'OrbitControls.js'), path.join(out, 'lib', 'three', 'addons', 'controls', 'OrbitControls.js'));
copy(path.join(three, 'LICENSE'), path.join(out, 'lib', 'three', 'LICENSE'));

// the other libraries (versions pinned exactly in package.json / package-lock.json), each with its licence
function lib(name, files) {
  const dir = path.join(webDir, 'node_modules', name);
  if (!fs.existsSync(dir)) { console.error(`web/build.mjs: ${dir} is missing: run 'make web' (npm ci in web/)`); process.exit(1); }
  for (const [src, dst] of files) copy(path.join(dir, src), path.join(out, 'lib', name, dst));
  for (const f of fs.readdirSync(dir).filter(f => /^licen[cs]e/i.test(f))) copy(path.join(dir, f), path.join(out, 'lib', name, f));
}
lib('uplot', [['dist/uPlot.esm.js', 'uPlot.esm.js'], ['dist/uPlot.min.css', 'uPlot.min.css']]);
lib('lil-gui', [['dist/lil-gui.esm.js', 'lil-gui.esm.js']]);
// stats.js 1.0.0 ships no ES module (src/Stats.js and build/stats.min.js are classic scripts:
// `var Stats = function () {...}`, module.exports only under CommonJS). Its source with
// `export default Stats;` appended is one: in a module `var Stats` stays module-local and the
// `typeof module === 'object'` branch is skipped. Done here rather than with a classic <script>
// tag so the page has no global and imports it like the others (the import map in index.html).
lib('stats.js', []);
fs.writeFileSync(path.join(out, 'lib', 'stats.js', 'stats.module.js'),
  '// stats.js 1.0.0 (web/node_modules/stats.js/src/Stats.js), made an ES module by web/build.mjs\n' +
  fs.readFileSync(path.join(webDir, 'node_modules', 'stats.js', 'src', 'Stats.js'), 'utf8') + '\nexport default Stats;\n');

// the wasm module (ES6 factory createSuction + .wasm + pthread .worker.js)
let wasmFiles = [];
if (fs.existsSync(wasmDir)) {
  wasmFiles = fs.readdirSync(wasmDir).filter(f => /\.(js|mjs|wasm|map)$/.test(f) && !f.includes('_node'));
  for (const f of wasmFiles) copy(path.join(wasmDir, f), path.join(out, 'wasm', f));
}
if (!wasmFiles.some(f => f.endsWith('.wasm'))) {
  const msg = `web/build.mjs: no wasm module in ${path.relative(root, wasmDir)} (run 'make wasm-web'); the page will only work with ?backend=mock on a site built --with-mock`;
  if (requireWasm) { console.error(msg); process.exit(1); }
  console.warn(msg);
}

// scenes: the same files as the CLI's, plus a generated index
const scenesDir = path.join(root, 'scenes');
const scenes = [];
for (const f of fs.readdirSync(scenesDir).filter(f => f.endsWith('.json')).sort()) {
  const text = fs.readFileSync(path.join(scenesDir, f), 'utf8');
  let name = f.replace(/\.json$/, ''), description = '', error;
  try { const doc = JSON.parse(text); name = doc.name || name; description = doc.description || ''; }
  catch (e) { error = `invalid JSON: ${e.message}`; }
  copy(path.join(scenesDir, f), path.join(out, 'scenes', f));
  scenes.push({ name: f.replace(/\.json$/, ''), file: f, title: name, description, ...(error ? { error } : {}) });
}
// copy mesh files that scenes may reference (obj/stl/msh next to the scenes)
for (const f of fs.readdirSync(scenesDir)) {
  const p = path.join(scenesDir, f);
  if (fs.statSync(p).isDirectory()) fs.cpSync(p, path.join(out, 'scenes', f), { recursive: true });
  else if (/\.(obj|stl|msh)$/i.test(f)) copy(p, path.join(out, 'scenes', f));
}
fs.writeFileSync(path.join(out, 'scenes', 'index.json'), JSON.stringify({ scenes }, null, 1) + '\n');

// lessons: lessons/NAME.json as they are (the page checks one when it opens it: src/lesson_format.js),
// their schema, and a list with each one's title, summary and number of steps
const lessonsDir = path.join(root, 'lessons');
const lessons = [];
if (fs.existsSync(lessonsDir)) {
  for (const f of fs.readdirSync(lessonsDir).filter(f => f.endsWith('.json')).sort()) {
    copy(path.join(lessonsDir, f), path.join(out, 'lessons', f));
    if (f === 'lesson.schema.json' || f === 'index.json') continue;
    const name = f.replace(/\.json$/, '');
    let title = name, summary = '', steps = 0, order = null, error;
    try {
      const doc = JSON.parse(fs.readFileSync(path.join(lessonsDir, f), 'utf8'));
      title = typeof doc.title === 'string' ? doc.title : name;
      summary = typeof doc.summary === 'string' ? doc.summary : '';
      steps = Array.isArray(doc.steps) ? doc.steps.length : 0;
      order = Number.isInteger(doc.order) ? doc.order : null;
    } catch (e) { error = `invalid JSON: ${e.message}`; }
    lessons.push({ name, file: f, title, summary, steps, order, ...(error ? { error } : {}) });
  }
  // the list's order: "order" (smallest first), then the file's name; without one, after those with one
  lessons.sort((a, b) => (a.order ?? Infinity) - (b.order ?? Infinity) || a.name.localeCompare(b.name));
}
fs.mkdirSync(path.join(out, 'lessons'), { recursive: true });
fs.writeFileSync(path.join(out, 'lessons', 'index.json'), JSON.stringify({ lessons }, null, 1) + '\n');
console.log(`web/build.mjs: ${path.relative(root, out)}: ${scenes.length} scenes, ${lessons.length} lessons, wasm: ${wasmFiles.join(' ') || 'none'}`);
