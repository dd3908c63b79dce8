// Co-rotational element: energy, force and tangent checked against each other by finite
// differences, at large rotations; patch test; rotation invariance.
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <Eigen/SVD>

#include <cstdio>
#include <random>

#include "fem/corotational.h"
#include "mesh/generators.h"

using namespace suction;

namespace {

TetMesh one_tet() {
  TetMesh m;
  m.nodes = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)};
  m.tets = {{0, 1, 2, 3}};
  return m;
}

Mat3 random_rotation(std::mt19937& rng, double max_angle) {
  std::uniform_real_distribution<double> u(-1, 1);
  Vec3 axis(u(rng), u(rng), u(rng));
  return Eigen::AngleAxisd(max_angle * u(rng), axis.normalized()).toRotationMatrix();
}

// deformed positions x = Q (I + ε G) X + t: rotation Q, strain of size ε
Points deform(const TetMesh& m, const Mat3& Q, double eps, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  Mat3 G;
  for (int i = 0; i < 9; ++i) G(i / 3, i % 3) = u(rng);
  Points x = m.nodes;
  for (auto& p : x) p = Q * (Mat3::Identity() + eps * G) * p + Vec3(0.3, -0.2, 0.1);
  // plus a small non-affine perturbation
  for (auto& p : x) p += 0.3 * eps * Vec3(u(rng), u(rng), u(rng));
  return x;
}

}  // namespace

TEST(Corotational, PolarRotationIsProperAndSymmetrizes) {
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int k = 0; k < 100; ++k) {
    Mat3 F;
    for (int i = 0; i < 9; ++i) F(i / 3, i % 3) = u(rng);
    const Mat3 R = polar_rotation(F);
    EXPECT_NEAR((R.transpose() * R - Mat3::Identity()).norm(), 0.0, 1e-12);
    EXPECT_NEAR(R.determinant(), 1.0, 1e-12);
    const Mat3 S = R.transpose() * F;
    EXPECT_NEAR((S - S.transpose()).norm(), 0.0, 1e-12 * F.norm());
  }
}

// The fast path (a scaled Newton iteration) gives the SVD's polar rotation: on element-like
// deformations (a rotation times a stretch of up to ±60 %), on near-flat and on inverted ones.
TEST(Corotational, PolarRotationMatchesTheSvd) {
  auto svd_polar = [](const Mat3& F) {
    Eigen::JacobiSVD<Mat3> svd(F, Eigen::ComputeFullU | Eigen::ComputeFullV);
    Mat3 U = svd.matrixU();
    if (U.determinant() * svd.matrixV().determinant() < 0.0) U.col(2) *= -1.0;
    return Mat3(U * svd.matrixV().transpose());
  };
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  double worst = 0.0;
  for (int k = 0; k < 2000; ++k) {
    const Mat3 R0 = Eigen::AngleAxisd(3.0 * u(rng), Vec3(u(rng), u(rng), u(rng)).normalized()).toRotationMatrix();
    Mat3 E;  // a symmetric strain, growing with k; some flattened, some inverted
    for (int i = 0; i < 3; ++i)
      for (int j = i; j < 3; ++j) E(i, j) = E(j, i) = 0.6 * u(rng) * (k + 1) / 2000.0;
    Mat3 F = R0 * (Mat3::Identity() + E);
    if (k % 7 == 0) F.col(k % 3) *= 1e-4;   // nearly flat
    if (k % 11 == 0) F.col(k % 3) *= -0.5;  // inverted
    const Mat3 R = polar_rotation(F), Rs = svd_polar(F);
    worst = std::max(worst, (R - Rs).norm());
    ASSERT_NEAR(R.determinant(), 1.0, 1e-12) << k;
  }
  EXPECT_LT(worst, 1e-12);
}

