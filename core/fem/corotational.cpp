#include "fem/corotational.h"

#include <Eigen/SVD>
#include <cmath>
#include <string>

#include "common/error.h"

namespace suction {

void lame_parameters(double young, double poisson, double& mu, double& lambda) {
  mu = young / (2.0 * (1.0 + poisson));
  lambda = young * poisson / ((1.0 + poisson) * (1.0 - 2.0 * poisson));
}

// shape-function gradients g_a = ∇N_a of a linear tet: rows of D_m⁻¹, g_0 = -(g_1+g_2+g_3)
static std::array<Vec3, 4> shape_gradients(const Mat3& dm_inv) {
  std::array<Vec3, 4> g;
  for (int a = 1; a < 4; ++a) g[a] = dm_inv.row(a - 1).transpose();
  g[0] = -(g[1] + g[2] + g[3]);
  return g;
}

ElasticElements make_elastic_elements(const TetMesh& rest, double young, double poisson) {
  ElasticElements el;
  lame_parameters(young, poisson, el.mu, el.lambda);
  const size_t n = rest.tets.size();
  el.dm_inv.resize(n);
  el.volume.resize(n);
  el.stiffness.resize(n);
  for (size_t e = 0; e < n; ++e) {
    const Tet& t = rest.tets[e];
    const Vec3& x0 = rest.nodes[t[0]];
    Mat3 dm;
    dm.col(0) = rest.nodes[t[1]] - x0;
    dm.col(1) = rest.nodes[t[2]] - x0;
    dm.col(2) = rest.nodes[t[3]] - x0;
    const double vol = dm.determinant() / 6.0;
    const double scale = dm.colwise().norm().maxCoeff();
    if (!(vol > 1e-12 * scale * scale * scale))
      throw InputError("tet " + std::to_string(e) + " is degenerate or inverted (volume " +
                       std::to_string(vol) + " m³)");
    el.dm_inv[e] = dm.inverse();
    el.volume[e] = vol;
    // linear elastic stiffness, block (a,b) = V (λ g_a g_bᵀ + μ g_b g_aᵀ + μ (g_a·g_b) I)
    const auto g = shape_gradients(el.dm_inv[e]);
    // (plain loops into a local matrix: the same numbers as the 3×3 block expressions, without
    // their temporaries, which made this loop most of a scene load under the sanitizers)
    double gg[4][3];
    for (int a = 0; a < 4; ++a)
      for (int i = 0; i < 3; ++i) gg[a][i] = g[a][i];
    Mat12 K;
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) {
        const double dot = gg[a][0] * gg[b][0] + gg[a][1] * gg[b][1] + gg[a][2] * gg[b][2];
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j)
            K(3 * a + i, 3 * b + j) = vol * (el.lambda * gg[a][i] * gg[b][j] + el.mu * gg[b][i] * gg[a][j] +
                                             (i == j ? el.mu * dot : 0.0));
      }
    el.stiffness[e] = K;
  }
  return el;
}

