// Contact detection (docs/method.md §5).  Rules, with band = contact_distance +
// alarm_distance and max_penetration = 3 × alarm_distance:
// - vertex–triangle, both ways: each surface vertex p of body A against the triangles of body B
//   within reach = max(band, max_penetration) of p.  With q the closest point of a triangle
//   and n its unit outward normal:
//   q the orthogonal projection of p (all weights > 0, or p − q ∥ n up to 1e-10 × size of B,
//   so that a point over an edge between coplanar triangles is not lost): d = (p − q)·n,
//   normal n (d < 0: penetration);
//   otherwise (q on an edge or vertex, p off the face): d = |p − q|, normal (p − q)/|p − q|,
//   only if (p − q)·n > 0 (p in front; behind, a neighbour triangle answers).
//   The nearest surface decides: among the triangles with |d| < reach the smallest |d| wins
//   (ties: lowest triangle index), and it makes a contact if d − contact_distance < alarm and
//   d > −max_penetration.  So a vertex in a cup's cavity, behind the outer skirt but in front of
//   the cavity wall, makes none; a vertex in a thin wall leaves by the closer side.
//   max_penetration = 3 alarms: deeper a vertex is taken as lost.  (10 alarms was tried: the
//   query volume grows as reach³ and a 2000-vertex cup on a 2000-vertex block took ~40 ms.)
// - edge–edge: unique edges of A and B within band, closest points interior to both
//   (parameters in (1e-4, 1 − 1e-4)), edges not parallel (|ea × eb| > 1e-6 |ea||eb|).
//   Normal ±(ea × eb)/|ea × eb|, oriented by the outward normals of the edges (average of
//   their adjacent triangles): it must point along B's (n·nB > 0.1) and against A's
//   (n·nA < −0.1), otherwise the pair is ambiguous (a concave corner, or an edge normal at
//   more than ~84° from the surfaces, like a vertical edge through a flat face) and skipped.
//   d = (pa − pb)·n: |pa − pb| with the normal (pa − pb)/|pa − pb| for separated edges,
//   negative for crossing ones; kept when −band < d and d − contact_distance < alarm.
// - dedupe: an edge–edge contact is dropped when an endpoint of either edge already has a
//   vertex–triangle contact with the other body and lies within band of the edge–edge contact
//   point on its own edge: that vertex contact already holds this part of the edge.
// - edge–edge needs two sharp edges (faces bending by more than 10°): an edge inside a flat or
//   gently curved surface (a box face's diagonal) is no contact feature; vertex–triangle covers
//   it.  Crossing a flat diagonal would add one-sided, asymmetric contacts, and with several
//   coplanar contacts the load split is indeterminate: PGS then picks an asymmetric one whose
//   friction torque spins a sliding block.
// - self-contact (bodies with enable_self_contact): the vertices of a body against its own
//   triangles by the same vertex–triangle rule, skipping every triangle whose rest-shape
//   distance to the vertex is below the exclusion distance (its own triangles, its
//   neighbourhood, and the far side of a wall thinner than that); the nearest of the others
//   decides.  The exclusion must exceed the reach, or a vertex would see the other side of a
//   wall thinner than the reach as a penetration.  No edge–edge contacts within a body.
// - order: per pair (i < j): vertices of i on triangles of j by vertex index, then vertices of
//   j on triangles of i, then edge–edge by (edge of i, edge of j), edges numbered in their
//   sorted (lo, hi) order; then each self-contact body's vertices by index: nothing depends on
//   the BVH.
#include "collision/detector.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "collision/bvh.h"
#include "collision/proximity.h"
#include "common/error.h"

