// Axis-aligned bounding box, shared by the mesh utilities, collision and cavities.
#pragma once
#include <limits>

#include "common/types.h"

namespace suction {

/// Axis-aligned box; empty when lo > hi.
struct Aabb {
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity());
  Vec3 hi = Vec3::Constant(-std::numeric_limits<double>::infinity());

  static Aabb around(const Vec3& p, double radius) {
    Aabb box;
    box.lo = p.array() - radius;
    box.hi = p.array() + radius;
    return box;
  }
  void extend(const Vec3& p) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  void extend(const Aabb& b) {
    lo = lo.cwiseMin(b.lo);
    hi = hi.cwiseMax(b.hi);
  }
  /// true when the boxes, each grown by margin/2 (so: gap <= margin), intersect
  bool overlaps(const Aabb& b, double margin = 0.0) const {
    return lo.x() <= b.hi.x() + margin && b.lo.x() <= hi.x() + margin &&
           lo.y() <= b.hi.y() + margin && b.lo.y() <= hi.y() + margin &&
           lo.z() <= b.hi.z() + margin && b.lo.z() <= hi.z() + margin;
  }
};

}  // namespace suction
