// Cantilever oracles: static tip deflection against Euler-Bernoulli, first eigenfrequency
// against the analytic value, and the implicit integrator settling onto the static solution.
#include <gtest/gtest.h>

#include <Eigen/SparseCholesky>
#include <cmath>
#include <cstdio>

#include "fem/corotational.h"
#include "mesh/generators.h"
#include "model/build.h"
#include "sim/simulation.h"

using namespace suction;

namespace {

struct Beam {
  double L = 1.0, b = 0.1;  // length along x, square b×b cross-section [m]
  double E = 1e7, nu = 0.0, rho = 1000.0;
  TetMesh mesh;
  std::vector<int> free_index;  // -1 for clamped nodes (x = 0)
  int nfree = 0;
};

Beam make_beam(int nx, int nyz) {
  Beam beam;
  beam.mesh = make_box(Vec3(beam.L, beam.b, beam.b), nx, nyz, nyz);
  for (auto& p : beam.mesh.nodes) p.x() += beam.L / 2;  // x in [0, L]
  beam.free_index.assign(beam.mesh.nodes.size(), -1);
  for (size_t n = 0; n < beam.mesh.nodes.size(); ++n)
    if (beam.mesh.nodes[n].x() > 1e-9) beam.free_index[n] = beam.nfree++;
  return beam;
}

// rest stiffness Σ K_e over free DOFs
Eigen::SparseMatrix<double> assemble_stiffness(const Beam& beam, const ElasticElements& el) {
  std::vector<Eigen::Triplet<double>> trip;
  for (size_t e = 0; e < beam.mesh.tets.size(); ++e)
    for (int a = 0; a < 4; ++a)
      for (int c = 0; c < 4; ++c) {
        const int fa = beam.free_index[beam.mesh.tets[e][a]];
        const int fc = beam.free_index[beam.mesh.tets[e][c]];
        if (fa < 0 || fc < 0) continue;
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j)
            trip.emplace_back(3 * fa + i, 3 * fc + j, el.stiffness[e](3 * a + i, 3 * c + j));
      }
  Eigen::SparseMatrix<double> K(3 * beam.nfree, 3 * beam.nfree);
  K.setFromTriplets(trip.begin(), trip.end());
  return K;
}

std::vector<int> tip_nodes(const Beam& beam) {
  std::vector<int> tip;
  for (size_t n = 0; n < beam.mesh.nodes.size(); ++n)
    if (beam.mesh.nodes[n].x() > beam.L - 1e-9) tip.push_back(static_cast<int>(n));
  return tip;
}

}  // namespace

TEST(Cantilever, StaticTipDeflectionMatchesEulerBernoulli) {
  // slender (L/b = 10), fine mesh; ν = 0 so the 3D solution has no Poisson clamping effect.
  // Linear tets lock in bending: measured errors 12.3 % (40×6×6), 8.2 % (60×6×6), 5.9 % (100×6×6),
  // 3.8 % (100×8×8), see docs/validation.md
  const Beam beam = make_beam(100, 8);
  const ElasticElements el = make_elastic_elements(beam.mesh, beam.E, beam.nu);
  const auto K = assemble_stiffness(beam, el);
  const double P = 10.0;  // tip load [N], spread over the tip face's nodes by area weight
  const auto tip = tip_nodes(beam);
  Eigen::VectorXd f = Eigen::VectorXd::Zero(3 * beam.nfree);
  // consistent tip traction: lumped by the boundary triangles of the tip face
  const BoundarySurface bnd = extract_boundary(beam.mesh);
  double area = 0.0;
  for (const Tri& t : bnd.surface.triangles) {
    const Vec3& a = bnd.surface.vertices[t[0]];
    const Vec3& b = bnd.surface.vertices[t[1]];
    const Vec3& c = bnd.surface.vertices[t[2]];
    if (a.x() < beam.L - 1e-9 || b.x() < beam.L - 1e-9 || c.x() < beam.L - 1e-9) continue;
    const double A = 0.5 * (b - a).cross(c - a).norm();
    area += A;
    for (int k = 0; k < 3; ++k) f[3 * beam.free_index[bnd.node_of_vertex[t[k]]] + 2] -= P / beam.b / beam.b * A / 3;
  }
  ASSERT_NEAR(area, beam.b * beam.b, 1e-12);
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> solver(K);
  ASSERT_EQ(solver.info(), Eigen::Success);
  const Eigen::VectorXd u = solver.solve(f);
  double tip_z = 0.0;
  for (int n : tip) tip_z += u[3 * beam.free_index[n] + 2];
  tip_z /= tip.size();
  const double I = std::pow(beam.b, 4) / 12.0;
  const double eb = -P * std::pow(beam.L, 3) / (3 * beam.E * I);
  const double err = std::abs(tip_z - eb) / std::abs(eb);
  std::printf("cantilever tip deflection %.6g m, Euler-Bernoulli %.6g m, error %.2f %%\n", tip_z, eb,
              100 * err);
  EXPECT_LT(err, 0.05);
}

