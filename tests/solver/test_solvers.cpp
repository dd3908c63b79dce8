// Every constraint solver built (solver/solver.h) on problems with known answers: a point mass
// resting, Coulomb stick and slip, maximal dissipation with an anisotropic W, a separating
// contact, a contact that moves nothing, a stack of three
// masses (the contact forces are the weights above them), Boyle's law under a piston (the gas
// law to 1e-6 at convergence, with and without a contact), a spring pulling onto a contact.
// Each method must reach the tolerance and say so (SolveResult.converged); the common residual
// (natural_residual) is checked against a hand-made non-solution.  The GPU method is tested
// against these in tests/backends/test_cuda_solver.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "backends/compliance_backend.h"
#include "common/error.h"
#include "solver/solver.h"

using namespace suction;

namespace {

constexpr double kG = 9.81;

/// W = h H M⁻¹ Hᵀ for point masses: rows (body, direction) with a sign; H is rows × 3·bodies
struct PointMasses {
  std::vector<double> mass;
  std::vector<Eigen::RowVectorXd> rows;
  void add_row(const std::vector<std::pair<int, Vec3>>& terms) {
    Eigen::RowVectorXd r = Eigen::RowVectorXd::Zero(3 * mass.size());
    for (const auto& [body, dir] : terms) r.segment<3>(3 * body) += dir.transpose();
    rows.push_back(r);
  }
  Eigen::MatrixXd H() const {
    Eigen::MatrixXd h(rows.size(), 3 * mass.size());
    for (size_t i = 0; i < rows.size(); ++i) h.row(i) = rows[i];
    return h;
  }
  Eigen::MatrixXd W(double dt) const {
    VecX minv(3 * mass.size());
    for (size_t b = 0; b < mass.size(); ++b) minv.segment<3>(3 * b).setConstant(1.0 / mass[b]);
    const Eigen::MatrixXd h = H();
    return dt * h * minv.asDiagonal() * h.transpose();
  }
  /// a contact block (normal n from body a's side onto body b, or the ground where a < 0)
  void add_contact(int a, int b, const Vec3& n, const Vec3& t1, const Vec3& t2) {
    for (const Vec3& d : {n, t1, t2}) {
      std::vector<std::pair<int, Vec3>> terms{{b, d}};
      if (a >= 0) terms.push_back({a, -d});
      add_row(terms);
    }
  }
};

class Solvers : public ::testing::TestWithParam<std::string> {
 protected:
  SolveResult solve(const Eigen::MatrixXd& W, const VecX& u_free, const std::vector<double>& gap,
                    const std::vector<double>& mu, std::vector<CavityRow>& cavities, const std::vector<SoftRow>& soft,
                    double h, VecX& lambda, double tolerance = 1e-10, int max_iterations = 5000) {
    // "pgs_subspace": the pgs with its subspace step after every sweep (the most it can do)
    const bool subspace = GetParam() == "pgs_subspace";
    auto method = make_constraint_solver(subspace ? "pgs" : GetParam());
    return solve_constraints_with(*method, W, nullptr, u_free, gap, mu, cavities, soft, h, max_iterations, tolerance,
                                  lambda, subspace ? 1 : 0);
  }
};

/// a piston of mass m and area a on a cylinder of trapped air, resting on a stop: the stop's
/// contact block (z, x, y), then the cavity row (∂V/∂z = a)
PointMasses piston_on_its_stop(double m, double a) {
  PointMasses pm;
  pm.mass = {m};
  pm.add_contact(-1, 0, Vec3::UnitZ(), Vec3::UnitX(), Vec3::UnitY());
  pm.add_row({{0, a * Vec3::UnitZ()}});
  return pm;
}

Eigen::MatrixXd point_mass_W(double m, double h) { return (h / m) * Eigen::MatrixXd::Identity(3, 3); }

}  // namespace

TEST_P(Solvers, ARestingPointMassCarriesItsWeight) {
  const double m = 2.0, h = 0.01;
  VecX u_free(3);
  u_free << -kG * h, 0, 0;
  VecX lambda = VecX::Zero(3);
  std::vector<CavityRow> none;
  const SolveResult r = solve(point_mass_W(m, h), u_free, {-kG * h * h}, {0.5}, none, {}, h, lambda);
  EXPECT_TRUE(r.converged) << r.residual;
  EXPECT_NEAR(lambda[0], m * kG, 1e-8 * m * kG);
  EXPECT_NEAR(lambda.tail<2>().norm(), 0.0, 1e-8);
}

