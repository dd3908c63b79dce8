// Mesh import: Gmsh .msh (tetrahedra, format v2 and v4 ASCII), OBJ and STL closed surfaces;
// export of tetrahedra as Gmsh .msh (v2.2 ASCII).
// Every reader throws InputError naming the file, the line and what was expected; coordinates
// must be finite; the counts are checked against MeshLimits.
#pragma once
#include <string>

#include "mesh/tet_mesh.h"

namespace suction {

/// Reads the 4-node tetrahedra (element type 4) of a Gmsh ASCII mesh, v2.x or v4.x; other
/// element types are ignored; nodes not used by a tetrahedron are dropped; tetrahedra with
/// negative orientation are flipped.
TetMesh read_gmsh(const std::string& path, const MeshLimits& limits = {});
TetMesh parse_gmsh(const std::string& text, const std::string& name_for_errors, const MeshLimits& limits = {});

/// A tet mesh as Gmsh ASCII 2.2 text: nodes with 17 significant digits, so parse_gmsh gives
/// back the same nodes bit for bit and the same tets (positively oriented ones unchanged).
std::string format_gmsh(const TetMesh& mesh);
/// format_gmsh into a file; InputError naming the path when it cannot be written.
void write_gmsh(const std::string& path, const TetMesh& mesh);

/// Reads a Wavefront OBJ (v and f lines; polygons fan-triangulated; v/vt/vn forms accepted).
SurfaceMesh read_obj(const std::string& path, const MeshLimits& limits = {});
SurfaceMesh parse_obj(const std::string& text, const std::string& name_for_errors,
                      const MeshLimits& limits = {});

/// Reads an STL, ASCII or binary; coincident vertices are merged (exact match).
SurfaceMesh read_stl(const std::string& path, const MeshLimits& limits = {});
SurfaceMesh parse_stl(const std::string& bytes, const std::string& name_for_errors,
                      const MeshLimits& limits = {});

/// Reads a surface by extension (.obj or .stl) or a tet mesh (.msh).
SurfaceMesh read_surface(const std::string& path, const MeshLimits& limits = {});

}  // namespace suction
