// Barycentric mapping: exact at nodes, reproduces linear fields, transpose is exact.
#include <gtest/gtest.h>

#include <random>

#include "mesh/generators.h"
#include "mesh/mapping.h"

namespace suction {
namespace {

TEST(Mapping, NodesMapToUnitWeights) {
  const TetMesh m = make_cup(CupParams{});
  const BarycentricMapping map = map_points_to_tets(m, m.nodes);
  ASSERT_EQ(map.tet.size(), m.nodes.size());
  for (size_t i = 0; i < m.nodes.size(); ++i) {
    const Tet& t = m.tets[map.tet[i]];
    int ones = 0;
    for (int k = 0; k < 4; ++k) {
      const double w = map.weights[i][k];
      if (t[k] == static_cast<int>(i)) {
        EXPECT_NEAR(w, 1.0, 1e-9);
        ++ones;
      } else {
        EXPECT_NEAR(w, 0.0, 1e-9);
      }
    }
    EXPECT_EQ(ones, 1) << "node " << i << " not a corner of its tet";
  }
}

TEST(Mapping, InteriorPointsAreReproduced) {
  const TetMesh m = make_sphere(0.02, 16);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  // random points inside random tets
  Points points;
  for (int i = 0; i < 500; ++i) {
    const Tet& t = m.tets[rng() % m.tets.size()];
    Eigen::Vector4d w(u(rng), u(rng), u(rng), u(rng));
    w /= w.sum();
    points.push_back(w[0] * m.nodes[t[0]] + w[1] * m.nodes[t[1]] + w[2] * m.nodes[t[2]] + w[3] * m.nodes[t[3]]);
  }
  const BarycentricMapping map = map_points_to_tets(m, points);
  Points mapped;
  apply_mapping(map, m, m.nodes, mapped);
  for (size_t i = 0; i < points.size(); ++i) {
    EXPECT_LT((mapped[i] - points[i]).norm(), 1e-15) << "point " << i;
    EXPECT_GT(map.weights[i].minCoeff(), -1e-12);
    EXPECT_NEAR(map.weights[i].sum(), 1.0, 1e-12);
  }
  // a moved mesh carries the points along: a rigid motion of the nodes moves them rigidly
  const Mat3 rot = Eigen::AngleAxisd(0.3, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  Points moved = m.nodes;
  transform_points(moved, rot, Vec3(0.1, 0, 0));
  apply_mapping(map, m, moved, mapped);
  for (size_t i = 0; i < points.size(); ++i)
    EXPECT_LT((mapped[i] - (rot * points[i] + Vec3(0.1, 0, 0))).norm(), 1e-15);
}

TEST(Mapping, OutsidePointsGoToTheNearestTetAndExtrapolate) {
  const TetMesh m = make_box(Vec3(1, 1, 1), 3, 3, 3);
  const Points points = {Vec3(0.5 + 1e-3, 0.1, 0.2), Vec3(3, 3, 3), Vec3(-0.7, 0, 0), Vec3(0, 0, -0.5 - 1e-9)};
  const BarycentricMapping map = map_points_to_tets(m, points);
  Points mapped;
  apply_mapping(map, m, m.nodes, mapped);
  for (size_t i = 0; i < points.size(); ++i) {
    // linear extrapolation of the identity is exact
    EXPECT_LT((mapped[i] - points[i]).norm(), 1e-12);
    // the chosen tet touches the closest point of the box
    const Vec3 closest = points[i].cwiseMax(Vec3::Constant(-0.5)).cwiseMin(Vec3::Constant(0.5));
    Aabb tet_box;
    for (int n : m.tets[map.tet[i]]) tet_box.extend(m.nodes[n]);
    EXPECT_TRUE((closest.array() >= tet_box.lo.array() - 1e-12).all() &&
                (closest.array() <= tet_box.hi.array() + 1e-12).all())
        << "point " << i;
  }
}

TEST(Mapping, TransposeIsExactAndConservesForce) {
  const TetMesh m = make_cylinder(0.01, 0.03, 12);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Points points;
  for (int i = 0; i < 200; ++i) points.push_back(Vec3(0.012 * u(rng), 0.012 * u(rng), 0.02 * u(rng)));
  const BarycentricMapping map = map_points_to_tets(m, points);
  Points x(m.nodes.size()), f(points.size());
  for (Vec3& v : x) v = Vec3(u(rng), u(rng), u(rng));
  for (Vec3& v : f) v = Vec3(u(rng), u(rng), u(rng));

  // <A x, f> == <x, Aᵀ f>
  Points ax, atf;
  apply_mapping(map, m, x, ax);
  apply_mapping_transpose(map, m, f, atf);
  ASSERT_EQ(atf.size(), m.nodes.size());
  double lhs = 0.0, rhs = 0.0;
  for (size_t i = 0; i < points.size(); ++i) lhs += ax[i].dot(f[i]);
  for (size_t n = 0; n < x.size(); ++n) rhs += x[n].dot(atf[n]);
  EXPECT_NEAR(lhs, rhs, 1e-12 * std::abs(lhs) + 1e-12);

  // weights sum to 1: the total force is conserved (also for extrapolated points)
  Vec3 total_points = Vec3::Zero(), total_nodes = Vec3::Zero();
  for (const Vec3& v : f) total_points += v;
  for (const Vec3& v : atf) total_nodes += v;
  EXPECT_LT((total_points - total_nodes).norm(), 1e-12);

  // the transpose accumulates into existing forces
  Points twice = atf;
  apply_mapping_transpose(map, m, f, twice);
  for (size_t n = 0; n < atf.size(); ++n) EXPECT_LT((twice[n] - 2 * atf[n]).norm(), 1e-14);
}

}  // namespace
}  // namespace suction