TEST(Corotational, ForceIsMinusEnergyGradient) {
  const TetMesh m = one_tet();
  const ElasticElements el = make_elastic_elements(m, 1e6, 0.45);
  std::mt19937 rng(2);
  double worst = 0.0;
  for (int trial = 0; trial < 20; ++trial) {
    const Points x = deform(m, random_rotation(rng, 3.0), 0.2, rng);
    Points f(4, Vec3::Zero());
    add_elastic_forces(el, m, x, f);
    const double h = 1e-6;
    for (int n = 0; n < 4; ++n)
      for (int k = 0; k < 3; ++k) {
        Points xp = x, xm = x;
        xp[n][k] += h;
        xm[n][k] -= h;
        const double fd = -(elastic_energy(el, m, xp) - elastic_energy(el, m, xm)) / (2 * h);
        const double scale = 1e-3 * el.mu;  // forces are O(μ ε L²)
        worst = std::max(worst, std::abs(fd - f[n][k]) / scale);
      }
  }
  std::printf("co-rotational force vs -dE/dx (central FD, h = 1e-6): worst rel. error %.3g\n", worst);
  EXPECT_LT(worst, 1e-5);
}

TEST(Corotational, ElementForceMatchesStressForm) {
  // f_e = -R K_e (Rᵀx - X) equals the stress form used by add_elastic_forces
  const TetMesh m = one_tet();
  const ElasticElements el = make_elastic_elements(m, 2e6, 0.3);
  std::mt19937 rng(3);
  for (int trial = 0; trial < 20; ++trial) {
    const Points x = deform(m, random_rotation(rng, 3.0), 0.3, rng);
    Points f(4, Vec3::Zero());
    add_elastic_forces(el, m, x, f);
    const Vec12 fe = element_force(el, m, x, 0, polar_rotation(deformation_gradient(el, m, x, 0)));
    for (int n = 0; n < 4; ++n) EXPECT_NEAR((fe.segment<3>(3 * n) - f[n]).norm(), 0.0, 1e-9 * el.mu);
  }
}

TEST(Corotational, ExactTangentMatchesForceDifferences) {
  const TetMesh m = one_tet();
  const ElasticElements el = make_elastic_elements(m, 1e6, 0.45);
  std::mt19937 rng(4);
  double worst = 0.0;
  for (int trial = 0; trial < 20; ++trial) {
    const Points x = deform(m, random_rotation(rng, 3.0), 0.2, rng);
    const Mat12 K = exact_element_tangent(el, m, x, 0);
    const double h = 1e-6;
    for (int n = 0; n < 4; ++n)
      for (int k = 0; k < 3; ++k) {
        Points xp = x, xm = x;
        xp[n][k] += h;
        xm[n][k] -= h;
        Points fp(4, Vec3::Zero()), fm(4, Vec3::Zero());
        add_elastic_forces(el, m, xp, fp);
        add_elastic_forces(el, m, xm, fm);
        for (int a = 0; a < 4; ++a) {
          const Vec3 fd = -(fp[a] - fm[a]) / (2 * h);
          worst = std::max(worst, (fd - K.block<3, 1>(3 * a, 3 * n + k)).norm() / K.norm());
        }
      }
  }
  std::printf("exact tangent vs force FD (h = 1e-6): worst rel. error %.3g\n", worst);
  EXPECT_LT(worst, 1e-6);
}

TEST(Corotational, WarpedStiffnessIsExactAtZeroStrainForLargeRotations) {
  const TetMesh m = one_tet();
  const ElasticElements el = make_elastic_elements(m, 1e6, 0.45);
  std::mt19937 rng(5);
  for (double angle : {0.0, 0.5, 1.5, 3.0}) {
    const Mat3 Q = random_rotation(rng, angle);
    Points x = m.nodes;
    for (auto& p : x) p = Q * p;
    const Mat12 exact = exact_element_tangent(el, m, x, 0);
    const Mat12 warped = warped_stiffness(el, 0, polar_rotation(deformation_gradient(el, m, x, 0)));
    EXPECT_LT((exact - warped).norm(), 1e-9 * warped.norm()) << "angle " << angle;
    // and a rigid rotation produces no force
    Points f(4, Vec3::Zero());
    add_elastic_forces(el, m, x, f);
    for (const auto& fi : f) EXPECT_LT(fi.norm(), 1e-9 * el.mu);
  }
}

