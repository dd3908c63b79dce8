#include "sim/watchdog.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

#include "collision/proximity.h"
#include "model/body_slots.h"
#include "stages/stages.h"
#include "stages/surface_points.h"

namespace suction {

namespace {

enum Kind { kTunnel = 0, kPenetration = 1, kLeftScene = 2, kInside = 3, kFarSide = 4 };

Vec3 slot_centre(const Model& model, const State& state, int slot) {
  const BodyRef b = BodySlots(model).body(slot);
  if (b.type == BodyType::Rigid) return state.rigid[b.index].position;
  Vec3 c = Vec3::Zero();
  const auto& x = state.fem[b.index].x;
  for (const Vec3& p : x) c += p;
  return x.empty() ? c : c / static_cast<double>(x.size());
}

bool valid(const Aabb& box) { return (box.hi.array() >= box.lo.array()).all(); }
double smallest_extent(const Aabb& box) { return valid(box) ? (box.hi - box.lo).minCoeff() : 0.0; }
bool contains(const Aabb& box, const Vec3& p) {
  return (p.array() >= box.lo.array()).all() && (p.array() <= box.hi.array()).all();
}
bool overlaps(const Aabb& a, const Aabb& b) {
  return (a.lo.array() <= b.hi.array()).all() && (b.lo.array() <= a.hi.array()).all();
}

std::string step_prefix(const State& s) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "step %ld (t = %.4g s): ", static_cast<long>(s.step), s.time);
  return buf;
}

std::string mm(double metres) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g mm", metres * 1e3);
  return buf;
}

// Whether the vertical ray from p upwards crosses the triangle (a, b, c): p's projection on
// the xy plane inside the triangle's, and the triangle above p.  An edge (or a corner) that p's
// projection lies on belongs to one of the two triangles that share it, by the half-open rule of
// rasterizers (an edge counts when it runs downwards, or leftwards along a level), so a ray
// through an edge of a closed surface is counted once where the surface crosses it and 0 or 2
// times where it folds: the parity of the crossings is right.
bool ray_up_crosses(const Vec3& p, Vec3 a, Vec3 b, Vec3 c) {
  auto orient = [](const Vec3& u, const Vec3& v, const Vec3& q) {
    return (v.x() - u.x()) * (q.y() - u.y()) - (v.y() - u.y()) * (q.x() - u.x());
  };
  double area = orient(a, b, c);
  if (area == 0.0) return false;  // seen edge-on: its neighbours count
  if (area < 0.0) {
    std::swap(b, c);
    area = -area;
  }
  auto owns = [](const Vec3& u, const Vec3& v) { return v.y() < u.y() || (v.y() == u.y() && v.x() < u.x()); };
  const double e0 = orient(b, c, p), e1 = orient(c, a, p), e2 = orient(a, b, p);
  if (e0 < 0.0 || e1 < 0.0 || e2 < 0.0) return false;
  if ((e0 == 0.0 && !owns(b, c)) || (e1 == 0.0 && !owns(c, a)) || (e2 == 0.0 && !owns(a, b))) return false;
  const double z = (e0 * a.z() + e1 * b.z() + e2 * c.z()) / area;
  return z > p.z();
}

}  // namespace

Interpenetration vertices_inside(const Points& a_x, const TriangleBvh& b_bvh, const Points& b_x, double depth) {
  Interpenetration r;
  const Aabb bounds = b_bvh.bounds();
  const std::vector<Tri>& tris = b_bvh.triangles();
  for (const Vec3& p : a_x) {
    if (!contains(bounds, p)) continue;
    // inside: an odd number of crossings of the ray straight up
    Aabb ray;
    ray.extend(p);
    ray.extend(Vec3(p.x(), p.y(), bounds.hi.z() + 1.0));
    int crossings = 0;
    b_bvh.query(ray, [&](int t) { crossings += ray_up_crosses(p, b_x[tris[t][0]], b_x[tris[t][1]], b_x[tris[t][2]]); });
    if (crossings % 2 == 0) continue;
    // how deep: the distance to the surface, in a box grown until it holds the nearest triangle
    double best = std::numeric_limits<double>::infinity();
    for (double h = std::max(depth, 1e-4);; h *= 2.0) {
      b_bvh.query(Aabb::around(p, h), [&](int t) {
        best = std::min(best, (closest_point_on_triangle(p, b_x[tris[t][0]], b_x[tris[t][1]], b_x[tris[t][2]]).point - p).norm());
      });
      if (best <= h || h > 1e3) break;
    }
    if (best > depth) {
      ++r.vertices;
      r.deepest = std::max(r.deepest, best);
    }
  }
  return r;
}