TEST_P(Solvers, CoulombSticksInsideTheConeAndSlipsOnItsBoundary) {
  const double m = 1.0, h = 0.01, mu = 0.5;
  for (double tangential : {0.2, 0.8}) {  // the impulse that stops the sliding, in units of μ m g h
    VecX u_free(3);
    u_free << -kG * h, tangential * mu * kG * h, 0;
    VecX lambda = VecX::Zero(3);
    std::vector<CavityRow> none;
    const SolveResult r = solve(point_mass_W(m, h), u_free, {-kG * h * h}, {mu}, none, {}, h, lambda);
    EXPECT_TRUE(r.converged) << r.residual;
    EXPECT_NEAR(lambda[0], m * kG, 1e-7 * m * kG) << "the normal force is the weight, sliding or not";
    const double needed = m * u_free[1] / h;
    if (needed < mu * m * kG) EXPECT_NEAR(lambda[1], -needed, 1e-7 * needed) << "stick: stopped";
    else EXPECT_NEAR(lambda[1], -mu * m * kG, 1e-7 * m * kG) << "slip: μ times the normal force";
  }
}

TEST_P(Solvers, SlipFrictionOpposesTheSlidingVelocityWithAnAnisotropicW) {
  const double h = 0.01, mu = 0.4;
  Eigen::MatrixXd W(3, 3);
  W << 1.0, 0.2, 0.1, 0.2, 2.0, 0.7, 0.1, 0.7, 0.6;
  W *= h;
  VecX u_free(3);
  u_free << -0.05, 3.0, 1.0;
  VecX lambda(3);
  lambda << 0.0, 0.0, 5.0;  // a misleading warm start
  std::vector<CavityRow> none;
  const SolveResult r = solve(W, u_free, {-0.0005}, {mu}, none, {}, h, lambda, 1e-11);
  EXPECT_TRUE(r.converged) << r.residual;
  const VecX u = u_free + W * lambda;
  const Eigen::Vector2d ut = u.tail<2>(), lt = lambda.tail<2>();
  ASSERT_GT(ut.norm(), 1e-3);
  EXPECT_NEAR(lt.norm(), mu * lambda[0], 1e-8 * lambda[0]);
  EXPECT_NEAR(lt.normalized().dot(ut.normalized()), -1.0, 1e-7) << "maximal dissipation";
  EXPECT_NEAR(-0.0005 / h + (W * lambda)[0], 0.0, 1e-9) << "Signorini: the contact closes, it does not lift off";
}

TEST_P(Solvers, ASeparatingContactCarriesNothingWhateverItsWarmStart) {
  VecX u_free(3);
  u_free << 1.0, 0.3, 0;
  VecX lambda = VecX::Ones(3);  // a wrong warm start is undone
  std::vector<CavityRow> none;
  const SolveResult r = solve(point_mass_W(1, 0.01), u_free, {0.001}, {0.5}, none, {}, 0.01, lambda);
  EXPECT_TRUE(r.converged) << r.residual;
  EXPECT_EQ(lambda[0], 0.0);
  EXPECT_EQ(lambda.tail<2>().norm(), 0.0);
}

TEST_P(Solvers, AContactWithoutDegreesOfFreedomCarriesNothingAndStaysFinite) {
  // a held FEM node pressed into a fixed body: its rows touch no DOF, so W's block is zero.
  // No force can change the gap; the solve must not divide by the zero diagonal.
  const double h = 0.01;
  Eigen::MatrixXd W = Eigen::MatrixXd::Zero(6, 6);
  W.bottomRightCorner(3, 3) = point_mass_W(1.0, h);  // a second, normal contact
  VecX u_free = VecX::Zero(6);
  u_free[3] = -kG * h;
  VecX lambda = VecX::Zero(6);
  std::vector<CavityRow> none;
  const SolveResult r = solve(W, u_free, {-1e-3, -kG * h * h}, {0.5, 0.5}, none, {}, h, lambda);
  EXPECT_TRUE(r.converged) << r.residual;
  EXPECT_TRUE(lambda.allFinite()) << lambda.transpose();
  EXPECT_EQ(lambda.head<3>(), Vec3::Zero());
  EXPECT_NEAR(lambda[3], kG, 1e-8 * kG) << "the other contact is unaffected";
}

