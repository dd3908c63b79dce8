// The free motion with a factorization kept across steps (FactorizationReuse, docs/method.md
// §7.6): conjugate gradients preconditioned by an older factorization reach the exact solution
// of the step's system; the free motion is then the exact one; a factorization too far from the
// step's A, or too old, is replaced in that step; after a failed attempt the next ones wait.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "common/parallel.h"
#include "fem/block_ldlt.h"
#include "fem/corotational.h"
#include "fem/implicit_euler.h"
#include "mesh/generators.h"
#include "model/build.h"

using namespace suction;

namespace {

Material rubber() {
  Material m;
  m.young = 4e6;
  m.poisson = 0.45;
  m.density = 1100;
  m.damping_stiffness = 0.01;
  return m;
}

// a bar bent and twisted by `amount` (rotations of up to `amount` rad along it)
Points bent(const TetMesh& rest, double amount) {
  Points x = rest.nodes;
  for (Vec3& p : x) {
    const double s = p.x() / 0.1;  // 0 … 1 along the bar
    const Eigen::AngleAxisd twist(amount * s, Vec3::UnitX()), bend(0.5 * amount * s, Vec3::UnitY());
    p = bend * (twist * p);
  }
  return x;
}

FemBody bar(const Material& m) { return make_fem_body("bar", make_box(Vec3(0.1, 0.02, 0.02), 6, 2, 2), 0, m); }

// the free velocities of `body` at x (v = 0, gravity), with the given reuse policy
Points free_velocities(const FemBody& body, const Material& m, const Points& x, FemSystem& sys,
                       const FactorizationReuse& reuse) {
  const size_t n = body.rest.nodes.size();
  const Points zero(n, Vec3::Zero());
  Points gravity(n);
  for (size_t i = 0; i < n; ++i) gravity[i] = body.node_mass[i] * Vec3(0, 0, -9.81);
  Points v_free;
  fem_free_motion(body, m, x, zero, zero, gravity, 0.01, sys, v_free, reuse);
  return v_free;
}

double max_difference(const Points& a, const Points& b) {
  double d = 0.0;
  for (size_t i = 0; i < a.size(); ++i) d = std::max(d, (a[i] - b[i]).norm());
  return d;
}

double max_norm(const Points& a) {
  double d = 0.0;
  for (const Vec3& p : a) d = std::max(d, p.norm());
  return d;
}

const FactorizationReuse kExact{false, 4, 20};

}  // namespace

TEST(PreconditionedCg, ReachesTheSolutionOfTheStepsMatrixFromANearbyFactorization) {
  const Material m = rubber();
  const FemBody body = bar(m);
  FemSystem sys;
  init_fem_system(body, sys);
  free_velocities(body, m, bent(body.rest, 0.30), sys, kExact);  // factorizes A₀
  const BlockCholesky A0 = *sys.solver;
  free_velocities(body, m, bent(body.rest, 0.31), sys, kExact);  // A (and its factorization)
  const SparseMatrix A = sys.A;
  VecX b = VecX::LinSpaced(A.rows(), -1.0, 2.0);
  const VecX exact = sys.solver->solve(b);
  VecX x, r, z, p, q;
  const int it = preconditioned_cg(A, A0, b, x, 20, kCgTolerance, r, z, p, q);
  EXPECT_GT(it, 0);  // A₀ is not A: CG has work to do
  EXPECT_LT((x - exact).norm(), 1e-8 * exact.norm());
  EXPECT_GT((A0.solve(b) - exact).norm(), 1e-5 * exact.norm()) << "A₀ alone is not A";
  // the factorization of A itself: its own solve is within the tolerance, no iteration
  EXPECT_EQ(preconditioned_cg(A, *sys.solver, b, x, 20, kCgTolerance, r, z, p, q), 0);
  // b = 0: x = 0
  b.setZero();
  EXPECT_EQ(preconditioned_cg(A, A0, b, x, 20, kCgTolerance, r, z, p, q), 0);
  EXPECT_EQ(x.norm(), 0.0);
  // too few iterations allowed for a factorization far from A: -1
  free_velocities(body, m, bent(body.rest, 1.2), sys, kExact);
  b = VecX::LinSpaced(A.rows(), -1.0, 2.0);
  EXPECT_EQ(preconditioned_cg(sys.A, A0, b, x, 1, kCgTolerance, r, z, p, q), -1);
}

