// Tetrahedral volume meshes and triangle surface meshes, the geometric input of every body.
#pragma once
#include <string>

#include "common/aabb.h"
#include "common/types.h"

namespace suction {

/// A linear tetrahedral mesh.  Tetrahedra are positively oriented:
/// (x1-x0)·((x2-x0)×(x3-x0)) > 0.
struct TetMesh {
  Points nodes;            // #nodes×3 [m]
  std::vector<Tet> tets;   // #tets×4 node indices
};

/// A closed or open triangle mesh.  Closed meshes are oriented with outward normals
/// (counter-clockwise seen from outside).
struct SurfaceMesh {
  Points vertices;         // #vertices×3 [m]
  std::vector<Tri> triangles;
};

/// The boundary of a tet mesh: its surface triangles, referencing volume-mesh nodes
/// through node_of_vertex, outward oriented.
struct BoundarySurface {
  SurfaceMesh surface;            // vertices are copies of the boundary nodes
  std::vector<int> node_of_vertex;  // surface vertex -> tet-mesh node
};

/// Caps on the size of one body's mesh, checked by the generators before they allocate and by
/// the readers as they read (scene key settings.limits; docs/reliability.md).  The defaults
/// are far above what a step can afford (the standard cup has 453 nodes) and far below what
/// exhausts memory.
struct MeshLimits {
  double max_nodes = 100000;       // nodes of a tet mesh, vertices of a surface
  double max_elements = 600000;    // tetrahedra
  double max_triangles = 1000000;  // surface triangles (rigid bodies' meshes, mesh files)
};
/// Throws InputError when count > cap: "<what>: <count> <noun>, more than the limit of <cap>
/// (settings.limits.<key>)".  Counts are doubles so that products of sizes cannot overflow.
void check_mesh_limit(double count, double cap, const char* noun, const char* key, const std::string& what);

/// signed volume of tetrahedron (a,b,c,d): (b-a)·((c-a)×(d-a))/6 [m³]
double tet_signed_volume(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);

/// Faces that belong to exactly one tetrahedron, oriented outward.
BoundarySurface extract_boundary(const TetMesh& mesh);

/// Quality of a tet: normalized radius ratio 3·r_in/r_circ, 1 for the regular tet, 0 flat.
double tet_radius_ratio(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);

/// Checks a tet mesh: indices in range, every tet with volume > rel_tol·(mean edge)³ and
/// positive orientation, no unused node.  Throws InputError naming the first bad tet.
void validate_tet_mesh(const TetMesh& mesh, const std::string& what, double rel_tol = 1e-9);

/// Total volume [m³] of a tet mesh.
double total_volume(const TetMesh& mesh);

/// Signed volume enclosed by a closed surface (divergence theorem) [m³].
double enclosed_volume(const SurfaceMesh& surface);

/// Checks that a surface is closed and consistently oriented (every edge shared by exactly
/// two triangles with opposite directions) and has positive enclosed volume; throws
/// InputError naming the problem otherwise.
void validate_closed_surface(const SurfaceMesh& surface, const std::string& what);

/// Axis-aligned bounding box of a point set.
Aabb bounding_box(const Points& points);

/// Applies x <- R x + t to every point.
void transform_points(Points& points, const Mat3& rotation, const Vec3& translation);

}  // namespace suction
