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

namespace {

// W of one FEM body's rows through a CPU backend, with or without a kept factorization
Eigen::MatrixXd fem_compliance(ComplianceBackend& backend, const FemSystem& sys, const ConstraintRows& rows,
                               bool reused, double h, const std::vector<Mat3>* rotation = nullptr) {
  ComplianceInput in;
  in.h = h;
  in.rows = &rows;
  in.factorizations_reused = reused;
  in.fem.push_back({&sys.free_index, sys.num_free, &sys.A, sys.solver.get(), sys.factor_generation, rotation});
  Eigen::MatrixXd W;
  backend.build(in, W);
  return W;
}

// rows like the cavity stage's: contacts on one node or on a triangle's three nodes (narrow),
// and a pressure row over many nodes (wide); `first` shifts the nodes they touch
ConstraintRows contact_and_pressure_rows(int num_nodes, int contacts, int first, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  ConstraintRows rows;
  rows.layout.contacts = contacts;
  rows.layout.cavities = 1;
  for (int k = 0; k < contacts; ++k)
    for (int d = 0; d < 3; ++d) {
      const int r = 3 * k + d;
      const int terms = k % 2 ? 3 : 1;
      for (int j = 0; j < terms; ++j)
        rows.fem_terms.push_back({r, 0, (first + 2 * k + j) % num_nodes, Vec3(u(rng), u(rng), u(rng))});
    }
  const int p = 3 * contacts;
  for (int n = 0; n < num_nodes; n += 3) rows.fem_terms.push_back({p, 0, n, Vec3(u(rng), u(rng), u(rng))});
  rows.fem_terms.push_back({1, 0, 0, Vec3(1, 2, 3)});  // node 0 is held: ignored
  return rows;
}

double relative_difference(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) { return (a - b).norm() / b.norm(); }

// a soft box held by one node, its factorization kept across steps (turned with its nodes or not)
Model soft_box_with_kept_factorization(bool follow_rotation) {
  Material mat;
  mat.young = 1e5;
  Model model;
  model.materials = {mat};
  model.fem.push_back(make_fem_body("soft", make_box(Vec3(0.1, 0.1, 0.1), 3, 3, 3), 0, mat));
  model.fem[0].node_constraint[0] = -2;
  model.settings.factorization = {true, 4, 20, follow_rotation};
  return model;
}

}  // namespace

// With the factorization kept across steps, the CPU backend keeps A⁻¹ on the contact nodes and
// computes the pressure row with a solve: the same W as the direct path for the same
// factorization, when the rows change, when contacts come and go, and after a new factorization.
TEST(Compliance, KeptFactorizationGivesTheDirectPathsW) {
  Model model = soft_box_with_kept_factorization(false);
  const double h = model.settings.dt;
  State state = make_initial_state(model);
  Workspace work;
  init_workspace(model, work);
  free_motion(model, state, work);
  const FemSystem& sys = work.fem[0];
  const int nodes = static_cast<int>(model.fem[0].rest.nodes.size());
  auto direct = make_compliance_backend("cpu"), kept = make_compliance_backend("cpu");
  std::mt19937 rng(11);
  auto check = [&](const ConstraintRows& rows, const char* what) {
    const Eigen::MatrixXd Wd = fem_compliance(*direct, sys, rows, false, h);
    const Eigen::MatrixXd Wk = fem_compliance(*kept, sys, rows, true, h);
    EXPECT_LT(relative_difference(Wk, Wd), 1e-12) << what;
    EXPECT_EQ((Wk - Wk.transpose()).norm(), 0.0) << what;
  };
  const ConstraintRows first = contact_and_pressure_rows(nodes, 6, 1, rng);
  check(first, "first rows");
  check(contact_and_pressure_rows(nodes, 6, 1, rng), "same nodes, new coefficients");
  check(contact_and_pressure_rows(nodes, 9, 5, rng), "new contact nodes");
  check(contact_and_pressure_rows(nodes, 3, 1, rng), "fewer contacts");
  check(contact_and_pressure_rows(nodes, 40, 3, rng), "120 contact rows (the block is added eight columns at a time)");
  // a new factorization (another shape): what was kept belongs to the old one
  const auto generation = sys.factor_generation;
  for (Vec3& x : state.fem[0].x) x += 0.02 * Vec3(x.y(), -x.x(), 0.3 * x.z());
  model.settings.factorization.reuse = false;  // factorize now
  free_motion(model, state, work);
  ASSERT_EQ(sys.factor_generation, generation + 1);
  check(first, "after a new factorization");
}

// A kept factorization turned with its body (settings.factorization.follow_rotation, method
// §7.6): a body whose every element turned by Q has A = Q A₀ Qᵀ, so the kept factor, with each
// row coefficient turned back by its node's Q_iᵀ, gives the W of a fresh factorization of the
// turned shape, to rounding; without the turn it does not.
TEST(Compliance, AKeptFactorizationTurnedWithItsBodyGivesTheWOfTheTurnedShape) {
  Model model = soft_box_with_kept_factorization(true);
  const double h = model.settings.dt;
  State state = make_initial_state(model);
  for (Vec3& x : state.fem[0].x) x += 0.02 * Vec3(x.y(), -x.x(), 0.3 * x.z());  // a deformed shape
  Workspace work;
  init_workspace(model, work);
  free_motion(model, state, work);
  const FemSystem& sys = work.fem[0];
  const auto generation = sys.factor_generation;
  // the whole body turned by 50° about an oblique axis and moved
  const Eigen::Matrix3d q = Eigen::AngleAxisd(0.87, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  for (Vec3& x : state.fem[0].x) x = q * x + Vec3(0.01, -0.02, 0.03);
  free_motion(model, state, work);
  ASSERT_EQ(sys.factor_generation, generation) << "the turned body keeps its factorization";
  ASSERT_EQ(sys.rotation.size(), static_cast<size_t>(sys.num_free));
  for (const Mat3& qi : sys.rotation) ASSERT_LT((qi - q).norm(), 1e-12);
  // a fresh factorization of the turned shape
  Model fresh_model = model;
  fresh_model.settings.factorization = {};
  Workspace fresh;
  init_workspace(fresh_model, fresh);
  free_motion(fresh_model, state, fresh);
  const int nodes = static_cast<int>(model.fem[0].rest.nodes.size());
  std::mt19937 rng(5);
  auto direct = make_compliance_backend("cpu"), kept = make_compliance_backend("cpu");
  for (int contacts : {6, 9}) {
    const ConstraintRows rows = contact_and_pressure_rows(nodes, contacts, 1, rng);
    const Eigen::MatrixXd exact = fem_compliance(*direct, fresh.fem[0], rows, false, h);
    const Eigen::MatrixXd turned = fem_compliance(*kept, sys, rows, true, h, &sys.rotation);
    EXPECT_LT(relative_difference(turned, exact), 1e-10) << contacts << " contacts";
    EXPECT_EQ((turned - turned.transpose()).norm(), 0.0);
    auto unturned_backend = make_compliance_backend("cpu");
    const Eigen::MatrixXd unturned = fem_compliance(*unturned_backend, sys, rows, true, h);
    EXPECT_GT(relative_difference(unturned, exact), 1e-2) << "the kept factor without the turn is another W";
  }
}
