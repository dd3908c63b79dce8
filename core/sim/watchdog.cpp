#include "sim/watchdog.h"

#include <cmath>
#include <cstdio>

#include "model/body_slots.h"

namespace suction {

namespace {

enum Kind { kTunnel = 0, kPenetration = 1, kLeftScene = 2 };

std::string slot_name(const Model& model, int slot) {
  const BodyRef b = BodySlots(model).body(slot);
  return b.type == BodyType::Fem ? model.fem[b.index].name : model.rigid[b.index].name;
}

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

}  // namespace

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
}

}  // namespace suction
