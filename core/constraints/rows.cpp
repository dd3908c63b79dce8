#include "constraints/rows.h"

#include <cmath>

namespace suction {

void tangent_basis(const Vec3& n, Vec3& t1, Vec3& t2) {
  // pick the axis least aligned with n (Frisvad-like choice, deterministic)
  const Vec3 a = std::abs(n.x()) < 0.57735 ? Vec3::UnitX() : (std::abs(n.y()) < 0.57735 ? Vec3::UnitY() : Vec3::UnitZ());
  t1 = (a - a.dot(n) * n).normalized();
  t2 = n.cross(t1);
}

}  // namespace suction
