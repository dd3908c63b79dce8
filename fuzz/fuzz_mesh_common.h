// Shared checks of the mesh-reader targets (fuzz_gmsh, fuzz_obj, fuzz_stl).  GPL-3.0-or-later.
//
// A reader that returns must return a mesh the rest of the core can index safely: every
// triangle / tetrahedron index within the vertex array (the readers document that unused
// nodes are dropped, so indices are renumbered: an off-by-one there would be memory
// corruption later, in the loader).  After that the harness runs what the scene loader runs on
// a file mesh (validation, boundary extraction), whose clean rejection is InputError too.
#pragma once
#include <cstddef>

#include "fuzz_common.h"
#include "mesh/tet_mesh.h"

namespace suction_fuzz {

template <class Cells>
void check_indices(const char* target, const Cells& cells, std::size_t n_points) {
  for (const auto& c : cells)
    for (int i : c)
      if (i < 0 || static_cast<std::size_t>(i) >= n_points)
        unexpected(target, "the reader returned a cell whose index is out of range");
}

/// what the loader does with a surface from a file (rigid / fixed / kinematic bodies)
inline void check_surface(const char* target, const suction::SurfaceMesh& s) {
  check_indices(target, s.triangles, s.vertices.size());
  try {
    suction::validate_closed_surface(s, "fuzz surface");
    (void)suction::enclosed_volume(s);
    (void)suction::bounding_box(s.vertices);
  } catch (const suction::InputError&) {
  }
}

}  // namespace suction_fuzz
