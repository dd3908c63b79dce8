// Solids of revolution: a triangulated half cross-section in the (r, z) plane swept around z.
// Used by make_cylinder, make_sphere and make_cup.
#pragma once
#include <Eigen/Core>

#include "mesh/tet_mesh.h"

namespace suction {

/// A triangulated region of the half plane r >= 0; nodes with r == 0 lie on the axis.
struct Profile2D {
  std::vector<Eigen::Vector2d> nodes;  // #nodes×2 (r, z) [m]
  std::vector<Tri> triangles;          // #triangles×3 node indices (either orientation)
};

/// Sweeps the profile around z with `segments` angular steps.  Each (triangle × step) prism is
/// split in 3 tets by the min-global-index rule (Dompierre et al. 1999), axis nodes numbered
/// first, so the mesh is conforming; tets collapsed on the axis are dropped, the rest are
/// oriented positively.  Throws InputError on a degenerate profile triangle.
/// Checks the swept counts against `limits` first.
TetMesh revolve_profile(const Profile2D& profile, int segments, const MeshLimits& limits, const std::string& what);

/// Twice the signed area of the 2D triangle (a, b, c): > 0 when it turns counter-clockwise.
double signed_area2(const Eigen::Vector2d& a, const Eigen::Vector2d& b, const Eigen::Vector2d& c);

/// Adds the triangles of a structured grid of nodes (rows of equal length, row-major indices
/// into the profile), splitting each quad along its shorter diagonal.
void triangulate_grid(const std::vector<std::vector<int>>& rows, Profile2D& profile);

}  // namespace suction
