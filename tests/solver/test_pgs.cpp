// What is the PGS's own: its iteration counts on easy problems and the soft rows' exact
// elimination.  The oracles every method must pass are in test_solvers.cpp (pgs included).
#include <gtest/gtest.h>

#include "solver/pgs.h"

using namespace suction;

namespace {
// a point mass m resting on a plane: W = h/m I (3 rows)
Eigen::MatrixXd point_mass_W(double m, double h) { return (h / m) * Eigen::MatrixXd::Identity(3, 3); }
}  // namespace

TEST(Pgs, RestingPointMassCarriesItsWeight) {
  const double m = 2.0, h = 0.01, g = 9.81;
  // free motion fell by g h: u_free_n = -g h, gap at x_free = -g h² (as if from gap 0)
  VecX u_free(3);
  u_free << -g * h, 0, 0;
  VecX lambda = VecX::Zero(3);
  const auto r = solve_contacts_pgs(point_mass_W(m, h), u_free, {-g * h * h}, {0.5}, h, 50, 1e-12, lambda);
  // end gap = gap + h (Wλ)_n = 0  ->  λ = m g (h... ) : h (h/m) λ = g h²  -> λ = m g
  EXPECT_NEAR(lambda[0], m * g, 1e-9);
  EXPECT_NEAR(lambda[1], 0.0, 1e-12);
  EXPECT_LE(r.iterations, 3);
}

TEST(Pgs, SoftRowsAreSolvedExactlyAsOneBlock) {
  // three strongly coupled soft rows (a stiff spring network on one body): the block step solves
  // (W + diag γ) λ = −(u_free + b) in the first sweep, where row-by-row Gauss-Seidel would crawl
  Eigen::MatrixXd W(3, 3);
  W << 1.0, 0.99, 0.98, 0.99, 1.0, 0.99, 0.98, 0.99, 1.0;
  const VecX u_free = Eigen::Vector3d(0.3, -0.2, 0.1);
  const std::vector<SoftRow> soft = {{1e-3, 0.05}, {2e-3, -0.01}, {1e-3, 0.02}};
  std::vector<CavityRow> none;
  VecX lambda = VecX::Zero(3);
  const PgsResult r = solve_pgs(W, u_free, {}, {}, none, soft, 0.01, 100, 1e-12, lambda);
  Eigen::MatrixXd S = W;
  for (int j = 0; j < 3; ++j) S(j, j) += soft[j].compliance;
  const VecX b = Eigen::Vector3d(soft[0].bias, soft[1].bias, soft[2].bias);
  const VecX exact = S.ldlt().solve(-(u_free + b));
  EXPECT_LE(r.iterations, 2);
  EXPECT_LT((lambda - exact).norm(), 1e-9 * exact.norm());
  // each row's end-of-step equation u + γ λ + b = 0 holds
  const VecX u = u_free + W * lambda;
  for (int j = 0; j < 3; ++j) EXPECT_NEAR(u[j] + soft[j].compliance * lambda[j] + soft[j].bias, 0.0, 1e-9);
}

TEST(Pgs, AStiffSpringCoupledToAContactConvergesAtOnce) {
  // one frictionless contact and one stiff soft row on the same degree of freedom (a light
  // body between the ground and a stiff spring): Gauss-Seidel between the two alternates with a
  // ratio close to 1; eliminating the spring leaves one contact with the reduced compliance
  const double m = 0.01, h = 0.01, g = 9.81, k = 1e5, e = 1e-4;
  Eigen::MatrixXd W = Eigen::MatrixXd::Zero(4, 4);
  W.topLeftCorner(3, 3) = point_mass_W(m, h);
  W(3, 3) = W(0, 3) = W(3, 0) = h / m;
  VecX u_free = VecX::Zero(4);
  u_free[0] = u_free[3] = -g * h;
  const double gamma = 1.0 / (k * h);
  std::vector<CavityRow> none;
  VecX lambda = VecX::Zero(4);
  const auto r = solve_pgs(W, u_free, {-g * h * h}, {0.0}, none, {{gamma, k * e * gamma}}, h, 20, 1e-12, lambda);
  EXPECT_LE(r.iterations, 3);
  EXPECT_NEAR(lambda[3], -k * e, 1e-9 * k * e);
  EXPECT_NEAR(lambda[0], m * g + k * e, 1e-9 * k * e);
}