TEST(FactorizationReuse, KeptFactorizationGivesTheExactFreeMotion) {
  const Material m = rubber();
  const FemBody body = bar(m);
  FemSystem exact, kept;
  init_fem_system(body, exact);
  init_fem_system(body, kept);
  const FactorizationReuse reuse{true, 6, 3};
  // step 1: nothing to keep yet, both factorize
  free_velocities(body, m, bent(body.rest, 0.300), exact, kExact);
  free_velocities(body, m, bent(body.rest, 0.300), kept, reuse);
  const auto generation = kept.factor_generation;
  EXPECT_EQ(kept.factor_age, 0);
  // steps 2-4: a slightly different shape; the kept factorization preconditions CG, the free
  // velocities are the exact ones (the direct solve of a new factorization) to CG's tolerance
  for (int step = 1; step <= 3; ++step) {
    const Points x = bent(body.rest, 0.300 + 0.0002 * step);
    const Points ve = free_velocities(body, m, x, exact, kExact);
    const Points vk = free_velocities(body, m, x, kept, reuse);
    EXPECT_EQ(kept.factor_generation, generation) << "step " << step;
    EXPECT_EQ(kept.factor_age, step);
    EXPECT_GE(kept.cg_iterations, 1);
    EXPECT_LE(kept.cg_iterations, reuse.max_cg_iterations);
    EXPECT_LT(max_difference(ve, vk), 1e-8 * max_norm(ve)) << "step " << step;
    // the factorization kept is that of the first step's matrix, and the backends see it
    EXPECT_EQ(kept.A_factored.nonZeros(), kept.A.nonZeros());
    EXPECT_GT((kept.A_factored - kept.A).norm(), 0.0);
  }
  // step 5: max_age (3) reached, a new factorization in this step
  const Points x = bent(body.rest, 0.3010);
  const Points ve = free_velocities(body, m, x, exact, kExact);
  const Points vk = free_velocities(body, m, x, kept, reuse);
  EXPECT_EQ(kept.factor_generation, generation + 1);
  EXPECT_EQ(kept.factor_age, 0);
  EXPECT_EQ(kept.cg_iterations, 0);
  EXPECT_EQ((kept.A_factored - kept.A).norm(), 0.0);
  EXPECT_LT(max_difference(ve, vk), 1e-12 * max_norm(ve));
}

TEST(FactorizationReuse, AFactorizationTooFarFromTheStepIsReplacedAndTheNextAttemptsWait) {
  const Material m = rubber();
  const FemBody body = bar(m);
  FemSystem exact, kept;
  init_fem_system(body, exact);
  init_fem_system(body, kept);
  const FactorizationReuse reuse{true, 2, 20};
  free_velocities(body, m, bent(body.rest, 0.0), kept, reuse);
  auto generation = kept.factor_generation;
  // a large change of shape: two CG iterations are not enough, A is factorized in this step
  // and the velocities are the exact ones
  const Points x = bent(body.rest, 1.0);
  const Points ve = free_velocities(body, m, x, exact, kExact);
  const Points vk = free_velocities(body, m, x, kept, reuse);
  EXPECT_EQ(kept.factor_generation, ++generation);
  EXPECT_EQ(kept.cg_iterations, 0);
  EXPECT_LT(max_difference(ve, vk), 1e-12 * max_norm(ve));
  // the next step factorizes without trying (it waits one step), even for the same shape,
  // which CG on the kept factorization would solve at once
  free_velocities(body, m, x, kept, reuse);
  EXPECT_EQ(kept.factor_generation, ++generation);
  // then it tries again, and keeps the factorization of that same shape
  free_velocities(body, m, x, kept, reuse);
  EXPECT_EQ(kept.factor_generation, generation);
  EXPECT_EQ(kept.factor_age, 1);
}

TEST(FactorizationReuse, WithoutReuseEveryStepFactorizes) {
  const Material m = rubber();
  const FemBody body = bar(m);
  FemSystem sys;
  init_fem_system(body, sys);
  for (int step = 1; step <= 3; ++step) {
    free_velocities(body, m, bent(body.rest, 0.3), sys, kExact);
    EXPECT_EQ(sys.factor_generation, static_cast<std::uint64_t>(step));
    EXPECT_EQ(sys.factor_age, 0);
    EXPECT_EQ(sys.A_factored.nonZeros(), 0);  // no copy kept
  }
}