namespace suction {
namespace {

constexpr std::uint64_t kVertexTriangle = 1, kEdgeEdge = 2, kSelf = 3;
constexpr double kEdgeParamMargin = 1e-4;  // edge–edge points this close to an end are vertices'
constexpr double kSharpEdgeCos = 0.9848;      // cos 10°: edges bending less are not features
constexpr double kEdgeNormalAlignment = 0.1;  // edge–edge normal vs the edges' outward normals

// splitmix64 finalizer: a stable 64-bit mix
std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  std::uint64_t z = h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t contact_key(int body_a, int body_b, std::uint64_t kind, int feature_a,
                          int feature_b) {
  std::uint64_t h = mix(0, static_cast<std::uint64_t>(body_a));
  h = mix(h, static_cast<std::uint64_t>(body_b));
  h = mix(h, kind);
  h = mix(h, static_cast<std::uint64_t>(feature_a));
  return mix(h, static_cast<std::uint64_t>(feature_b));
}

// a vertex–triangle contact: vertex v of body a at p, the point q (weights w) of triangle t of
// body b, the normal from b to a, the signed distance d along it
Contact vertex_triangle_contact(int a, int v, const Vec3& p, int b, int t, const Tri& tri,
                                const std::array<double, 3>& w, const Vec3& q, const Vec3& normal,
                                double d, double contact_distance, std::uint64_t kind) {
  Contact c;
  c.a.body = a;
  c.a.count = 1;
  c.a.vertex = {{v, -1, -1}};
  c.a.weight = {{1, 0, 0}};
  c.b.body = b;
  c.b.count = 3;
  c.b.vertex = tri;
  c.b.weight = w;
  c.normal = normal;
  c.point_a = p;
  c.point_b = q;
  c.gap = d - contact_distance;
  c.key = contact_key(a, b, kind, v, t);
  return c;
}

}  // namespace

struct ContactDetector::Impl {
  struct Body {
    std::vector<Tri> triangles;
    std::vector<std::array<int, 2>> edges;       // unique (lo, hi), sorted
    std::vector<std::array<int, 2>> edge_faces;  // up to 2 adjacent triangles (-1: none)
    std::vector<int> vertices;                   // surface vertices, ascending
    int min_positions = 0;                       // 1 + largest vertex index
    bool movable = true;
    TriangleBvh face_bvh, edge_bvh;              // edges stored as {a, b, b}
    std::vector<Vec3> face_normals;              // per step: unit outward normals
    std::vector<std::uint32_t> vt_stamp;         // per vertex: pair stamp of its last v–t contact
    // self-contact: per vertex, the triangles it never touches (sorted), in CSR form
    bool self_contact = false;
    std::vector<int> self_excluded_begin, self_excluded;
    bool self_excluded_pair(int v, int t) const {
      const auto first = self_excluded.begin() + self_excluded_begin[v];
      const auto last = self_excluded.begin() + self_excluded_begin[v + 1];
      return std::binary_search(first, last, t);
    }
  };
  std::vector<Body> bodies;
  std::set<std::pair<int, int>> excluded;
  bool built = false;
  std::uint32_t stamp = 0;
  std::vector<std::pair<std::pair<int, int>, Contact>> edge_contacts;  // scratch: one body pair's

