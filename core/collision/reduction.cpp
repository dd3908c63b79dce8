// Contact reduction (docs/method.md §5.7); the rules and why they are exact are in reduction.h.
#include "collision/reduction.h"

#include <algorithm>
#include <cmath>

#include <Eigen/QR>

namespace suction {
namespace {

constexpr double kSameNormalCos = 1.0 - 1e-9;  // two unit normals this close are one direction

bool vertex_triangle(const Contact& c) { return c.a.count == 1 && c.b.count == 3 && c.a.body != c.b.body; }

double cross2(const Eigen::Vector2d& o, const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
  return (a - o).x() * (b - o).y() - (a - o).y() * (b - o).x();
}

// indices (into uv) of the strict corners of the convex hull of uv (Andrew's monotone chain;
// points on an edge within `eps` of collinear are not corners); deterministic: ties in the sort
// go by index
std::vector<int> hull_corners(const std::vector<Eigen::Vector2d>& uv, double eps) {
  const int n = static_cast<int>(uv.size());
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](int i, int j) {
    if (uv[i].x() != uv[j].x()) return uv[i].x() < uv[j].x();
    if (uv[i].y() != uv[j].y()) return uv[i].y() < uv[j].y();
    return i < j;
  });
  std::vector<int> hull(2 * n);
  int k = 0;
  for (int i = 0; i < n; ++i) {  // lower chain
    while (k >= 2 && cross2(uv[hull[k - 2]], uv[hull[k - 1]], uv[order[i]]) <= eps) --k;
    hull[k++] = order[i];
  }
  for (int i = n - 2, lower = k + 1; i >= 0; --i) {  // upper chain
    while (k >= lower && cross2(uv[hull[k - 2]], uv[hull[k - 1]], uv[order[i]]) <= eps) --k;
    hull[k++] = order[i];
  }
  hull.resize(std::max(k - 1, 1));  // the last point repeats the first
  return hull;
}

struct Patch {
  int body_a, body_b;
  Vec3 normal;
  std::vector<int> members;  // contact indices, ascending
};

// rule 2 on one patch: marks the contacts inside the hull as dropped; returns how many
int reduce_patch(const std::vector<Contact>& contacts, const Patch& patch, double gap_tolerance,
                 std::vector<char>& keep) {
  const int n = static_cast<int>(patch.members.size());
  if (n < 4) return 0;  // a triangle or less: every point is a corner
  const Vec3 t1 = patch.normal.unitOrthogonal(), t2 = patch.normal.cross(t1);  // the contact plane
  const Vec3 origin = contacts[patch.members[0]].point_a;
  std::vector<Eigen::Vector2d> uv(n);
  Eigen::MatrixXd A(n, 3);
  VecX gap(n);
  Eigen::Vector2d lo = Eigen::Vector2d::Constant(INFINITY), hi = -lo;
  for (int i = 0; i < n; ++i) {
    const Contact& c = contacts[patch.members[i]];
    const Vec3 d = c.point_a - origin;
    uv[i] = {d.dot(t1), d.dot(t2)};
    lo = lo.cwiseMin(uv[i]);
    hi = hi.cwiseMax(uv[i]);
    A.row(i) << 1.0, uv[i].x(), uv[i].y();
    gap[i] = c.gap;
  }
  // the gaps must be one plane over the patch (two flat faces), or an inner point could be
  // closer than its corners say
  const Eigen::Vector3d plane = A.colPivHouseholderQr().solve(gap);
  if (!((A * plane - gap).cwiseAbs().maxCoeff() <= gap_tolerance)) return 0;
  const double extent = (hi - lo).maxCoeff();
  const std::vector<int> corners = hull_corners(uv, 1e-9 * extent * extent);
  std::vector<char> corner(n, 0);
  for (int i : corners) corner[i] = 1;
  int dropped = 0;
  for (int i = 0; i < n; ++i)
    if (!corner[i]) {
      keep[patch.members[i]] = 0;
      ++dropped;
    }
  return dropped;
}

}  // namespace

std::vector<char> flat_vertices(const Points& vertices, const std::vector<Tri>& triangles) {
  const int nv = static_cast<int>(vertices.size());
  std::vector<char> seen(nv, 0), flat(nv, 0);
  std::vector<Vec3> first(nv, Vec3::Zero());
  for (const Tri& t : triangles) {
    const Vec3 c = (vertices[t[1]] - vertices[t[0]]).cross(vertices[t[2]] - vertices[t[0]]);
    const double len = c.norm();
    if (!(len > 0.0)) continue;  // a zero-area triangle has no plane
    const Vec3 n = c / len;
    for (int v : t) {
      if (!seen[v]) {
        seen[v] = 1;
        flat[v] = 1;
        first[v] = n;
      } else if (n.dot(first[v]) < kSameNormalCos) {
        flat[v] = 0;
      }
    }
  }
  return flat;
}

ReductionStats reduce_contacts(std::vector<Contact>& contacts, const std::vector<ReductionBody>& bodies,
                               const ReductionSettings& settings) {
  ReductionStats stats;
  const int nc = static_cast<int>(contacts.size());
  std::vector<char> keep(nc, 1);
  std::vector<Patch> patches;
  for (int k = 0; k < nc; ++k) {
    const Contact& c = contacts[k];
    if (!vertex_triangle(c)) continue;
    const ReductionBody& a = bodies[c.a.body];
    const ReductionBody& b = bodies[c.b.body];
    if (!a.rigid) continue;
    if (!b.rigid) {  // rule 1: a flat rigid vertex on a soft triangle
      if (a.flat[c.a.vertex[0]]) {
        keep[k] = 0;
        ++stats.flat_rigid_vertices;
      }
      continue;
    }
    // rule 2: collect the patches of rigid pairs, in contact order
    auto it = std::find_if(patches.begin(), patches.end(), [&](const Patch& p) {
      return p.body_a == c.a.body && p.body_b == c.b.body && p.normal.dot(c.normal) >= kSameNormalCos;
    });
    if (it == patches.end()) it = patches.insert(patches.end(), Patch{c.a.body, c.b.body, c.normal, {}});
    it->members.push_back(k);
  }
  for (const Patch& p : patches) stats.patch_interior += reduce_patch(contacts, p, settings.gap_tolerance, keep);
  if (stats.flat_rigid_vertices + stats.patch_interior == 0) return stats;
  int out = 0;
  for (int k = 0; k < nc; ++k)
    if (keep[k]) {
      if (out != k) contacts[out] = contacts[k];
      ++out;
    }
  contacts.resize(out);
  return stats;
}

}  // namespace suction
