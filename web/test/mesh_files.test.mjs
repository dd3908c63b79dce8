import { test } from 'node:test';
import assert from 'node:assert/strict';
import { meshFiles, meshPathIsLocal } from '../src/mesh_files.js';

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
