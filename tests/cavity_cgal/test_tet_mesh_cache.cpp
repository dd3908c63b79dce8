// The mesher's result kept in a file (core/cavity_cgal/tet_mesh_cache.h): the fingerprint
// follows the surface and the options and nothing else; a cache file gives back the mesh bit
// for bit; a scene reads a matching cache instead of meshing, meshes at load when it is missing
// or stale, and reports a broken one at its JSON pointer.  The shipped scenes that tetrahedralize
// read their caches: this suite also runs under node, so the WebAssembly build computes the same
// fingerprints and reads the same meshes as the native one (its own Mesh_3 would mesh
// differently: docs/decisions.md).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "cavity_cgal/tet_mesh_cache.h"
#include "common/error.h"
#include "mesh/generators.h"
#include "mesh/mesh_io.h"
#include "scene/json_reader.h"
#include "scene/scene.h"
#include "scene/scene_issues.h"

namespace suction {
namespace {

namespace fs = std::filesystem;

TetMeshingOptions cache_cells(double h) {
  TetMeshingOptions o;
  o.cell_size = h;
  return o;
}

TEST(TetMeshCache, FingerprintFollowsTheSurfaceAndTheOptionsOnly) {
  const SurfaceMesh s = make_tunnel_block_surface({0.04, 0.02, 0.02}, 0.006, 0.016, 0.012, 12);
  const std::string f = meshing_fingerprint(s, cache_cells(0.005));
  EXPECT_EQ(f.size(), 16u);
  EXPECT_EQ(meshing_fingerprint(s, cache_cells(0.005)), f) << "deterministic";

  // a last-bit difference (another libm's sin) does not change it ...
  SurfaceMesh nudged = s;
  for (Vec3& x : nudged.vertices) x.x() = std::nextafter(x.x(), 1.0);
  EXPECT_EQ(meshing_fingerprint(nudged, cache_cells(0.005)), f);
  // ... a micrometre does, and so does every option that shapes the mesh
  SurfaceMesh moved = s;
  moved.vertices[5].z() += 1e-6;
  EXPECT_NE(meshing_fingerprint(moved, cache_cells(0.005)), f);
  EXPECT_NE(meshing_fingerprint(s, cache_cells(0.006)), f);
  TetMeshingOptions o = cache_cells(0.005);
  o.facet_distance = 1e-4;
  EXPECT_NE(meshing_fingerprint(s, o), f);
  o = cache_cells(0.005);
  o.sharp_features = false;
  EXPECT_NE(meshing_fingerprint(s, o), f);
  o = cache_cells(0.005);
  o.seed = 1;
  EXPECT_NE(meshing_fingerprint(s, o), f);
  // the caps on the result do not shape it
  o = cache_cells(0.005);
  o.limits.max_nodes = 123456;
  EXPECT_EQ(meshing_fingerprint(s, o), f);
  // the same vertices in another triangulation are another surface
  SurfaceMesh flipped = s;
  std::swap(flipped.triangles[0][1], flipped.triangles[0][2]);
  EXPECT_NE(meshing_fingerprint(flipped, cache_cells(0.005)), f);
}

TEST(TetMeshCache, FileGivesBackTheMeshBitForBitAndItsFingerprint) {
  const TetMesh m = make_box({0.01, 0.02, 0.03}, 2, 3, 2);
  const fs::path dir = fs::temp_directory_path() / "suction_tet_cache_test";
  fs::create_directories(dir);
  const std::string path = (dir / "box.msh").string();
  {
    std::ofstream f(path, std::ios::binary);
    f << format_tet_cache(m, "0123456789abcdef");
  }
  const auto c = read_tet_cache(path);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->fingerprint, "0123456789abcdef");
  ASSERT_EQ(c->mesh.nodes.size(), m.nodes.size());
  for (size_t i = 0; i < m.nodes.size(); ++i) EXPECT_EQ(c->mesh.nodes[i], m.nodes[i]) << i;
  EXPECT_EQ(c->mesh.tets, m.tets);
  // a Gmsh reader skips the section: the file is a plain mesh too
  const TetMesh plain = read_gmsh(path);
  EXPECT_EQ(plain.tets, m.tets);

  // a plain .msh has no fingerprint (never a match); a missing file is no cache
  write_gmsh(path, m);
  ASSERT_TRUE(read_tet_cache(path).has_value());
  EXPECT_EQ(read_tet_cache(path)->fingerprint, "");
  EXPECT_FALSE(read_tet_cache((dir / "none.msh").string()).has_value());

  // a broken file is an error naming it
  {
    std::ofstream f(path, std::ios::binary);
    f << format_tet_cache(m, "0123456789abcdef").substr(0, 200);
  }
  try {
    read_tet_cache(path);
    ADD_FAILURE() << "a truncated cache was read";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("box.msh"), std::string::npos) << e.what();
  }
  {
    std::ofstream f(path, std::ios::binary);
    f << format_gmsh(m) << "$SuctionMeshing\nfingerprint xyz\n$EndSuctionMeshing\n";
  }
  EXPECT_THROW(read_tet_cache(path), InputError);
  fs::remove_all(dir);
}

