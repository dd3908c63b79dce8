// Body slots: the one numbering of all bodies used by collision, cavities, contacts and the
// bindings — FEM bodies first (slot = FEM index), then rigid bodies (slot = #FEM + rigid
// index).  Everything that turns a slot into a body, or a body into a slot, goes through here.
#pragma once
#include "cavity/cavity_state.h"
#include "model/model.h"
#include "model/state.h"

namespace suction {

class BodySlots {
 public:
  BodySlots() = default;
  explicit BodySlots(const Model& model)
      : num_fem_(static_cast<int>(model.fem.size())), num_rigid_(static_cast<int>(model.rigid.size())) {}

  int count() const { return num_fem_ + num_rigid_; }
  /// the body in a slot
  BodyRef body(int slot) const {
    return slot < num_fem_ ? BodyRef{BodyType::Fem, slot} : BodyRef{BodyType::Rigid, slot - num_fem_};
  }
  /// the slot of a body
  int slot(BodyRef body) const { return body.type == BodyType::Fem ? body.index : num_fem_ + body.index; }

 private:
  int num_fem_ = 0, num_rigid_ = 0;
};

/// The collision surface of a slot: an FEM body's boundary, a rigid body's surface (body frame).
const SurfaceMesh& slot_surface(const Model& model, int slot);
/// The name of the body in a slot.
const std::string& slot_name(const Model& model, int slot);
/// Whether the body in a slot has degrees of freedom (FEM, or a dynamic rigid body).
bool slot_has_dofs(const Model& model, int slot);
/// Whether contacts are made between two bodies (a ≠ b): at least one has degrees of freedom,
/// and no joint joins them (the joint keeps them where they are: a hinge's links touch at the
/// hinge, a welded cup sits on its mount).
bool slot_pair_collides(const Model& model, int a, int b);
/// The material index of the body in a slot.
int slot_material(const Model& model, int slot);

/// World position of a surface point in the given state [m].
Vec3 surface_point_world(const Model& model, const State& state, const SurfacePoint& p);
/// World positions of a cavity's vertices in the given state: #vertices×3 [m].
Points cavity_world_vertices(const Model& model, const State& state, const CavityState& c);

}  // namespace suction
