// The CUDA compliance backend against the CPU one (the reference): both build W for the same
// step's systems and rows, on the ground, rigid_lift, soft_cube_lift (two FEM bodies) and Table 2
// (cube_grasp) scenes, and must
// agree to 1e-9 relative in the max norm.  Runs wherever the cuda backend is built and a device
// is visible; elsewhere each test says why it skipped.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "backends/compliance_backend.h"
#include "common/error.h"
#include "scene/scene.h"
#include "stages/stage_list.h"
#include "stages/workspace.h"

using namespace suction;

namespace {

bool cuda_built() {
  const auto names = available_compliance_backends();
  return std::find(names.begin(), names.end(), "cuda") != names.end();
}

/// the reason the CUDA comparison cannot run here, or "" when it can
std::string cuda_unavailable() {
  if (!cuda_built()) return "the cuda backend is not built (configure with -DSUCTION_WITH_CUDA=ON: make cuda)";
  try {
    make_compliance_backend("cuda");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

struct Agreement {
  double worst = 0.0;  // max over the compared steps of max|W_cuda − W_cpu| / max|W_cpu|
  int compared = 0;    // steps with rows
  int max_rows = 0;
};

/// Steps the scene with the stage list (stages/stage_list.h, as Simulation::step does, without
/// its seal check) on the CPU backend; every
/// `every` steps the same W is also built by the CUDA backend and compared (an odd `every`
/// compares steps of both parities: with and without the backend's prepare()).
Agreement compare_backends(const std::string& scene, const std::vector<SceneOverride>& overrides, int steps,
                           int every) {
  Model model = load_scene_file(std::string(SUCTION_SCENES_DIR) + "/" + scene, overrides);
  model.settings.compliance_backend = "cpu";
  State state = make_initial_state(model);
  Workspace work;
  init_workspace(model, work);
  // the CUDA backend, set up by the same stage function for the same workspace
  Model model_cuda = model;
  model_cuda.settings.compliance_backend = "cuda";
  init_compliance(model_cuda, work);
  std::unique_ptr<ComplianceBackend> cuda = std::move(work.compliance);
  init_compliance(model, work);

  Agreement a;
  for (int s = 0; s < steps; ++s) {
    stages_up_to_rows(model, state, work, kUntimed);
    // the CUDA backend starts its factorization early on odd steps (as in a run) and within
    // build on even ones
    if (s % 2) {
      std::swap(work.compliance, cuda);
      prepare_compliance(model, state, work);
      std::swap(work.compliance, cuda);
    }
    build_compliance(model, state, work);
    if (s % every == 0 && work.rows.count() > 0) {
      const Eigen::MatrixXd W_cpu = work.W;
      std::swap(work.compliance, cuda);
      build_compliance(model, state, work);
      std::swap(work.compliance, cuda);
      EXPECT_EQ(work.W.rows(), W_cpu.rows());
      EXPECT_EQ(work.W, work.W.transpose()) << "the CUDA W is exactly symmetric";
      const double scale = W_cpu.cwiseAbs().maxCoeff();
      const double diff = (work.W - W_cpu).cwiseAbs().maxCoeff();
      a.worst = std::max(a.worst, diff / scale);
      ++a.compared;
      a.max_rows = std::max(a.max_rows, static_cast<int>(W_cpu.rows()));
      work.W = W_cpu;  // the run goes on with the reference
    }
    stages_after_compliance(model, state, work, kUntimed);
  }
  std::printf("%s: %d steps compared (up to %d rows), worst max-norm relative difference %.3g\n", scene.c_str(),
              a.compared, a.max_rows, a.worst);
  return a;
}

}  // namespace

TEST(CudaCompliance, MatchesCpuOnGround) {
  const std::string why = cuda_unavailable();
  if (!why.empty()) GTEST_SKIP() << "skipped: " << why;
  const Agreement a = compare_backends("ground.json", {}, 150, 3);
  EXPECT_GT(a.compared, 10);
  EXPECT_GT(a.max_rows, 100);
  EXPECT_LT(a.worst, 1e-9);
}

TEST(CudaCompliance, MatchesCpuOnRigidLift) {
  const std::string why = cuda_unavailable();
  if (!why.empty()) GTEST_SKIP() << "skipped: " << why;
  const Agreement a = compare_backends("rigid_lift.json", {}, 150, 3);
  EXPECT_GT(a.compared, 10);
  EXPECT_GT(a.max_rows, 100);
  EXPECT_LT(a.worst, 1e-9);
}

TEST(CudaCompliance, MatchesCpuWithTwoFemBodiesInContact) {
  // soft_cube_lift: the cup and the jelly cube are both FEM; their contact rows touch both
  const std::string why = cuda_unavailable();
  if (!why.empty()) GTEST_SKIP() << "skipped: " << why;
  const Agreement a = compare_backends("soft_cube_lift.json", {}, 120, 5);
  EXPECT_GT(a.compared, 10);
  EXPECT_GT(a.max_rows, 50);
  EXPECT_LT(a.worst, 1e-9);
}

TEST(CudaCompliance, MatchesCpuOnTable2AtAThousandRows) {
  const std::string why = cuda_unavailable();
  if (!why.empty()) GTEST_SKIP() << "skipped: " << why;
  const Agreement a = compare_backends("cube_grasp.json",
                                       {{"/parameters/cube_cells", "13"}, {"/settings/contact/reduction", "false"}}, 80, 5);
  EXPECT_GT(a.compared, 4);
  EXPECT_GT(a.max_rows, 800);
  EXPECT_LT(a.worst, 1e-9);
}

TEST(CudaCompliance, WithoutADeviceOrBuildItIsAClearInputError) {
  if (cuda_unavailable().empty()) GTEST_SKIP() << "skipped: a CUDA device is present (the error path needs none)";
  try {
    make_compliance_backend("cuda");
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_TRUE(what.find("SUCTION_WITH_CUDA") != std::string::npos || what.find("no CUDA device") != std::string::npos)
        << what;
  }
  // and a scene asking for it is reported at its JSON pointer, at load time
  try {
    load_scene_file(std::string(SUCTION_SCENES_DIR) + "/ground.json", {{"/settings/compliance_backend", "cuda"}});
    FAIL() << "expected a SceneError";
  } catch (const SceneError& e) {
    bool named = false;
    for (const SceneIssue& issue : e.issues()) named |= issue.pointer == "/settings/compliance_backend";
    EXPECT_TRUE(named) << e.what();
  }
}
