// Blocks with openings in their top face: a pocket of any star-shaped outline, and two round
// holes joined by a tunnel (a U-shaped air path).  Closed triangle surfaces, built exactly as
// the polyhedra their volume functions describe; FEM bodies get them tetrahedralized by
// cavity_cgal/tet_mesher.h.
//
// Construction.  Every vertex is placed by its coordinates and welded with any earlier vertex
// of exactly the same coordinates (SurfaceBuilder), so faces built separately (the top face,
// the walls, a mirrored half) share their edges without bookkeeping: coordinates that must
// meet are computed once or set exactly (points on the box's edges are snapped to them).
// The top face around an opening is cut in sectors by the rays from the opening's centre
// through its vertices; each sector (an outer piece of the rectangle, the opening's edge) is
// star-shaped about the opening's vertex on the ray, so a fan from there triangulates it.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "common/error.h"
#include "mesh/generators.h"

namespace suction {
namespace {

using Face = std::array<Vec3, 3>;  // a triangle by its corners, counter-clockwise seen from outside

/// A triangle surface assembled from faces given by their corners; equal coordinates are one
/// vertex (-0 and +0 too).
class SurfaceBuilder {
 public:
  int vertex(const Vec3& x) {
    const std::array<double, 3> key = {x.x() + 0.0, x.y() + 0.0, x.z() + 0.0};  // -0 -> +0
    auto [it, inserted] = index_.emplace(key, static_cast<int>(mesh_.vertices.size()));
    if (inserted) mesh_.vertices.emplace_back(key[0], key[1], key[2]);
    return it->second;
  }
  void triangle(const Vec3& a, const Vec3& b, const Vec3& c) {
    const Tri t = {vertex(a), vertex(b), vertex(c)};
    if (t[0] == t[1] || t[1] == t[2] || t[2] == t[0])
      throw InputError("block surface: a degenerate triangle (an internal error of the generator)");
    mesh_.triangles.push_back(t);
  }
  /// the planar quad a b c d (counter-clockwise seen from outside) as triangles abc, acd
  void quad(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
    triangle(a, b, c);
    triangle(a, c, d);
  }
  const SurfaceMesh& mesh() const { return mesh_; }
  SurfaceMesh take() { return std::move(mesh_); }