TEST_P(Solvers, AStackOfThreeMassesCarriesTheWeightsAbove) {
  // masses 1, 1 and 10 kg stacked on the ground (the heavy one on top: the hard case for
  // iterative methods), each contact along z: the forces are 12, 11 and 10 g
  const double h = 0.01;
  PointMasses pm;
  pm.mass = {1.0, 1.0, 10.0};
  const Vec3 z = Vec3::UnitZ(), x = Vec3::UnitX(), y = Vec3::UnitY();
  pm.add_contact(-1, 0, z, x, y);
  pm.add_contact(0, 1, z, x, y);
  pm.add_contact(1, 2, z, x, y);
  const Eigen::MatrixXd W = pm.W(h);
  VecX v_free(9);
  for (int b = 0; b < 3; ++b) v_free.segment<3>(3 * b) = Vec3(0, 0, -kG * h);
  const VecX u_free = pm.H() * v_free;
  // gaps at the free positions: the ground's −g h², the others 0 (both fell alike)
  VecX lambda = VecX::Zero(9);
  std::vector<CavityRow> none;
  const SolveResult r = solve(W, u_free, {-kG * h * h, 0.0, 0.0}, {0.5, 0.5, 0.5}, none, {}, h, lambda, 1e-10, 20000);
  EXPECT_TRUE(r.converged) << r.residual << " after " << r.iterations;
  EXPECT_NEAR(lambda[0], 12 * kG, 1e-6 * 12 * kG);
  EXPECT_NEAR(lambda[3], 11 * kG, 1e-6 * 11 * kG);
  EXPECT_NEAR(lambda[6], 10 * kG, 1e-6 * 10 * kG);
  std::printf("%s: stack of three in %d iterations, residual %.2e\n", GetParam().c_str(), r.iterations, r.residual);
}

TEST_P(Solvers, BoylesLawUnderAPistonWithAndWithoutItsStop) {
  // a piston of mass M and area A on a cylinder of trapped air, resting on a stop (a contact):
  // rows: the stop's contact block (z, x, y) and the cavity row (∂V/∂z = A)
  const double M = 2.0, A = 1e-3, h = 0.01, V0 = 2e-5, p_atm = kPAtm;
  const PointMasses pm = piston_on_its_stop(M, A);
  const Eigen::MatrixXd W = pm.W(h);
  const VecX u_free = pm.H() * Vec3(0, 0, -kG * h);
  for (double lift : {0.5, 2.0}) {  // the air pushes up with half, then twice the weight
    const double p0 = p_atm + lift * M * kG / A;
    std::vector<CavityRow> cav(1);
    cav[0].volume_free = V0 - A * kG * h * h;
    cav[0].air = p0 * V0;
    cav[0].p_atm = p_atm;
    cav[0].p_max = 10 * p_atm;
    VecX lambda = VecX::Zero(4);
    lambda[3] = 0.0;  // a warm start at P_atm
    const SolveResult r = solve(W, u_free, {-kG * h * h}, {0.5}, cav, {}, h, lambda, 1e-12);
    EXPECT_TRUE(r.converged) << r.residual;
    const double volume = cav[0].volume_free + h * (W * lambda)[3];
    EXPECT_NEAR(cav[0].pressure * volume / cav[0].air, 1.0, 1e-6) << "P V = N (Boyle)";
    EXPECT_NEAR(cav[0].pressure, p_atm + lambda[3], 1e-9 * p_atm);
    if (lift < 1) {
      EXPECT_NEAR(volume, V0, 1e-9 * V0) << "the piston stays on its stop";
      EXPECT_NEAR(lambda[0], M * kG - (cav[0].pressure - p_atm) * A, 1e-6 * M * kG) << "the stop takes the rest";
    } else {
      EXPECT_NEAR(lambda[0], 0.0, 1e-9 * M * kG) << "the piston lifts off its stop";
      EXPECT_GT(volume, V0);
      // the exact pressure: P (V_free + a (P − P_atm)) = N with a = h W_pp
      const double a = h * W(3, 3), b = cav[0].volume_free - a * p_atm;
      const double exact = (-b + std::sqrt(b * b + 4 * a * cav[0].air)) / (2 * a);
      EXPECT_NEAR(cav[0].pressure, exact, 1e-6 * exact);
    }
    EXPECT_EQ(cav[0].outflow, 0.0);
  }
}

