// The octopus tentacle (core/mesh/generators_tentacle.cpp): its surface is closed, outward,
// of genus 0 and deterministic; the arm has the volume of a tapered tube with a half-ball tip;
// the suckers change it by what an analytic estimate of their rims and pockets says; every
// pocket is there (a point in it is outside the solid, a point in its rim inside); bad
// parameters are issues naming their key.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "common/error.h"
#include "mesh/generators.h"
#include "mesh/mesh_checks.h"

namespace suction {
namespace {

using mesh_checks::euler_characteristic;

/// a 120 mm arm, 10 mm at the base and 4 mm at the tip, six suckers (mouths of 2.5 mm, 1 mm
/// rims standing 1 mm out, pockets 2.5 mm deep, at the base's scale) from 20 to 100 mm
TentacleParams arm() {
  TentacleParams p;
  p.length = 0.12;
  p.base_radius = 0.01;
  p.tip_radius = 0.004;
  p.sucker_count = 6;
  p.sucker_radius = 0.0025;
  p.sucker_depth = 0.0025;
  p.rim_thickness = 0.001;
  p.rim_height = 0.001;
  p.sucker_first = 0.02;
  p.sucker_last = 0.1;
  return p;
}

/// area of the regular n-gon of circumradius r over πr²: the polygons' share of the circles
double ngon_share(int n) { return n * std::sin(2 * kPi / n) / (2 * kPi); }

/// The arm without suckers: a frustum of n-gons, ∫ A(s) ds along the centreline (Pappus: the
/// bend does not change it while the arm's radius is below the bend's), plus the half ball of
/// the tip (its rings are n-gons too; the ball's rings are few, hence 1 % below)
double arm_volume(const TentacleParams& p) {
  const double r0 = p.base_radius, r1 = p.tip_radius;
  return ngon_share(p.resolution) * kPi * (p.length * (r0 * r0 + r0 * r1 + r1 * r1) / 3 + 2.0 / 3.0 * r1 * r1 * r1);
}

/// What one sucker on the underside adds to the arm: the solid between its sealing plane and
/// the arm's surface, inside the sealing ring's outer edge R and, beyond it, above the flank
/// rising at 50° (h = (ρ − R) tan 50°), less the pocket above the sealing plane; integrated in
/// polar coordinates about the sucker's axis (the n-gons' share of the circles' areas applied to
/// the whole).  The sealing plane is parallel to the arm's surface (its normal leans with the
/// taper), so the arm's surface stands h(x, y) = rim_height + r(x) − √(r(x)² − y²) − κ_s x²/2
/// above it: y across the arm, x along it, r(x) its tapering radius, κ_s = κ/(1 − κr) the
/// underside's curvature along the arm (towards the sucker when it curls in).
double sucker_net_volume(const TentacleSucker& t, const TentacleParams& p, int n) {
  const double r = p.base_radius + (p.tip_radius - p.base_radius) * t.s / p.length;
  const double taper = (p.tip_radius - p.base_radius) / p.length, kappa = p.curl / p.length;
  const double ks = kappa / (1 - kappa * r), slope = std::tan(50 * kPi / 180);
  auto arm_height = [&](double x, double y) {
    const double rx = r + taper * x;
    return t.rim_height + rx - std::sqrt(rx * rx - y * y) - ks * x * x / 2;
  };
  const int n_phi = 360, n_rho = 400;
  const double rho_max = 0.9 * r;
  double added = 0;
  for (int i = 0; i < n_phi; ++i) {
    const double phi = 2 * kPi * (i + 0.5) / n_phi;
    for (int j = 0; j < n_rho; ++j) {
      const double rho = rho_max * (j + 0.5) / n_rho;
      const double floor = rho <= t.rim_outer ? 0.0 : (rho - t.rim_outer) * slope;
      const double gap = arm_height(rho * std::cos(phi), rho * std::sin(phi)) - floor;
      if (gap > 0) added += gap * rho * (rho_max / n_rho) * (2 * kPi / n_phi);
    }
  }
  return ngon_share(n) * added - t.pocket_volume;
}

/// the generalized winding number of a closed surface about x: 1 inside, 0 outside
/// (Van Oosterom and Strackee's solid angle of each triangle)
double winding_number(const SurfaceMesh& s, const Vec3& x) {
  double w = 0;
  for (const Tri& t : s.triangles) {
    const Vec3 a = s.vertices[t[0]] - x, b = s.vertices[t[1]] - x, c = s.vertices[t[2]] - x;
    const double la = a.norm(), lb = b.norm(), lc = c.norm();
    const double num = a.dot(b.cross(c));
    const double den = la * lb * lc + a.dot(b) * lc + b.dot(c) * la + c.dot(a) * lb;
    w += 2 * std::atan2(num, den);
  }
  return w / (4 * kPi);
}

TEST(Tentacle, SurfaceIsClosedOutwardGenusZeroAndDeterministic) {
  std::vector<TentacleParams> cases(6, arm());
  cases[1].curl = 1.0;                       // curled towards the suckers
  cases[2].curl = -1.0;                      // away from them
  cases[3].rows = 2;                         // a zigzag of two rows of smaller suckers
  cases[3].row_angle_deg = 35;
  cases[3].sucker_radius = 0.0015;
  cases[3].sucker_count = 10;
  cases[4].scale_suckers = false;            // all of one size: small ones, to fit the thin end
  cases[4].sucker_radius = 0.001;
  cases[4].rim_thickness = 0.0006;
  cases[4].rim_height = 0.0006;
  cases[4].sucker_depth = 0.0015;
  cases[4].sucker_last = 0.07;
  cases[5].sucker_count = 0;                 // a bare arm
  for (size_t c = 0; c < cases.size(); ++c) {
    SCOPED_TRACE(c);
    EXPECT_TRUE(check_tentacle(cases[c]).empty());
    const SurfaceMesh s = make_tentacle_surface(cases[c]);
    EXPECT_NO_THROW(validate_closed_surface(s, "tentacle"));
    EXPECT_EQ(euler_characteristic(s), 2);
    EXPECT_GT(enclosed_volume(s), 0);
    const SurfaceMesh again = make_tentacle_surface(cases[c]);
    EXPECT_EQ(again.triangles, s.triangles);
    bool same = again.vertices.size() == s.vertices.size();
    for (size_t i = 0; same && i < s.vertices.size(); ++i) same = again.vertices[i] == s.vertices[i];
    EXPECT_TRUE(same);
  }
}

TEST(Tentacle, VolumeIsTheTaperedArmsPlusTheSuckersRimsLessTheirPockets) {
  for (double curl : {0.0, 1.0, -1.0}) {
    SCOPED_TRACE(curl);
    TentacleParams bare = arm();
    bare.curl = curl;
    bare.sucker_count = 0;
    const double v_bare = enclosed_volume(make_tentacle_surface(bare));
    EXPECT_NEAR(v_bare, arm_volume(bare), 0.002 * arm_volume(bare));

    const TentacleParams p = [&] { TentacleParams q = arm(); q.curl = curl; return q; }();
    const std::vector<TentacleSucker> suckers = tentacle_suckers(p);
    ASSERT_EQ(suckers.size(), 6u);
    double net = 0, pockets = 0;
    for (const TentacleSucker& t : suckers) {
      net += sucker_net_volume(t, p, p.sucker_resolution);
      pockets += t.pocket_volume;
      // the pocket as drawn: a cylinder to depth - dome, a half-ellipsoid roof of height dome
      const double dome = std::min(t.depth / 2, t.radius);
      const double drawn = kPi * t.radius * t.radius * (t.depth - dome + 2.0 / 3.0 * dome);
      EXPECT_NEAR(t.pocket_volume, drawn, 0.05 * drawn);
    }
    const double v = enclosed_volume(make_tentacle_surface(p));
    std::printf("tentacle curl %.1f: arm %.4f cm^3 (tapered tube %.4f), with suckers %.4f: net %.4f cm^3, estimate "
                "%.4f (pockets %.4f)\n", curl, 1e6 * v_bare, 1e6 * arm_volume(bare), 1e6 * v, 1e6 * (v - v_bare),
                1e6 * net, 1e6 * pockets);
    // the whole: within 0.5 % of the estimate; what the suckers change, a small difference of
    // their rims and pockets, within 5 % of their pockets' volume (the estimate takes the
    // patches around the suckers for the smooth arm)
    EXPECT_NEAR(v, arm_volume(bare) + net, 0.005 * v);
    EXPECT_NEAR(v - v_bare, net, 0.05 * pockets);
  }
}

TEST(Tentacle, EverySuckerHasItsPocketAndItsRim) {
  for (int rows : {1, 2}) {
    SCOPED_TRACE(rows);
    TentacleParams p = arm();
    p.rows = rows;
    p.sucker_count = rows == 2 ? 10 : 6;
    p.row_angle_deg = 35;
    if (rows == 2) p.sucker_radius = 0.0015;
    p.curl = 0.8;
    const SurfaceMesh s = make_tentacle_surface(p);
    const std::vector<TentacleSucker> suckers = tentacle_suckers(p);
    ASSERT_EQ(static_cast<int>(suckers.size()), p.sucker_count);
    for (size_t k = 0; k < suckers.size(); ++k) {
      SCOPED_TRACE(k);
      const TentacleSucker& t = suckers[k];
      // a direction in the sealing plane
      const Vec3 side = t.axis.cross(Vec3(0, 0, 1)).norm() > 0.1 ? t.axis.cross(Vec3(0, 0, 1)).normalized()
                                                                 : t.axis.cross(Vec3(1, 0, 0)).normalized();
      const Vec3 in_pocket = t.mouth - 0.5 * t.depth * t.axis;                    // air
      const Vec3 above_roof = t.mouth - (t.depth + 0.3 * t.rim_height) * t.axis;  // the arm
      const Vec3 in_rim = t.mouth - 0.5 * t.rim_height * t.axis + 0.5 * (t.radius + t.rim_outer) * side;
      const Vec3 below_mouth = t.mouth + 0.5 * t.rim_height * t.axis;             // outside, under the sucker
      EXPECT_NEAR(winding_number(s, in_pocket), 0.0, 1e-6);
      EXPECT_NEAR(winding_number(s, above_roof), 1.0, 1e-6);
      EXPECT_NEAR(winding_number(s, in_rim), 1.0, 1e-6);
      EXPECT_NEAR(winding_number(s, below_mouth), 0.0, 1e-6);
      // the sealing plane faces away from the arm's axis (down for the first row)
      if (rows == 1) EXPECT_LT(t.axis.z(), -0.5);
    }
  }
}

/// the keys of the issues of p
std::vector<std::string> issue_keys(const TentacleParams& p) {
  std::vector<std::string> keys;
  for (const TentacleIssue& i : check_tentacle(p)) keys.push_back(i.key);
  return keys;
}

/// the key of the first issue of p ("" when none)
std::string first_key(const TentacleParams& p) {
  const std::vector<std::string> keys = issue_keys(p);
  return keys.empty() ? "" : keys.front();
}

TEST(Tentacle, BadParametersAreIssuesNamingTheirKey) {
  using Keys = std::vector<std::string>;
  TentacleParams p = arm();
  p.tip_radius = 0.012;  // wider than the base
  EXPECT_EQ(issue_keys(p), Keys{"tip_radius"});
  p = arm();
  p.length = -1;
  EXPECT_EQ(issue_keys(p), Keys{"length"});
  p = arm();
  p.curl = 7;  // more than half a turn
  EXPECT_EQ(issue_keys(p), Keys{"curl"});
  p = arm();
  p.sucker_radius = 0.008;  // wider than the arm
  EXPECT_EQ(first_key(p), "sucker_radius");
  p = arm();
  p.sucker_radius = 0.0035;  // its flank does not meet the round arm
  EXPECT_EQ(first_key(p), "sucker_radius");
  p = arm();
  p.sucker_depth = 0.008;  // deeper than 0.6 of the arm's radius
  EXPECT_EQ(first_key(p), "sucker_depth");
  p = arm();
  p.sucker_count = 12;  // they overlap
  EXPECT_EQ(first_key(p), "sucker_count");
  p = arm();
  p.sucker_first = 0.003;  // its lip reaches the base
  EXPECT_EQ(issue_keys(p), Keys{"sucker_first"});
  p = arm();
  p.sucker_last = 0.118;  // reaches the tip
  EXPECT_EQ(issue_keys(p), Keys{"sucker_last"});
  p = arm();
  p.rows = 2;
  p.row_angle_deg = 70;  // on the arm's side
  EXPECT_EQ(first_key(p), "row_angle_deg");
  p = arm();
  p.resolution = 6;
  EXPECT_EQ(issue_keys(p), Keys{"resolution"});
  // the surface refuses them, naming the key
  p = arm();
  p.tip_radius = 0.012;
  try {
    make_tentacle_surface(p);
    ADD_FAILURE() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("tip_radius"), std::string::npos) << e.what();
  }
  // a mesh too large for the limits
  MeshLimits small;
  small.max_nodes = 100;
  EXPECT_THROW(make_tentacle_surface(arm(), small), InputError);
}

}  // namespace
}  // namespace suction
