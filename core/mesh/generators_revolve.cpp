// Revolved tet meshes: the sweep of a 2D profile, and the cylinder and ball built with it.
#include <algorithm>
#include <cmath>

#include "common/error.h"
#include "mesh/generators.h"
#include "mesh/revolve.h"

namespace suction {

namespace {

// splits a prism (bottom a0 b0 c0, top a1 b1 c1 = local 0..5, global indices g) in 3 tets with
// the min-global-index rule: the cone from the smallest vertex m over the faces not containing
// m; the quad not containing m is cut along the diagonal through its own smallest vertex
void split_prism(const std::array<int, 6>& g, std::vector<Tet>& tets) {
  // smallest vertex, ties (an axis node seen twice) broken by local index
  int m = 0;
  for (int l = 1; l < 6; ++l)
    if (g[l] < g[m]) m = l;
  // relabel so that m is local 0: rotate the triangles, swap bottom and top if m is on top
  const int shift = m % 3;
  const bool on_top = m >= 3;
  std::array<int, 6> p;
  for (int k = 0; k < 3; ++k) {
    const int bottom = (k + shift) % 3, top = bottom + 3;
    p[k] = g[on_top ? top : bottom];
    p[k + 3] = g[on_top ? bottom : top];
  }
  // cone over the opposite triangle, then over the quad (1, 2, 5, 4)
  tets.push_back({p[0], p[3], p[4], p[5]});
  const int quad_min = std::min({p[1], p[2], p[4], p[5]});
  if (quad_min == p[1] || quad_min == p[5]) {  // diagonal 1-5
    tets.push_back({p[0], p[1], p[2], p[5]});
    tets.push_back({p[0], p[1], p[5], p[4]});
  } else {  // diagonal 2-4
    tets.push_back({p[0], p[1], p[2], p[4]});
    tets.push_back({p[0], p[4], p[2], p[5]});
  }
}

bool has_repeated_node(const Tet& t) {
  for (int k = 0; k < 4; ++k)
    for (int l = k + 1; l < 4; ++l)
      if (t[k] == t[l]) return true;
  return false;
}

// triangulates the band between two polylines given by node indices, both parametrised
// from 0 to 1 (advancing front: always step along the one whose next node comes first)
void triangulate_band(const std::vector<int>& inner, const std::vector<int>& outer,
                      Profile2D& profile) {
  size_t i = 0, j = 0;
  const double ni = static_cast<double>(inner.size() - 1), no = static_cast<double>(outer.size() - 1);
  while (i + 1 < inner.size() || j + 1 < outer.size()) {
    const bool step_inner =
        j + 1 >= outer.size() || (i + 1 < inner.size() && (i + 1) / ni <= (j + 1) / no);
    if (step_inner) {
      profile.triangles.push_back({inner[i], inner[i + 1], outer[j]});
      ++i;
    } else {
      profile.triangles.push_back({inner[i], outer[j + 1], outer[j]});
      ++j;
    }
  }
}

}  // namespace

double signed_area2(const Eigen::Vector2d& a, const Eigen::Vector2d& b, const Eigen::Vector2d& c) {
  const Eigen::Vector2d u = b - a, v = c - a;
  return u.x() * v.y() - u.y() * v.x();
}

void triangulate_grid(const std::vector<std::vector<int>>& rows, Profile2D& profile) {
  const auto& x = profile.nodes;
  for (size_t i = 0; i + 1 < rows.size(); ++i) {
    for (size_t j = 0; j + 1 < rows[i].size(); ++j) {
      const int a = rows[i][j], b = rows[i][j + 1], c = rows[i + 1][j + 1], d = rows[i + 1][j];
      if ((x[a] - x[c]).squaredNorm() <= (x[b] - x[d]).squaredNorm()) {
        profile.triangles.push_back({a, b, c});
        profile.triangles.push_back({a, c, d});
      } else {
        profile.triangles.push_back({a, b, d});
        profile.triangles.push_back({b, c, d});
      }
    }
  }
}

TetMesh revolve_profile(const Profile2D& profile, int segments, const MeshLimits& limits,
                        const std::string& what) {
  const int n2 = static_cast<int>(profile.nodes.size());
  double scale = 0.0;
  for (const auto& q : profile.nodes) scale = std::max(scale, q.cwiseAbs().maxCoeff());
  const double axis_tol = 1e-12 * scale;
  check_mesh_limit(double(n2) * segments, limits.max_nodes, "nodes", "max_nodes", what);
  check_mesh_limit(3.0 * double(profile.triangles.size()) * segments, limits.max_elements, "tetrahedra",
                   "max_elements", what);

  // numbering: axis nodes first (they get the smallest indices), then the others angle-minor
  std::vector<int> first_index(n2);
  std::vector<char> on_axis(n2);
  int n_axis = 0;
  for (int j = 0; j < n2; ++j) {
    on_axis[j] = profile.nodes[j].x() <= axis_tol;
    if (on_axis[j]) first_index[j] = n_axis++;
  }
  int next = n_axis;
  for (int j = 0; j < n2; ++j)
    if (!on_axis[j]) {
      first_index[j] = next;
      next += segments;
    }
  auto global = [&](int j, int k) { return on_axis[j] ? first_index[j] : first_index[j] + k % segments; };

  TetMesh mesh;
  mesh.nodes.resize(next);
  for (int j = 0; j < n2; ++j) {
    const double r = profile.nodes[j].x(), z = profile.nodes[j].y();
    if (on_axis[j]) {
      mesh.nodes[first_index[j]] = Vec3(0.0, 0.0, z);
      continue;
    }
    for (int k = 0; k < segments; ++k) {
      const double theta = 2.0 * kPi * k / segments;
      mesh.nodes[first_index[j] + k] = Vec3(r * std::cos(theta), r * std::sin(theta), z);
    }
  }

  std::vector<Tet> candidates;
  for (const Tri& t : profile.triangles) {
    if (std::abs(signed_area2(profile.nodes[t[0]], profile.nodes[t[1]], profile.nodes[t[2]])) <=
        1e-12 * scale * scale)
      throw InputError("revolve: degenerate profile triangle");
    for (int k = 0; k < segments; ++k) {
      split_prism({global(t[0], k), global(t[1], k), global(t[2], k), global(t[0], k + 1),
                   global(t[1], k + 1), global(t[2], k + 1)},
                  candidates);
    }
  }
  // drop the tets collapsed on the axis, orient the others positively
  for (Tet t : candidates) {
    if (has_repeated_node(t)) continue;
    if (tet_signed_volume(mesh.nodes[t[0]], mesh.nodes[t[1]], mesh.nodes[t[2]], mesh.nodes[t[3]]) < 0)
      std::swap(t[2], t[3]);
    mesh.tets.push_back(t);
  }
  return mesh;
}

TetMesh make_cylinder(double radius, double height, int resolution, const MeshLimits& limits) {
  if (!(radius > 0) || !(height > 0)) throw InputError("make_cylinder: radius and height must be positive");
  if (resolution < 6) throw InputError("make_cylinder: resolution must be >= 6");
  // the half cross-section [0, r]×[-h/2, h/2], element size ~ the circumferential spacing
  const double spacing = 2.0 * kPi * radius / resolution;
  // the counts before the profile is built (its rows could already be too many)
  const double n_rows = std::max(1.0, std::round(height / spacing)) + 1.0;
  const double n_cols = std::max(1.0, std::round(radius / spacing));
  check_mesh_limit(n_rows * (n_cols * resolution + 1.0), limits.max_nodes, "nodes", "max_nodes", "cylinder");
  check_mesh_limit(6.0 * n_rows * n_cols * resolution, limits.max_elements, "tetrahedra", "max_elements",
                   "cylinder");
  const int nr = std::max(1, static_cast<int>(std::lround(radius / spacing)));
  const int nz = std::max(1, static_cast<int>(std::lround(height / spacing)));
  Profile2D profile;
  std::vector<std::vector<int>> rows(nz + 1);
  for (int i = 0; i <= nz; ++i)
    for (int j = 0; j <= nr; ++j) {
      rows[i].push_back(static_cast<int>(profile.nodes.size()));
      profile.nodes.emplace_back(radius * j / nr, -0.5 * height + height * i / nz);
    }
  triangulate_grid(rows, profile);
  return revolve_profile(profile, resolution, limits, "cylinder");
}

TetMesh make_sphere(double radius, int resolution, const MeshLimits& limits) {
  if (!(radius > 0)) throw InputError("make_sphere: radius must be positive");
  if (resolution < 6) throw InputError("make_sphere: resolution must be >= 6");
  // the half disk in rings: ring i at radius R i/n has ~3i segments over the polar angle [0, π]
  const int meridian = std::max(3, resolution / 2);
  const int n_rings = std::max(1, static_cast<int>(std::lround(meridian / 3.0)));
  // about n_rings·meridian/2 profile nodes, each swept into `resolution` nodes
  check_mesh_limit(double(n_rings) * (meridian + 1.0) / 2.0 * resolution, limits.max_nodes, "nodes",
                   "max_nodes", "sphere");
  Profile2D profile;
  profile.nodes.emplace_back(0.0, 0.0);
  std::vector<int> previous = {0};
  for (int i = 1; i <= n_rings; ++i) {
    const int m = std::max(2, static_cast<int>(std::lround(static_cast<double>(i) * meridian / n_rings)));
    const double rho = radius * i / n_rings;
    std::vector<int> ring;
    for (int l = 0; l <= m; ++l) {
      const double phi = kPi * l / m;  // polar angle from +z
      ring.push_back(static_cast<int>(profile.nodes.size()));
      // exact zeros on the axis so that the poles are shared by every angle
      const double r = (l == 0 || l == m) ? 0.0 : rho * std::sin(phi);
      const double z = l == 0 ? rho : l == m ? -rho : rho * std::cos(phi);
      profile.nodes.emplace_back(r, z);
    }
    if (i == 1) {
      for (int l = 0; l < m; ++l) profile.triangles.push_back({0, ring[l + 1], ring[l]});
    } else {
      triangulate_band(previous, ring, profile);
    }
    previous = ring;
  }
  return revolve_profile(profile, resolution, limits, "sphere");
}

}  // namespace suction
