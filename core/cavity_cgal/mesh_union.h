// Boolean union of closed triangle meshes (two, or a whole group of bodies) and its connected
// components, with the origin of every output face (docs/method.md §9 and §9.4).  CGAL is
// included only by the target suction_cavity_cgal (this union and the tetrahedral mesher).
#pragma once
#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/types.h"

namespace suction {

/// A closed, consistently oriented (outward), self-intersection-free triangle mesh.
struct UnionMesh {
  Points vertices;
  std::vector<Tri> triangles;
  /// The self-intersection check the union runs.  false: every pair of triangles.  true: the
  /// mesh is a rigid motion of one that passed check_union_input, except for the vertices in
  /// `moved`.  A rigid motion creates no self-intersection, so only the triangles around
  /// `moved` and the triangles whose boxes meet theirs are checked (none when `moved` is empty).
  /// The cavity stage sets it for rigid bodies (their offset moves a few vertices).
  bool rigid_motion_of_checked = false;
  std::vector<int> moved;  // with rigid_motion_of_checked: the vertices moved off the motion
  std::string name;        // how errors name it ("mesh 0", "mesh a" when empty)
};

/// An input of a union whose triangles crossed each other (a body folded through itself), made
/// valid before the union: the patch of the crossing triangles (grown by a ring after three
/// rounds) smoothed, every vertex halfway to the mean of its neighbours per round, until no two
/// triangles cross (at most 12 rounds).  The union's copy only: its faces keep their input
/// triangles, and the cavities built on them are evaluated at the real positions.
struct UnionRepair {
  int mesh = 0;            // its index in the union's meshes
  int crossing_pairs = 0;  // the pairs of its triangles that crossed
  Vec3 where = Vec3::Zero();  // the mean centroid of the crossing triangles [m]
  double max_move = 0.0;   // the farthest the smoothing moved a vertex [m]
};

/// One connected component of the union's boundary.
struct UnionComponent {
  Points vertices;
  std::vector<Tri> triangles;     // oriented as the union's boundary (outward of the solid)
  std::vector<int> face_body;     // per triangle: index of the input mesh it lies on (0 = a, 1 = b)
  std::vector<int> face_source;   // per triangle: index of the input triangle it lies in
  double volume = 0.0;            // signed, by the divergence theorem: the outer skin > 0,
                                  // a void (cavity) inside the union < 0
};

/// Why a union could not be computed (input not closed, self-intersecting, or CGAL failed).
class MeshUnionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Checks that `m` can enter a union: a closed, outward-oriented 2-manifold without
/// self-intersections and with finite coordinates.  Throws MeshUnionError starting with `name`
/// otherwise (the scene loader calls it on mesh files, so a bad file is an error at load time
/// rather than when its body first seals).
void check_union_input(const UnionMesh& m, const std::string& name);

/// The pairs of triangles of `m` that intersect other than along their shared vertices or
/// edge (PMP::self_intersections), each pair (lower index, higher), sorted.  `m` need not be
/// closed.  For reports: where a surface handed to the union self-intersects.
std::vector<std::array<int, 2>> self_intersecting_triangles(const UnionMesh& m);

/// Union of a and b (CGAL Polygon Mesh Processing corefinement), split into connected
/// components (sorted by decreasing |volume|).  Two disjoint meshes give two components.
/// Throws MeshUnionError naming the offending mesh ("mesh a"/"mesh b") when an input is not
/// closed or self-intersects, or when the corefinement fails.
/// With `repairs`, an input whose triangles cross is repaired (UnionRepair, appended to
/// *repairs) instead of refused; without, it is an error.
std::vector<UnionComponent> mesh_union_components(const UnionMesh& a, const UnionMesh& b,
                                                  std::vector<UnionRepair>* repairs = nullptr);

/// Union of every mesh of `meshes` (at least one), united one after the other in their order:
/// ((m0 ∪ m1) ∪ m2) ∪ ...; face_body is the index in `meshes`.  With two meshes it is exactly
/// mesh_union_components(a, b).  The meshes need not all touch: disjoint ones stay separate
/// components.  Errors as above, naming the mesh by its index ("mesh 2").
std::vector<UnionComponent> mesh_union_components(const std::vector<UnionMesh>& meshes,
                                                  std::vector<UnionRepair>* repairs = nullptr);

}  // namespace suction
