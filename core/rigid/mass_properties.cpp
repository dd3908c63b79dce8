#include "rigid/mass_properties.h"

namespace suction {

MassProperties compute_mass_properties(const SurfaceMesh& surface, double density) {
  // accumulate volume, first moments and second moments ∫ x xᵀ dV over signed tets (0,a,b,c)
  double vol = 0.0;
  Vec3 first = Vec3::Zero();
  Mat3 second = Mat3::Zero();
  for (const Tri& t : surface.triangles) {
    const Vec3& a = surface.vertices[t[0]];
    const Vec3& b = surface.vertices[t[1]];
    const Vec3& c = surface.vertices[t[2]];
    const double v = a.dot(b.cross(c)) / 6.0;
    vol += v;
    first += v * (a + b + c) / 4.0;
    // ∫_tet x xᵀ = V/20 (Σ_i p_i p_iᵀ + (Σ p_i)(Σ p_i)ᵀ) with p_0 = 0
    const Vec3 s = a + b + c;
    second += v / 20.0 * (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
  }
  MassProperties mp;
  mp.volume = vol;
  mp.mass = density * vol;
  if (vol <= 0.0) return mp;
  mp.center = first / vol;
  // second moment about the centre, then inertia I = tr(C) I − C
  const Mat3 C = density * (second - vol * mp.center * mp.center.transpose());
  mp.inertia = C.trace() * Mat3::Identity() - C;
  return mp;
}

}  // namespace suction
