// Barycentric mapping of points onto tetrahedra (the "mapping" of Bernardin 2023, sec. 3.1):
// positions and velocities flow from nodes to points, forces flow back with the same weights.
#pragma once
#include "mesh/tet_mesh.h"

namespace suction {

struct BarycentricMapping {
  std::vector<int> tet;                  // #points: tetrahedron containing (or nearest to) each point
  std::vector<Eigen::Vector4d> weights;  // #points×4 barycentric weights (sum 1)
};

/// Maps each point to the tetrahedron that contains it, or, for a point outside the mesh, to
/// the nearest one (weights then extrapolate).  Uses a uniform grid over the tets.
BarycentricMapping map_points_to_tets(const TetMesh& mesh, const Points& points);

/// points[i] = Σ_k w_ik x[tet_i,k]   (also used for velocities)
void apply_mapping(const BarycentricMapping& map, const TetMesh& mesh, const Points& x,
                   Points& points);

/// node_forces[tet_i,k] += w_ik f_i   (the transpose of apply_mapping)
void apply_mapping_transpose(const BarycentricMapping& map, const TetMesh& mesh,
                             const Points& point_forces, Points& node_forces);

}  // namespace suction
