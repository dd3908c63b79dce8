// Co-rotational linear elasticity on linear tetrahedra (Müller et al. 2002, Müller & Gross 2004;
// docs/method.md §2).  Per element: F = D_s D_m⁻¹, R = polar rotation of F,
// f_e = -R K_e (Rᵀ x_e - X_e), element stiffness R K_e Rᵀ.
// The force is the exact gradient of the co-rotational energy
//   Ψ(F) = μ‖F − R‖² + λ/2 tr²(RᵀF − I)   (per unit rest volume),
// so energy, force and its exact tangent can be checked against each other by finite differences.
#pragma once
#include "common/types.h"
#include "mesh/tet_mesh.h"

namespace suction {

/// Rest data of every tetrahedron of a body.
struct ElasticElements {
  std::vector<Mat3> dm_inv;       // #tets: D_m⁻¹, D_m = [X1-X0, X2-X0, X3-X0]
  std::vector<double> volume;     // #tets: rest volume [m³]
  std::vector<Mat12> stiffness;   // #tets: rest linear stiffness K_e (12×12, SPD on deformations) [N/m]
  double mu = 0, lambda = 0;      // Lamé parameters [Pa]
};

/// Lamé parameters from Young's modulus [Pa] and Poisson ratio.
void lame_parameters(double young, double poisson, double& mu, double& lambda);

/// Precomputes D_m⁻¹, volumes and K_e; throws InputError on a degenerate or inverted tet.
ElasticElements make_elastic_elements(const TetMesh& rest, double young, double poisson);

/// Rotation of the polar decomposition F = R S (S symmetric positive semi-definite), det R = +1.
/// Robust for inverted or flat elements (then the closest rotation is returned).
Mat3 polar_rotation(const Mat3& F);

/// Deformation gradient of tet e at positions x.
Mat3 deformation_gradient(const ElasticElements& el, const TetMesh& rest, const Points& x, int e);

/// Elastic energy of the whole body [J].
double elastic_energy(const ElasticElements& el, const TetMesh& rest, const Points& x);

/// Adds the elastic forces f = -∂E/∂x to forces (#nodes×3) [N]; returns the energy [J].
/// The serial reference: fem_free_motion computes the same sum, its element pass in parallel.
double add_elastic_forces(const ElasticElements& el, const TetMesh& rest, const Points& x,
                          Points& forces);

/// One tetrahedron's share of add_elastic_forces: its rotation R, its energy V Ψ [J] and
/// H = -V P D_m⁻ᵀ, whose columns are the forces on nodes 1..3 (node 0 gets minus their sum).
/// Independent per element: a parallel pass computes these, a serial one sums them in order.
struct ElementElastic {
  Mat3 R, H;
  double energy = 0.0;
};
ElementElastic element_elastic(const ElasticElements& el, const TetMesh& rest, const Points& x, int e);
/// forces[nodes of tet e] += the element's nodal forces (from ElementElastic::H).
void scatter_element_force(const TetMesh& rest, int e, const Mat3& H, Points& forces);

/// A tetrahedron's stress and strain for output (ParaView frames, io/vtk.h), in the element's
/// co-rotated frame: ε = S − I with S = RᵀF the stretch of the polar decomposition, and
/// σ = 2μ ε + λ tr(ε) I, so that the first Piola–Kirchhoff stress of the energy is P = R σ
/// (the world Cauchy-like stress is R σ Rᵀ; the scalars below do not depend on R).
struct ElementStress {
  Mat3 strain = Mat3::Zero();  // ε, co-rotated [-]
  Mat3 stress = Mat3::Zero();  // σ, co-rotated [Pa]
  double von_mises = 0.0;      // √(3/2 s:s), s = dev σ [Pa]
  double equivalent_strain = 0.0;  // √(2/3 e:e), e = dev ε [-]
};
ElementStress element_stress(const ElasticElements& el, const TetMesh& rest, const Points& x, int e);
/// The same from a deformation gradient (the material of el, no element needed).
ElementStress stress_of_deformation(const ElasticElements& el, const Mat3& F);

/// Element force f_e = -R K_e (Rᵀ x_e - X_e) of tet e, given its rotation.
Vec12 element_force(const ElasticElements& el, const TetMesh& rest, const Points& x, int e,
                    const Mat3& R);

/// Warped element stiffness R K_e Rᵀ (12×12, positive semi-definite); the implicit step uses
/// K = -Σ R K_e Rᵀ (the co-rotational approximation that ignores ∂R/∂x; exact at zero strain).
Mat12 warped_stiffness(const ElasticElements& el, int e, const Mat3& R);

/// Exact tangent -∂f_e/∂x_e of the element force, including the derivative of R
/// (for verification and Newton solves; may be indefinite under strong compression).
Mat12 exact_element_tangent(const ElasticElements& el, const TetMesh& rest, const Points& x, int e);

}  // namespace suction
