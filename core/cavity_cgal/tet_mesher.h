// Tetrahedral meshes of arbitrary closed triangle surfaces (CGAL Mesh_3, docs/method.md §1):
// bodies with holes, pockets and tunnels, and FEM bodies read from OBJ / STL surfaces.
// CGAL stays in tet_mesher.cpp (this target, suction_cavity_cgal, is the only one that sees it).
#pragma once
#include <stdexcept>
#include <string>

#include "mesh/tet_mesh.h"

namespace suction {

/// How finely and how well a closed surface is tetrahedralized.  Lengths in the surface's
/// units [m].  cell_size is the one knob most callers set: every other length defaults to a
/// fixed fraction of it (0 below means "derived from cell_size").
struct TetMeshingOptions {
  double cell_size = 0.0;         // target edge length of the tets (circumradius bound) [m]; > 0
  double facet_size = 0.0;        // surface triangle size bound [m]; 0: cell_size
  double edge_size = 0.0;         // sampling of the sharp edges kept as features [m]; 0: cell_size
  double facet_distance = 0.0;    // surface triangles' centres from the input surface [m]; 0: cell_size / 10
  double facet_angle_deg = 25.0;  // lower bound of the surface triangles' angles [deg], <= 30
  double radius_edge_ratio = 3.0; // upper bound of circumradius / shortest edge of a tet, >= 2
  bool sharp_features = true;     // keep the input's sharp edges and corners (dihedral > 180 - feature_angle_deg)
  double feature_angle_deg = 60.0;  // edges whose facets' normals differ by more are features
  unsigned int seed = 0;          // CGAL's random generator for the run (the same mesh every run)
  /// the sliver perturber moves vertices until every tet's smallest dihedral angle exceeds
  /// this, or it can do no better [deg]; 0: no perturbation (faster, may leave flat tets)
  double perturb_dihedral_deg = 5.0;
  /// tets whose radius ratio (tet_radius_ratio) is below this and that touch the boundary with
  /// two faces or more are removed after meshing (the flat "slivers" the exuder could not fix
  /// on the surface); interior ones are kept (removing one would open a hole)
  double sliver_radius_ratio = 0.02;
  /// caps on the result (checked on an estimate from cell_size before meshing, and after)
  MeshLimits limits;
};

/// What one meshing run did.
struct TetMeshingReport {
  double seconds = 0.0;           // wall time of the meshing (check, Mesh_3, exude, extraction) [s]
  int removed_slivers = 0;        // boundary slivers removed (TetMeshingOptions::sliver_radius_ratio)
  double min_radius_ratio = 0.0;  // worst tet of the result (1: regular, 0: flat)
};

/// Why a surface could not be tetrahedralized (open, non-manifold, self-intersecting,
/// or nothing meshed); the message starts with the name given to mesh_closed_surface.
class TetMeshingError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The tetrahedral mesh of the solid bounded by `surface` (closed, outward oriented, 2-manifold,
/// without self-intersections; every connected component closed, so voids and tunnels are
/// allowed): nodes and positively oriented tets (TetMesh's convention), every node used,
/// validated with validate_tet_mesh.  Deterministic: the same input and options give the same
/// mesh on every run (sequential Mesh_3, CGAL's random generators seeded with options.seed or
/// fixed, perturbation and exudation without a time limit).  Throws TetMeshingError starting
/// with `name` for a bad surface, bad options or an empty result.
TetMesh mesh_closed_surface(const SurfaceMesh& surface, const TetMeshingOptions& options,
                            const std::string& name, TetMeshingReport* report = nullptr);

}  // namespace suction
