// suction mesh SCENE --body NAME --out FILE.msh: writes an FEM body's tet mesh, as the scene
// builds it (a generator, or a surface tetrahedralized at load), to a Gmsh file.  A mesh that
// the native and the WebAssembly builds would make differently (the tetrahedral mesher) is made
// once this way, and the scene reads the file in both (docs/cli.md, docs/decisions.md).
#include <iostream>

#include "cli_common.h"
#include "mesh/mesh_io.h"

namespace suction::cli {

void add_mesh_command(CLI::App& app, MeshOptions& options, CLI::App*& command) {
  command = app.add_subcommand(
      "mesh", "write an FEM body's tetrahedral mesh, as the scene builds it, to a Gmsh .msh file");
  add_scene_options(command, options.scene);
  command->add_option("--body", options.body, "the FEM body (its name in the scene)")->required();
  command->add_option("--out,-o", options.out, "the .msh file to write (Gmsh ASCII 2.2)")->required();
}

int mesh_command(const MeshOptions& options) {
  const Model model = load_model(options.scene);
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
      std::cout << format("tetrahedralized at load in %.0f ms (worst radius ratio %.3f)\n", 1e3 * r.seconds,
                          r.min_radius_ratio);
  return kExitOk;
}

}  // namespace suction::cli