// warped_stiffness builds R K_e Rᵀ from the rotated shape gradients, not from the stored K_e:
// checked against the whole 12 × 12 product R₁₂ K_e R₁₂ᵀ (R₁₂ = diag(R, R, R, R)) on a
// distorted tet, at any rotation, and exactly symmetric.
TEST(Corotational, WarpedStiffnessIsTheWholeRotatedProductAndSymmetric) {
  TetMesh m;
  m.nodes = {Vec3(0.1, -0.2, 0.0), Vec3(1.3, 0.1, 0.2), Vec3(0.2, 0.8, -0.1), Vec3(0.3, 0.4, 1.7)};
  m.tets = {{0, 1, 2, 3}};
  const ElasticElements el = make_elastic_elements(m, 3e6, 0.42);
  std::mt19937 rng(11);
  for (double angle : {0.0, 0.7, 2.9}) {
    const Mat3 R = random_rotation(rng, angle);
    Mat12 R12 = Mat12::Zero();
    for (int a = 0; a < 4; ++a) R12.block<3, 3>(3 * a, 3 * a) = R;
    const Mat12 whole = R12 * el.stiffness[0] * R12.transpose();
    const Mat12 warped = warped_stiffness(el, 0, R);
    EXPECT_LT((warped - whole).norm(), 1e-13 * whole.norm()) << "angle " << angle;
    EXPECT_EQ(warped, warped.transpose()) << "angle " << angle;
  }
}

TEST(Corotational, ForceIsRotationInvariant) {
  // f(Q x) = Q f(x) and E(Q x) = E(x) on a whole deformed mesh
  const TetMesh m = make_box(Vec3(0.2, 0.1, 0.1), 4, 2, 2);
  const ElasticElements el = make_elastic_elements(m, 1e6, 0.4);
  std::mt19937 rng(6);
  const Points x = deform(m, Mat3::Identity(), 0.2, rng);
  Points f(x.size(), Vec3::Zero());
  const double e = add_elastic_forces(el, m, x, f);
  for (int trial = 0; trial < 5; ++trial) {
    const Mat3 Q = random_rotation(rng, 3.0);
    Points xq = x;
    for (auto& p : xq) p = Q * p;
    Points fq(x.size(), Vec3::Zero());
    const double eq = add_elastic_forces(el, m, xq, fq);
    EXPECT_NEAR(eq, e, 1e-10 * e);
    double fmax = 0.0;
    for (const auto& v : f) fmax = std::max(fmax, v.norm());
    for (size_t n = 0; n < x.size(); ++n) EXPECT_LT((fq[n] - Q * f[n]).norm(), 1e-9 * fmax);
  }
}

TEST(Corotational, PatchTestUniformStrainHasNoInteriorResidual) {
  // an affinely deformed mesh is in equilibrium at every interior node (constant stress)
  const TetMesh m = make_box(Vec3(1.0, 0.8, 0.6), 5, 4, 3);
  const ElasticElements el = make_elastic_elements(m, 1e6, 0.3);
  Mat3 F;
  F << 1.05, 0.02, 0.0, -0.01, 0.97, 0.03, 0.02, 0.0, 1.02;
  const Mat3 Q = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  Points x = m.nodes;
  for (auto& p : x) p = Q * F * p;
  Points f(x.size(), Vec3::Zero());
  add_elastic_forces(el, m, x, f);
  const BoundarySurface b = extract_boundary(m);
  std::vector<char> on_boundary(m.nodes.size(), 0);
  for (int n : b.node_of_vertex) on_boundary[n] = 1;
  double boundary_max = 0.0, interior_max = 0.0;
  int interior = 0;
  for (size_t n = 0; n < x.size(); ++n) {
    if (on_boundary[n]) boundary_max = std::max(boundary_max, f[n].norm());
    else { interior_max = std::max(interior_max, f[n].norm()); ++interior; }
  }
  ASSERT_GT(interior, 0);
  ASSERT_GT(boundary_max, 0.0);  // the strain is really there
  EXPECT_LT(interior_max, 1e-9 * boundary_max);
  // total force of the body is zero too (internal forces)
  Vec3 total = Vec3::Zero();
  for (const auto& v : f) total += v;
  EXPECT_LT(total.norm(), 1e-9 * boundary_max);
}