  void build(const std::vector<Points>& positions);
  void vertex_triangle(int ia, int ib, const std::vector<Points>& x, const CollisionSettings& s,
                       const std::vector<VertexSide>* sides, std::vector<Contact>& out);
  void edge_edge(int ia, int ib, const std::vector<Points>& x, const CollisionSettings& s,
                 std::vector<Contact>& out);
  static double max_penetration(const CollisionSettings& s) {
    return kMaxPenetrationAlarms * s.alarm_distance;
  }
  // a sharp (feature) edge: its two faces bend by more than kSharpEdgeDeg; an edge inside a
  // flat or gently curved surface is no contact feature (vertex–triangle covers it) and would
  // only add redundant rows with arbitrary normals
  bool sharp_edge(const Body& b, int e) const {
    const auto& f = b.edge_faces[e];
    if (f[0] < 0 || f[1] < 0) return true;
    return b.face_normals[f[0]].dot(b.face_normals[f[1]]) < kSharpEdgeCos;
  }
  Vec3 edge_normal(const Body& b, int e) const {
    Vec3 n = Vec3::Zero();
    for (int f : b.edge_faces[e])
      if (f >= 0) n += b.face_normals[f];
    const double len = n.norm();
    return len > 0.0 ? Vec3(n / len) : Vec3::Zero();
  }
};

ContactDetector::ContactDetector() : impl_(std::make_unique<Impl>()) {}
ContactDetector::~ContactDetector() = default;
ContactDetector::ContactDetector(ContactDetector&&) noexcept = default;
ContactDetector& ContactDetector::operator=(ContactDetector&&) noexcept = default;

void ContactDetector::set_bodies(std::vector<std::vector<Tri>> triangles,
                                 std::vector<bool> movable) {
  if (triangles.size() != movable.size())
    throw InputError("ContactDetector::set_bodies: " + std::to_string(triangles.size()) +
                     " triangle lists but " + std::to_string(movable.size()) + " movable flags");
  impl_->bodies.clear();
  impl_->bodies.resize(triangles.size());
  impl_->built = false;
  contacts_.clear();
  for (std::size_t i = 0; i < triangles.size(); ++i) {
    Impl::Body& b = impl_->bodies[i];
    b.triangles = std::move(triangles[i]);
    b.movable = movable[i];
    // unique edges with their adjacent triangles
    std::vector<std::array<int, 3>> half;  // (lo, hi, triangle)
    half.reserve(3 * b.triangles.size());
    for (std::size_t t = 0; t < b.triangles.size(); ++t) {
      const Tri& tri = b.triangles[t];
      for (int k = 0; k < 3; ++k) {
        const int u = tri[k], v = tri[(k + 1) % 3];
        if (u < 0 || v < 0)
          throw InputError("ContactDetector::set_bodies: body " + std::to_string(i) +
                           " triangle " + std::to_string(t) + " has a negative vertex index");
        half.push_back({std::min(u, v), std::max(u, v), static_cast<int>(t)});
        b.vertices.push_back(u);
        b.min_positions = std::max(b.min_positions, u + 1);
      }
    }
    std::sort(half.begin(), half.end());
    for (const auto& h : half) {
      if (h[0] == h[1]) continue;  // a degenerate triangle's collapsed edge
      if (b.edges.empty() || b.edges.back() != std::array<int, 2>{h[0], h[1]}) {
        b.edges.push_back({h[0], h[1]});
        b.edge_faces.push_back({h[2], -1});
      } else if (b.edge_faces.back()[1] < 0) {
        b.edge_faces.back()[1] = h[2];
      }
    }
    std::sort(b.vertices.begin(), b.vertices.end());
    b.vertices.erase(std::unique(b.vertices.begin(), b.vertices.end()), b.vertices.end());
    b.vt_stamp.assign(b.min_positions, 0);
  }
}

void ContactDetector::exclude_pair(int i, int j) {
  impl_->excluded.insert({std::min(i, j), std::max(i, j)});
}

void ContactDetector::enable_self_contact(int body, const Points& rest, double exclusion) {
  if (body < 0 || body >= static_cast<int>(impl_->bodies.size()))
    throw InputError("ContactDetector::enable_self_contact: no body " + std::to_string(body));
  Impl::Body& b = impl_->bodies[body];
  if (static_cast<int>(rest.size()) < b.min_positions)
    throw InputError("ContactDetector::enable_self_contact: body " + std::to_string(body) + " has " +
                     std::to_string(rest.size()) + " rest positions, its triangles use " +
                     std::to_string(b.min_positions));
  if (!(exclusion > 0.0))
    throw InputError("ContactDetector::enable_self_contact: the exclusion distance must be positive");
  TriangleBvh bvh;
  bvh.build(b.triangles, rest);
  const int nv = b.min_positions;
  b.self_excluded_begin.assign(nv + 1, 0);
  b.self_excluded.clear();
  std::vector<int> near;
  for (int v = 0; v < nv; ++v) {
    b.self_excluded_begin[v] = static_cast<int>(b.self_excluded.size());
    if (!std::binary_search(b.vertices.begin(), b.vertices.end(), v)) continue;
    near.clear();
    const Vec3& p = rest[v];
    bvh.query(Aabb::around(p, exclusion), [&](int t) {
      const Tri& tri = b.triangles[t];
      if (tri[0] == v || tri[1] == v || tri[2] == v ||
          (closest_point_on_triangle(p, rest[tri[0]], rest[tri[1]], rest[tri[2]]).point - p).norm() < exclusion)
        near.push_back(t);
    });
    std::sort(near.begin(), near.end());
    b.self_excluded.insert(b.self_excluded.end(), near.begin(), near.end());
  }
  b.self_excluded_begin[nv] = static_cast<int>(b.self_excluded.size());
  b.self_contact = true;
}

void ContactDetector::Impl::build(const std::vector<Points>& positions) {
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    Body& b = bodies[i];
    b.face_bvh.build(b.triangles, positions[i]);
    std::vector<Tri> edge_tris(b.edges.size());
    for (std::size_t e = 0; e < b.edges.size(); ++e)
      edge_tris[e] = {b.edges[e][0], b.edges[e][1], b.edges[e][1]};
    b.edge_bvh.build(std::move(edge_tris), positions[i]);
    b.face_normals.resize(b.triangles.size());
  }
  built = true;
}

