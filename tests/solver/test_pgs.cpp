// What is the PGS's own: its iteration counts on easy problems and the soft rows' exact
// elimination.  The oracles every method must pass are in test_solvers.cpp (pgs included).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "common/types.h"
#include "solver/pgs.h"
#include "solver/solver.h"

using namespace suction;

namespace {
// a point mass m resting on a plane: W = h/m I (3 rows)
Eigen::MatrixXd point_mass_compliance(double m, double h) { return (h / m) * Eigen::MatrixXd::Identity(3, 3); }
}  // namespace

TEST(Pgs, RestingPointMassCarriesItsWeight) {
  const double m = 2.0, h = 0.01, g = 9.81;
  // free motion fell by g h: u_free_n = -g h, gap at x_free = -g h² (as if from gap 0)
  VecX u_free(3);
  u_free << -g * h, 0, 0;
  VecX lambda = VecX::Zero(3);
  const auto r = solve_contacts_pgs(point_mass_compliance(m, h), u_free, {-g * h * h}, {0.5}, h, 50, 1e-12, lambda);
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
  W.topLeftCorner(3, 3) = point_mass_compliance(m, h);
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

namespace {

/// A soft patch over a cavity (the shape of the page's slow solves): an n × n grid of point
/// masses joined by springs to their neighbours, falling onto the ground; the rim's nodes touch it
/// (a contact block each: z, x, y), the inner nodes cover a cavity (∂V/∂z = area per node).
/// W = h H (M + h² K)⁻¹ Hᵀ; stiff springs against light masses couple every contact to every
/// other, which is what makes Gauss-Seidel crawl.
struct SoftPatch {
  Eigen::MatrixXd W;
  VecX u_free;
  std::vector<double> gap, mu;
  std::vector<CavityRow> cavities;
  double h = 0.01;
  int contacts = 0;
};

SoftPatch soft_patch(int n, bool with_cavity, double v_down = -0.1, double v_side = 0.005) {
  const double m = 1e-3, k = 1e3, area = 1e-4;
  const int nodes = n * n;
  SoftPatch p;
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(3 * nodes, 3 * nodes);
  auto at = [n](int i, int j) { return i * n + j; };
  for (int a = 0; a < nodes; ++a) A.block<3, 3>(3 * a, 3 * a) += m * Mat3::Identity();
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (const auto& [di, dj] : {std::pair{1, 0}, std::pair{0, 1}}) {
        if (i + di >= n || j + dj >= n) continue;
        const int a = at(i, j), b = at(i + di, j + dj);
        const Mat3 kk = p.h * p.h * k * Mat3::Identity();
        A.block<3, 3>(3 * a, 3 * a) += kk;
        A.block<3, 3>(3 * b, 3 * b) += kk;
        A.block<3, 3>(3 * a, 3 * b) -= kk;
        A.block<3, 3>(3 * b, 3 * a) -= kk;
      }
  std::vector<Eigen::RowVectorXd> rows;
  VecX v_free(3 * nodes);
  for (int a = 0; a < nodes; ++a) v_free.segment<3>(3 * a) = Vec3(v_side, 0.0, v_down);
  Eigen::RowVectorXd cavity = Eigen::RowVectorXd::Zero(3 * nodes);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const int a = at(i, j);
      const bool rim = i == 0 || j == 0 || i == n - 1 || j == n - 1;
      if (rim || !with_cavity) {
        for (int d : {2, 0, 1}) {  // normal z, tangents x, y
          Eigen::RowVectorXd r = Eigen::RowVectorXd::Zero(3 * nodes);
          r[3 * a + d] = 1.0;
          rows.push_back(r);
        }
        p.gap.push_back(p.h * v_down);  // at the ground at the start: the free step ends below it
        p.mu.push_back(0.8);
        ++p.contacts;
      } else {
        cavity[3 * a + 2] = area;
      }
    }
  if (with_cavity) rows.push_back(cavity);
  Eigen::MatrixXd H(rows.size(), 3 * nodes);
  for (size_t r = 0; r < rows.size(); ++r) H.row(r) = rows[r];
  p.W = p.h * H * A.ldlt().solve(H.transpose());
  p.W = 0.5 * (p.W + p.W.transpose()).eval();
  p.u_free = H * v_free;
  if (with_cavity) {
    const double inner = (n - 2) * (n - 2) * area;
    CavityRow c;
    const double v0 = inner * 2e-3;  // 2 mm of air under the patch
    c.volume_free = v0 + p.h * p.u_free[3 * p.contacts];
    c.air = kPAtm * v0;
    c.p_max = 2.0 * kPAtm;  // a sealed cavity: the air stays
    p.cavities.push_back(c);
  }
  return p;
}

}  // namespace

