// The octopus tentacle: a tapered arm swept along a circular-arc centreline, a flat base, a
// half-ball tip, and cup-shaped suckers on its underside.  A closed triangle surface built
// explicitly (no boolean operation: core/mesh does not see CGAL); FEM bodies get it
// tetrahedralized by cavity_cgal/tet_mesher.h.
//
// Construction.  The arm's surface is a grid over (s, θ): s the centreline's arc length at
// `stations` + 1 stations, θ the angle about it from the underside at `resolution` lines.  Each
// sucker takes a rectangle of grid cells around its centre (its patch) out of the grid; inside
// the patch, the arm's surface runs from the patch's boundary to the sucker's collar (the loop
// where its 50° flank leaves the arm), triangulated by zipping the two loops by their angle
// about the sucker's centre (both are star-shaped about it, in coordinates that are arc lengths
// on the arm).  Below the collar, the sucker is a stack of rings of sucker_resolution points in
// its own frame, joined by strips: the flank down to the sealing ring, the ring in to the mouth
// (the lip), the pocket's straight wall and its roof up to a single apex.  Every strip, the zipped patches and the grid
// cells are counter-clockwise seen from outside by construction (the comments say why), and
// validate_closed_surface checks the result.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <string>

#include "common/error.h"
#include "mesh/generators.h"