TEST(Corotational, DegenerateTetIsRejected) {
  for (double z : {0.0, 1e-14, -1e-3}) {
    TetMesh m = one_tet();
    m.nodes[3] = Vec3(0.2, 0.2, z);
    EXPECT_THROW(make_elastic_elements(m, 1e6, 0.3), std::exception) << "z = " << z;
  }
}

// The output stress (ElementStress, for ParaView) against the analytic states of linear
// elasticity, under an arbitrary rigid rotation: uniaxial strain ε_xx = e (σ_xx = (λ + 2μ) e,
// σ_yy = σ_zz = λ e, von Mises 2μ|e|), a uniform dilation (von Mises 0, strain 0) and a small
// simple shear γ (τ = μ γ, von Mises √3 μ γ to O(γ²)).
TEST(Corotational, StressOfAnalyticStatesUnderRotation) {
  const TetMesh m = one_tet();
  const ElasticElements el = make_elastic_elements(m, 4e6, 0.45);
  std::mt19937 rng(7);
  for (int k = 0; k < 20; ++k) {
    const Mat3 Q = random_rotation(rng, kPi);
    const double e = 0.01 * (k + 1) * (k % 2 ? -1.0 : 1.0);
    const ElementStress uni = stress_of_deformation(el, Q * Vec3(1 + e, 1, 1).asDiagonal());
    EXPECT_NEAR(uni.stress(0, 0), (el.lambda + 2 * el.mu) * e, 1e-9 * el.lambda);
    EXPECT_NEAR(uni.stress(1, 1), el.lambda * e, 1e-9 * el.lambda);
    EXPECT_NEAR(uni.stress(2, 2), el.lambda * e, 1e-9 * el.lambda);
    EXPECT_NEAR(uni.von_mises, 2 * el.mu * std::abs(e), 1e-9 * el.mu);
    EXPECT_NEAR(uni.equivalent_strain, 2.0 / 3.0 * std::abs(e), 1e-12);
    const ElementStress dil = stress_of_deformation(el, (1 + e) * Q);
    EXPECT_NEAR(dil.von_mises, 0.0, 1e-9 * el.mu);
    EXPECT_NEAR(dil.equivalent_strain, 0.0, 1e-12);
    EXPECT_NEAR(dil.stress.trace(), 3 * (3 * el.lambda + 2 * el.mu) * e, 1e-9 * el.lambda);
  }
  const double gamma = 1e-4;
  Mat3 shear = Mat3::Identity();
  shear(0, 1) = gamma;
  const ElementStress s = stress_of_deformation(el, random_rotation(rng, kPi) * shear);
  EXPECT_NEAR(s.von_mises, std::sqrt(3.0) * el.mu * gamma, 1e-3 * el.mu * gamma);
}

// The output stress is the one the forces come from: P = R σ equals −H D_mᵀ / V of
// element_elastic (whose H is checked against the energy's finite differences above), and the
// stress of tet e at deformed positions matches the same from F.
TEST(Corotational, OutputStressIsTheForcesStress) {
  const TetMesh m = one_tet();
  const ElasticElements el = make_elastic_elements(m, 2e6, 0.3);
  std::mt19937 rng(11);
  for (int k = 0; k < 20; ++k) {
    const Points x = deform(m, random_rotation(rng, kPi), 0.1, rng);
    const ElementElastic r = element_elastic(el, m, x, 0);
    const ElementStress st = element_stress(el, m, x, 0);
    const Mat3 P = -r.H * el.dm_inv[0].transpose().inverse() / el.volume[0];
    EXPECT_NEAR((r.R * st.stress - P).norm(), 0.0, 1e-9 * P.norm());
  }
}
