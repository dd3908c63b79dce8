// suction mesh SCENE --body NAME --out FILE.msh: writes an FEM body's tet mesh, as the scene
// builds it (a generator, or a surface tetrahedralized at load), to a Gmsh file.
// suction mesh SCENE --write-cache: writes the cache file of every body whose "tetrahedralize"
// names one ("cache") that is missing or stale, so that the native and the WebAssembly builds,
// whose mesher makes different meshes, read the same one (docs/cli.md, docs/decisions.md).
#include <fstream>
#include <iostream>

#include "cavity_cgal/tet_mesh_cache.h"
#include "cli_common.h"
#include "mesh/mesh_io.h"

namespace suction::cli {

void add_mesh_command(CLI::App& app, MeshOptions& options, CLI::App*& command) {
  command = app.add_subcommand(
      "mesh", "write an FEM body's tetrahedral mesh, as the scene builds it, to a Gmsh .msh file, or the scene's "
              "mesh caches (--write-cache)");
  add_scene_options(command, options.scene);
  auto* body = command->add_option("--body", options.body, "the FEM body (its name in the scene)");
  auto* out = command->add_option("--out,-o", options.out, "the .msh file to write (Gmsh ASCII 2.2)");
  auto* cache = command->add_flag("--write-cache", options.write_cache,
                                  "write every \"tetrahedralize\" cache file of the scene that is missing or stale");
  body->needs(out);
  out->needs(body);
  cache->excludes(body)->excludes(out);
}

namespace {

int write_caches(const Model& model) {
  int written = 0, current = 0;
  for (const MeshingRecord& r : model.meshing) {
    if (r.cache_file.empty()) continue;
    if (r.cache_status == "read") {
      ++current;
      std::cout << r.body << ": " << r.cache_file << " is up to date (fingerprint " << r.fingerprint << ")\n";
      continue;
    }
    std::ofstream f(r.cache_file, std::ios::binary);
    if (!f) throw InputError(r.cache_file + ": cannot open for writing");
    f << format_tet_cache(r.unsaved, r.fingerprint);
    f.close();
    if (!f) throw InputError(r.cache_file + ": write failed");
    ++written;
    std::cout << r.body << ": wrote " << r.cache_file << " (" << r.unsaved.nodes.size() << " nodes, "
              << r.unsaved.tets.size() << " tetrahedra, fingerprint " << r.fingerprint << ", was "
              << r.cache_status << ")\n";
  }
  if (written + current == 0)
    throw InputError("--write-cache: no body of the scene names a mesh cache (\"tetrahedralize\": {\"cache\": FILE})");
  return kExitOk;
}

}  // namespace

int mesh_command(const MeshOptions& options) {
  const Model model = load_model(options.scene);
  if (options.write_cache) return write_caches(model);
  if (options.body.empty()) throw InputError("mesh: give --body NAME --out FILE.msh, or --write-cache");
  const FemBody* body = nullptr;
  std::string names;
  for (const FemBody& b : model.fem) {
    if (b.name == options.body) body = &b;
    names += (names.empty() ? "" : ", ") + b.name;
  }
  if (!body)
    throw InputError("--body: the scene has no FEM body '" + options.body + "' (its FEM bodies: " +
                     (names.empty() ? "none" : names) + ")");
  // the rest mesh as placed in the scene: a scene that reads the file places it with no offset
  write_gmsh(options.out, body->rest);
  std::cout << "wrote " << options.out << ": " << body->rest.nodes.size() << " nodes, " << body->rest.tets.size()
            << " tetrahedra of '" << body->name << "' (world coordinates of the scene's placement)\n";
  for (const MeshingRecord& r : model.meshing)
    if (r.body == body->name)
      std::cout << format("%s in %.0f ms (worst radius ratio %.3f)\n",
                          r.cache_status == "read" ? "read from its mesh cache" : "tetrahedralized at load",
                          1e3 * r.seconds, r.min_radius_ratio);
  return kExitOk;
}

}  // namespace suction::cli
