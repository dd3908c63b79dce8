// Projected Gauss-Seidel on single contacts with known answers.
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

TEST(Pgs, SeparatingContactCarriesNothing) {
  VecX u_free(3);
  u_free << 1.0, 0.3, 0;
  VecX lambda = VecX::Ones(3);  // a wrong warm start is undone
  solve_contacts_pgs(point_mass_W(1, 0.01), u_free, {0.001}, {0.5}, 0.01, 50, 1e-12, lambda);
  EXPECT_EQ(lambda[0], 0.0);
  EXPECT_EQ(lambda.tail<2>().norm(), 0.0);
}

TEST(Pgs, StickWithinTheConeSlipOnItsBoundary) {
  const double m = 1.0, h = 0.01, g = 9.81, mu = 0.5;
  for (double tangential : {0.2, 0.8}) {  // sliding impulse below and above μ m g h
    VecX u_free(3);
    u_free << -g * h, tangential * mu * g * h * 2, 0;  // tangential free velocity
    VecX lambda = VecX::Zero(3);
    solve_contacts_pgs(point_mass_W(m, h), u_free, {-g * h * h}, {mu}, h, 100, 1e-12, lambda);
    const double needed = m * u_free[1] / h;  // force that stops the sliding
    const double lt = lambda.tail<2>().norm();
    EXPECT_LE(lt, mu * lambda[0] * (1 + 1e-12));
    if (needed < mu * m * g) EXPECT_NEAR(lambda[1], -needed, 1e-9);   // stick: stopped
    else EXPECT_NEAR(lt, mu * lambda[0], 1e-9);                       // slip: on the cone
  }
}

TEST(Pgs, SlipFrictionOpposesTheSlidingVelocityEvenWithAnisotropicCompliance) {
  // maximal dissipation: when slipping, λ_t is antiparallel to the end-of-step sliding velocity,
  // whatever the coupling in W (a rigid body's lever arms make W_tt anisotropic)
  const double h = 0.01, mu = 0.4;
  Eigen::MatrixXd W(3, 3);
  W << 1.0, 0.2, 0.1, 0.2, 2.0, 0.7, 0.1, 0.7, 0.6;
  W *= h;
  VecX u_free(3);
  u_free << -0.05, 3.0, 1.0;  // sliding fast: cannot stick
  VecX lambda = VecX::Zero(3);
  lambda << 0.0, 0.0, 5.0;  // a misleading warm start
  const auto r = solve_contacts_pgs(W, u_free, {-0.0005}, {mu}, h, 500, 1e-13, lambda);
  const VecX u = u_free + W * lambda;
  const Eigen::Vector2d ut = u.tail<2>(), lt = lambda.tail<2>();
  ASSERT_GT(ut.norm(), 1e-3);  // slipping
  EXPECT_NEAR(lt.norm(), mu * lambda[0], 1e-9);
  EXPECT_NEAR(lt.normalized().dot(ut.normalized()), -1.0, 1e-9) << r.iterations << " iterations";
}

TEST(Pgs, ContactWithoutDegreesOfFreedomCarriesNothingAndStaysFinite) {
  // a held FEM node pressed into a fixed body: its rows touch no DOF, so W's block is zero.
  // No force can change the gap; the solve must not divide by the zero diagonal.
  const double h = 0.01;
  Eigen::MatrixXd W = Eigen::MatrixXd::Zero(6, 6);
  W.bottomRightCorner(3, 3) = point_mass_W(1.0, h);  // a second, normal contact
  VecX u_free = VecX::Zero(6);
  u_free[3] = -9.81 * h;
  VecX lambda = VecX::Zero(6);
  solve_contacts_pgs(W, u_free, {-1e-3, -9.81 * h * h}, {0.5, 0.5}, h, 50, 1e-12, lambda);
  EXPECT_TRUE(lambda.allFinite()) << lambda.transpose();
  EXPECT_EQ(lambda.head<3>(), Vec3::Zero());
  EXPECT_NEAR(lambda[3], 9.81, 1e-9) << "the other contact is unaffected";
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

TEST(Pgs, ASpringPullingABlockOntoTheGroundAddsToTheContactForce) {
  // a point mass resting on the ground (one contact block, gap at the free motion −g h²) and a
  // spring row along the same normal, stretched by e towards an anchor below: at the fixed point
  // nothing moves, the spring pulls with k e and the contact carries m g + k e
  const double m = 0.5, h = 0.01, g = 9.81, k = 200.0, e = 0.01;
  Eigen::MatrixXd W = Eigen::MatrixXd::Zero(4, 4);
  W.topLeftCorner(3, 3) = point_mass_W(m, h);
  W(3, 3) = W(0, 3) = W(3, 0) = h / m;  // the spring row moves with the normal
  VecX u_free = VecX::Zero(4);
  u_free[0] = u_free[3] = -g * h;
  const double gamma = 1.0 / (k * h);
  std::vector<CavityRow> none;
  VecX lambda = VecX::Zero(4);
  const auto r = solve_pgs(W, u_free, {-g * h * h}, {0.5}, none, {{gamma, k * e * gamma}}, h, 500, 1e-13, lambda);
  EXPECT_LT(r.residual, 1e-12);
  EXPECT_NEAR(lambda[3], -k * e, 1e-6) << "the spring's force along the normal: it pulls down with k e";
  EXPECT_NEAR(lambda[0], m * g + k * e, 1e-6) << "the contact carries the weight and the spring";
  EXPECT_NEAR(u_free[0] + (W * lambda)[0], 0.0, 1e-9) << "the block is at rest";
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