TEST_P(Solvers, APistonPressedPastTheCapPushesAirOut) {
  // P_max just above P_atm and a heavy piston: the pressure stops at the cap, and the air that
  // does not fit is booked as outflow, P_max · V_end = N + ΔN
  const double M = 50.0, A = 1e-3, h = 0.01, V0 = 2e-5, p_atm = kPAtm;
  PointMasses pm;
  pm.mass = {M};
  pm.add_row({{0, A * Vec3::UnitZ()}});
  const Eigen::MatrixXd W = pm.W(h);
  const VecX u_free = pm.H() * Vec3(0, 0, -1.0);  // moving down at 1 m/s
  std::vector<CavityRow> cav(1);
  cav[0].volume_free = V0 - A * h;
  cav[0].air = p_atm * V0;
  cav[0].p_atm = p_atm;
  cav[0].p_max = 1.01 * p_atm;
  VecX lambda = VecX::Zero(1);
  const SolveResult r = solve(W, u_free, {}, {}, cav, {}, h, lambda, 1e-12);
  EXPECT_TRUE(r.converged) << r.residual;
  EXPECT_NEAR(cav[0].pressure, cav[0].p_max, 1e-9 * p_atm);
  const double volume = cav[0].volume_free + h * (W * lambda)[0];
  EXPECT_LT(cav[0].outflow, 0.0);
  EXPECT_NEAR(cav[0].p_max * volume, cav[0].air + cav[0].outflow, 1e-9 * cav[0].air);
}

TEST_P(Solvers, TheAdiabaticLawUnderAPistonOnItsStopLiftedAndAtTheCap) {
  // docs/method.md §6.8: the row's law P·V^n = K (n = 1.4) instead of Boyle's, the same piston
  const double M = 2.0, A = 1e-3, h = 0.01, V0 = 2e-5, p_atm = kPAtm, n = 1.4;
  const PointMasses pm = piston_on_its_stop(M, A);
  const Eigen::MatrixXd W = pm.W(h);
  const VecX u_free = pm.H() * Vec3(0, 0, -kG * h);
  for (double lift : {0.5, 2.0}) {
    const double p0 = p_atm + lift * M * kG / A;
    std::vector<CavityRow> cav(1);
    cav[0].volume_free = V0 - A * kG * h * h;
    cav[0].air = p0 * V0;
    cav[0].exponent = n;
    cav[0].law = p0 * std::pow(V0, n);  // θ N V0^(n−1) with θ = 1
    cav[0].p_atm = p_atm;
    cav[0].p_max = 10 * p_atm;
    VecX lambda = VecX::Zero(4);
    const SolveResult r = solve(W, u_free, {-kG * h * h}, {0.5}, cav, {}, h, lambda, 1e-12);
    EXPECT_TRUE(r.converged) << r.residual;
    const double volume = cav[0].volume_free + h * (W * lambda)[3];
    EXPECT_NEAR(cav[0].pressure * std::pow(volume, n) / cav[0].law, 1.0, 1e-6) << "P V^n = K";
    if (lift < 1) {
      EXPECT_NEAR(volume, V0, 1e-9 * V0) << "the piston stays on its stop";
      EXPECT_NEAR(lambda[0], M * kG - (cav[0].pressure - p_atm) * A, 1e-6 * M * kG);
    } else {
      EXPECT_NEAR(lambda[0], 0.0, 1e-9 * M * kG) << "the piston lifts off its stop";
      EXPECT_GT(volume, V0);
      EXPECT_LT(cav[0].pressure, p0) << "expanding air cools and its pressure falls faster than Boyle's";
    }
    EXPECT_EQ(cav[0].outflow, 0.0);
  }
  // a heavy piston moving down past the cap: the air that stays obeys the law at P_max
  PointMasses heavy;
  heavy.mass = {50.0};
  heavy.add_row({{0, A * Vec3::UnitZ()}});
  const Eigen::MatrixXd Wh = heavy.W(h);
  std::vector<CavityRow> cav(1);
  cav[0].volume_free = V0 - A * h;
  cav[0].air = p_atm * V0;
  cav[0].exponent = n;
  cav[0].law = p_atm * std::pow(V0, n);
  cav[0].p_atm = p_atm;
  cav[0].p_max = 1.01 * p_atm;
  VecX lambda = VecX::Zero(1);
  const SolveResult r = solve(Wh, heavy.H() * Vec3(0, 0, -1.0), {}, {}, cav, {}, h, lambda, 1e-12);
  EXPECT_TRUE(r.converged) << r.residual;
  EXPECT_NEAR(cav[0].pressure, cav[0].p_max, 1e-9 * p_atm);
  const double volume = cav[0].volume_free + h * (Wh * lambda)[0];
  const double kept = cav[0].air + cav[0].outflow;
  EXPECT_LT(cav[0].outflow, 0.0);
  // the kept air, compressed along its adiabat from (P_atm, V0 kept/N) to (P_max, volume)
  EXPECT_NEAR(cav[0].p_max * std::pow(volume, n), p_atm * std::pow(V0 * kept / cav[0].air, n),
              1e-9 * cav[0].p_max * std::pow(volume, n));
}

