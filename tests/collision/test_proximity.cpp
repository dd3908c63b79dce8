// Closest points: point–triangle in every Voronoi region and segment–segment (parallel,
// degenerate) against brute-force minimization.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "collision/proximity.h"

namespace suction {
namespace {

// brute force: min distance from p to the triangle, sampled on an n×n barycentric grid
double sampled_triangle_distance(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c,
                                 int n = 300) {
  double best = INFINITY;
  for (int i = 0; i <= n; ++i)
    for (int j = 0; i + j <= n; ++j) {
      const double u = double(i) / n, v = double(j) / n;
      best = std::min(best, (p - (a + u * (b - a) + v * (c - a))).norm());
    }
  return best;
}

// brute force: segment distance, s sampled finely with the exact best t for each (and the
// other way round)
double sampled_segment_distance(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1) {
  const auto point_segment = [](const Vec3& x, const Vec3& a, const Vec3& b) {
    const Vec3 d = b - a;
    const double len2 = d.squaredNorm();
    const double t = len2 > 0 ? std::clamp((x - a).dot(d) / len2, 0.0, 1.0) : 0.0;
    return (x - (a + t * d)).norm();
  };
  double best = INFINITY;
  const int n = 4000;
  for (int i = 0; i <= n; ++i) {
    const double s = double(i) / n;
    best = std::min(best, point_segment(p0 + s * (p1 - p0), q0, q1));
    best = std::min(best, point_segment(q0 + s * (q1 - q0), p0, p1));
  }
  return best;
}

int zero_weights(const TriangleClosestPoint& c) {
  return (c.weight[0] == 0.0) + (c.weight[1] == 0.0) + (c.weight[2] == 0.0);
}

void expect_consistent(const TriangleClosestPoint& c, const Vec3& a, const Vec3& b,
                       const Vec3& t) {
  EXPECT_NEAR(c.weight[0] + c.weight[1] + c.weight[2], 1.0, 1e-12);
  for (double w : c.weight) EXPECT_GE(w, 0.0);
  EXPECT_LT((c.point - (c.weight[0] * a + c.weight[1] * b + c.weight[2] * t)).norm(), 1e-12);
}

TEST(Proximity, TriangleClosestPointInAllSevenRegions) {
  const Vec3 a(0, 0, 0), b(1, 0, 0), c(0, 1, 0);
  struct Case {
    Vec3 p;
    int zeros;  // 0 face, 1 edge, 2 vertex
    int zero_index;  // for edges: the vertex whose weight is 0; for vertices: the one that is 1
  };
  const Case cases[] = {
      {Vec3(0.2, 0.3, 0.5), 0, -1},    // face (above)
      {Vec3(-0.3, -0.2, -0.4), 2, 0},  // vertex a
      {Vec3(1.5, -0.1, 0.2), 2, 1},    // vertex b
      {Vec3(-0.1, 1.4, -0.3), 2, 2},   // vertex c
      {Vec3(0.5, -0.5, 0.1), 1, 2},    // edge ab
      {Vec3(-0.5, 0.4, 0.3), 1, 1},    // edge ac
      {Vec3(0.8, 0.8, -0.2), 1, 0},    // edge bc
  };
  for (const Case& k : cases) {
    const TriangleClosestPoint r = closest_point_on_triangle(k.p, a, b, c);
    expect_consistent(r, a, b, c);
    EXPECT_EQ(zero_weights(r), k.zeros) << k.p.transpose();
    if (k.zeros == 1) {
      EXPECT_EQ(r.weight[k.zero_index], 0.0);
    } else if (k.zeros == 2) {
      EXPECT_EQ(r.weight[k.zero_index], 1.0);
    }
    const double brute = sampled_triangle_distance(k.p, a, b, c);
    EXPECT_LE((k.p - r.point).norm(), brute + 1e-12);
    EXPECT_NEAR((k.p - r.point).norm(), brute, 2e-3);
  }
}

TEST(Proximity, TriangleClosestPointMatchesBruteForceOnRandomTriangles) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const auto rand3 = [&] { return Vec3(u(rng), u(rng), u(rng)); };
  int regions[3] = {0, 0, 0};
  for (int trial = 0; trial < 200; ++trial) {
    const Vec3 a = rand3(), b = rand3(), c = rand3(), p = 1.5 * rand3();
    const TriangleClosestPoint r = closest_point_on_triangle(p, a, b, c);
    expect_consistent(r, a, b, c);
    ++regions[zero_weights(r)];
    const double brute = sampled_triangle_distance(p, a, b, c, 150);
    const double longest = std::max({(b - a).norm(), (c - a).norm(), (c - b).norm()});
    EXPECT_LE((p - r.point).norm(), brute + 1e-12);
    EXPECT_NEAR((p - r.point).norm(), brute, 2.0 * longest / 150);
  }
  for (int z = 0; z < 3; ++z) EXPECT_GT(regions[z], 10) << "region class " << z;
}

TEST(Proximity, DegenerateTrianglesUseTheirEdges) {
  const Vec3 p(0.5, 1.0, 0.0);
  // collinear: a–c spans the segment, b in the middle
  const Vec3 a(0, 0, 0), b(1, 0, 0), c(2, 0, 0);
  TriangleClosestPoint r = closest_point_on_triangle(p, a, b, c);
  expect_consistent(r, a, b, c);
  EXPECT_LT((r.point - Vec3(0.5, 0, 0)).norm(), 1e-12);
  r = closest_point_on_triangle(Vec3(1.8, -1, 0), a, c, b);  // the long edge is c–b–a
  expect_consistent(r, a, c, b);
  EXPECT_LT((r.point - Vec3(1.8, 0, 0)).norm(), 1e-12);
  // all three vertices coincide
  r = closest_point_on_triangle(p, a, a, a);
  expect_consistent(r, a, a, a);
  EXPECT_LT(r.point.norm(), 1e-15);
  // nearly flat (area ~ 1e-14) still gives the right distance
  const Vec3 c2(2, 1e-14, 0);
  r = closest_point_on_triangle(p, a, b, c2);
  EXPECT_NEAR((p - r.point).norm(), sampled_triangle_distance(p, a, b, c2), 1e-2);
}

TEST(Proximity, SegmentClosestPointsMatchBruteForce) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const auto rand3 = [&] { return Vec3(u(rng), u(rng), u(rng)); };
  int interior = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const Vec3 p0 = rand3(), p1 = rand3(), q0 = rand3(), q1 = rand3();
    const SegmentClosestPoints r = closest_points_on_segments(p0, p1, q0, q1);
    EXPECT_GE(r.s, 0.0);
    EXPECT_LE(r.s, 1.0);
    EXPECT_GE(r.t, 0.0);
    EXPECT_LE(r.t, 1.0);
    EXPECT_LT((r.p - (p0 + r.s * (p1 - p0))).norm(), 1e-12);
    EXPECT_LT((r.q - (q0 + r.t * (q1 - q0))).norm(), 1e-12);
    EXPECT_NEAR(r.distance_sq, (r.p - r.q).squaredNorm(), 1e-14);
    const double brute = sampled_segment_distance(p0, p1, q0, q1);
    EXPECT_LE(std::sqrt(r.distance_sq), brute + 1e-12);
    EXPECT_NEAR(std::sqrt(r.distance_sq), brute, 1e-3);
    interior += r.s > 0 && r.s < 1 && r.t > 0 && r.t < 1;
  }
  EXPECT_GT(interior, 20);
}