// The correction's solve uses the step's A, not the kept factorization (method §7.6).
TEST(FactorizationReuse, TheCorrectionSolvesWithTheStepsMatrix) {
  const Material m = rubber();
  const FemBody body = bar(m);
  FemSystem kept;
  init_fem_system(body, kept);
  const FactorizationReuse reuse{true, 6, 20};
  free_velocities(body, m, bent(body.rest, 0.300), kept, reuse);
  free_velocities(body, m, bent(body.rest, 0.3002), kept, reuse);
  ASSERT_EQ(kept.factor_age, 1);
  const VecX b = VecX::LinSpaced(kept.A.rows(), 1.0, -1.0);
  const BlockCholesky old = *kept.solver;
  BlockCholesky fresh = old;
  ASSERT_TRUE(fresh.factorize(kept.A));
  const VecX exact = fresh.solve(b);
  VecX x = b;
  fem_solve_step_system(body, kept, reuse, x);
  EXPECT_LT((x - exact).norm(), 1e-8 * exact.norm());
  EXPECT_GT((old.solve(b) - exact).norm(), 1e-6 * exact.norm()) << "the kept factorization alone is not A";
  EXPECT_EQ(kept.factor_age, 1) << "it kept the factorization";
  // a fresh factorization solves directly
  free_velocities(body, m, bent(body.rest, 0.3002), kept, FactorizationReuse{false, 4, 20});
  x = b;
  fem_solve_step_system(body, kept, reuse, x);
  EXPECT_LT((x - exact).norm(), 1e-12 * exact.norm());
}

// A kept factorization that follows rotation (FactorizationReuse::follow_rotation, method
// §7.6): the nodes' rotations of a rigid turn are that turn, and a cup turned as a whole keeps
// its factorization with the exact free motion (A = Q A₀ Qᵀ), where the unturned factor is
// replaced.
TEST(FactorizationFollowsRotation, TheNodesOfARigidlyTurnedBodyTurnWithIt) {
  const Material m = rubber();
  const FemBody body = bar(m);
  FemSystem sys;
  init_fem_system(body, sys);
  const Points x0 = bent(body.rest, 0.3);
  free_velocities(body, m, x0, sys, kExact);
  std::vector<Mat3> r0, r1;
  node_rotations(body, sys, r0);
  const Eigen::Matrix3d q = Eigen::AngleAxisd(2.0, Vec3(-1, 0.5, 2).normalized()).toRotationMatrix();
  Points x1 = x0;
  for (Vec3& p : x1) p = q * p + Vec3(1, 2, 3);
  free_velocities(body, m, x1, sys, kExact);
  node_rotations(body, sys, r1);
  ASSERT_EQ(r0.size(), static_cast<size_t>(sys.num_free));
  double bent_most = 0.0;
  for (size_t i = 0; i < r0.size(); ++i) {
    EXPECT_LT((r1[i] * r0[i].transpose() - q).norm(), 1e-12) << "node " << i;
    bent_most = std::max(bent_most, (r0[i] - Mat3::Identity()).norm());
  }
  EXPECT_GT(bent_most, 0.1) << "the bent bar's nodes have rotations of their own";
}