TEST_P(Solvers, ASpringPullingABlockOntoTheGroundAddsToTheContactForce) {
  const double m = 0.5, h = 0.01, k = 200.0, e = 0.01;
  Eigen::MatrixXd W = Eigen::MatrixXd::Zero(4, 4);
  W.topLeftCorner(3, 3) = point_mass_W(m, h);
  W(3, 3) = W(0, 3) = W(3, 0) = h / m;
  VecX u_free = VecX::Zero(4);
  u_free[0] = u_free[3] = -kG * h;
  const double gamma = 1.0 / (k * h);
  std::vector<CavityRow> none;
  VecX lambda = VecX::Zero(4);
  const SolveResult r = solve(W, u_free, {-kG * h * h}, {0.5}, none, {{gamma, k * e * gamma}}, h, lambda);
  EXPECT_TRUE(r.converged) << r.residual;
  EXPECT_NEAR(lambda[3], -k * e, 1e-6);
  EXPECT_NEAR(lambda[0], m * kG + k * e, 1e-6);
}

TEST_P(Solvers, AFailedSolveSaysSo) {
  // one iteration on the stack cannot reach 1e-12: the result must say it did not converge
  const double h = 0.01;
  PointMasses pm;
  pm.mass = {1.0, 10.0};
  pm.add_contact(-1, 0, Vec3::UnitZ(), Vec3::UnitX(), Vec3::UnitY());
  pm.add_contact(0, 1, Vec3::UnitZ(), Vec3::UnitX(), Vec3::UnitY());
  VecX v_free(6);
  v_free << 0, 0, -kG * h, 0, 0, -kG * h;
  const VecX u_free = pm.H() * v_free;
  VecX lambda = VecX::Zero(6);
  std::vector<CavityRow> none;
  const SolveResult r = solve(pm.W(h), u_free, {-kG * h * h, 0.0}, {0.5, 0.5}, none, {}, h, lambda, 1e-12, 1);
  EXPECT_EQ(r.iterations, 1);
  EXPECT_FALSE(r.converged);
  EXPECT_GT(r.residual, 1e-12);
}

INSTANTIATE_TEST_SUITE_P(Methods, Solvers, ::testing::Values("pgs", "pgs_subspace", "apgd", "uzawa"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

TEST(SolverResidual, IsZeroAtASolutionAndMeasuresAWrongForce) {
  const double m = 1.0, h = 0.01;
  const Eigen::MatrixXd W = point_mass_W(m, h);
  VecX u_free(3);
  u_free << -kG * h, 0, 0;
  const std::vector<double> gap{-kG * h * h}, mu{0.5};
  std::vector<CavityRow> none;
  const RowProblem p = RowProblem::of(W, u_free, gap, mu, none, h);
  VecX lambda(3);
  lambda << m * kG, 0, 0;
  EXPECT_NEAR(natural_residual(p, lambda, W * lambda), 0.0, 1e-15);
  lambda[0] = 0.9 * m * kG;  // 10 % short: the natural map's correction is the missing force
  EXPECT_NEAR(natural_residual(p, lambda, W * lambda), 0.1 / 0.9, 1e-12);
  lambda << m * kG, 0.8 * m * kG, 0;  // friction beyond the cone (μ = 0.5): projected back
  EXPECT_GT(natural_residual(p, lambda, W * lambda), 0.1);
}

TEST(SolverFactory, ListsTheMethodsAndNamesTheMissingOnes) {
  const auto names = available_constraint_solvers();
  ASSERT_GE(names.size(), 3u);
  EXPECT_EQ(names[0], "pgs");
  for (const std::string& n : names)
    if (n != "apgd_cuda") EXPECT_EQ(make_constraint_solver(n)->name(), n);
  const bool gpu_built = std::find(names.begin(), names.end(), "apgd_cuda") != names.end();
  try {
    make_constraint_solver("apgd_cuda");
    EXPECT_TRUE(gpu_built) << "apgd_cuda made in a build without it";
  } catch (const InputError& e) {
    // not built: the error names the build option; built without a device: it says so
    const std::string what = e.what();
    if (!gpu_built) EXPECT_NE(what.find("SUCTION_WITH_CUDA=ON"), std::string::npos) << what;
    else EXPECT_NE(what.find("apgd_cuda"), std::string::npos) << what;
  }
  try {
    make_constraint_solver("newton");
    FAIL() << "an unknown method must be an error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("available: pgs, apgd, uzawa"), std::string::npos) << e.what();
  }
}