std::vector<Aabb> slot_boxes(const Model& model, const State& state) {
  const BodySlots slots(model);
  std::vector<Aabb> boxes(slots.count());
  for (int s = 0; s < slots.count(); ++s) {
    const BodyRef b = slots.body(s);
    if (b.type == BodyType::Fem) {
      for (const Vec3& p : state.fem[b.index].x) boxes[s].extend(p);
    } else {
      const RigidBodyState& r = state.rigid[b.index];
      const Mat3 R = r.orientation.toRotationMatrix();
      for (const Vec3& v : model.rigid[b.index].surface.vertices) boxes[s].extend(r.position + R * v);
    }
  }
  return boxes;
}

bool segment_meets_box(const Vec3& p, const Vec3& q, const Aabb& box) {
  if (!valid(box)) return false;
  double t0 = 0.0, t1 = 1.0;
  const Vec3 d = q - p;
  for (int i = 0; i < 3; ++i) {
    if (std::abs(d[i]) < 1e-300) {
      if (p[i] < box.lo[i] || p[i] > box.hi[i]) return false;
      continue;
    }
    double a = (box.lo[i] - p[i]) / d[i], b = (box.hi[i] - p[i]) / d[i];
    if (a > b) std::swap(a, b);
    t0 = std::max(t0, a);
    t1 = std::min(t1, b);
    if (t0 > t1) return false;
  }
  return true;
}

void Watchdog::reset(const Model& model, const State& initial) {
  reported_.clear();
  scene_ = Aabb{};
  surface_points_state(model, initial, surface_);
  bvh_.assign(surface_.size(), TriangleBvh());
  for (size_t s = 0; s < surface_.size(); ++s) bvh_[s].build(slot_surface(model, static_cast<int>(s)).triangles, surface_[s]);
  // a scene without a fixed or kinematic body (a free fall) has no stage to leave
  const BodySlots slots(model);
  bool staged = false;
  for (int s = 0; s < slots.count(); ++s) staged = staged || !slot_has_dofs(model, s);
  if (!staged) return;
  for (const Aabb& b : slot_boxes(model, initial))
    if (valid(b)) scene_.extend(b);
  if (valid(scene_)) {
    const double grow = std::max((scene_.hi - scene_.lo).norm(), 0.1);
    scene_.lo.array() -= grow;
    scene_.hi.array() += grow;
  }
}