TEST(Proximity, CrossingSegmentsMeetAtInteriorParameters) {
  const SegmentClosestPoints r =
      closest_points_on_segments(Vec3(-1, 0, 0.3), Vec3(3, 0, 0.3), Vec3(0, -1, 0), Vec3(0, 1, 0));
  EXPECT_NEAR(r.s, 0.25, 1e-14);
  EXPECT_NEAR(r.t, 0.5, 1e-14);
  EXPECT_NEAR(r.distance_sq, 0.09, 1e-14);
}

TEST(Proximity, ParallelSegments) {
  // overlapping: the middle of the overlap [1, 2] on x
  SegmentClosestPoints r =
      closest_points_on_segments(Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(1, 0.5, 0), Vec3(3, 0.5, 0));
  EXPECT_NEAR(std::sqrt(r.distance_sq), 0.5, 1e-14);
  EXPECT_NEAR(r.p.x(), 1.5, 1e-14);
  EXPECT_NEAR(r.q.x(), 1.5, 1e-14);
  // anti-parallel, overlapping
  r = closest_points_on_segments(Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(3, 0, 0.5), Vec3(1, 0, 0.5));
  EXPECT_NEAR(std::sqrt(r.distance_sq), 0.5, 1e-14);
  EXPECT_NEAR(r.p.x(), 1.5, 1e-14);
  // collinear, disjoint: end to end
  r = closest_points_on_segments(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(3, 0, 0), Vec3(2, 0, 0));
  EXPECT_NEAR(std::sqrt(r.distance_sq), 1.0, 1e-14);
  EXPECT_EQ(r.s, 1.0);
  EXPECT_EQ(r.t, 1.0);
  // nearly parallel (1e-9 rad) matches brute force
  const Vec3 p0(0, 0, 0), p1(1, 0, 0), q0(0.2, 0.1, 0.0), q1(1.2, 0.1, 1e-9);
  r = closest_points_on_segments(p0, p1, q0, q1);
  EXPECT_NEAR(std::sqrt(r.distance_sq), sampled_segment_distance(p0, p1, q0, q1), 1e-9);
}

TEST(Proximity, ZeroLengthSegmentsArePoints) {
  const Vec3 p(0.5, 1.0, 0.0);
  // point against segment
  SegmentClosestPoints r = closest_points_on_segments(p, p, Vec3(0, 0, 0), Vec3(2, 0, 0));
  EXPECT_NEAR(r.t, 0.25, 1e-14);
  EXPECT_NEAR(std::sqrt(r.distance_sq), 1.0, 1e-14);
  // segment against point (beyond the end)
  r = closest_points_on_segments(Vec3(0, 0, 0), Vec3(0.2, 0, 0), p, p);
  EXPECT_EQ(r.s, 1.0);
  EXPECT_NEAR(r.distance_sq, 0.09 + 1.0, 1e-14);
  // point against point
  r = closest_points_on_segments(p, p, Vec3::Zero(), Vec3::Zero());
  EXPECT_NEAR(r.distance_sq, p.squaredNorm(), 1e-14);
  EXPECT_TRUE(std::isfinite(r.s) && std::isfinite(r.t));
}

}  // namespace
}  // namespace suction
