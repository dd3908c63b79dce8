// Closest points between surface features (docs/method.md §5): point–triangle
// and segment–segment, robust for degenerate (zero-area, zero-length) and parallel inputs.
#pragma once
#include "common/types.h"

namespace suction {

/// Closest point of triangle (a, b, c) to p.  weight: barycentric weights of point on
/// (a, b, c), sum 1, >= 0.  In the face region all three are > 0; on an edge one is exactly 0,
/// at a vertex two are (the Voronoi region of the answer can be read from the zeros).
struct TriangleClosestPoint {
  Vec3 point = Vec3::Zero();
  std::array<double, 3> weight{{1, 0, 0}};
};

/// p, a, b, c: points [m].  Zero-area (collinear or coincident) triangles fall back to the
/// closest of their three edges.
TriangleClosestPoint closest_point_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b,
                                               const Vec3& c);

/// Closest points of segments p(s) = p0 + s (p1 − p0) and q(t) = q0 + t (q1 − q0),
/// s, t in [0, 1].  Parallel segments: the middle of the overlap of their projections (so an
/// overlapping pair gets interior parameters); zero-length segments act as points.
struct SegmentClosestPoints {
  Vec3 p = Vec3::Zero(), q = Vec3::Zero();  // closest points [m]
  double s = 0.0, t = 0.0;                  // their parameters on each segment
  double distance_sq = 0.0;                 // |p − q|² [m²]
};

SegmentClosestPoints closest_points_on_segments(const Vec3& p0, const Vec3& p1, const Vec3& q0,
                                                const Vec3& q1);

}  // namespace suction