TEST(FactorizationFollowsRotation, ATurnedCupKeepsItsFactorizationAndTheExactFreeMotion) {
  const Material m = rubber();
  const FemBody body = make_fem_body("cup", make_cup(CupParams{}), 0, m);
  Points x0 = body.rest.nodes;
  for (Vec3& p : x0) p = Vec3(p.x() * (1 + 3 * p.z()), p.y(), 0.9 * p.z());  // pressed, lip spread
  const Eigen::Matrix3d q = Eigen::AngleAxisd(0.9, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  Points x1 = x0;
  for (Vec3& p : x1) p = q * p + Vec3(0.05, 0, 0.1);
  for (const bool follow : {true, false}) {
    const FactorizationReuse reuse{true, 4, 20, follow};
    FemSystem exact, kept;
    init_fem_system(body, exact);
    init_fem_system(body, kept);
    free_velocities(body, m, x0, kept, reuse);
    const auto generation = kept.factor_generation;
    const Points ve = free_velocities(body, m, x1, exact, kExact);
    const Points vk = free_velocities(body, m, x1, kept, reuse);
    // exact to CG's own stopping test (an error estimate below kCgTolerance ‖x‖: the element
    // rotations of the turned shape equal the turned ones to the polar iteration's rounding,
    // so the first CG step may be taken, and it stops within that tolerance; 10× for margin)
    const double exact_to = 10 * kCgTolerance;
    EXPECT_LT(max_difference(ve, vk), exact_to * max_norm(ve)) << "follow " << follow;
    if (follow) {
      EXPECT_EQ(kept.factor_generation, generation) << "the turned factor is the turned A's";
      EXPECT_EQ(kept.factor_age, 1);
      EXPECT_LE(kept.cg_iterations, 1);
      // the correction's solve too
      const VecX b = VecX::LinSpaced(kept.A.rows(), 1.0, -1.0);
      VecX x = b;
      fem_solve_step_system(body, kept, reuse, x);
      const VecX x_exact = exact.solver->solve(b);
      EXPECT_LT((x - x_exact).norm(), exact_to * x_exact.norm());
      EXPECT_EQ(kept.factor_generation, generation);
    } else {
      EXPECT_EQ(kept.factor_generation, generation + 1) << "unturned, the kept factor is too far: replaced";
    }
  }
}

// A lagged matrix (FactorizationReuse::lag_drift, method §7.6 point 7): the step's matrix is
// the kept A₀ itself while the free motion it gives, Δv₀ = A₀⁻¹ b, is within lag_drift of the
// step's own A⁻¹ b; the free motion and the correction then solve A₀ exactly, without conjugate
// gradients.  The step's estimate of that error is its actual error; beyond lag_drift, or at
// max_age, A is factorized again.
TEST(FactorizationLag, TheStepSolvesTheKeptMatrixWhileItsFreeMotionIsCloseAndFactorizesBeyond) {
  const Material m = rubber();
  const FemBody body = bar(m);
  FactorizationReuse reuse{true, 4, 5};
  reuse.lag_drift = 0.01;
  FemSystem sys;
  init_fem_system(body, sys);
  free_velocities(body, m, bent(body.rest, 0.3), sys, reuse);
  ASSERT_EQ(sys.factor_generation, 1u);
  EXPECT_FALSE(sys.lagged) << "the first step has nothing to lag";
  const BlockCholesky kept = *sys.solver;
  const SparseMatrix A0 = sys.A;
  // a little further bent, released from rest: the kept A₀'s free motion is off by less than 1 %
  for (const double further : {0.00001, 0.00005}) {
    const Points x1 = bent(body.rest, 0.3 + further);
    FemSystem exact;
    init_fem_system(body, exact);
    free_velocities(body, m, x1, exact, FactorizationReuse{});
    free_velocities(body, m, x1, sys, reuse);
    ASSERT_TRUE(sys.lagged) << further;
    EXPECT_EQ(sys.factor_generation, 1u);
    EXPECT_EQ(sys.cg_iterations, 0) << "no conjugate gradients";
    // the free motion solves A₀ Δv = b (b the step's own forces) to rounding
    EXPECT_LT((A0 * sys.dv - sys.rhs).norm(), 1e-10 * sys.rhs.norm());
    // which is not the step's own A's answer: off by what the step estimated
    const double off = (sys.dv - exact.dv).norm() / sys.dv.norm();
    std::printf("lagged free motion, bent %.5f further: off the exact step's by %.3g, estimated %.3g; A drifted %.2g\n",
                further, off, sys.lag, (sys.A - A0).norm() / A0.norm());
    EXPECT_GT(off, 1e-6);
    EXPECT_NEAR(sys.lag, off, 0.05 * off);
  }
  EXPECT_EQ(sys.factor_age, 2);
  // the correction solves A₀ too
  const VecX b = VecX::LinSpaced(sys.A.rows(), 1.0, -1.0);
  VecX x = b;
  fem_solve_step_system(body, sys, reuse, x);
  EXPECT_LT((x - kept.solve(b)).norm(), 1e-14 * x.norm());
  // 0.002 rad further: A drifts by less than 0.1 %, but the free motion of this slender bar by
  // about 10 % (a turned element's stiff directions leak into the soft bending): factorized
  free_velocities(body, m, bent(body.rest, 0.302), sys, reuse);
  EXPECT_FALSE(sys.lagged);
  EXPECT_GT(sys.lag, 0.05);
  EXPECT_LT((sys.A - A0).norm() / A0.norm(), 0.001);
  EXPECT_EQ(sys.factor_generation, 2u);
  EXPECT_EQ(sys.factor_age, 0);
  // the same shape again and again: lagged (error 0) until max_age (5), then factorized
  for (int age = 1; age <= 5; ++age) {
    free_velocities(body, m, bent(body.rest, 0.302), sys, reuse);
    EXPECT_TRUE(sys.lagged);
    EXPECT_LT(sys.lag, 1e-10);  // (the residual's rounding)
    EXPECT_EQ(sys.factor_age, age);
  }
  free_velocities(body, m, bent(body.rest, 0.302), sys, reuse);
  EXPECT_FALSE(sys.lagged);
  EXPECT_EQ(sys.factor_generation, 3u);
  // with follow_rotation the lag is off: the turned factor's conjugate gradients serve
  FemSystem turned;
  init_fem_system(body, turned);
  reuse.follow_rotation = true;
  free_velocities(body, m, bent(body.rest, 0.3), turned, reuse);
  free_velocities(body, m, bent(body.rest, 0.30001), turned, reuse);
  EXPECT_FALSE(turned.lagged);
}

// The element pass (rotations, forces, energy) runs in parallel and is summed serially in
// element order, so the free motion is the same to the bit for any number of threads, and
// its forces and energy are those of add_elastic_forces (fem/corotational.h) to the bit.
TEST(FreeMotion, TheSameBitsForAnyThreadCount) {
  const Material m = rubber();
  FemBody body = make_fem_body("bar", make_box(Vec3(0.1, 0.02, 0.02), 12, 3, 3), 0, m);
  const size_t n = body.rest.nodes.size();
  Points v(n), v_held(n, Vec3::Zero()), applied(n);
  for (size_t i = 0; i < n; ++i) {
    const Vec3& p = body.rest.nodes[i];
    v[i] = Vec3(std::sin(97.0 * p.x()), std::cos(53.0 * p.y()), std::sin(31.0 * p.z() + 1.0));
    applied[i] = body.node_mass[i] * Vec3(0, 0, -9.81);
    if (p.x() < 1e-9) {  // the end at x = 0 follows a prescribed velocity (held, with Δv ≠ 0)
      body.node_constraint[i] = kNodeFixed;
      v_held[i] = Vec3(0.0, 0.01, -0.02);
    }
  }
  const Points x = bent(body.rest, 0.4);
  ASSERT_GT(body.rest.tets.size(), 200u) << "enough elements for several tasks";
  const int old_threads = thread_count();
  std::vector<Points> v_free(4), force(4);
  std::vector<double> energy(4);
  std::vector<VecX> values(4), rhs(4);
  const int counts[4] = {1, 2, 3, 5};
  for (int k = 0; k < 4; ++k) {
    set_thread_count(counts[k]);
    FemSystem sys;
    init_fem_system(body, sys);
    fem_free_motion(body, m, x, v, v_held, applied, 0.01, sys, v_free[k]);
    force[k] = sys.elastic_force;
    energy[k] = sys.elastic_energy;
    values[k] = Eigen::Map<const VecX>(sys.A.valuePtr(), sys.A.nonZeros());
    rhs[k] = sys.rhs;
  }
  set_thread_count(old_threads);
  for (int k = 1; k < 4; ++k) {
    SCOPED_TRACE(counts[k]);
    EXPECT_EQ(energy[k], energy[0]);
    EXPECT_TRUE(values[k] == values[0]) << "A";
    EXPECT_TRUE(rhs[k] == rhs[0]) << "b";
    for (size_t i = 0; i < n; ++i) {
      ASSERT_TRUE(force[k][i] == force[0][i]) << "node " << i;
      ASSERT_TRUE(v_free[k][i] == v_free[0][i]) << "node " << i;
    }
  }
  Points reference(n, Vec3::Zero());
  const double reference_energy = add_elastic_forces(body.elements, body.rest, x, reference);
  EXPECT_EQ(energy[0], reference_energy);
  EXPECT_GT(reference_energy, 0.0);
  for (size_t i = 0; i < n; ++i) ASSERT_TRUE(force[0][i] == reference[i]) << "node " << i;
}