namespace {

Mat3 polar_rotation_svd(const Mat3& F) {
  // F = U Σ Vᵀ; R = U Vᵀ, with the smallest singular direction flipped when det < 0
  Eigen::JacobiSVD<Mat3> svd(F, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Mat3 U = svd.matrixU();
  const Mat3& V = svd.matrixV();
  if (U.determinant() * V.determinant() < 0.0) U.col(2) *= -1.0;
  return U * V.transpose();
}

// X⁻ᵀ of a 3×3 matrix with determinant det (the cofactor matrix over det)
Mat3 inverse_transpose(const Mat3& X, double det) {
  Mat3 C;
  C.col(0) = X.col(1).cross(X.col(2));
  C.col(1) = X.col(2).cross(X.col(0));
  C.col(2) = X.col(0).cross(X.col(1));
  return C * (1.0 / det);
}

}  // namespace

Mat3 polar_rotation(const Mat3& F) {
  // Higham's scaled Newton iteration X ← (γX + X⁻ᵀ/γ)/2, γ = (‖X⁻¹‖/‖X‖)^½, converges
  // quadratically to the polar factor of a non-singular F (a rotation when det F > 0); about
  // 4-6 iterations for an element's deformation, several times cheaper than a 3×3 SVD.
  // Inverted, flat or badly conditioned elements take the SVD.
  const double norm2 = F.squaredNorm();
  double det = F.determinant();
  if (!(det > 1e-3 * norm2 * std::sqrt(norm2) / (3.0 * std::sqrt(3.0)))) return polar_rotation_svd(F);
  Mat3 X = F;
  for (int it = 0; it < 20; ++it) {
    const Mat3 Y = inverse_transpose(X, det);
    const double gamma = std::sqrt(std::sqrt(Y.squaredNorm() / X.squaredNorm()));
    const Mat3 next = (0.5 * gamma) * X + (0.5 / gamma) * Y;  // (two divisions, not 18)
    const double change = (next - X).squaredNorm();
    X = next;
    if (change < 1e-28) return X;  // ‖ΔX‖ < 1e-14 (‖X‖ = √3): X is orthogonal to roundoff
    det = X.determinant();
  }
  return polar_rotation_svd(F);
}

Mat3 deformation_gradient(const ElasticElements& el, const TetMesh& rest, const Points& x, int e) {
  const Tet& t = rest.tets[e];
  Mat3 ds;
  ds.col(0) = x[t[1]] - x[t[0]];
  ds.col(1) = x[t[2]] - x[t[0]];
  ds.col(2) = x[t[3]] - x[t[0]];
  return ds * el.dm_inv[e];
}

// first Piola-Kirchhoff stress P = 2μ(F − R) + λ tr(RᵀF − I) R, equal to R σ(RᵀF − I):
// the stress form of f_e = -R K_e (Rᵀx - X)
static Mat3 corotational_stress(const ElasticElements& el, const Mat3& F, const Mat3& R) {
  const double tr = (R.transpose() * F).trace() - 3.0;
  return 2.0 * el.mu * (F - R) + el.lambda * tr * R;
}

static double corotational_energy_density(const ElasticElements& el, const Mat3& F, const Mat3& R) {
  const double tr = (R.transpose() * F).trace() - 3.0;
  return el.mu * (F - R).squaredNorm() + 0.5 * el.lambda * tr * tr;
}

double elastic_energy(const ElasticElements& el, const TetMesh& rest, const Points& x) {
  double energy = 0.0;
  for (size_t e = 0; e < rest.tets.size(); ++e) {
    const Mat3 F = deformation_gradient(el, rest, x, static_cast<int>(e));
    energy += el.volume[e] * corotational_energy_density(el, F, polar_rotation(F));
  }
  return energy;
}

ElementElastic element_elastic(const ElasticElements& el, const TetMesh& rest, const Points& x, int e) {
  const Mat3 F = deformation_gradient(el, rest, x, e);
  ElementElastic r;
  r.R = polar_rotation(F);
  const Mat3 P = corotational_stress(el, F, r.R);
  r.energy = el.volume[e] * corotational_energy_density(el, F, r.R);
  // f_a = -V P g_a  (g_a rows of D_m⁻¹, g_0 = -Σ)
  r.H = -el.volume[e] * P * el.dm_inv[e].transpose();
  return r;
}

ElementStress stress_of_deformation(const ElasticElements& el, const Mat3& F) {
  const Mat3 R = polar_rotation(F);
  const Mat3 S = R.transpose() * F;
  ElementStress out;
  out.strain = 0.5 * (S + S.transpose()) - Mat3::Identity();  // S is symmetric up to rounding
  out.stress = 2.0 * el.mu * out.strain + el.lambda * out.strain.trace() * Mat3::Identity();
  const Mat3 s = out.stress - out.stress.trace() / 3.0 * Mat3::Identity();
  const Mat3 d = out.strain - out.strain.trace() / 3.0 * Mat3::Identity();
  out.von_mises = std::sqrt(1.5 * s.cwiseProduct(s).sum());
  out.equivalent_strain = std::sqrt(2.0 / 3.0 * d.cwiseProduct(d).sum());
  return out;
}

ElementStress element_stress(const ElasticElements& el, const TetMesh& rest, const Points& x, int e) {
  return stress_of_deformation(el, deformation_gradient(el, rest, x, e));
}

void scatter_element_force(const TetMesh& rest, int e, const Mat3& H, Points& forces) {
  const Tet& t = rest.tets[e];
  forces[t[1]] += H.col(0);
  forces[t[2]] += H.col(1);
  forces[t[3]] += H.col(2);
  forces[t[0]] -= H.col(0) + H.col(1) + H.col(2);
}

double add_elastic_forces(const ElasticElements& el, const TetMesh& rest, const Points& x,
                          Points& forces) {
  double energy = 0.0;
  for (int e = 0; e < static_cast<int>(rest.tets.size()); ++e) {
    const ElementElastic r = element_elastic(el, rest, x, e);
    energy += r.energy;
    scatter_element_force(rest, e, r.H, forces);
  }
  return energy;
}

Vec12 element_force(const ElasticElements& el, const TetMesh& rest, const Points& x, int e,
                    const Mat3& R) {
  const Tet& t = rest.tets[e];
  Vec12 u;
  for (int a = 0; a < 4; ++a) u.segment<3>(3 * a) = R.transpose() * x[t[a]] - rest.nodes[t[a]];
  const Vec12 ku = el.stiffness[e] * u;
  Vec12 f;
  for (int a = 0; a < 4; ++a) f.segment<3>(3 * a) = -R * ku.segment<3>(3 * a);
  return f;
}

Mat12 warped_stiffness(const ElasticElements& el, int e, const Mat3& R) {
  // Block (a, b) of K_e is V (λ g_a g_bᵀ + μ g_b g_aᵀ + μ (g_a·g_b) I), so with R Rᵀ = I that of
  // R K_e Rᵀ is the same expression in the rotated gradients h = R g: no 12 × 12 matrix to read
  // (the stored K_e of all elements, 2 MB for the cup, came from memory every step) and 10
  // blocks (a ≥ b) of outer products instead of 16 products R K_ab Rᵀ.  The result is exactly
  // symmetric: each block above the diagonal is the one below, transposed.
  const auto g = shape_gradients(el.dm_inv[e]);
  double h[4][3];
  for (int a = 0; a < 4; ++a)
    for (int i = 0; i < 3; ++i) h[a][i] = R(i, 0) * g[a][0] + R(i, 1) * g[a][1] + R(i, 2) * g[a][2];
  const double vol = el.volume[e], lambda = vol * el.lambda, mu = vol * el.mu;
  Mat12 K;
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b <= a; ++b) {
      const double dot = mu * (h[a][0] * h[b][0] + h[a][1] * h[b][1] + h[a][2] * h[b][2]);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          const double v = lambda * h[a][i] * h[b][j] + mu * h[b][i] * h[a][j] + (i == j ? dot : 0.0);
          K(3 * a + i, 3 * b + j) = v;
          K(3 * b + j, 3 * a + i) = v;  // for b = a the lower half wins
        }
    }
  return K;
}

