// The GPU solver (apgd_cuda) against the CPU's apgd, the reference of the same method: the
// same forces on problems with known answers (a stack, Boyle's piston), and the same suction
// stories on whole scenes, with W on the device (CUDA backend) and sent from the host (CPU
// backend).  Runs wherever apgd_cuda is built and a device is visible; elsewhere each test
// says why it skipped.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "backends/compliance_backend.h"
#include "common/error.h"
#include "scene/scene.h"
#include "sim/simulation.h"
#include "solver/solver.h"

using namespace suction;

namespace {

/// the reason the GPU solver cannot run here, or "" when it can
std::string gpu_solver_unavailable() {
  const auto names = available_constraint_solvers();
  if (std::find(names.begin(), names.end(), "apgd_cuda") == names.end())
    return "apgd_cuda is not built (configure with -DSUCTION_WITH_CUDA=ON: make cuda)";
  try {
    check_constraint_solver("apgd_cuda");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

/// a stack of masses 1, 1, 10 kg on the ground and a piston over trapped air on the top one
struct StackWithPiston {
  Eigen::MatrixXd W;
  VecX u_free;
  std::vector<double> gap{-9.81e-4, 0.0, 0.0}, mu{0.5, 0.5, 0.5};
  std::vector<CavityRow> cavities;
  double h = 0.01;
  StackWithPiston() {
    const double g = 9.81, A = 1e-3, V0 = 2e-5;
    const double mass[3] = {1.0, 1.0, 10.0};
    Eigen::MatrixXd H = Eigen::MatrixXd::Zero(10, 9);
    for (int c = 0; c < 3; ++c)
      for (int d = 0; d < 3; ++d) {
        H(3 * c + d, 3 * c + (d + 2) % 3) = 1.0;  // normal z, tangents x, y of the upper body
        if (c > 0) H(3 * c + d, 3 * (c - 1) + (d + 2) % 3) = -1.0;
      }
    H(9, 8) = A;  // the cavity under the top mass's piston face
    VecX minv(9), v_free(9);
    for (int b = 0; b < 3; ++b) {
      minv.segment<3>(3 * b).setConstant(1.0 / mass[b]);
      v_free.segment<3>(3 * b) = Vec3(0, 0, -g * h);
    }
    W = h * H * minv.asDiagonal() * H.transpose();
    u_free = H * v_free;
    CavityRow c;
    c.volume_free = V0 - A * g * h * h;
    c.air = (kPAtm + 0.5 * 10 * g / A) * V0;
    c.p_max = 10 * kPAtm;
    cavities.push_back(c);
  }
};

}  // namespace

TEST(CudaSolver, GivesTheCpuApgdsForcesOnAStackWithAPiston) {
  const std::string why = gpu_solver_unavailable();
  if (!why.empty()) GTEST_SKIP() << "skipped: " << why;
  VecX lambda[2];
  std::vector<CavityRow> cav[2];
  SolveResult r[2];
  for (int m = 0; m < 2; ++m) {
    StackWithPiston p;
    auto method = make_constraint_solver(m == 0 ? "apgd" : "apgd_cuda");
    lambda[m] = VecX::Zero(10);
    r[m] = solve_constraints_with(*method, p.W, nullptr, p.u_free, p.gap, p.mu, p.cavities, {}, p.h, 20000, 1e-10,
                                  lambda[m]);
    cav[m] = p.cavities;
  }
  EXPECT_TRUE(r[0].converged && r[1].converged) << r[0].residual << " " << r[1].residual;
  const double scale = lambda[0].head<9>().cwiseAbs().maxCoeff();
  EXPECT_LT((lambda[1].head<9>() - lambda[0].head<9>()).cwiseAbs().maxCoeff(), 1e-9 * scale)
      << lambda[0].transpose() << "\n" << lambda[1].transpose();
  EXPECT_NEAR(cav[1][0].pressure, cav[0][0].pressure, 1e-9 * kPAtm);
  std::printf("stack with piston: apgd %d iterations, apgd_cuda %d\n", r[0].iterations, r[1].iterations);
}

TEST(CudaSolver, TellsTheSuctionStoriesOfTheCpuWithWOnTheDeviceAndSent) {
  const std::string why = gpu_solver_unavailable();
  if (!why.empty()) GTEST_SKIP() << "skipped: " << why;
  for (const char* scene : {"ground.json", "rigid_lift.json"}) {
    double p_min[4], z_max[4];
    int unconverged[4] = {0, 0, 0, 0};
    // W on the device; W sent from the host; the first again (the same numbers)
    const char* method[4] = {"apgd", "apgd_cuda", "apgd_cuda", "apgd_cuda"};
    const char* backend[4] = {"cpu", "cuda", "cpu", "cuda"};
    for (int m = 0; m < 4; ++m) {
      Model model = load_scene_file(std::string(SUCTION_SCENES_DIR) + "/" + scene, {});
      model.settings.solver.method = method[m];
      model.settings.compliance_backend = backend[m];
      Simulation sim(std::move(model));
      const long steps = std::lround(sim.model().settings.duration / sim.model().settings.dt);
      p_min[m] = kPAtm;
      z_max[m] = -1e30;
      for (long i = 0; i < steps; ++i) {
        sim.step();
        for (const CavityState& c : sim.state().book.cavities) p_min[m] = std::min(p_min[m], c.pressure);
        for (const auto& b : sim.state().rigid) z_max[m] = std::max(z_max[m], b.position.z());
        unconverged[m] += !sim.profile().solver_converged;
      }
    }
    std::printf("%s: P_min %.1f / %.1f / %.1f Pa, unconverged %d / %d / %d (apgd cpu / apgd_cuda, W on the device "
                "/ sent)\n",
                scene, p_min[0], p_min[1], p_min[2], unconverged[0], unconverged[1], unconverged[2]);
    EXPECT_EQ(p_min[3], p_min[1]) << scene << ": a second run repeats the first bit for bit";
    EXPECT_EQ(z_max[3], z_max[1]) << scene;
    for (int m = 1; m < 3; ++m) {
      EXPECT_NEAR(kPAtm - p_min[m], kPAtm - p_min[0], 0.01 * (kPAtm - p_min[0])) << scene << " " << backend[m];
      EXPECT_NEAR(z_max[m], z_max[0], 1e-3 * std::max(1.0, std::abs(z_max[0]))) << scene << " " << backend[m];
    }
  }
}