// The subspace step (docs/method.md §8.9) on a patch whose rim sticks: the same end-of-step
// velocities as the plain sweeps' converged answer (to the tolerance: the forces themselves are
// unique here), in a few sweeps instead of hundreds, with and without a cavity row.
TEST(Pgs, TheSubspaceStepSolvesASoftPatchInAFewSweepsToThePlainAnswer) {
  for (const bool sliding : {false, true})
    for (const bool with_cavity : {false, true}) {
      SCOPED_TRACE(std::string(with_cavity ? "over a cavity" : "on the ground") +
                   (sliding ? ", the sliding contacts in the step too" : ""));
      SoftPatch p = soft_patch(8, with_cavity);
      const double tol = 1e-9;
      std::vector<CavityRow> plain_cav = p.cavities, sub_cav = p.cavities;
      VecX plain = VecX::Zero(p.W.rows()), sub = plain;
      const SolveResult rp = solve_constraints_with(*make_pgs_solver(), p.W, nullptr, p.u_free, p.gap, p.mu, plain_cav,
                                                    {}, p.h, 100000, tol, plain);
      const SolveResult rs = solve_constraints_with(*make_pgs_solver(), p.W, nullptr, p.u_free, p.gap, p.mu, sub_cav, {},
                                                    p.h, 100000, tol, sub, 10, sliding);
      std::printf("soft patch%s: plain pgs %d sweeps, with the subspace step%s %d\n", with_cavity ? " over a cavity" : "",
                  rp.iterations, sliding ? " (sliding contacts too)" : "", rs.iterations);
      ASSERT_TRUE(rp.converged) << rp.residual;
      ASSERT_TRUE(rs.converged) << rs.residual;
      EXPECT_LE(rs.iterations, 40);
      EXPECT_GE(rp.iterations, 5 * rs.iterations) << "the patch no longer makes the sweeps crawl: the test shows nothing";
      // every rim node sticks and presses
      for (int k = 0; k < p.contacts; ++k) {
        EXPECT_GT(sub[3 * k], 0.0);
        EXPECT_LT(sub.segment<2>(3 * k + 1).norm(), 0.8 * sub[3 * k]);
      }
      const VecX up = p.u_free + p.W * plain, us = p.u_free + p.W * sub;
      EXPECT_LT((us - up).cwiseAbs().maxCoeff(), 1e-6 * p.u_free.cwiseAbs().maxCoeff());
      EXPECT_LT((sub - plain).cwiseAbs().maxCoeff(), 1e-6 * plain.cwiseAbs().maxCoeff());
      if (with_cavity) {
        EXPECT_NEAR(sub_cav[0].pressure, plain_cav[0].pressure, 1e-6 * kPAtm);
        EXPECT_GT(sub_cav[0].pressure, kPAtm) << "the falling patch squeezes the air";
      }
    }
}

