// Blocks with openings (core/mesh/generators_block.cpp): the pocket and tunnel blocks' surfaces
// are closed, outward, of the right genus and of exactly their analytic volume; the star outline
// is deterministic and star-shaped; bad dimensions are input errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "common/error.h"
#include "mesh/generators.h"
#include "mesh/mesh_checks.h"

namespace suction {
namespace {

using mesh_checks::euler_characteristic;

// the first radius of star_outline(1, 6, 1.0, 0.5): 1 + 0.5·u, u the second number of
// splitmix64 from seed 1 mapped to [-1, 1) (computed independently, in Python)
constexpr double kStarGoldenRadius = 1.245781757262701;

TEST(StarOutline, IsDeterministicStarShapedAndCounterClockwise) {
  const std::vector<Point2> a = star_outline(42, 16, 0.01, 0.5);
  const std::vector<Point2> b = star_outline(42, 16, 0.01, 0.5);
  ASSERT_EQ(a.size(), 16u);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, star_outline(43, 16, 0.01, 0.5));
  for (size_t i = 0; i < a.size(); ++i) {
    const Point2& p = a[i];
    const Point2& q = a[(i + 1) % a.size()];
    EXPECT_GT(p[0] * q[1] - p[1] * q[0], 0) << i;  // each edge turns counter-clockwise about 0
    const double r = std::hypot(p[0], p[1]);
    EXPECT_GE(r, 0.01 * 0.5 - 1e-15);
    EXPECT_LE(r, 0.01 * 1.5 + 1e-15);
  }
  // roughness 0: the regular polygon
  const std::vector<Point2> regular = star_outline(7, 8, 0.01, 0.0);
  for (const Point2& p : regular) EXPECT_NEAR(std::hypot(p[0], p[1]), 0.01, 1e-15);
  EXPECT_NEAR(polygon_area(regular), 4 * 0.01 * 0.01 * std::sin(kPi / 4), 1e-15);
  // splitmix64 is the same everywhere: a golden value (seed 1, first point's radius)
  EXPECT_NEAR(std::hypot(star_outline(1, 6, 1.0, 0.5)[0][0], star_outline(1, 6, 1.0, 0.5)[0][1]),
              kStarGoldenRadius, 1e-12);
  EXPECT_THROW(star_outline(1, 3, 0.01, 0.2), InputError);
  EXPECT_THROW(star_outline(1, 8, 0.01, 1.0), InputError);
}

TEST(PocketBlock, SurfaceIsClosedOutwardWithItsVolume) {
  const Vec3 size(0.03, 0.03, 0.015);
  for (std::uint64_t seed : {1u, 7u, 1234u}) {
    SCOPED_TRACE(seed);
    const std::vector<Point2> outline = star_outline(seed, 12, 0.006, 0.4);
    const SurfaceMesh s = make_pocket_block_surface(size, outline, 0.006);
    EXPECT_NO_THROW(validate_closed_surface(s, "pocket_block"));
    EXPECT_EQ(euler_characteristic(s), 2);
    const double v = pocket_block_volume(size, outline, 0.006);
    EXPECT_NEAR(enclosed_volume(s), v, 1e-12 * v);
    EXPECT_LT(v, size.prod());
  }
  // an explicit outline: a square pocket of side 0.01, 0.004 deep
  const std::vector<Point2> square = {{-0.005, -0.005}, {0.005, -0.005}, {0.005, 0.005}, {-0.005, 0.005}};
  const SurfaceMesh s = make_pocket_block_surface(size, square, 0.004);
  EXPECT_NEAR(enclosed_volume(s), size.prod() - 0.004 * 1e-4, 1e-18);
}

TEST(PocketBlock, RejectsBadOutlinesAndDepths) {
  const Vec3 size(0.03, 0.03, 0.015);
  const std::vector<Point2> outline = star_outline(3, 10, 0.006, 0.3);
  std::vector<Point2> clockwise(outline.rbegin(), outline.rend());
  EXPECT_THROW(make_pocket_block_surface(size, clockwise, 0.005), InputError);
  EXPECT_THROW(make_pocket_block_surface(size, outline, 0.015), InputError);  // through the block
  EXPECT_THROW(make_pocket_block_surface(size, outline, 0.0), InputError);
  EXPECT_THROW(make_pocket_block_surface(size, star_outline(3, 10, 0.02, 0.3), 0.005), InputError);  // outside
}

TEST(TunnelBlock, SurfaceIsClosedGenusOneWithItsVolume) {
  const Vec3 size(0.04, 0.02, 0.02);
  for (int res : {6, 16, 24}) {
    SCOPED_TRACE(res);
    const SurfaceMesh s = make_tunnel_block_surface(size, 0.006, 0.016, 0.012, res);
    EXPECT_NO_THROW(validate_closed_surface(s, "tunnel_block"));
    EXPECT_EQ(euler_characteristic(s), 0);  // one handle: the U-shaped air path
    const double v = tunnel_block_volume(size, 0.006, 0.016, 0.012, res);
    EXPECT_NEAR(enclosed_volume(s), v, 1e-12 * v);
    // the air path against round holes: A(2 depth - d + spacing), A -> π r²
    const double air_round = kPi * 0.003 * 0.003 * (2 * 0.012 - 0.006 + 0.016);
    EXPECT_NEAR(size.prod() - v, air_round, 0.2 * air_round);
  }
}

TEST(TunnelBlock, RejectsHolesThatDoNotFit) {
  const Vec3 size(0.04, 0.02, 0.02);
  EXPECT_THROW(make_tunnel_block_surface(size, 0.006, 0.006, 0.012), InputError);  // holes touch
  EXPECT_THROW(make_tunnel_block_surface(size, 0.006, 0.036, 0.012), InputError);  // beyond the sides
  EXPECT_THROW(make_tunnel_block_surface(size, 0.006, 0.016, 0.005), InputError);  // shallower than the tunnel
  EXPECT_THROW(make_tunnel_block_surface(size, 0.006, 0.016, 0.02), InputError);   // through the bottom
  EXPECT_THROW(make_tunnel_block_surface(size, 0.006, 0.016, 0.012, 5), InputError);
}

}  // namespace
}  // namespace suction
