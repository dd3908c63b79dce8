#include "collision/proximity.h"

#include <algorithm>

namespace suction {
namespace {

double clamp01(double x) { return std::min(1.0, std::max(0.0, x)); }

}  // namespace

SegmentClosestPoints closest_points_on_segments(const Vec3& p0, const Vec3& p1, const Vec3& q0,
                                                const Vec3& q1) {
  // minimize |p0 + s d1 − q0 − t d2|² over [0,1]² (Ericson, Real-Time Collision Detection 5.1.9)
  const Vec3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  const double scale_sq = std::max({a, e, r.squaredNorm()});
  const double tiny = 1e-30 + 1e-28 * scale_sq;  // squared lengths below this are points
  double s = 0.0, t = 0.0;
  if (a <= tiny && e <= tiny) {
    // both points
  } else if (a <= tiny) {
    t = clamp01(f / e);
  } else {
    const double c = d1.dot(r);
    if (e <= tiny) {
      s = clamp01(-c / a);
    } else {
      const double b = d1.dot(d2);
      const double denom = a * e - b * b;  // = |d1 × d2|² >= 0
      if (denom > 1e-12 * a * e) {
        // unconstrained minimum in s, clamped; then the best t for it, clamped, and s again
        s = clamp01((b * f - c * e) / denom);
        t = (b * s + f) / e;
        if (t < 0.0) {
          t = 0.0;
          s = clamp01(-c / a);
        } else if (t > 1.0) {
          t = 1.0;
          s = clamp01((b - c) / a);
        }
      } else {
        // parallel: middle of the overlap of q's projection on p, then the best t
        const double s0 = clamp01(-c / a), s1 = clamp01((b - c) / a);
        s = 0.5 * (s0 + s1);
        t = clamp01((b * s + f) / e);
      }
    }
  }
  SegmentClosestPoints out;
  out.s = s;
  out.t = t;
  out.p = p0 + s * d1;
  out.q = q0 + t * d2;
  out.distance_sq = (out.p - out.q).squaredNorm();
  return out;
}

TriangleClosestPoint closest_point_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b,
                                               const Vec3& c) {
  TriangleClosestPoint out;
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double area_sq = ab.cross(ac).squaredNorm();
  if (!(area_sq > 1e-24 * ab.squaredNorm() * ac.squaredNorm()) || !(area_sq > 0.0)) {
    // zero area: the closest of the three edges
    const Vec3* v[3] = {&a, &b, &c};
    double best = -1.0;
    for (int k = 0; k < 3; ++k) {
      const int k1 = (k + 1) % 3;
      const SegmentClosestPoints e = closest_points_on_segments(p, p, *v[k], *v[k1]);
      if (best < 0.0 || e.distance_sq < best) {
        best = e.distance_sq;
        out.point = e.q;
        out.weight = {{0, 0, 0}};
        out.weight[k] = 1.0 - e.t;
        out.weight[k1] += e.t;
      }
    }
    return out;
  }
  // Voronoi regions in turn (Ericson 5.1.5)
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0.0 && d2 <= 0.0) {  // vertex a
    out.point = a;
    out.weight = {{1, 0, 0}};
    return out;
  }
  const Vec3 bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0.0 && d4 <= d3) {  // vertex b
    out.point = b;
    out.weight = {{0, 1, 0}};
    return out;
  }
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {  // edge ab
    const double v = d1 / (d1 - d3);
    out.point = a + v * ab;
    out.weight = {{1.0 - v, v, 0}};
    return out;
  }
  const Vec3 cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0.0 && d5 <= d6) {  // vertex c
    out.point = c;
    out.weight = {{0, 0, 1}};
    return out;
  }
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {  // edge ac
    const double w = d2 / (d2 - d6);
    out.point = a + w * ac;
    out.weight = {{1.0 - w, 0, w}};
    return out;
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {  // edge bc
    const double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    out.point = b + w * (c - b);
    out.weight = {{0, 1.0 - w, w}};
    return out;
  }
  // face: barycentric (va, vb, vc) / (va + vb + vc), all > 0
  const double denom = 1.0 / (va + vb + vc);
  const double v = vb * denom, w = vc * denom;
  out.point = a + ab * v + ac * w;
  out.weight = {{va * denom, v, w}};
  return out;
}

}  // namespace suction
