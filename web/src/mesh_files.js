// The mesh files a scene reads ("mesh": {"file": ...}) and which of them the page may fetch.
// Pure (no DOM, no worker): unit-tested in web/test/mesh_files.test.mjs, used by worker.js.

/** The mesh files a scene names ("mesh": {"file": ...}), relative to its folder. */
export function meshFiles(doc, out = new Set()) {
  if (Array.isArray(doc)) for (const x of doc) meshFiles(x, out);
  else if (doc && typeof doc === 'object') {
    for (const [k, v] of Object.entries(doc)) {
      if (k === 'mesh' && v && typeof v.file === 'string') out.add(v.file);
      else meshFiles(v, out);
    }
  }
  return out;
}

/**
 * The mesh caches a scene names ("tetrahedralize": {"cache": ...} inside a mesh): the tet mesh
 * the CLI made of a surface, which the page reads so that it plays the same mesh (its own
 * mesher would make another). Optional: a cache the server does not have is meshed at load.
 */
export function meshCacheFiles(doc, out = new Set()) {
  if (Array.isArray(doc)) for (const x of doc) meshCacheFiles(x, out);
  else if (doc && typeof doc === 'object') {
    for (const [k, v] of Object.entries(doc)) {
      if (k === 'mesh' && v && v.tetrahedralize && typeof v.tetrahedralize.cache === 'string') {
        out.add(v.tetrahedralize.cache);
      } else meshCacheFiles(v, out);
    }
  }
  return out;
}

/**
 * A mesh path the page may fetch from the server: relative and inside the scene's folder
 * ('bunny.obj', 'meshes/bunny.obj'); not absolute, no '..', '.', empty segment, backslash or
 * scheme.
 */
export function meshPathIsLocal(f) {
  const parts = f.split('/');
  return f.length > 0 && !f.includes('\\') && !f.includes(':') && parts.every(p => p !== '' && p !== '.' && p !== '..');
}
