// The watchdog: silent failures of a step turned into warnings (docs/reliability.md).  A step
// that is wrong without being non-finite — a body that jumps across another within one step
// (tunnelling), a contact found far inside a body, a body that has left the scene for good —
// gives no error; the watchdog names it, with the step, so that a user is not misled.
#pragma once
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "collision/bvh.h"
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
  ///    fixed or kinematic body (a scene of free bodies alone has no stage to leave);
  ///  - a surface vertex whose contact with a body turned by more than 120° since the last
  ///    step (after.contacts against before.contacts): pressed past the middle of a thin wall,
  ///    it is pushed out through the far face (method §5.2);
  ///  - interpenetration at the end of the step: a surface vertex of one body inside another
  ///    (a vertical ray's crossings of its closed surface, odd) deeper than the detector's
  ///    alarm distance, which contacts do not see (a thin wall pressed past its middle, the
  ///    surfaces tangled), for every pair that contacts are made for (slot_pair_collides).
  /// Each kind is reported once per body (or pair) and run, so a long run does not flood.
  void check(const Model& model, const State& before, const State& after,
             const std::vector<Contact>& contacts, std::vector<std::string>& warnings);

 private:
  Aabb scene_;
  std::set<std::tuple<int, int, int>> reported_;  // (kind, slot, other slot)
  std::vector<Aabb> boxes_before_;
  std::vector<TriangleBvh> bvh_;   // per slot: its surface's triangles (the interpenetration check)
  std::vector<Points> surface_;    // per slot: world surface vertices of the state checked
};

/// Interpenetration of two closed surfaces: how many of a's vertices lie inside b deeper than
/// `depth` [m], and the deepest (its distance to b's surface) [m].  b_bvh: b's triangles, fitted
/// to b_x.
struct Interpenetration {
  int vertices = 0;
  double deepest = 0.0;
};
Interpenetration vertices_inside(const Points& a_x, const TriangleBvh& b_bvh, const Points& b_x, double depth);

}  // namespace suction