 private:
  SurfaceMesh mesh_;
  std::map<std::array<double, 3>, int> index_;
};

double cross2(const Point2& a, const Point2& b) { return a[0] * b[1] - a[1] * b[0]; }
Point2 sub2(const Point2& a, const Point2& b) { return {a[0] - b[0], a[1] - b[1]}; }

/// twice the signed area of the planar triangle abc
double area2(const Point2& a, const Point2& b, const Point2& c) { return cross2(sub2(b, a), sub2(c, a)); }

/// smallest angle of triangle abc [rad]
double min_angle(const Point2& a, const Point2& b, const Point2& c) {
  const std::array<Point2, 3> p = {a, b, c};
  double m = kPi;
  for (int k = 0; k < 3; ++k) {
    const Point2 u = sub2(p[(k + 1) % 3], p[k]), v = sub2(p[(k + 2) % 3], p[k]);
    m = std::min(m, std::atan2(std::abs(cross2(u, v)), u[0] * v[0] + u[1] * v[1]));
  }
  return m;
}

/// An axis-aligned rectangle [lo, hi] of the top face.
struct Rect {
  Point2 lo, hi;
};

/// Where the ray from c through p leaves the rectangle (c inside it), snapped exactly onto the
/// side it crosses (and onto a corner within a relative 1e-12).
Point2 ray_exit(const Rect& r, const Point2& c, const Point2& p) {
  const Point2 d = sub2(p, c);
  double t = INFINITY;
  int axis = 0;
  for (int i = 0; i < 2; ++i) {
    if (d[i] == 0) continue;
    const double ti = ((d[i] > 0 ? r.hi[i] : r.lo[i]) - c[i]) / d[i];
    if (ti < t) t = ti, axis = i;
  }
  Point2 q = {c[0] + t * d[0], c[1] + t * d[1]};
  q[axis] = d[axis] > 0 ? r.hi[axis] : r.lo[axis];
  const int other = 1 - axis;
  const double tol = 1e-12 * (r.hi[other] - r.lo[other]);
  if (std::abs(q[other] - r.lo[other]) <= tol) q[other] = r.lo[other];
  if (std::abs(q[other] - r.hi[other]) <= tol) q[other] = r.hi[other];
  q[other] = std::clamp(q[other], r.lo[other], r.hi[other]);
  return q;
}

/// position of a point of the rectangle's boundary along it, counter-clockwise from lo
double perimeter_parameter(const Rect& r, const Point2& p) {
  const double w = r.hi[0] - r.lo[0], h = r.hi[1] - r.lo[1];
  if (p[1] == r.lo[1]) return p[0] - r.lo[0];
  if (p[0] == r.hi[0]) return w + (p[1] - r.lo[1]);
  if (p[1] == r.hi[1]) return w + h + (r.hi[0] - p[0]);
  return 2 * w + h + (r.hi[1] - p[1]);
}

/// The top face (z, normal +z) of rectangle r minus the polygon `hole` (counter-clockwise,
/// star-shaped about c, strictly inside r): one sector per hole edge, fanned from one of the
/// edge's ends (the one whose fan has the larger smallest angle), appended to faces.
void ring_face(const Rect& r, const Point2& c, const std::vector<Point2>& hole, double z,
               std::vector<Face>& faces, const std::string& what) {
  const size_t n = hole.size();
  std::vector<Point2> exit(n);
  for (size_t i = 0; i < n; ++i) exit[i] = ray_exit(r, c, hole[i]);
  const std::array<Point2, 4> corners = {{{r.lo[0], r.lo[1]}, {r.hi[0], r.lo[1]}, {r.hi[0], r.hi[1]}, {r.lo[0], r.hi[1]}}};
  auto to3 = [z](const Point2& p) { return Vec3(p[0], p[1], z); };
  for (size_t i = 0; i < n; ++i) {
    const size_t j = (i + 1) % n;
    // the sector's boundary, counter-clockwise: exit i, the corners between the rays, exit j,
    // then back along the hole's edge j -> i
    std::vector<Point2> poly = {exit[i]};
    const Point2 di = sub2(hole[i], c), dj = sub2(hole[j], c);
    std::vector<std::pair<double, Point2>> inside;  // corners strictly between the two rays
    for (const Point2& k : corners) {
      const Point2 dk = sub2(k, c);
      if (k == exit[i] || k == exit[j]) continue;
      if (cross2(di, dk) > 0 && cross2(dk, dj) > 0)
        inside.push_back({std::atan2(cross2(di, dk), di[0] * dk[0] + di[1] * dk[1]), k});
    }
    std::sort(inside.begin(), inside.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [angle, k] : inside) poly.push_back(k);
    if (exit[j] != exit[i]) poly.push_back(exit[j]);
    poly.push_back(hole[j]);
    poly.push_back(hole[i]);
    // fan from hole[i] (the last vertex) or from hole[j] (the one before it)
    const size_t m = poly.size();
    double best = -1;
    size_t best_apex = 0;
    for (size_t apex : {m - 1, m - 2}) {
      double worst = kPi;
      for (size_t k = 1; k + 1 < m; ++k) {
        const Point2& a = poly[apex];
        const Point2& b = poly[(apex + k) % m];
        const Point2& d = poly[(apex + k + 1) % m];
        worst = area2(a, b, d) > 0 ? std::min(worst, min_angle(a, b, d)) : -1;
        if (worst < 0) break;
      }
      if (worst > best) best = worst, best_apex = apex;
    }
    if (!(best > 0))
      throw InputError(what + ": the top face around the opening cannot be triangulated (is the "
                              "outline star-shaped about its centre and inside the face?)");
    for (size_t k = 1; k + 1 < m; ++k)
      faces.push_back({to3(poly[best_apex]), to3(poly[(best_apex + k) % m]), to3(poly[(best_apex + k + 1) % m])});
  }
}

/// The box's four sides and its bottom, closing a top face already in b: the top face's
/// vertices on the rectangle's boundary, in counter-clockwise order, are extruded down to
/// z_bottom (one vertical quad per boundary edge), and the bottom is a fan from its centre.
void close_box(SurfaceBuilder& b, const Rect& r, double z_top, double z_bottom) {
  std::vector<std::pair<double, Point2>> loop;
  for (const Vec3& x : b.mesh().vertices) {
    if (x.z() != z_top) continue;
    const Point2 p = {x.x(), x.y()};
    if (p[0] == r.lo[0] || p[0] == r.hi[0] || p[1] == r.lo[1] || p[1] == r.hi[1])
      loop.push_back({perimeter_parameter(r, p), p});
  }
  std::sort(loop.begin(), loop.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  const Vec3 centre(0.5 * (r.lo[0] + r.hi[0]), 0.5 * (r.lo[1] + r.hi[1]), z_bottom);
  for (size_t k = 0; k < loop.size(); ++k) {
    const Point2& p = loop[k].second;
    const Point2& q = loop[(k + 1) % loop.size()].second;
    const Vec3 pb(p[0], p[1], z_bottom), qb(q[0], q[1], z_bottom);
    b.quad(pb, qb, Vec3(q[0], q[1], z_top), Vec3(p[0], p[1], z_top));
    b.triangle(centre, qb, pb);
  }
}

/// throws InputError unless the surface is closed, consistently oriented, of positive volume
SurfaceMesh checked(SurfaceBuilder& b, const std::string& what) {
  SurfaceMesh s = b.take();
  validate_closed_surface(s, what);
  return s;
}

void check_size(const Vec3& size, const std::string& what) {
  if (!(size.minCoeff() > 0) || !size.allFinite()) throw InputError(what + ": size must be positive");
}

/// the regular polygon of the tunnel block's holes: circumradius r about (cx, 0), vertices at
/// angles π/2 + 2πk/n (so it is symmetric about its own vertical line x = cx)
std::vector<Point2> hole_polygon(double cx, double r, int n) {
  std::vector<Point2> p(n);
  for (int k = 0; k < n; ++k) {
    const double a = 0.5 * kPi + 2.0 * kPi * k / n;
    p[k] = {cx + r * std::cos(a), r * std::sin(a)};
  }
  return p;
}

}  // namespace

// --- the star outline ---------------------------------------------------------------------

std::vector<Point2> star_outline(std::uint64_t seed, int n_points, double mean_radius, double roughness) {
  if (n_points < 4) throw InputError("star_outline: n_points must be >= 4");
  if (!(mean_radius > 0) || !std::isfinite(mean_radius)) throw InputError("star_outline: mean_radius must be > 0");
  if (!(roughness >= 0 && roughness < 1)) throw InputError("star_outline: roughness must be in [0, 1)");
  // splitmix64 (Steele, Lea, Flood 2014): the same stream on every platform
  std::uint64_t state = seed;
  auto next_uniform = [&state]() {  // in [-1, 1)
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return 2.0 * static_cast<double>(z >> 11) * 0x1.0p-53 - 1.0;
  };
  std::vector<Point2> out(n_points);
  for (int i = 0; i < n_points; ++i) {
    // angle gaps stay within 2π(1 ± roughness/2)/n < π: star-shaped, counter-clockwise
    const double jitter = 0.25 * roughness * next_uniform();
    const double radius = mean_radius * (1.0 + roughness * next_uniform());
    const double angle = 2.0 * kPi * (i + jitter) / n_points;
    out[i] = {radius * std::cos(angle), radius * std::sin(angle)};
  }
  return out;
}

double polygon_area(const std::vector<Point2>& outline) {
  double a = 0;
  for (size_t i = 0; i < outline.size(); ++i) a += cross2(outline[i], outline[(i + 1) % outline.size()]);
  return 0.5 * a;
}

// --- the pocket block -------------------------------------------------------------------------

SurfaceMesh make_pocket_block_surface(const Vec3& size, const std::vector<Point2>& outline, double depth,
                                      const MeshLimits& limits) {
  const std::string what = "pocket_block";
  check_size(size, what);
  if (!(depth > 0 && depth < size.z())) throw InputError(what + ": depth must be in (0, size z)");
  const size_t n = outline.size();
  if (n < 3) throw InputError(what + ": the outline needs at least 3 points");
  check_mesh_limit(8.0 * n + 16, limits.max_triangles, "triangles", "max_triangles", what);
  const Rect top = {{-0.5 * size.x(), -0.5 * size.y()}, {0.5 * size.x(), 0.5 * size.y()}};
  // star-shaped about (0, 0), counter-clockwise, once around, strictly inside the top face
  double turn = 0;
  for (size_t i = 0; i < n; ++i) {
    const Point2& p = outline[i];
    const Point2& q = outline[(i + 1) % n];
    if (!(std::isfinite(p[0]) && std::isfinite(p[1]) && p[0] > top.lo[0] && p[0] < top.hi[0] &&
          p[1] > top.lo[1] && p[1] < top.hi[1]))
      throw InputError(what + ": outline point " + std::to_string(i) + " is not strictly inside the top face");
    if (!(cross2(p, q) > 0))
      throw InputError(what + ": the outline is not star-shaped about the top face's centre, "
                              "counter-clockwise (points " + std::to_string(i) + ", " +
                       std::to_string((i + 1) % n) + ")");
    turn += std::atan2(cross2(p, q), p[0] * q[0] + p[1] * q[1]);
  }
  if (std::abs(turn - 2 * kPi) > 1e-6)
    throw InputError(what + ": the outline must go once around the top face's centre");

  const double z_top = 0.5 * size.z(), z_bottom = -0.5 * size.z(), z_floor = z_top - depth;
  std::vector<Face> faces;
  ring_face(top, {0.0, 0.0}, outline, z_top, faces, what);
  SurfaceBuilder b;
  for (const Face& f : faces) b.triangle(f[0], f[1], f[2]);
  close_box(b, top, z_top, z_bottom);
  // the pocket: vertical walls (facing into the pocket) and a floor fanned from its centre
  const Vec3 floor_centre(0.0, 0.0, z_floor);
  for (size_t i = 0; i < n; ++i) {
    const Point2& p = outline[i];
    const Point2& q = outline[(i + 1) % n];
    const Vec3 pf(p[0], p[1], z_floor), qf(q[0], q[1], z_floor);
    b.quad(Vec3(p[0], p[1], z_top), Vec3(q[0], q[1], z_top), qf, pf);
    b.triangle(floor_centre, pf, qf);
  }
  return checked(b, what);
}

double pocket_block_volume(const Vec3& size, const std::vector<Point2>& outline, double depth) {
  return size.x() * size.y() * size.z() - depth * polygon_area(outline);
}

// --- the tunnel block -------------------------------------------------------------------------

SurfaceMesh make_tunnel_block_surface(const Vec3& size, double hole_diameter, double spacing, double depth,
                                      int resolution, const MeshLimits& limits) {
  const std::string what = "tunnel_block";
  check_size(size, what);
  const double r = 0.5 * hole_diameter, a = 0.5 * spacing;
  if (!(hole_diameter > 0)) throw InputError(what + ": hole_diameter must be > 0");
  if (resolution < 6) throw InputError(what + ": resolution must be >= 6");
  if (!(spacing > hole_diameter)) throw InputError(what + ": spacing must be larger than hole_diameter");
  if (!(a + r < 0.5 * size.x())) throw InputError(what + ": the holes reach the box's sides (spacing/2 + hole_diameter/2 >= size x/2)");
  if (!(hole_diameter < size.y())) throw InputError(what + ": hole_diameter must be smaller than size y");
  if (!(depth > hole_diameter && depth < size.z()))
    throw InputError(what + ": depth must be in (hole_diameter, size z): the tunnel hangs from the holes and stays inside the box");
  check_mesh_limit(24.0 * resolution + 64, limits.max_triangles, "triangles", "max_triangles", what);

  const int n = resolution;
  const double z_top = 0.5 * size.z(), z_bottom = -0.5 * size.z();
  const double z_axis = z_top - depth + r;  // the tunnel's axis
  // the left half (x <= 0); the right half is its mirror image, welded on x = 0
  std::vector<Face> half;
  const Rect left = {{-0.5 * size.x(), -0.5 * size.y()}, {0.0, 0.5 * size.y()}};
  const std::vector<Point2> hole = hole_polygon(-a, r, n);
  ring_face(left, {-a, 0.0}, hole, z_top, half, what);
  // hole vertex k (offset u = r cos θ_k from the hole's axis, v = r sin θ_k): down its wall to
  // the 45° miter plane z - z_axis = x + a (at z_axis + u), then along the tunnel, whose
  // section point is (y, z) = (v, z_axis + u), to x = 0
  auto top_point = [&](int k) { return Vec3(hole[k][0], hole[k][1], z_top); };
  auto miter_point = [&](int k) { return Vec3(hole[k][0], hole[k][1], z_axis + (hole[k][0] + a)); };
  auto middle_point = [&](int k) { return Vec3(0.0, hole[k][1], z_axis + (hole[k][0] + a)); };
  for (int k = 0; k < n; ++k) {
    const int l = (k + 1) % n;
    // the walls face into the air path: strips run along it, (near k, near l, far l, far k)
    half.push_back({top_point(k), top_point(l), miter_point(l)});
    half.push_back({top_point(k), miter_point(l), miter_point(k)});
    half.push_back({miter_point(k), miter_point(l), middle_point(l)});
    half.push_back({miter_point(k), middle_point(l), middle_point(k)});
  }
  SurfaceBuilder b;
  for (const Face& f : half) b.triangle(f[0], f[1], f[2]);
  auto mirror = [](const Vec3& x) { return Vec3(-x.x(), x.y(), x.z()); };
  for (const Face& f : half) b.triangle(mirror(f[0]), mirror(f[2]), mirror(f[1]));  // reversed
  const Rect whole = {{-0.5 * size.x(), -0.5 * size.y()}, {0.5 * size.x(), 0.5 * size.y()}};
  close_box(b, whole, z_top, z_bottom);
  return checked(b, what);
}

double tunnel_block_volume(const Vec3& size, double hole_diameter, double spacing, double depth, int resolution) {
  const double r = 0.5 * hole_diameter;
  const double section = 0.5 * resolution * r * r * std::sin(2.0 * kPi / resolution);
  return size.x() * size.y() * size.z() - section * (2.0 * depth - hole_diameter + spacing);
}

}  // namespace suction