Mat12 exact_element_tangent(const ElasticElements& el, const TetMesh& rest, const Points& x, int e) {
  const Mat3 F = deformation_gradient(el, rest, x, e);
  const Mat3 R = polar_rotation(F);
  const Mat3 S = R.transpose() * F;  // symmetric
  const Mat3 G = (S.trace() * Mat3::Identity() - S).inverse();
  const double tr = S.trace() - 3.0;
  const auto g = shape_gradients(el.dm_inv[e]);
  Mat12 K;
  for (int b = 0; b < 4; ++b)
    for (int k = 0; k < 3; ++k) {
      // dF for a unit displacement of node b along axis k
      const Mat3 dF = Vec3::Unit(k) * g[b].transpose();
      // dR = R [w]×, (tr S I − S) w = axial(RᵀdF − dFᵀR)
      const Mat3 M = R.transpose() * dF - dF.transpose() * R;
      const Vec3 w = G * Vec3(M(2, 1), M(0, 2), M(1, 0));
      const Mat3 dR = R * skew(w);
      // dP = 2μ(dF − dR) + λ [tr(RᵀdF) R + tr(S − I) dR]   (tr(dRᵀF) = 0)
      const Mat3 dP = 2.0 * el.mu * (dF - dR) +
                      el.lambda * ((R.transpose() * dF).trace() * R + tr * dR);
      for (int a = 0; a < 4; ++a) K.block<3, 1>(3 * a, 3 * b + k) = el.volume[e] * dP * g[a];
    }
  return K;
}

}  // namespace suction
