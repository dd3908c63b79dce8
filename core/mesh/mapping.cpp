// Barycentric mapping of points onto a tet mesh, accelerated by a uniform grid of tet boxes.
#include "mesh/mapping.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/error.h"

namespace suction {

namespace {

// closest point to p on triangle (a, b, c)   (Ericson, Real-Time Collision Detection, 5.1.5)
Vec3 closest_point_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const Vec3 bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + d1 / (d1 - d3) * ab;
  const Vec3 cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + d2 / (d2 - d6) * ac;
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) return b + (d4 - d3) / ((d4 - d3) + (d5 - d6)) * (c - b);
  const double denom = 1.0 / (va + vb + vc);
  return a + ab * (vb * denom) + ac * (vc * denom);
}

// uniform grid over the mesh box; each cell lists the tets whose box overlaps it
struct TetGrid {
  Vec3 origin, cell;                 // [m]
  std::array<int, 3> dims{1, 1, 1};
  std::vector<int> start, tets;      // CSR: tets of cell c are tets[start[c] .. start[c+1])

  int index(int i, int j, int k) const { return i + dims[0] * (j + dims[1] * k); }
  std::array<int, 3> cell_of(const Vec3& p) const {
    std::array<int, 3> c;
    for (int a = 0; a < 3; ++a)
      c[a] = std::clamp(static_cast<int>(std::floor((p[a] - origin[a]) / cell[a])), 0, dims[a] - 1);
    return c;
  }
};

TetGrid build_grid(const TetMesh& mesh) {
  TetGrid g;
  const Aabb box = bounding_box(mesh.nodes);
  const Vec3 extent = (box.hi - box.lo).cwiseMax(1e-12 * std::max(1.0, (box.hi - box.lo).maxCoeff()));
  // about one tet per cell
  const double h = std::cbrt(extent.prod() / static_cast<double>(mesh.tets.size()));
  for (int a = 0; a < 3; ++a)
    g.dims[a] = std::clamp(static_cast<int>(std::ceil(extent[a] / std::max(h, 1e-300))), 1, 128);
  g.origin = box.lo;
  for (int a = 0; a < 3; ++a) g.cell[a] = extent[a] / g.dims[a];

  // two passes: count, then fill
  const int n_cells = g.dims[0] * g.dims[1] * g.dims[2];
  g.start.assign(n_cells + 1, 0);
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<int> fill;
    if (pass == 1) {
      for (int c = 0; c < n_cells; ++c) g.start[c + 1] += g.start[c];
      g.tets.resize(g.start[n_cells]);
      fill.assign(g.start.begin(), g.start.end() - 1);
    }
    for (int t = 0; t < static_cast<int>(mesh.tets.size()); ++t) {
      Aabb tb;
      for (int n : mesh.tets[t]) tb.extend(mesh.nodes[n]);
      const auto lo = g.cell_of(tb.lo), hi = g.cell_of(tb.hi);
      for (int k = lo[2]; k <= hi[2]; ++k)
        for (int j = lo[1]; j <= hi[1]; ++j)
          for (int i = lo[0]; i <= hi[0]; ++i) {
            if (pass == 0) ++g.start[g.index(i, j, k) + 1];
            else g.tets[fill[g.index(i, j, k)]++] = t;
          }
    }
  }
  return g;
}

// barycentric weights of p in tet t: w = (1 - Σλ, λ), λ = D⁻¹ (p - x0)
Eigen::Vector4d barycentric(const TetMesh& mesh, const Tet& t, const Vec3& p) {
  const Vec3& x0 = mesh.nodes[t[0]];
  Mat3 d;
  d << mesh.nodes[t[1]] - x0, mesh.nodes[t[2]] - x0, mesh.nodes[t[3]] - x0;
  const Vec3 lambda = d.partialPivLu().solve(p - x0);
  return Eigen::Vector4d(1.0 - lambda.sum(), lambda[0], lambda[1], lambda[2]);
}

// distance from p to tet t (0 inside): the closest point is on a face whose opposite weight
// is negative
double distance_to_tet(const TetMesh& mesh, const Tet& t, const Vec3& p, const Eigen::Vector4d& w) {
  if (w.minCoeff() >= 0) return 0.0;
  double best = std::numeric_limits<double>::infinity();
  for (int f = 0; f < 4; ++f) {
    if (w[f] >= 0) continue;
    const Vec3& a = mesh.nodes[t[(f + 1) % 4]];
    const Vec3& b = mesh.nodes[t[(f + 2) % 4]];
    const Vec3& c = mesh.nodes[t[(f + 3) % 4]];
    best = std::min(best, (closest_point_on_triangle(p, a, b, c) - p).norm());
  }
  return best;
}

}  // namespace