void Watchdog::check(const Model& model, const State& before, const State& after,
                     const std::vector<Contact>& contacts, std::vector<std::string>& warnings) {
  const BodySlots slots(model);
  const std::vector<Aabb> boxes_before = slot_boxes(model, before);
  const std::vector<Aabb> boxes_after = slot_boxes(model, after);
  auto first_time = [&](int kind, int a, int b) { return reported_.insert({kind, a, b}).second; };

  for (int a = 0; a < slots.count(); ++a) {
    if (!slot_has_dofs(model, a) || !valid(boxes_before[a])) continue;
    // tunnelling: the centre jumped more than half the body's size, across another body
    const Vec3 c0 = slot_centre(model, before, a), c1 = slot_centre(model, after, a);
    const double moved = (c1 - c0).norm(), size = smallest_extent(boxes_before[a]);
    if (moved > 0.5 * size) {
      for (int b = 0; b < slots.count(); ++b) {
        if (b == a || contains(boxes_before[b], c0) || !segment_meets_box(c0, c1, boxes_before[b])) continue;
        if (!first_time(kTunnel, a, b)) continue;
        warnings.push_back(step_prefix(after) + "'" + slot_name(model, a) + "' moved " + mm(moved) +
                           " in one step, more than half its size (" + mm(size) + "), across '" +
                           slot_name(model, b) +
                           "': contacts only see what is within reach at one time, so it may have "
                           "passed through (tunnelling); use a smaller time step");
      }
    }
    // left the scene: outside everything the scene started with, grown by its size
    if (valid(scene_) && !overlaps(boxes_after[a], scene_) && first_time(kLeftScene, a, -1))
      warnings.push_back(step_prefix(after) + "'" + slot_name(model, a) +
                         "' has left the scene (its box no longer meets the initial extent of the "
                         "bodies, grown by its diagonal): nothing will stop it now");
  }

  // a contact found deep inside a body: the smallest extent of the body entered (the triangle
  // side of a vertex-triangle contact; the thinner of the two otherwise) sets the scale
  const double fraction = model.settings.contact.penetration_warning;
  if (fraction > 0) {
    for (const Contact& c : contacts) {
      const int a = c.a.body, b = c.b.body;
      if (a < 0 || b < 0 || a >= slots.count() || b >= slots.count()) continue;
      const double ea = smallest_extent(boxes_before[a]), eb = smallest_extent(boxes_before[b]);
      const double size = c.a.count == 1 && c.b.count > 1   ? eb
                          : c.b.count == 1 && c.a.count > 1 ? ea
                                                            : std::min(ea, eb);
      if (!(c.gap < -fraction * size) || !first_time(kPenetration, std::min(a, b), std::max(a, b))) continue;
      char share[32];
      std::snprintf(share, sizeof share, "%.0f %%", 100.0 * -c.gap / size);
      warnings.push_back(step_prefix(after) + "a contact of '" + slot_name(model, a) + "' and '" +
                         slot_name(model, b) + "' penetrates " + mm(-c.gap) + " at the free-motion shape, " +
                         share + " of the size of the body it enters (" + mm(size) +
                         "; warning above settings.contact.penetration_warning): the step is too long "
                         "for this speed and may let it through; use a smaller time step");
    }
  }

  // the far side of a thin wall: a vertex whose contact with a body turned by more than 120°
  // since the last step was pressed past the wall's middle and is pushed out through its far
  // face (the check below cannot see it in a wall thinner than twice the alarm distance: no
  // point of it is deeper than that)
  if (!before.contacts.empty()) {
    const std::vector<VertexSide> sides = vertex_sides(before);
    std::map<std::pair<int, int>, int> flipped;  // (vertex's body, other) -> vertices
    for (const ContactForce& c : after.contacts) {
      if (c.vertex_a < 0) continue;
      const auto it = std::lower_bound(sides.begin(), sides.end(), VertexSide{c.body_a, c.vertex_a, c.body_b, Vec3::Zero()});
      if (it == sides.end() || it->body != c.body_a || it->vertex != c.vertex_a || it->other != c.body_b) continue;
      if (c.normal.dot(it->normal) < kFarSideCos) ++flipped[{c.body_a, c.body_b}];
    }
    for (const auto& [pair, n] : flipped) {
      const auto [a, b] = pair;
      if (!first_time(kFarSide, a, b)) continue;
      const bool one = n == 1;
      warnings.push_back(step_prefix(after) + std::to_string(n) + (one ? " surface vertex of '" : " surface vertices of '") +
                         slot_name(model, a) + "' went to the far side of '" + slot_name(model, b) +
                         "' (a contact normal turned by more than 120 degrees in one step): pressed past the middle of a "
                         "thin wall, " + (one ? "it is" : "they are") + " pushed out through its far face and the surfaces "
                         "tangle; settings.contact.keep_side holds a vertex by the face it came through");
    }
  }

  // interpenetration at the end of the step: a vertex inside another body, deeper than contacts
  // see (the alarm distance)
  const double reach = model.settings.contact.collision.alarm_distance;
  if (reach > 0.0 && !bvh_.empty()) {
    surface_points_state(model, after, surface_);
    for (int s = 0; s < slots.count(); ++s) bvh_[s].refit(surface_[s]);
    for (int a = 0; a < slots.count(); ++a)
      for (int b = 0; b < slots.count(); ++b) {
        if (a == b || !slot_pair_collides(model, a, b) || !overlaps(boxes_after[a], boxes_after[b])) continue;
        if (reported_.count({kInside, a, b})) continue;
        const Interpenetration in = vertices_inside(surface_[a], bvh_[b], surface_[b], reach);
        if (in.vertices == 0 || !first_time(kInside, a, b)) continue;
        const bool one = in.vertices == 1;
        warnings.push_back(step_prefix(after) + std::to_string(in.vertices) + (one ? " surface vertex of '" : " surface vertices of '") +
                           slot_name(model, a) + (one ? "' is inside '" : "' are inside '") + slot_name(model, b) + "', " + (one ? "" : "up to ") +
                           mm(in.deepest) + " deep, deeper than contacts see (the alarm distance, " + mm(reach) +
                           "): the surfaces have passed through each other (a thin wall pressed past its middle, or "
                           "a step too long for the speed); the contacts and cavities there are not to be trusted");
      }
  }
}

}  // namespace suction
