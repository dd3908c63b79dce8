// The watchdog: silent failures of a step turned into warnings (docs/reliability.md).  A step
// that is wrong without being non-finite — a body that jumps across another within one step
// (tunnelling), a contact found far inside a body, a body that has left the scene for good —
// gives no error; the watchdog names it, with the step, so that a user is not misled.
#pragma once
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "collision/contact.h"
#include "common/aabb.h"
#include "model/model.h"
#include "model/state.h"

namespace suction {

/// World bounding box of every body slot (model/body_slots.h) in a state: FEM bodies from
/// their nodes, rigid bodies from their surface vertices placed by position and orientation.
std::vector<Aabb> slot_boxes(const Model& model, const State& state);

/// The segment p→q meets the box (slab test; a point segment: p inside the box).
bool segment_meets_box(const Vec3& p, const Vec3& q, const Aabb& box);

class Watchdog {
 public:
  /// Starts a run: remembers the scene's extent (the bodies' boxes in the initial state).
  void reset(const Model& model, const State& initial);

  /// After a step from `before` to `after` with the step's contacts: appends a warning for
  ///  - a body whose centre moved more than half its smallest extent and whose path crossed
  ///    another body's box (tunnelling: contacts only see what is within reach at one time);
  ///  - a contact whose penetration exceeds settings.contact.penetration_warning times the
  ///    smallest extent of the body it enters (the triangle side of a vertex-triangle contact,
  ///    the thinner body otherwise);
  ///  - a body with degrees of freedom that has left the scene's extent (the initial boxes of
  ///    all bodies, grown by their diagonal) and will not come back; only in scenes with a
  ///    fixed or kinematic body (a scene of free bodies alone has no stage to leave).
  /// Each kind is reported once per body (or pair) and run, so a long run does not flood.
  void check(const Model& model, const State& before, const State& after,
             const std::vector<Contact>& contacts, std::vector<std::string>& warnings);

 private:
  Aabb scene_;
  std::set<std::tuple<int, int, int>> reported_;  // (kind, slot, other slot)
  std::vector<Aabb> boxes_before_;
};

}  // namespace suction
