// The CPU compliance backend against a dense reference W = h H A⁻¹ Hᵀ.
#include <gtest/gtest.h>

#include <random>

#include "common/error.h"
#include "backends/compliance_backend.h"
#include "mesh/generators.h"
#include "model/build.h"
#include "rigid/rigid_dynamics.h"
#include "stages/stages.h"

using namespace suction;

TEST(Compliance, CpuMatchesDenseReference) {
  Material mat;
  mat.young = 1e5;
  mat.damping_stiffness = 0.01;
  Model model;
  model.materials = {mat};
  model.fem.push_back(make_fem_body("soft", make_box(Vec3(0.1, 0.1, 0.1), 2, 2, 2), 0, mat));
  model.fem[0].node_constraint[0] = -2;  // a held node: no DOF
  model.rigid.push_back(make_rigid_body("block", RigidKind::Dynamic, make_box_surface(Vec3(0.1, 0.2, 0.3)), 0, 700.0));
  model.rigid[0].initial_orientation = Quat(Eigen::AngleAxisd(0.4, Vec3(1, 1, 0).normalized()));
  const double h = model.settings.dt;
  State state = make_initial_state(model);
  Workspace work;
  init_workspace(model, work);
  free_motion(model, state, work);  // factorizes A

  // random rows touching random FEM nodes (up to 3 per row) and the rigid body
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  std::uniform_int_distribution<int> pick(0, static_cast<int>(model.fem[0].rest.nodes.size()) - 1);
  ConstraintRows rows;
  rows.layout.contacts = 4;  // 12 rows
  for (int r = 0; r < rows.count(); ++r) {
    for (int k = 0; k < 3; ++k) rows.fem_terms.push_back({r, 0, pick(rng), Vec3(u(rng), u(rng), u(rng))});
    if (r % 2) rows.rigid_terms.push_back({r, 0, Vec3(u(rng), u(rng), u(rng)), Vec3(u(rng), u(rng), u(rng))});
  }
  // held node 0 must be ignored: add a term on it
  rows.fem_terms.push_back({3, 0, 0, Vec3(1, 2, 3)});

  // through the compliance stage: it hands the backend the step's systems and the rows
  work.rows = rows;
  build_compliance(model, state, work);
  const Eigen::MatrixXd& W = work.W;

  // dense reference over [free FEM DOFs | rigid 6]
  const FemSystem& sys = work.fem[0];
  const int nf = 3 * sys.num_free;
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(nf + 6, nf + 6);
  A.topLeftCorner(nf, nf) = Eigen::MatrixXd(sys.A);
  A.block<3, 3>(nf, nf) = model.rigid[0].mass * Mat3::Identity();
  A.block<3, 3>(nf + 3, nf + 3) = world_inertia(model.rigid[0], state.rigid[0].orientation);
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(rows.count(), nf + 6);
  for (const auto& t : rows.fem_terms) {
    const int fi = sys.free_index[t.node];
    if (fi >= 0) H.block<1, 3>(t.row, 3 * fi) += t.coeff.transpose();
  }
  for (const auto& t : rows.rigid_terms) {
    H.block<1, 3>(t.row, nf) += t.linear.transpose();
    H.block<1, 3>(t.row, nf + 3) += t.angular.transpose();
  }
  const Eigen::MatrixXd Wref = h * H * A.ldlt().solve(H.transpose());
  const double err = (W - Wref).norm() / Wref.norm();
  std::printf("CPU compliance vs dense H A^-1 H^T: relative error %.3g\n", err);
  EXPECT_LT(err, 1e-10);
  EXPECT_LT((W - W.transpose()).norm(), 1e-12 * W.norm());
}

TEST(Compliance, UnknownAndUnbuiltBackendsAreClearErrors) {
  EXPECT_THROW(make_compliance_backend("gpu-magic"), InputError);
  bool cuda_built = false;
  for (const auto& n : available_compliance_backends()) cuda_built |= n == "cuda";
  if (!cuda_built) {
    try {
      make_compliance_backend("cuda");
      FAIL() << "cuda is not built here";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("SUCTION_WITH_CUDA"), std::string::npos) << e.what();
    }
  }
}
