// libFuzzer target: suction::parse_gmsh (core/mesh/mesh_io.h), Gmsh ASCII v2 / v4 tetrahedra,
// on arbitrary bytes; then what the loader does with the result (tet-mesh validation, the
// boundary surface).  Clean rejection: InputError.  GPL-3.0-or-later.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_mesh_common.h"
#include "mesh/mesh_io.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const suction::TetMesh mesh = suction::parse_gmsh(text, "fuzz.msh");
    suction_fuzz::check_indices("fuzz_gmsh", mesh.tets, mesh.nodes.size());
    try {
      suction::validate_tet_mesh(mesh, "fuzz.msh");
      (void)suction::total_volume(mesh);
    } catch (const suction::InputError&) {
    }
    // the loader takes the boundary of a .msh for rigid bodies (read_surface), validated or not
    suction_fuzz::check_surface("fuzz_gmsh", suction::extract_boundary(mesh).surface);
  } catch (const suction::InputError&) {
  } catch (const std::exception& e) {
    suction_fuzz::unexpected_exception("fuzz_gmsh", e);
  }
  return 0;
}