void ContactDetector::Impl::vertex_triangle(int ia, int ib, const std::vector<Points>& x,
                                            const CollisionSettings& s,
                                            const std::vector<VertexSide>* sides,
                                            std::vector<Contact>& out) {
  Body& A = bodies[ia];
  const Body& B = bodies[ib];
  const Points& xa = x[ia];
  const Points& xb = x[ib];
  const double max_pen = max_penetration(s);
  const double reach = detection_reach(s);
  const bool self = ia == ib;
  const Aabb b_box = B.face_bvh.bounds();
  const double lateral_tol = 1e-10 * (b_box.hi - b_box.lo).norm();
  // the sides of A's vertices against B: one contiguous run of the sorted list
  const VertexSide* side = nullptr;
  const VertexSide* side_end = nullptr;
  if (sides && !sides->empty()) {
    const auto first = std::lower_bound(sides->begin(), sides->end(), VertexSide{ia, -1, -1, Vec3::Zero()});
    side = sides->data() + (first - sides->begin());
    side_end = sides->data() + sides->size();
  }
  for (int v : A.vertices) {
    const Vec3& p = xa[v];
    const Aabb query = Aabb::around(p, reach);
    if (!query.overlaps(b_box)) continue;
    // the side v came from (B's triangles whose contact normal turns away from it are not v's)
    const Vec3* came_from = nullptr;
    while (side != side_end && side->body == ia && side->vertex < v) ++side;
    for (const VertexSide* k = side; k != side_end && k->body == ia && k->vertex == v; ++k)
      if (k->other == ib) came_from = &k->normal;
    int best_t = -1;
    double best_d = 0.0;
    Vec3 best_n, best_q;
    std::array<double, 3> best_w{};
    B.face_bvh.query(query, [&](int t) {
      if (self && B.self_excluded_pair(v, t)) return;  // near v at rest: never a contact
      const Tri& tri = B.triangles[t];
      const Vec3& n = B.face_normals[t];
      if (n.isZero()) return;  // zero-area triangle
      // plane slab first: |d| >= |(p − x0)·n|, and only |d| < reach can matter
      if (std::abs((p - xb[tri[0]]).dot(n)) >= reach) return;
      const TriangleClosestPoint c = closest_point_on_triangle(p, xb[tri[0]], xb[tri[1]], xb[tri[2]]);
      const Vec3 diff = p - c.point;
      double d;
      Vec3 normal;
      const double along = diff.dot(n);
      if ((c.weight[0] > 0.0 && c.weight[1] > 0.0 && c.weight[2] > 0.0) ||
          (diff - along * n).squaredNorm() <= lateral_tol * lateral_tol) {
        d = along;  // face region: signed distance to the plane
        normal = n;
      } else {
        const double dist = diff.norm();
        if (along > 0.0) {
          d = dist;  // in front, off the face: distance to the edge or vertex
          normal = diff / dist;
        } else {
          return;  // behind, off the face: a neighbour triangle answers
        }
      }
      if (!(std::abs(d) < reach)) return;
      if (came_from && normal.dot(*came_from) < kFarSideCos) return;  // the far side of what v came through
      if (best_t >= 0 && (std::abs(d) > std::abs(best_d) ||
                          (std::abs(d) == std::abs(best_d) && t > best_t)))
        return;
      best_t = t;
      best_d = d;
      best_n = normal;
      best_q = c.point;
      best_w = c.weight;
    });
    // the nearest surface decides: a farther surface behind p does not make a contact
    if (best_t < 0 || !(best_d - s.contact_distance < s.alarm_distance) || !(best_d > -max_pen))
      continue;
    out.push_back(vertex_triangle_contact(ia, v, p, ib, best_t, B.triangles[best_t], best_w, best_q, best_n, best_d,
                                          s.contact_distance, self ? kSelf : kVertexTriangle));
    A.vt_stamp[v] = stamp;
  }
}