TEST(Cantilever, FirstEigenfrequencyMatchesAnalytic) {
  // generalized eigenproblem K φ = ω² M φ by inverse iteration with the LDLᵀ of K
  const Beam beam = make_beam(60, 8);  // measured: 7.7 % (40×6×6), 3.6 % (60×8×8)
  const ElasticElements el = make_elastic_elements(beam.mesh, beam.E, beam.nu);
  const auto K = assemble_stiffness(beam, el);
  Eigen::VectorXd m = Eigen::VectorXd::Zero(3 * beam.nfree);  // lumped mass
  for (size_t e = 0; e < beam.mesh.tets.size(); ++e)
    for (int n : beam.mesh.tets[e])
      if (beam.free_index[n] >= 0)
        for (int k = 0; k < 3; ++k) m[3 * beam.free_index[n] + k] += beam.rho * el.volume[e] / 4;
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> solver(K);
  ASSERT_EQ(solver.info(), Eigen::Success);
  Eigen::VectorXd x = Eigen::VectorXd::Ones(3 * beam.nfree);
  double lambda = 0.0;
  for (int it = 0; it < 200; ++it) {
    Eigen::VectorXd y = solver.solve(m.cwiseProduct(x));
    const double rq = y.dot(K * y) / y.dot(m.cwiseProduct(y));
    x = y / std::sqrt(y.dot(m.cwiseProduct(y)));
    if (it > 0 && std::abs(rq - lambda) < 1e-12 * rq) { lambda = rq; break; }
    lambda = rq;
  }
  const double f_num = std::sqrt(lambda) / (2 * kPi);
  const double I = std::pow(beam.b, 4) / 12.0, A = beam.b * beam.b;
  const double beta = 1.875104068711961;
  const double f_an = beta * beta / (2 * kPi * beam.L * beam.L) * std::sqrt(beam.E * I / (beam.rho * A));
  const double err = std::abs(f_num - f_an) / f_an;
  std::printf("cantilever first eigenfrequency %.5g Hz, analytic %.5g Hz, error %.2f %%\n", f_num, f_an,
              100 * err);
  EXPECT_LT(err, 0.05);
}

TEST(Cantilever, ImplicitEulerSettlesOnTheLinearStaticSolution) {
  // the dynamic co-rotational beam under gravity, damped, settles where K u = M g says
  // (small deflection, 0.5 % of the length, so co-rotational and linear agree to well under 1 %;
  // at 5 % deflection the geometric nonlinearity alone makes them differ by 3 %)
  Beam beam = make_beam(10, 2);
  Material mat;
  mat.young = 1e8;
  mat.poisson = 0.3;
  mat.density = beam.rho;
  mat.damping_mass = 20.0;
  Model model;
  model.materials = {mat};
  model.settings.dt = 0.01;
  FemBody body = make_fem_body("beam", beam.mesh, 0, mat);
  for (size_t n = 0; n < body.node_constraint.size(); ++n)
    if (beam.free_index[n] < 0) body.node_constraint[n] = -2;  // clamped
  model.fem.push_back(body);

  const ElasticElements el = make_elastic_elements(beam.mesh, mat.young, mat.poisson);
  const auto K = assemble_stiffness(beam, el);
  Eigen::VectorXd f = Eigen::VectorXd::Zero(3 * beam.nfree);
  for (size_t n = 0; n < beam.mesh.nodes.size(); ++n)
    if (beam.free_index[n] >= 0) f[3 * beam.free_index[n] + 2] = body.node_mass[n] * model.settings.gravity.z();
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> solver(K);
  const Eigen::VectorXd u = solver.solve(f);

  Simulation sim(std::move(model));
  for (int s = 0; s < 600; ++s) sim.step();
  double worst = 0.0, umax = 0.0;
  for (size_t n = 0; n < beam.mesh.nodes.size(); ++n) {
    const Vec3 d = sim.state().fem[0].x[n] - beam.mesh.nodes[n];
    if (beam.free_index[n] < 0) {
      EXPECT_EQ(d.norm(), 0.0);  // clamped nodes never move
      continue;
    }
    const Vec3 ref = u.segment<3>(3 * beam.free_index[n]);
    worst = std::max(worst, (d - ref).norm());
    umax = std::max(umax, ref.norm());
  }
  std::printf("dynamic settle vs linear static: max diff %.3g m of max deflection %.3g m\n", worst, umax);
  EXPECT_GT(umax, 1e-4);
  EXPECT_LT(worst, 0.01 * umax);
}