// The subspace step with the sliding contacts (docs/method.md §8.9), on the patch moving sideways
// fast enough that its whole rim slides: held only where they stick, the step finds no set and
// the sweeps crawl as plain ones do; with the sliding contacts in the set (the normal rows as
// equalities, the friction along its direction) the solve reaches the plain sweeps' converged
// answer in a few sweeps, every rim contact on its cone with its friction against its slip
// (Coulomb's maximal dissipation).
TEST(Pgs, TheSubspaceStepWithTheSlidingContactsSolvesASlidingPatchToThePlainAnswer) {
  for (const bool with_cavity : {false, true}) {
    SCOPED_TRACE(with_cavity ? "over a cavity" : "on the ground");
    SoftPatch p = soft_patch(8, with_cavity, -0.1, 0.5);
    const double tol = 1e-9;
    auto solve = [&](VecX& lambda, std::vector<CavityRow>& cav, int every, bool sliding) {
      lambda = VecX::Zero(p.W.rows());
      cav = p.cavities;
      return solve_constraints_with(*make_pgs_solver(), p.W, nullptr, p.u_free, p.gap, p.mu, cav, {}, p.h, 100000,
                                    tol, lambda, every, sliding);
    };
    VecX plain, sticking, sliding;
    std::vector<CavityRow> plain_cav, sticking_cav, sliding_cav;
    const SolveResult rp = solve(plain, plain_cav, 0, false), rk = solve(sticking, sticking_cav, 10, false),
                      rs = solve(sliding, sliding_cav, 10, true);
    std::printf("sliding soft patch%s: plain pgs %d sweeps, subspace step on the sticking contacts %d, with the "
                "sliding ones %d\n",
                with_cavity ? " over a cavity" : "", rp.iterations, rk.iterations, rs.iterations);
    ASSERT_TRUE(rp.converged) << rp.residual;
    ASSERT_TRUE(rk.converged) << rk.residual;
    ASSERT_TRUE(rs.converged) << rs.residual;
    EXPECT_GE(rk.iterations, rp.iterations / 2) << "holding only the sticking contacts does not help a sliding rim";
    EXPECT_LE(rs.iterations, 60);
    EXPECT_GE(rp.iterations, 5 * rs.iterations) << "the patch no longer makes the sweeps crawl: the test shows nothing";
    const VecX up = p.u_free + p.W * plain, us = p.u_free + p.W * sliding;
    EXPECT_LT((us - up).cwiseAbs().maxCoeff(), 1e-6 * p.u_free.cwiseAbs().maxCoeff());
    EXPECT_LT((sliding - plain).cwiseAbs().maxCoeff(), 1e-6 * plain.cwiseAbs().maxCoeff());
    for (int k = 0; k < p.contacts; ++k) {
      const double ln = sliding[3 * k];
      const Eigen::Vector2d lt = sliding.segment<2>(3 * k + 1), ut = us.segment<2>(3 * k + 1);
      EXPECT_GT(ln, 0.0);
      EXPECT_NEAR(lt.norm(), 0.8 * ln, 1e-6 * ln) << "contact " << k << " slides: on its cone";
      EXPECT_GT(ut.norm(), 0.0);
      EXPECT_LT(lt.dot(ut), -(1.0 - 1e-6) * lt.norm() * ut.norm()) << "contact " << k << ": friction against the slip";
    }
    if (with_cavity) EXPECT_NEAR(sliding_cav[0].pressure, plain_cav[0].pressure, 1e-6 * kPAtm);
  }
}

// A point mass on four contacts (more rows than its three degrees of freedom: W on the set is
// singular, the forces that hold it are not unique): the subspace step still finds forces that
// carry the weight, and the solve converges.
TEST(Pgs, TheSubspaceStepCarriesABodyOnMoreContactsThanItsDegreesOfFreedom) {
  const double m = 2.0, h = 0.01, g = 9.81;
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(12, 3);
  for (int c = 0; c < 4; ++c) H.block<3, 3>(3 * c, 0) << 0, 0, 1, 1, 0, 0, 0, 1, 0;  // rows z, x, y
  const Eigen::MatrixXd W = (h / m) * H * H.transpose();
  const VecX u_free = H * Vec3(0.01, 0.0, -g * h);  // falling, and sliding a little sideways
  const std::vector<double> gap(4, -g * h * h), mu(4, 0.5);
  std::vector<CavityRow> none;
  for (const int every : {1, 10}) {
    VecX lambda = VecX::Zero(12);
    const SolveResult r =
        solve_constraints_with(*make_pgs_solver(), W, nullptr, u_free, gap, mu, none, {}, h, 1000, 1e-10, lambda, every);
    ASSERT_TRUE(r.converged) << r.residual;
    double fz = 0.0, fx = 0.0;
    for (int c = 0; c < 4; ++c) fz += lambda[3 * c], fx += lambda[3 * c + 1];
    EXPECT_NEAR(fz, m * g, 1e-8 * m * g) << "the end-of-step gap closes";
    EXPECT_NEAR(fx, -m * 0.01 / h, 1e-8 * m * g) << "friction stops the slide (μ m g > m v / h)";
  }
}

