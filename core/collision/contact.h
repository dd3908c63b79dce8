// Contacts between body surfaces (docs/method.md §5): proximity of
// surface features within an alarm distance at the free-motion positions.
#pragma once
#include <algorithm>
#include <cstdint>

#include "common/types.h"

namespace suction {

/// One side of a contact: a point of a body's surface as a weighted sum of 1 (vertex),
/// 2 (edge) or 3 (triangle) surface vertices.
struct ContactSide {
  int body = -1;                          // slot in the detector's body list
  int count = 1;                          // number of vertices used
  std::array<int, 3> vertex{{-1, -1, -1}};  // surface vertex indices of that body
  std::array<double, 3> weight{{0, 0, 0}};  // barycentric weights, sum 1
};

struct Contact {
  ContactSide a, b;
  Vec3 normal = Vec3::UnitZ();  // unit, from b towards a: moving a along +normal separates
  Vec3 point_a = Vec3::Zero();  // world points at the detection positions [m]
  Vec3 point_b = Vec3::Zero();
  double gap = 0.0;             // (point_a − point_b)·normal − contact_distance [m]; < 0 too close
  std::uint64_t key = 0;        // identity of the feature pair, stable across steps (warm start)
};

struct CollisionSettings {
  double alarm_distance = 1e-3;    // features closer than this (plus contact distance) make contacts [m]
  double contact_distance = 0.0;   // target separation of touching surfaces [m]
  bool keep_side = false;          // a vertex keeps the side of its last contact (VertexSide)
};

/// A contact normal turned more than 120° (cos < −½) from the one a vertex came with is the far
/// side of what it came through: a thin wall's two faces are ~180° apart, a box's neighbouring
/// faces 90° (a little more where the contact normal is tilted), which is not.
constexpr double kFarSideCos = -0.5;

/// The side a surface vertex was on: the normal of its last vertex–triangle contact with a body
/// (method §5.2).  With it, the detector does not take a triangle whose contact normal turns
/// more than 120° away from it for that vertex: a vertex pressed past the middle of a thin
/// wall is held by the face it came through, not pushed out through the far one.
struct VertexSide {
  int body = -1, vertex = -1, other = -1;  // the vertex's body slot, its index, the body it touched
  Vec3 normal = Vec3::UnitZ();             // that contact's normal (from `other` towards `body`)
};
inline bool operator<(const VertexSide& x, const VertexSide& y) {
  if (x.body != y.body) return x.body < y.body;
  if (x.vertex != y.vertex) return x.vertex < y.vertex;
  return x.other < y.other;
}

/// vertex–triangle contacts deeper than this many alarm distances are taken as lost
constexpr double kMaxPenetrationAlarms = 3.0;

/// How far from a vertex the detector looks for a triangle: the band (alarm + contact
/// distance) or the deepest penetration it accepts, whichever is larger [m].
inline double detection_reach(const CollisionSettings& s) {
  return std::max(s.contact_distance + s.alarm_distance, kMaxPenetrationAlarms * s.alarm_distance);
}

}  // namespace suction