Json pocket_scene(const std::string& cache) {
  Json doc = Json::parse(R"({
    "name": "cached pocket",
    "parameters": {"depth_mm": {"default": 4}},
    "settings": {"dt": 0.005, "duration": 0.01},
    "materials": {"rubber": {"young": 1e6, "poisson": 0.45, "density": 1100}},
    "bodies": [
      {"name": "block", "type": "fem", "material": "rubber",
       "mesh": {"generator": "pocket_block", "size": [0.03, 0.03, 0.012], "depth": "=depth_mm*1e-3",
                "outline": {"radius": 0.008, "points": 8, "seed": 2},
                "tetrahedralize": {"cell_size": 0.006}},
       "position": [0.001, 0, 0.006]}
    ]})");
  doc["bodies"][0]["mesh"]["tetrahedralize"]["cache"] = cache;
  return doc;
}

TEST(TetMeshCache, SceneReadsAMatchingCacheAndMeshesWhenMissingOrStale) {
  const fs::path dir = fs::temp_directory_path() / "suction_tet_cache_scene_test";
  fs::remove_all(dir);
  fs::create_directories(dir / "meshes");
  const Json doc = pocket_scene("meshes/block.msh");

  // missing: meshed at load, and kept for `suction mesh --write-cache`
  const Model made = load_scene_text(doc.dump(), dir.string());
  ASSERT_EQ(made.meshing.size(), 1u);
  const MeshingRecord& r = made.meshing[0];
  EXPECT_EQ(r.cache_status, "missing");
  EXPECT_EQ(fs::path(r.cache_file), fs::absolute(dir / "meshes/block.msh").lexically_normal());
  ASSERT_FALSE(r.unsaved.tets.empty());
  {
    std::ofstream f(r.cache_file, std::ios::binary);
    f << format_tet_cache(r.unsaved, r.fingerprint);
  }

  // read: the same body as meshed (placed by the scene's position), nothing kept
  const Model read = load_scene_text(doc.dump(), dir.string());
  ASSERT_EQ(read.meshing.size(), 1u);
  EXPECT_EQ(read.meshing[0].cache_status, "read");
  EXPECT_TRUE(read.meshing[0].unsaved.tets.empty());
  ASSERT_EQ(read.fem[0].rest.nodes.size(), made.fem[0].rest.nodes.size());
  for (size_t i = 0; i < made.fem[0].rest.nodes.size(); ++i)
    EXPECT_EQ(read.fem[0].rest.nodes[i], made.fem[0].rest.nodes[i]) << i;
  EXPECT_EQ(read.fem[0].rest.tets, made.fem[0].rest.tets);

  // stale: a parameter changed the surface; meshed at load, the deeper pocket in the mesh
  const Model deeper = load_scene_text(doc.dump(), dir.string(), {parse_override("/parameters/depth_mm=6")});
  EXPECT_EQ(deeper.meshing[0].cache_status, "stale");
  EXPECT_NE(deeper.meshing[0].fingerprint, r.fingerprint);
  EXPECT_LT(total_volume(deeper.fem[0].rest), total_volume(made.fem[0].rest) - 1e-7);

  // no cache named: meshed, no status
  Json plain = doc;
  plain["bodies"][0]["mesh"]["tetrahedralize"].erase("cache");
  EXPECT_EQ(load_scene_text(plain.dump(), dir.string()).meshing[0].cache_status, "");

  // a broken cache is an issue at its key, naming the file; a cache must be a name
  {
    std::ofstream f(r.cache_file, std::ios::binary);
    f << "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n3\n";
  }
  scene_issues::expect_single_issue(doc, "/bodies/0/mesh/tetrahedralize/cache", "meshes/block.msh", dir.string());
  scene_issues::expect_single_issue(pocket_scene(""), "/bodies/0/mesh/tetrahedralize/cache", "a file name",
                                    dir.string());
  Json number = doc;
  number["bodies"][0]["mesh"]["tetrahedralize"]["cache"] = 3;
  scene_issues::expect_single_issue(number, "/bodies/0/mesh/tetrahedralize/cache", "string", dir.string());
  fs::remove_all(dir);
}

// The shipped scenes that tetrahedralize read their caches (natively and, with this suite
// under node, in WebAssembly): the page plays the CLI's mesh.  A failure here after a change
// to a generator, a scene's meshing options or the fingerprint means the caches are stale:
// `suction mesh scenes/NAME.json --write-cache` writes them again.
TEST(TetMeshCache, ShippedScenesReadTheirCaches) {
  for (const char* name : {"cube_halves", "air_tunnel", "tentacle"}) {
    SCOPED_TRACE(name);
    const Model m = load_scene_file(std::string(SUCTION_SCENES_DIR) + "/" + name + ".json");
    ASSERT_EQ(m.meshing.size(), 1u);
    EXPECT_EQ(m.meshing[0].cache_status, "read")
        << "fingerprint " << m.meshing[0].fingerprint << ": write the cache again (suction mesh --write-cache)";
    EXPECT_GT(m.meshing[0].min_radius_ratio, 0.02);
  }
}

}  // namespace
}  // namespace suction