// The warm start (issue 48: the solve starts from the last step's forces, matched by contact)
// changes no converged answer beyond the solver's tolerance.  On the soft patch (W positive
// definite: the forces are unique) with its rim sticking, and sliding when it moves sideways
// fast, with and without a cavity and the subspace step: a cold start, a start from the
// converged forces of the step before (the patch 10 % slower), and a start that is wrong in
// every row (twice the step before's forces, the tangential ones reversed, the cavity's pressure
// difference of the wrong sign) converge to the same forces and end-of-step velocities.
TEST(Pgs, AWarmStartChangesNoConvergedAnswerBeyondTheTolerance) {
  for (const double v_side : {0.005, 0.5})
    for (const bool with_cavity : {false, true})
      for (const int every : {0, 10}) {
        SCOPED_TRACE(std::string(v_side > 0.1 ? "sliding" : "sticking") + (with_cavity ? ", over a cavity" : "") +
                     (every ? ", subspace step" : ""));
        const double tol = 1e-10;
        auto solve = [&](const SoftPatch& p, VecX& lambda, std::vector<CavityRow>& cav) {
          cav = p.cavities;
          return solve_constraints_with(*make_pgs_solver(), p.W, nullptr, p.u_free, p.gap, p.mu, cav, {}, p.h, 200000,
                                        tol, lambda, every);
        };
        // the step before: the same patch 10 % slower
        const SoftPatch before = soft_patch(6, with_cavity, -0.09, 0.9 * v_side);
        VecX last = VecX::Zero(before.W.rows());
        std::vector<CavityRow> cav_last;
        ASSERT_TRUE(solve(before, last, cav_last).converged);
        const SoftPatch p = soft_patch(6, with_cavity, -0.1, v_side);
        VecX cold = VecX::Zero(p.W.rows()), warm = last, wrong = 2.0 * last;
        for (int k = 0; k < p.contacts; ++k) wrong.segment<2>(3 * k + 1) *= -1.0;
        if (with_cavity) wrong[3 * p.contacts] = -wrong[3 * p.contacts] - 0.1 * kPAtm;
        std::vector<CavityRow> cav_cold, cav_warm, cav_wrong;
        const SolveResult rc = solve(p, cold, cav_cold), rw = solve(p, warm, cav_warm), rx = solve(p, wrong, cav_wrong);
        std::printf("soft patch, %s%s%s: sweeps cold %d, warm %d, wrong start %d\n", v_side > 0.1 ? "sliding" : "sticking",
                    with_cavity ? ", over a cavity" : "", every ? ", subspace step" : "", rc.iterations, rw.iterations,
                    rx.iterations);
        ASSERT_TRUE(rc.converged) << rc.residual;
        ASSERT_TRUE(rw.converged) << rw.residual;
        ASSERT_TRUE(rx.converged) << rx.residual;
        int sliding = 0;
        for (int k = 0; k < p.contacts; ++k)
          if (cold.segment<2>(3 * k + 1).norm() > (1.0 - 1e-6) * 0.8 * cold[3 * k]) ++sliding;
        if (v_side > 0.1)
          EXPECT_EQ(sliding, p.contacts) << "the fast patch slides on every contact";
        else
          EXPECT_EQ(sliding, 0) << "the slow patch sticks";
        // the natural residual is relative to the largest force: the answers agree to a small
        // multiple of it, in the forces and in the end-of-step velocities
        const double f = cold.head(3 * p.contacts).cwiseAbs().maxCoeff();
        const VecX uc = p.u_free + p.W * cold;
        const double u = p.u_free.cwiseAbs().maxCoeff();
        for (const VecX* other : {&warm, &wrong}) {
          EXPECT_LT((other->head(3 * p.contacts) - cold.head(3 * p.contacts)).cwiseAbs().maxCoeff(), 1e-7 * f);
          EXPECT_LT((p.u_free + p.W * *other - uc).cwiseAbs().maxCoeff(), 1e-7 * u);
        }
        if (with_cavity) {
          EXPECT_NEAR(cav_warm[0].pressure, cav_cold[0].pressure, 1e-7 * kPAtm);
          EXPECT_NEAR(cav_wrong[0].pressure, cav_cold[0].pressure, 1e-7 * kPAtm);
        }
      }
}