BarycentricMapping map_points_to_tets(const TetMesh& mesh, const Points& points) {
  if (mesh.tets.empty()) throw InputError("map_points_to_tets: the mesh has no tetrahedra");
  const TetGrid grid = build_grid(mesh);
  BarycentricMapping map;
  map.tet.resize(points.size());
  map.weights.resize(points.size());
  std::vector<int> seen(mesh.tets.size(), -1);  // last point that tested each tet

  for (size_t i = 0; i < points.size(); ++i) {
    const Vec3& p = points[i];
    const auto centre = grid.cell_of(p);
    // best: smallest distance, then largest minimum weight (the most interior tet)
    int best = -1;
    double best_distance = std::numeric_limits<double>::infinity(), best_min_weight = -1e300;
    Eigen::Vector4d best_w = Eigen::Vector4d::Zero();
    // search growing shells of cells around the point's cell until no unseen tet can be closer
    for (int ring = 0;; ++ring) {
      std::array<int, 3> lo, hi;
      for (int a = 0; a < 3; ++a) {
        lo[a] = std::max(0, centre[a] - ring);
        hi[a] = std::min(grid.dims[a] - 1, centre[a] + ring);
      }
      for (int k = lo[2]; k <= hi[2]; ++k)
        for (int j = lo[1]; j <= hi[1]; ++j)
          for (int l = lo[0]; l <= hi[0]; ++l) {
            const bool on_shell = std::abs(l - centre[0]) == ring || std::abs(j - centre[1]) == ring ||
                                  std::abs(k - centre[2]) == ring;
            if (!on_shell) continue;
            const int c = grid.index(l, j, k);
            for (int s = grid.start[c]; s < grid.start[c + 1]; ++s) {
              const int t = grid.tets[s];
              if (seen[t] == static_cast<int>(i)) continue;
              seen[t] = static_cast<int>(i);
              const Eigen::Vector4d w = barycentric(mesh, mesh.tets[t], p);
              const double d = distance_to_tet(mesh, mesh.tets[t], p, w);
              const double mw = w.minCoeff();
              if (d < best_distance || (d == best_distance && mw > best_min_weight)) {
                best = t, best_distance = d, best_min_weight = mw, best_w = w;
              }
            }
          }
      // tets not seen yet lie beyond the searched block: bound their distance from below
      double bound = std::numeric_limits<double>::infinity();
      bool covered = true;
      for (int a = 0; a < 3; ++a) {
        if (lo[a] > 0) {  // unseen cells below the block along axis a
          covered = false;
          bound = std::min(bound, std::max(0.0, p[a] - (grid.origin[a] + lo[a] * grid.cell[a])));
        }
        if (hi[a] < grid.dims[a] - 1) {  // unseen cells above
          covered = false;
          bound = std::min(bound, std::max(0.0, grid.origin[a] + (hi[a] + 1) * grid.cell[a] - p[a]));
        }
      }
      // an unseen tet is at least `bound` away (and a containing tet is always in ring 0)
      if (covered || (best >= 0 && (best_distance < bound || (best_distance == 0.0 && bound > 0.0))))
        break;
    }
    map.tet[i] = best;
    map.weights[i] = best_w;
  }
  return map;
}

void apply_mapping(const BarycentricMapping& map, const TetMesh& mesh, const Points& x, Points& points) {
  points.resize(map.tet.size());
  for (size_t i = 0; i < map.tet.size(); ++i) {
    const Tet& t = mesh.tets[map.tet[i]];
    const Eigen::Vector4d& w = map.weights[i];
    points[i] = w[0] * x[t[0]] + w[1] * x[t[1]] + w[2] * x[t[2]] + w[3] * x[t[3]];
  }
}

void apply_mapping_transpose(const BarycentricMapping& map, const TetMesh& mesh,
                             const Points& point_forces, Points& node_forces) {
  if (node_forces.size() < mesh.nodes.size()) node_forces.resize(mesh.nodes.size(), Vec3::Zero());
  for (size_t i = 0; i < map.tet.size(); ++i) {
    const Tet& t = mesh.tets[map.tet[i]];
    for (int k = 0; k < 4; ++k) node_forces[t[k]] += map.weights[i][k] * point_forces[i];
  }
}

}  // namespace suction
