// The per-row operators that the gradient-type methods (apgd, uzawa; solver/apgd.cpp) apply
// after each step, in plain doubles so that the GPU methods (backends/cuda) compile the very
// same code with nvcc.  docs/method.md §8.7.
#pragma once
#include <cmath>

#if defined(__CUDACC__)
#define SUCTION_HD __host__ __device__ inline
#else
#define SUCTION_HD inline
#endif

namespace suction::projection {

/// The Euclidean projection of (n, t1, t2) on the Coulomb cone ‖t‖ ≤ μ n, in place.
SUCTION_HD void friction_cone(double mu, double& n, double& t1, double& t2) {
  const double tn = std::sqrt(t1 * t1 + t2 * t2);
  if (n >= 0.0 && tn <= mu * n) return;  // inside
  if (mu * tn <= -n) {  // in the polar cone: the apex
    n = t1 = t2 = 0.0;
    return;
  }
  const double np = (n + mu * tn) / (1.0 + mu * mu);
  const double scale = tn > 0.0 ? mu * np / tn : 0.0;
  n = np;
  t1 *= scale;
  t2 *= scale;
}

/// De Saxcé's modified normal velocity: v_n + μ ‖v_t‖.  With it, the projection of
/// λ − ρ v̂ on the cone has the Coulomb law (Signorini in the normal, maximal dissipation when
/// sliding) as its fixed points, where the plain cone gives the associated law (lift-off).
SUCTION_HD double de_saxce_normal(double mu, double vn, double vt1, double vt2) {
  return vn + mu * std::sqrt(vt1 * vt1 + vt2 * vt2);
}

/// The proximal step of the gas law for one cavity row: the pressure P > 0 that minimizes
/// (P − z)² / (2τ) − (N/h) ln P, i.e. the root of P² − z P − τ N / h = 0, capped at p_max; a
/// cavity without air (N ≤ 0) is vacuum, P = 0.  Its fixed point, z = P − τ (V_free/h + (Wλ)_p)
/// with the end-of-step volume V = V_free + h (Wλ)_p, is P V = N (Boyle's law with the walls'
/// compliance).  z and the result are absolute pressures [Pa]; τ the row's step [Pa² s / J].
SUCTION_HD double gas_prox(double z, double tau, double air, double h, double p_max) {
  if (air <= 0.0) return 0.0;
  const double c = tau * air / h;
  // the positive root, without cancellation for z < 0
  const double disc = std::sqrt(z * z + 4.0 * c);
  double p = z >= 0.0 ? 0.5 * (z + disc) : 2.0 * c / (disc - z);
  return p > p_max ? p_max : p;
}

/// The gas law's pressure of one cavity row given every other force (docs/method.md §6):
/// P (V_eff + a (P − P_atm)) = N with a = h·W_pp, the root ≥ 0 of a P² + b P + c = 0,
/// b = V_eff − a P_atm, c = −N; N ≤ 0 is vacuum (0); without compliance (a ≤ 0) P = N / V_eff
/// (p_max where V_eff ≤ 0).  Not capped: the caller caps at p_max and books the outflow.
SUCTION_HD double gas_law_pressure(double a, double volume_eff, double air, double p_atm, double p_max) {
  if (air <= 0.0) return 0.0;  // vacuum
  const double b = volume_eff - a * p_atm;
  const double c = -air;
  if (a <= 0.0) return volume_eff > 0.0 ? air / volume_eff : p_max;
  // the root ≥ 0 (discriminant ≥ b² since a > 0, c ≤ 0), written without cancellation for b > 0
  const double disc = std::sqrt(b * b - 4.0 * a * c);
  return b > 0.0 ? (-2.0 * c) / (b + disc) : (-b + disc) / (2.0 * a);
}

/// The gas law of a non-isothermal cavity row (docs/method.md §6.8): the pressure P with
/// P·V^n = law for V = V_eff + a (P − P_atm), a = h·W_pp; N ≤ 0 is vacuum (0); without
/// compliance (a ≤ 0) P = law / V_eff^n (p_max where V_eff ≤ 0).  The root of
/// g(P) = ln P + n ln V(P) − ln law, increasing wherever P > 0 and V > 0, by Newton's steps
/// kept inside a bisection bracket (deterministic: a fixed sequence of operations).  Not
/// capped: the caller caps at p_max and books the outflow.
SUCTION_HD double gas_law_pressure_n(double a, double volume_eff, double air, double law, double n, double p_atm,
                                     double p_max) {
  if (air <= 0.0 || law <= 0.0) return 0.0;  // vacuum
  if (a <= 0.0) return volume_eff > 0.0 ? law / std::pow(volume_eff, n) : p_max;
  const double log_law = std::log(law);
  auto volume = [&](double p) { return volume_eff + a * (p - p_atm); };
  auto g = [&](double p) { return std::log(p) + n * std::log(volume(p)) - log_law; };
  double lo = p_atm - volume_eff / a;  // V(lo) = 0
  if (lo < 0.0) lo = 0.0;
  double hi = (lo > 0.0 ? 2.0 * lo : 0.0) + p_atm;
  for (int i = 0; i < 2100 && g(hi) < 0.0; ++i) hi = 2.0 * hi;  // g grows without bound
  double p = 0.5 * (lo + hi);
  for (int i = 0; i < 200; ++i) {
    const double v = volume(p);
    const double gp = std::log(p) + n * std::log(v) - log_law;
    if (gp > 0.0) hi = p;
    else lo = p;
    double next = p - gp / (1.0 / p + n * a / v);
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (std::abs(next - p) <= 1e-15 * p || hi - lo <= 1e-15 * hi) return next;
    p = next;
  }
  return p;
}

/// The proximal step of a non-isothermal row (§6.8, for the gradient methods of §8.7): the
/// P > 0 that minimizes (P − z)² / (2τ) − φ(P) with φ'(P) = V(P)/h, V(P) = (law/P)^(1/n) the
/// law's volume at P; the root of P − z − (τ/h) law^(1/n) P^(−1/n) = 0, capped at p_max.  With
/// n = 1 it is gas_prox.  Its fixed point is V_free + h (Wλ)_p = V(P): the law at the end of the step.
SUCTION_HD double gas_prox_n(double z, double tau, double air, double law, double n, double h, double p_max) {
  if (air <= 0.0 || law <= 0.0) return 0.0;
  const double c = tau / h * std::pow(law, 1.0 / n);
  // f(P) = P − z − c P^(−1/n) increases from −∞; f(max(z, 0) + c^(n/(n+1))) ≥ 0
  double lo = 0.0, hi = (z > 0.0 ? z : 0.0) + std::pow(c, n / (n + 1.0));
  double p = 0.5 * (lo + hi);
  for (int i = 0; i < 200; ++i) {
    const double q = c * std::pow(p, -1.0 / n);
    const double f = p - z - q;
    if (f > 0.0) hi = p;
    else lo = p;
    double next = p - f / (1.0 + q / (n * p));
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (std::abs(next - p) <= 1e-15 * p || hi - lo <= 1e-15 * hi) {
      p = next;
      break;
    }
    p = next;
  }
  return p > p_max ? p_max : p;
}

}  // namespace suction::projection
