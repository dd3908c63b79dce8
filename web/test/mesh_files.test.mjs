import { test } from 'node:test';
import assert from 'node:assert/strict';
import { meshCacheFiles, meshFiles, meshPathIsLocal } from '../src/mesh_files.js';

test('meshFiles finds every mesh file of a scene, once', () => {
  const doc = {
    bodies: [
      { name: 'cup', mesh: { generator: 'cup' } },
      { name: 'bunny', mesh: { file: 'meshes/bunny.obj' } },
      { name: 'twin', mesh: { file: 'meshes/bunny.obj', scale: 2 } },
      { name: 'rock', mesh: { file: 'rock.stl' } },
    ],
  };
  assert.deepEqual([...meshFiles(doc)], ['meshes/bunny.obj', 'rock.stl']);
  assert.deepEqual([...meshFiles({ bodies: [] })], []);
});

test('the page fetches mesh files in the scene folder and below it, nothing else', () => {
  for (const ok of ['bunny.obj', 'meshes/bunny.obj', 'a/b/c.msh']) assert.equal(meshPathIsLocal(ok), true, ok);
  for (const bad of ['', '/etc/passwd', '../x.obj', 'meshes/../../x.obj', './x.obj', 'a//b.obj',
                     'meshes\\x.obj', 'http://host/x.obj', 'meshes/']) {
    assert.equal(meshPathIsLocal(bad), false, bad);
  }
});

test('meshCacheFiles finds the tet mesh caches a scene names, not its mesh files', () => {
  const doc = {
    bodies: [
      { name: 'block', mesh: { generator: 'tunnel_block', tetrahedralize: { cell_size: 0.01, cache: 'meshes/block.msh' } } },
      { name: 'lower', mesh: { generator: 'pocket_block', tetrahedralize: { cell_size: 0.01 } } },
      { name: 'rock', mesh: { file: 'rock.obj', tetrahedralize: { cell_size: 0.01, cache: 'rock.msh' } } },
    ],
  };
  assert.deepEqual([...meshCacheFiles(doc)], ['meshes/block.msh', 'rock.msh']);
  assert.deepEqual([...meshFiles(doc)], ['rock.obj']);
});