namespace suction {
namespace {

/// the centreline at arc length s and its frame: tangent t, underside d (the suckers' side) and
/// side e = d × t; (t, d, e) is orthonormal and a point c + r (cos θ d + sin θ e) of the arm
/// moves counter-clockwise seen from outside as (s, θ) does: ∂/∂s × ∂/∂θ points outward
struct ArmFrame {
  Vec3 c, t, d, e;
};

ArmFrame arm_frame(const TentacleParams& p, double s) {
  const double kappa = p.curl / p.length;  // curvature [1/m], towards d when > 0
  if (kappa == 0.0) return {Vec3(s, 0, 0), Vec3(1, 0, 0), Vec3(0, 0, -1), Vec3(0, -1, 0)};
  // a circular arc in the x-z plane starting along +x, bending towards -z: dt/ds = κ d
  const double a = kappa * s;
  return {Vec3(std::sin(a) / kappa, 0, -(1 - std::cos(a)) / kappa), Vec3(std::cos(a), 0, -std::sin(a)),
          Vec3(-std::sin(a), 0, -std::cos(a)), Vec3(0, -1, 0)};
}

double arm_radius(const TentacleParams& p, double s) {
  return p.base_radius + (p.tip_radius - p.base_radius) * s / p.length;
}

Vec3 radial(const ArmFrame& f, double theta) { return std::cos(theta) * f.d + std::sin(theta) * f.e; }

/// the point (s, θ) of the arm's surface
Vec3 arm_point(const TentacleParams& p, double s, double theta) {
  const ArmFrame f = arm_frame(p, s);
  return f.c + arm_radius(p, s) * radial(f, theta);
}

double cross2(const Point2& a, const Point2& b) { return a[0] * b[1] - a[1] * b[0]; }
/// twice the signed area of the planar triangle abc
double area2(const Point2& a, const Point2& b, const Point2& c) {
  return cross2({b[0] - a[0], b[1] - a[1]}, {c[0] - a[0], c[1] - a[1]});
}
/// an angle difference wrapped into [0, 2π)
double wrap_2pi(double a) {
  a = std::fmod(a, 2 * kPi);
  return a < 0 ? a + 2 * kPi : a;
}
/// an angle difference wrapped into [-π, π)
double wrap_pi(double a) { return wrap_2pi(a + kPi) - kPi; }

/// One sucker: where it sits, its dimensions (scaled), its patch of grid cells, its frame.
struct SuckerPlan {
  double s = 0, theta = 0;       // centre on the arm's surface
  double arm_r = 0;              // the arm's radius at s [m]
  double radius = 0, rim_outer = 0, rim_height = 0, depth = 0;  // scaled: mouth, ring's outer edge, stand-out, pocket [m]
  double flank = 0;              // the collar's radius seen along the axis where the arm is flat, about rim_outer + rim_height [m]
  double bend = 1;               // 1 - κ r cos θ: the bend's share of the surface's stretch along s
  double metric = 1;             // arc length on the arm's surface per unit s at the centre
  std::vector<std::pair<int, int>> cells;  // the patch: grid cells (i along s, j around; j may be
                                           // negative, taken mod resolution), i then j ascending
  int i_lo = 0, i_hi = 0, j_lo = 0, j_hi = 0;  // their bounding box: i_lo <= i < i_hi, j_lo <= j < j_hi
  Vec3 origin, axis, e1, e2;     // the arm's surface point at the centre; out of the arm; along s; along θ
  std::vector<Point2> collar_2d; // the collar in arc-length coordinates about the centre (x along s, y around)
  Points collar;                 // the collar on the arm's surface, where the flank starts [m]
};

/// Where the grid and the suckers go, and every problem found on the way.
struct TentaclePlan {
  int stations = 0;              // grid cells along s
  double ds = 0;                 // their length [m]
  double dtheta = 0;             // grid angle around [rad]
  std::vector<SuckerPlan> suckers;
  std::vector<TentacleIssue> issues;
};

std::string mm(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g mm", 1e3 * x);
  return buf;
}

/// the number of rings of the tip's half ball and of a pocket's roof (besides the apex)
constexpr int kDomeRings = 3;
/// the slope of a sucker's flank, from its sealing ring up to the arm [deg]: below the mesher's
/// 60° feature angle (the ring's outer edge stays smooth), steep enough to meet a round arm
constexpr double kFlankDeg = 50.0;

TentaclePlan plan_tentacle(const TentacleParams& p) {
  TentaclePlan plan;
  auto issue = [&](const std::string& key, const std::string& message) { plan.issues.push_back({key, message}); };
  auto positive = [&](const char* key, double v) {
    if (!(v > 0) || !std::isfinite(v)) issue(key, "expected a finite length > 0");
  };
  positive("length", p.length);
  positive("base_radius", p.base_radius);
  positive("tip_radius", p.tip_radius);
  if (!std::isfinite(p.curl)) issue("curl", "expected a finite angle");
  if (p.resolution < 12) issue("resolution", "expected at least 12 segments around the arm");
  if (p.sucker_resolution < 8) issue("sucker_resolution", "expected at least 8 segments around a sucker");
  if (p.sucker_count < 0) issue("sucker_count", "expected a count >= 0");
  if (p.rows != 1 && p.rows != 2) issue("rows", "expected 1 or 2 rows");
  if (!plan.issues.empty()) return plan;
  if (p.tip_radius > p.base_radius)
    issue("tip_radius", "the arm tapers: tip_radius (" + mm(p.tip_radius) + ") must not exceed base_radius (" +
                            mm(p.base_radius) + ")");
  if (p.length < 2 * p.base_radius)
    issue("length", "the arm must be at least as long as its base is wide (2 base_radius = " + mm(2 * p.base_radius) + ")");
  if (std::abs(p.curl) > kPi || std::abs(p.curl) * p.base_radius / p.length > 0.5)
    issue("curl", "a gentle bend is asked: |curl| <= pi and |curl| base_radius / length <= 0.5 (the arm's inner side "
                  "would be squeezed to less than half its length)");
  if (p.sucker_count > 0) {
    positive("sucker_radius", p.sucker_radius);
    positive("sucker_depth", p.sucker_depth);
    positive("rim_thickness", p.rim_thickness);
    positive("rim_height", p.rim_height);
    if (p.rows == 2 && !(p.row_angle_deg > 0 && p.row_angle_deg < 90))
      issue("row_angle_deg", "expected an angle in (0, 90) degrees");
    if (!(p.sucker_first > 0 && p.sucker_first < p.length))
      issue("sucker_first", "the first sucker's arc length must be in (0, length)");
    if (!(p.sucker_last >= p.sucker_first && p.sucker_last < p.length))
      issue("sucker_last", "the last sucker's arc length must be in [sucker_first, length)");
  }
  if (!plan.issues.empty()) return plan;

  // the grid: about square cells at the arm's mean radius, at least 8 along it
  const int n = p.resolution;
  plan.dtheta = 2 * kPi / n;
  const double cell = 2 * kPi * 0.5 * (p.base_radius + p.tip_radius) / n;
  plan.stations = std::max(8, static_cast<int>(std::ceil(p.length / cell)));
  plan.ds = p.length / plan.stations;
  const double kappa = p.curl / p.length;
  const double row = p.rows == 2 ? p.row_angle_deg * kPi / 180.0 : 0.0;
  const int ns = p.sucker_resolution;

  for (int k = 0; k < p.sucker_count; ++k) {
    SuckerPlan q;
    const std::string which = "sucker " + std::to_string(k);
    q.s = p.sucker_count == 1 ? p.sucker_first
                              : p.sucker_first + (p.sucker_last - p.sucker_first) * k / (p.sucker_count - 1);
    q.theta = p.rows == 2 ? (k % 2 == 0 ? row : -row) : 0.0;
    q.arm_r = arm_radius(p, q.s);
    const double scale = p.scale_suckers ? q.arm_r / p.base_radius : 1.0;
    q.radius = scale * p.sucker_radius;
    q.rim_outer = q.radius + scale * p.rim_thickness;
    q.rim_height = scale * p.rim_height;
    q.depth = scale * p.sucker_depth;
    q.flank = q.rim_outer + q.rim_height;
    // arc length on the arm's surface per unit s at the centre: |∂P/∂s| = |(1 - κ r cos θ) t + r' u|
    q.bend = 1 - kappa * q.arm_r * std::cos(q.theta);
    q.metric = std::hypot(q.bend, (p.tip_radius - p.base_radius) / p.length);
    const std::string where = which + " (at s = " + mm(q.s) + ", where the arm's radius is " + mm(q.arm_r) + ")";
    if (q.flank > 0.85 * q.arm_r) {
      issue("sucker_radius", where + " is too wide for the arm: sucker_radius + rim_thickness + rim_height, scaled, is " +
                                 mm(q.flank) + ", more than 0.85 of the arm's radius");
      continue;
    }
    if (q.depth - q.rim_height > 0.6 * q.arm_r) {
      issue("sucker_depth", where + ": its pocket reaches " + mm(q.depth - q.rim_height) +
                                " into the arm, more than 0.6 of its radius");
      continue;
    }
    // its frame
    const ArmFrame f = arm_frame(p, q.s);
    // the axis is the arm's surface normal there: ∂P/∂s × ∂P/∂θ ∝ (1 - κ r cos θ) u - r' t for
    // P = c + r u, u = cos θ d + sin θ e (dd/ds = -κ t); on a tapered arm it leans towards the tip,
    // so that the sealing plane is parallel to the arm's surface
    const double taper = (p.tip_radius - p.base_radius) / p.length;
    q.origin = f.c + q.arm_r * radial(f, q.theta);
    q.axis = (q.bend * radial(f, q.theta) - taper * f.t).normalized();
    q.e2 = -std::sin(q.theta) * f.d + std::cos(q.theta) * f.e;  // around the arm, ⟂ the axis
    q.e1 = q.e2.cross(q.axis);                                  // along it: e1 × e2 = axis
    // the collar: where a cone rising at kFlankDeg from the sealing ring's outer edge meets the
    // arm (the arm rises across, so the collar is wider across than along).  The flank is then
    // at kFlankDeg all around: the arm, the flank and the ring meet at edges that turn by less
    // than the mesher's feature angle (60°), so the lip is the sucker's one sharp edge, a closed
    // loop.  In each direction φ about the axis, the point at distance ρ seen along the axis is
    // lifted onto the arm along s by the surface's metric and around by the arm's curvature,
    // and ρ = rim_outer + its height above the sealing plane / tan(kFlankDeg) (a contraction
    // while the arm's slope across stays below the flank's)
    auto collar_point = [&](double rho, double phi) {
      return arm_point(p, q.s + rho * std::cos(phi) / q.metric, q.theta + std::asin(rho * std::sin(phi) / q.arm_r));
    };
    auto height = [&](const Vec3& x) { return q.rim_height - (x - q.origin).dot(q.axis); };  // above the sealing plane
    const double run = 1 / std::tan(kFlankDeg * kPi / 180);  // the flank's run per rise
    bool flank_ok = true, collar_ok = true;
    for (int m = 0; m < ns && flank_ok; ++m) {
      const double phi = 2 * kPi * m / ns;
      double rho = q.flank;
      for (int it = 0; it < 100 && flank_ok; ++it) {
        rho = q.rim_outer + run * height(collar_point(rho, phi));
        // the arm's slope across stays below the flank's
        flank_ok = std::abs(rho * std::sin(phi)) < std::sin(kFlankDeg * kPi / 180) * q.arm_r;
      }
      if (!flank_ok) break;
      const Vec3 x = collar_point(rho, phi);
      flank_ok = std::abs(q.rim_outer + run * height(x) - rho) < 1e-3 * q.rim_height;  // converged
      collar_ok = collar_ok && height(x) >= 0.5 * q.rim_height;                        // above the sealing plane
      q.collar.push_back(x);
      q.collar_2d.push_back({rho * std::cos(phi), q.arm_r * std::asin(rho * std::sin(phi) / q.arm_r)});
    }
    if (!flank_ok) {
      issue("sucker_radius", where + " is too wide for the arm: its flank (rising at " +
                                 std::to_string(static_cast<int>(kFlankDeg)) +
                                 " degrees) does not meet the arm before the arm rises faster across; "
                                 "(sucker_radius + rim_thickness) + 0.84 rim_height, scaled, must stay below about "
                                 "0.47 of the arm's radius");
      continue;
    }
    if (!collar_ok) {
      issue("curl", where + ": the arm bends below the sucker's sealing plane around it (rim_height " +
                        mm(q.rim_height) + ")");
      continue;
    }
    // the patch: the cells whose point nearest the centre lies within the collar grown by a
    // margin (the collar is star-shaped about the centre: its radius in a direction is found
    // on the edge that the direction crosses)
    auto collar_radius = [&](double psi) {
      for (int m = 0; m < ns; ++m) {
        const Point2& a = q.collar_2d[m];
        const Point2& b = q.collar_2d[(m + 1) % ns];
        const Point2 d = {std::cos(psi), std::sin(psi)};
        // the ray ρ d meets a + t (b - a) where ρ (d × (b - a)) = a × b
        if (cross2(a, d) >= 0 && cross2(d, b) >= 0) return cross2(a, b) / cross2(d, {b[0] - a[0], b[1] - a[1]});
      }
      return q.flank;
    };
    const double margin = 0.15 * q.flank;
    double extent_x = 0, extent_y = 0;
    for (const Point2& c : q.collar_2d) extent_x = std::max(extent_x, std::abs(c[0])), extent_y = std::max(extent_y, std::abs(c[1]));
    const int i0 = static_cast<int>(std::floor((q.s - (extent_x + margin) / q.metric) / plan.ds));
    const int i1 = static_cast<int>(std::ceil((q.s + (extent_x + margin) / q.metric) / plan.ds));
    const int j0 = static_cast<int>(std::floor((q.theta - (extent_y + margin) / q.arm_r) / plan.dtheta));
    const int j1 = static_cast<int>(std::ceil((q.theta + (extent_y + margin) / q.arm_r) / plan.dtheta));
    for (int i = i0; i < i1; ++i)
      for (int j = j0; j < j1; ++j) {
        const double x_lo = (i * plan.ds - q.s) * q.metric, x_hi = ((i + 1) * plan.ds - q.s) * q.metric;
        const double y_lo = (j * plan.dtheta - q.theta) * q.arm_r, y_hi = ((j + 1) * plan.dtheta - q.theta) * q.arm_r;
        const double x = std::clamp(0.0, x_lo, x_hi), y = std::clamp(0.0, y_lo, y_hi);
        const double d = std::hypot(x, y);
        if (d == 0 || d < collar_radius(std::atan2(y, x)) + margin) q.cells.push_back({i, j});
      }
    q.i_lo = q.j_lo = std::numeric_limits<int>::max();
    q.i_hi = q.j_hi = std::numeric_limits<int>::min();
    for (const auto& [i, j] : q.cells) {
      q.i_lo = std::min(q.i_lo, i), q.i_hi = std::max(q.i_hi, i + 1);
      q.j_lo = std::min(q.j_lo, j), q.j_hi = std::max(q.j_hi, j + 1);
    }
    // the patch and the sealing ring clear of the base and the tip
    const double lip_s = q.rim_outer / q.metric;
    if (q.i_lo < 1 || q.s - lip_s < plan.ds) {
      issue("sucker_first", where + " does not fit: it reaches the base (s <= " +
                                mm(std::min(q.i_lo * plan.ds, q.s - lip_s)) + ")");
      continue;
    }
    if (q.i_hi > plan.stations - 1 || q.s + lip_s > p.length) {
      issue("sucker_last", where + " does not fit: it reaches the tip (s >= " +
                               mm(std::max(q.i_hi * plan.ds, q.s + lip_s)) + " of " + mm(p.length) + ")");
      continue;
    }
    const double half_theta = std::max(std::abs(q.j_lo * plan.dtheta - q.theta), std::abs(q.j_hi * plan.dtheta - q.theta));
    if (std::abs(q.theta) + half_theta >= 0.5 * kPi) {
      issue("row_angle_deg", where + " reaches the arm's side: its patch spans ±" +
                                 std::to_string(static_cast<int>(std::lround(half_theta * 180 / kPi))) +
                                 " degrees about its row");
      continue;
    }
    plan.suckers.push_back(std::move(q));
  }
  // patches may share their boundary, not a cell; sealing rings (discs of radius rim_outer about
  // the centres, in arc lengths on the arm) must keep a tenth of the smaller one apart
  for (size_t a = 0; a < plan.suckers.size(); ++a)
    for (size_t b = a + 1; b < plan.suckers.size(); ++b) {
      const SuckerPlan& u = plan.suckers[a];
      const SuckerPlan& v = plan.suckers[b];
      bool overlap = false;
      if (u.i_lo < v.i_hi && v.i_lo < u.i_hi && u.j_lo < v.j_hi && v.j_lo < u.j_hi)
        for (const auto& c : u.cells) overlap = overlap || std::binary_search(v.cells.begin(), v.cells.end(), c);
      const double along = (v.s - u.s) * 0.5 * (u.metric + v.metric);
      const double across = (v.theta - u.theta) * 0.5 * (u.arm_r + v.arm_r);
      overlap = overlap || std::hypot(along, across) < u.rim_outer + v.rim_outer + 0.1 * std::min(u.rim_outer, v.rim_outer);
      if (overlap)
        issue("sucker_count", "suckers at s = " + mm(u.s) + " and " + mm(v.s) +
                                  " overlap: fewer suckers, smaller ones, or a longer stretch (sucker_first to sucker_last)");
    }
  return plan;
}

/// The boundary of a patch of grid cells (row- and column-convex, no pinches), counter-clockwise
/// in (i, j): the cells' counter-clockwise edges that no other cell of the patch shares, chained
/// from the lowest corner.  Grid vertices (i, j).
std::vector<std::pair<int, int>> patch_boundary(const std::vector<std::pair<int, int>>& cells) {
  using Corner = std::pair<int, int>;
  std::map<Corner, Corner> next;  // each boundary corner's successor
  auto in_patch = [&](int i, int j) { return std::binary_search(cells.begin(), cells.end(), Corner{i, j}); };
  for (const auto& [i, j] : cells) {
    if (!in_patch(i, j - 1)) next[{i, j}] = {i + 1, j};              // along s at the low side
    if (!in_patch(i + 1, j)) next[{i + 1, j}] = {i + 1, j + 1};      // around at the far end
    if (!in_patch(i, j + 1)) next[{i + 1, j + 1}] = {i, j + 1};      // back along s at the high side
    if (!in_patch(i - 1, j)) next[{i, j + 1}] = {i, j};              // back around at the near end
  }
  std::vector<Corner> loop = {next.begin()->first};
  while (true) {
    const Corner c = next.at(loop.back());
    if (c == loop.front()) break;
    loop.push_back(c);
    if (loop.size() > next.size()) throw InputError("tentacle: a sucker's patch has a pinched boundary (an internal error)");
  }
  if (loop.size() != next.size()) throw InputError("tentacle: a sucker's patch has two boundaries (an internal error)");
  return loop;
}

/// The ring between two closed loops about a common centre, outer and inner counter-clockwise,
/// both star-shaped about the centre (2D coordinates relative to it), the inner strictly inside:
/// walking both loops by angle, each triangle takes the next vertex of the loop whose next vertex
/// comes first.  Triangles (outer a, outer a+1, inner b) and (outer a, inner b+1, inner b) are
/// counter-clockwise.  False if a triangle would be inverted.
constexpr double kAngleTie = 1e-9;  // [rad]

bool zip_loops(const std::vector<Point2>& outer, const std::vector<int>& outer_id, const std::vector<Point2>& inner,
               const std::vector<int>& inner_id, std::vector<Tri>& out) {
  const size_t K = outer.size(), N = inner.size();
  auto angle = [](const Point2& x) { return std::atan2(x[1], x[0]); };
  const double ref = angle(outer[0]);
  size_t b0 = 0;
  for (size_t j = 1; j < N; ++j)
    if (std::abs(wrap_pi(angle(inner[j]) - ref)) < std::abs(wrap_pi(angle(inner[b0]) - ref))) b0 = j;
  // angles from outer[0], increasing along each loop
  std::vector<double> ao(K + 1, 0.0), ai(N + 1, 0.0);
  for (size_t a = 1; a <= K; ++a) ao[a] = ao[a - 1] + wrap_2pi(angle(outer[a % K]) - angle(outer[a - 1]));
  ai[0] = wrap_pi(angle(inner[b0]) - ref);
  for (size_t b = 1; b <= N; ++b)
    ai[b] = ai[b - 1] + wrap_2pi(angle(inner[(b0 + b) % N]) - angle(inner[(b0 + b - 1) % N]));
  size_t a = 0, b = 0;
  while (a < K || b < N) {
    const size_t o0 = a % K, o1 = (a + 1) % K, i0 = (b0 + b) % N, i1 = (b0 + b + 1) % N;
    const bool outer_ok = a < K && area2(outer[o0], outer[o1], inner[i0]) > 0;
    const bool inner_ok = b < N && area2(outer[o0], inner[i1], inner[i0]) > 0;
    // a tie (both loops have a vertex at the same angle, common on the sucker rings) goes to
    // the outer loop whatever the last bits of atan2: native and WebAssembly builds differ
    // there, and the surface must be the same in both (its mesh cache's fingerprint)
    bool advance_outer = a < K && (b == N || ao[a + 1] <= ai[b + 1] + kAngleTie);
    if (advance_outer && !outer_ok) advance_outer = false;
    if (!advance_outer && !inner_ok) {
      if (!outer_ok) return false;
      advance_outer = true;
    }
    if (advance_outer) {
      out.push_back({outer_id[o0], outer_id[o1], inner_id[i0]});
      ++a;
    } else {
      out.push_back({outer_id[o0], inner_id[i1], inner_id[i0]});
      ++b;
    }
  }
  return true;
}

/// area of the regular n-gon of circumradius r
double ngon_area(int n, double r) { return 0.5 * n * r * r * std::sin(2 * kPi / n); }

/// A sucker's rings below its collar, as (radius, height above the sealing plane): the sealing
/// ring's outer and inner edges (the inner one is the lip, around the mouth), the top of the
/// pocket's straight wall, the roof's rings (a quarter ellipse of height dome = min(depth/2,
/// radius)); then the apex (radius 0).  rings[1] on are the pocket's.
std::vector<Point2> sucker_rings(const SuckerPlan& q) {
  const double dome = std::min(0.5 * q.depth, q.radius), h_wall = q.depth - dome;
  std::vector<Point2> rings = {{q.rim_outer, 0.0}, {q.radius, 0.0}, {q.radius, h_wall}};
  for (int m = 1; m < kDomeRings + 1; ++m) {
    const double psi = 0.5 * kPi * m / (kDomeRings + 1);
    rings.push_back({q.radius * std::cos(psi), h_wall + dome * std::sin(psi)});
  }
  rings.push_back({0.0, q.depth});
  return rings;
}

/// the pocket's volume above the sealing plane, for rings of n points: frustums of similar
/// n-gons, V = h (A1 + A2 + √(A1 A2)) / 3
double pocket_volume(const SuckerPlan& q, int n) {
  const std::vector<Point2> rings = sucker_rings(q);
  double v = 0;
  for (size_t k = 1; k + 1 < rings.size(); ++k) {  // from the mouth up
    const double a1 = ngon_area(n, rings[k][0]), a2 = ngon_area(n, rings[k + 1][0]);
    v += (rings[k + 1][1] - rings[k][1]) * (a1 + a2 + std::sqrt(a1 * a2)) / 3;
  }
  return v;
}

[[noreturn]] void throw_first(const std::vector<TentacleIssue>& issues) {
  throw InputError("tentacle: " + issues.front().key + ": " + issues.front().message);
}

}  // namespace

std::vector<TentacleIssue> check_tentacle(const TentacleParams& p) { return plan_tentacle(p).issues; }

std::vector<TentacleSucker> tentacle_suckers(const TentacleParams& p) {
  const TentaclePlan plan = plan_tentacle(p);
  if (!plan.issues.empty()) throw_first(plan.issues);
  std::vector<TentacleSucker> out;
  for (const SuckerPlan& q : plan.suckers) {
    TentacleSucker t;
    t.s = q.s;
    t.mouth = q.origin + q.rim_height * q.axis;
    t.axis = q.axis;
    t.radius = q.radius;
    t.rim_outer = q.rim_outer;
    t.depth = q.depth;
    t.rim_height = q.rim_height;
    t.pocket_volume = pocket_volume(q, p.sucker_resolution);
    out.push_back(t);
  }
  return out;
}

SurfaceMesh make_tentacle_surface(const TentacleParams& p, const MeshLimits& limits) {
  const TentaclePlan plan = plan_tentacle(p);
  if (!plan.issues.empty()) throw_first(plan.issues);
  const int n = p.resolution, ns = p.sucker_resolution, stations = plan.stations;
  const int rings_per_sucker = static_cast<int>(sucker_rings(SuckerPlan{}).size()) + 1;  // + the collar
  const double vertices = (stations + 1.0) * n + (kDomeRings + 1.0) * n + 2 +
                          static_cast<double>(plan.suckers.size()) * ns * rings_per_sucker;
  check_mesh_limit(vertices, limits.max_nodes, "vertices", "max_nodes", "tentacle");
  check_mesh_limit(2 * vertices, limits.max_triangles, "triangles", "max_triangles", "tentacle");

  SurfaceMesh out;
  auto add = [&](const Vec3& x) {
    out.vertices.push_back(x);
    return static_cast<int>(out.vertices.size()) - 1;
  };
  // grid vertices (station i, line j mod n), made when first used: a patch's inside has none
  std::vector<int> grid(static_cast<size_t>(stations + 1) * n, -1);
  auto station_s = [&](int i) { return i == stations ? p.length : i * plan.ds; };
  auto gv = [&](int i, int j) {
    const int jj = ((j % n) + n) % n;
    int& id = grid[static_cast<size_t>(i) * n + jj];
    if (id < 0) id = add(arm_point(p, station_s(i), jj * plan.dtheta));
    return id;
  };
  // which sucker owns each cell (-1: the arm's own)
  std::vector<int> owner(static_cast<size_t>(stations) * n, -1);
  for (size_t k = 0; k < plan.suckers.size(); ++k) {
    const SuckerPlan& q = plan.suckers[k];
    for (const auto& [i, j] : q.cells) owner[static_cast<size_t>(i) * n + ((j % n) + n) % n] = static_cast<int>(k);
  }

  // the base: a flat cap fanned from the centreline's start (its normal is -t)
  const int base_centre = add(arm_frame(p, 0.0).c);
  for (int j = 0; j < n; ++j) out.triangles.push_back({base_centre, gv(0, j), gv(0, j + 1)});
  // the arm: two triangles per free cell, counter-clockwise in (s, θ), hence outward
  for (int i = 0; i < stations; ++i)
    for (int j = 0; j < n; ++j) {
      if (owner[static_cast<size_t>(i) * n + j] >= 0) continue;
      out.triangles.push_back({gv(i, j), gv(i + 1, j), gv(i + 1, j + 1)});
      out.triangles.push_back({gv(i, j), gv(i + 1, j + 1), gv(i, j + 1)});
    }
  // the tip: a half ball of tip_radius on the last station, rings continuing the grid
  {
    const ArmFrame f = arm_frame(p, p.length);
    std::vector<int> previous(n), ring(n);
    for (int j = 0; j < n; ++j) previous[j] = gv(stations, j);
    for (int m = 1; m <= kDomeRings; ++m) {
      const double psi = 0.5 * kPi * m / (kDomeRings + 1);
      for (int j = 0; j < n; ++j)
        ring[j] = add(f.c + p.tip_radius * (std::sin(psi) * f.t + std::cos(psi) * radial(f, j * plan.dtheta)));
      for (int j = 0; j < n; ++j) {
        const int j1 = (j + 1) % n;
        out.triangles.push_back({previous[j], ring[j], ring[j1]});
        out.triangles.push_back({previous[j], ring[j1], previous[j1]});
      }
      previous = ring;
    }
    const int apex = add(f.c + p.tip_radius * f.t);
    for (int j = 0; j < n; ++j) out.triangles.push_back({previous[j], apex, previous[(j + 1) % n]});
  }
  // the suckers
  for (const SuckerPlan& q : plan.suckers) {
    const std::vector<std::pair<int, int>> loop = patch_boundary(q.cells);
    std::vector<Point2> outer_2d;
    std::vector<int> outer_id;
    for (const auto& [i, j] : loop) {
      outer_2d.push_back({(station_s(i) - q.s) * q.metric, (j * plan.dtheta - q.theta) * q.arm_r});
      outer_id.push_back(gv(i, j));
    }
    std::vector<int> collar_id;
    for (const Vec3& x : q.collar) collar_id.push_back(add(x));
    if (!zip_loops(outer_2d, outer_id, q.collar_2d, collar_id, out.triangles))
      throw InputError("tentacle: the arm around the sucker at s = " + mm(q.s) +
                       " cannot be triangulated (an internal error of the generator)");
    // the rings below the collar: strips (a m, a m+1, b m), (a m+1, b m+1, b m) from each ring
    // a to the next b are counter-clockwise seen from outside: a ring runs counter-clockwise
    // about the axis (e1 × e2 = axis, out of the arm), and each next ring lies inside the
    // previous one or above it (into the arm)
    std::vector<int> previous = collar_id;
    auto strip = [&](const std::vector<int>& ring) {
      for (int m = 0; m < ns; ++m) {
        const int m1 = (m + 1) % ns;
        out.triangles.push_back({previous[m], previous[m1], ring[m]});
        if (ring[m1] != ring[m]) out.triangles.push_back({previous[m1], ring[m1], ring[m]});
      }
      previous = ring;
    };
    for (const Point2& rh : sucker_rings(q)) {
      std::vector<int> ring;
      if (rh[0] == 0.0) {
        ring.assign(ns, add(q.origin + (q.rim_height - rh[1]) * q.axis));
      } else {
        for (int m = 0; m < ns; ++m) {
          const double phi = 2 * kPi * m / ns;
          ring.push_back(add(q.origin + (q.rim_height - rh[1]) * q.axis +
                             rh[0] * (std::cos(phi) * q.e1 + std::sin(phi) * q.e2)));
        }
      }
      strip(ring);
    }
  }
  validate_closed_surface(out, "tentacle");
  return out;
}

}  // namespace suction