// Newton's step on the slip directions (docs/method.md §8.9), on a rigid box on its four bottom
// corners that slides and turns: every corner slips in another direction, and the box's lever
// arms couple them (a force at one corner turns the box, which moves the others).  The sweeps
// turn each corner's friction a little at a time, and the subspace step with the directions held
// as the sweeps left them does not help; turned by Newton's method on the slip, the solve takes
// one subspace step.
TEST(Pgs, NewtonsStepOnTheSlipDirectionsSolvesASlidingTurningBoxInAFewSweeps) {
  const double h = 0.01, g = 9.81, m = 0.2, a = 0.05, mu = 0.5;
  const double inertia = m * (2 * a) * (2 * a) / 6.0;
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(12, 6);  // rows z, x, y per corner; columns v, ω
  int k = 0;
  for (const double x : {-a, a})
    for (const double y : {-a, a}) {
      const Vec3 r(x, y, -a);
      const Vec3 dirs[3] = {Vec3::UnitZ(), Vec3::UnitX(), Vec3::UnitY()};
      for (int d = 0; d < 3; ++d) {
        J.block<1, 3>(3 * k + d, 0) = dirs[d].transpose();
        J.block<1, 3>(3 * k + d, 3) = r.cross(dirs[d]).transpose();
      }
      ++k;
    }
  Eigen::VectorXd minv(6);
  minv << 1 / m, 1 / m, 1 / m, 1 / inertia, 1 / inertia, 1 / inertia;
  const Eigen::MatrixXd W = h * J * minv.asDiagonal() * J.transpose();
  Eigen::VectorXd v_free(6);
  v_free << 0.05, 0.02, -g * h, 0.0, 0.0, 1.0;  // 5 cm/s sideways, turning at 1 rad/s
  const VecX u_free = J * v_free;
  const std::vector<double> gap(4, -g * h * h), mus(4, mu);
  std::vector<CavityRow> none;
  auto solve = [&](VecX& lambda, int every, bool newton) {
    lambda = VecX::Zero(12);
    return solve_constraints_with(*make_pgs_solver(), W, nullptr, u_free, gap, mus, none, {}, h, 100000, 1e-10,
                                  lambda, every, true, newton);
  };
  VecX plain, held, turned;
  const SolveResult rp = solve(plain, 0, false), rh = solve(held, 10, false), rn = solve(turned, 10, true);
  std::printf("a sliding, turning box: plain pgs %d sweeps, subspace step with the directions held %d, turned by "
              "Newton's method %d\n", rp.iterations, rh.iterations, rn.iterations);
  ASSERT_TRUE(rp.converged) << rp.residual;
  ASSERT_TRUE(rh.converged) << rh.residual;
  ASSERT_TRUE(rn.converged) << rn.residual;
  EXPECT_LE(rn.iterations, 20);
  EXPECT_GE(rh.iterations, 3 * rn.iterations) << "the held directions no longer slow the step: the test shows nothing";
  // the forces on four corners of a rigid body are not unique (W has rank 6): each answer is
  // checked against the contact law, not against the other
  for (const VecX* l : {&plain, &turned}) {
    SCOPED_TRACE(l == &plain ? "plain" : "turned");
    const VecX u = u_free + W * *l;
    double fz = 0.0;
    for (int c = 0; c < 4; ++c) {
      const double ln = (*l)[3 * c];
      const Eigen::Vector2d lt = l->segment<2>(3 * c + 1), ut = u.segment<2>(3 * c + 1);
      fz += ln;
      ASSERT_GT(ut.norm(), 1e-4) << "corner " << c << " slides";
      EXPECT_NEAR(lt.norm(), mu * ln, 1e-6 * m * g) << "corner " << c << ": on its cone";
      EXPECT_LT(lt.dot(ut), -(1.0 - 1e-6) * lt.norm() * ut.norm()) << "corner " << c << ": friction against the slip";
      // (the gap is at the free positions: the forces' velocity closes it)
      EXPECT_NEAR(gap[c] / h + (u - u_free)[3 * c], 0.0, 1e-8) << "corner " << c << ": the gap closes";
    }
    EXPECT_NEAR(fz, m * g, 1e-8 * m * g) << "the corners carry the weight";
  }
  // the corners slip in different directions (the box turns)
  const VecX u = u_free + W * turned;
  EXPECT_LT(u.segment<2>(1).normalized().dot(u.segment<2>(10).normalized()), 0.9);
}
