// A rigid motion of a point set, for tests that place one surface against another.
#pragma once
#include "common/types.h"

namespace suction::test {

/// r·p + t for every point p of x
inline Points transformed(const Points& x, const Mat3& r, const Vec3& t) {
  Points y;
  y.reserve(x.size());
  for (const Vec3& p : x) y.push_back(r * p + t);
  return y;
}

}  // namespace suction::test