void ContactDetector::Impl::edge_edge(int ia, int ib, const std::vector<Points>& x,
                                      const CollisionSettings& s, std::vector<Contact>& out) {
  const Body& A = bodies[ia];
  const Body& B = bodies[ib];
  const Points& xa = x[ia];
  const Points& xb = x[ib];
  const double band = s.contact_distance + s.alarm_distance;  // |d| < band
  edge_contacts.clear();
  A.edge_bvh.query_pairs(B.edge_bvh, band, [&](int ea, int eb) {
    if (!sharp_edge(A, ea) || !sharp_edge(B, eb)) return;
    const auto& [a0, a1] = A.edges[ea];
    const auto& [b0, b1] = B.edges[eb];
    const SegmentClosestPoints c = closest_points_on_segments(xa[a0], xa[a1], xb[b0], xb[b1]);
    if (c.distance_sq > band * band) return;
    // interior to both edges (ends belong to vertex–triangle)
    if (!(c.s > kEdgeParamMargin && c.s < 1.0 - kEdgeParamMargin && c.t > kEdgeParamMargin &&
          c.t < 1.0 - kEdgeParamMargin))
      return;
    // not parallel
    const Vec3 da = xa[a1] - xa[a0], db = xb[b1] - xb[b0];
    Vec3 n = da.cross(db);
    const double cross_len = n.norm();
    if (!(cross_len > 1e-6 * da.norm() * db.norm())) return;
    n /= cross_len;
    // orient from B to A by the outward normals: along B's, against A's
    const Vec3 na = edge_normal(A, ea), nb = edge_normal(B, eb);
    if (n.dot(nb) - n.dot(na) < 0.0) n = -n;
    if (!(n.dot(nb) > kEdgeNormalAlignment && n.dot(na) < -kEdgeNormalAlignment)) return;
    const double d = (c.p - c.q).dot(n);
    if (!(d - s.contact_distance < s.alarm_distance) || !(d > -band)) return;
    // dedupe against vertex–triangle contacts of nearby endpoints
    const auto held = [&](const Body& body, const Points& xs, int v, const Vec3& point) {
      return body.vt_stamp[v] == stamp && (xs[v] - point).squaredNorm() <= band * band;
    };
    if (held(A, xa, a0, c.p) || held(A, xa, a1, c.p) || held(B, xb, b0, c.q) ||
        held(B, xb, b1, c.q))
      return;
    Contact& k = edge_contacts.emplace_back(std::pair<int, int>(ea, eb), Contact()).second;
    k.a.body = ia;
    k.a.count = 2;
    k.a.vertex = {{a0, a1, -1}};
    k.a.weight = {{1.0 - c.s, c.s, 0}};
    k.b.body = ib;
    k.b.count = 2;
    k.b.vertex = {{b0, b1, -1}};
    k.b.weight = {{1.0 - c.t, c.t, 0}};
    k.normal = n;
    k.point_a = c.p;
    k.point_b = c.q;
    k.gap = d - s.contact_distance;
    k.key = contact_key(ia, ib, kEdgeEdge, ea, eb);
  });
  // the order of the edges, not of the traversal
  std::sort(edge_contacts.begin(), edge_contacts.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  for (const auto& e : edge_contacts) out.push_back(e.second);
}

bool ContactDetector::crossing_contact(int ia, int v, int ib, const std::vector<Points>& from,
                                       const std::vector<Points>& to, const CollisionSettings& s,
                                       Contact& out) const {
  const Impl& m = *impl_;
  if (!m.built || ia < 0 || ib < 0 || ia >= static_cast<int>(m.bodies.size()) ||
      ib >= static_cast<int>(m.bodies.size()) || ia == ib)
    return false;
  const Impl::Body& B = m.bodies[ib];
  const Vec3& p0 = from[ia][v];
  const Vec3& p1 = to[ia][v];
  const double band = s.contact_distance + s.alarm_distance;
  Aabb query = Aabb::around(p0, band);
  query.extend(Aabb::around(p1, band));
  int best_t = -1;
  double best_tau = 0.0;
  B.face_bvh.query(query, [&](int t) {
    const Tri& tri = B.triangles[t];
    const Vec3& n1 = B.face_normals[t];  // at `to` (detect() refit them there)
    if (n1.isZero()) return;
    const Vec3& a0 = from[ib][tri[0]];
    const Vec3 c0 = (from[ib][tri[1]] - a0).cross(from[ib][tri[2]] - a0);
    const double len0 = c0.norm();
    if (!(len0 > 0.0)) return;
    const double s0 = (p0 - a0).dot(c0 / len0);  // in front of the plane at the start
    const double s1 = (p1 - to[ib][tri[0]]).dot(n1);  // behind it (or within the band) at the end
    if (!(s0 >= 0.0) || !(s1 < band) || !(s1 < s0)) return;
    const double tau = s1 >= 0.0 ? 1.0 : s0 / (s0 - s1);  // where the straight path meets the plane
    // the crossing point on the triangle at `to`, within the band of its edges
    const Vec3 crossing = p0 + tau * (p1 - p0);
    const TriangleClosestPoint c = closest_point_on_triangle(crossing, to[ib][tri[0]], to[ib][tri[1]], to[ib][tri[2]]);
    const Vec3 off = crossing - c.point;
    if ((off - off.dot(n1) * n1).norm() > band) return;
    if (best_t >= 0 && (tau > best_tau || (tau == best_tau && t > best_t))) return;
    best_t = t;
    best_tau = tau;
  });
  if (best_t < 0) return false;
  const Tri& tri = B.triangles[best_t];
  const Vec3& n1 = B.face_normals[best_t];
  const TriangleClosestPoint c = closest_point_on_triangle(p1, to[ib][tri[0]], to[ib][tri[1]], to[ib][tri[2]]);
  out = vertex_triangle_contact(ia, v, p1, ib, best_t, tri, c.weight, c.point, n1, (p1 - c.point).dot(n1),
                                s.contact_distance, kVertexTriangle);
  return true;
}

const std::vector<Contact>& ContactDetector::detect(const std::vector<Points>& positions,
                                                    const CollisionSettings& settings,
                                                    const std::vector<VertexSide>* sides) {
  if (!settings.keep_side) sides = nullptr;
  Impl& m = *impl_;
  contacts_.clear();
  if (positions.size() != m.bodies.size())
    throw InputError("ContactDetector::detect: " + std::to_string(positions.size()) +
                     " position sets for " + std::to_string(m.bodies.size()) + " bodies");
  for (std::size_t i = 0; i < m.bodies.size(); ++i)
    if (static_cast<int>(positions[i].size()) < m.bodies[i].min_positions)
      throw InputError("ContactDetector::detect: body " + std::to_string(i) + " has " +
                       std::to_string(positions[i].size()) + " positions, its triangles use " +
                       std::to_string(m.bodies[i].min_positions));
  if (!m.built) m.build(positions);
  // refit and normals of bodies that take part in some pair
  const int n = static_cast<int>(m.bodies.size());
  const auto tested = [&](int i, int j) {
    if (i == j) return m.bodies[i].self_contact && m.bodies[i].movable;
    return (m.bodies[i].movable || m.bodies[j].movable) && !m.excluded.count({i, j});
  };
  for (int i = 0; i < n; ++i) {
    bool used = false;
    for (int j = 0; j < n && !used; ++j) used = tested(std::min(i, j), std::max(i, j));
    if (!used) continue;
    Impl::Body& b = m.bodies[i];
    b.face_bvh.refit(positions[i]);
    b.edge_bvh.refit(positions[i]);
    for (std::size_t t = 0; t < b.triangles.size(); ++t) {
      const Tri& tri = b.triangles[t];
      const Vec3 c = (positions[i][tri[1]] - positions[i][tri[0]])
                         .cross(positions[i][tri[2]] - positions[i][tri[0]]);
      const double len = c.norm();
      b.face_normals[t] = len > 0.0 ? Vec3(c / len) : Vec3::Zero();
    }
  }
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      if (!tested(i, j)) continue;
      if (++m.stamp == 0) {  // wrapped: clear the stamps
        for (auto& b : m.bodies) std::fill(b.vt_stamp.begin(), b.vt_stamp.end(), 0u);
        m.stamp = 1;
      }
      m.vertex_triangle(i, j, positions, settings, sides, contacts_);
      m.vertex_triangle(j, i, positions, settings, sides, contacts_);
      m.edge_edge(i, j, positions, settings, contacts_);
    }
  for (int i = 0; i < n; ++i)
    if (tested(i, i)) m.vertex_triangle(i, i, positions, settings, sides, contacts_);
  return contacts_;
}

}  // namespace suction
