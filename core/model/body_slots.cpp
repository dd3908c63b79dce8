#include "model/body_slots.h"

#include "rigid/rigid_dynamics.h"

namespace suction {

const SurfaceMesh& slot_surface(const Model& model, int slot) {
  const BodyRef b = BodySlots(model).body(slot);
  return b.type == BodyType::Fem ? model.fem[b.index].boundary.surface : model.rigid[b.index].surface;
}

const std::string& slot_name(const Model& model, int slot) {
  const BodyRef b = BodySlots(model).body(slot);
  return b.type == BodyType::Fem ? model.fem[b.index].name : model.rigid[b.index].name;
}

bool slot_has_dofs(const Model& model, int slot) {
  const BodyRef b = BodySlots(model).body(slot);
  return b.type == BodyType::Fem || model.rigid[b.index].kind == RigidKind::Dynamic;
}

bool slot_pair_collides(const Model& model, int a, int b) {
  if (!slot_has_dofs(model, a) && !slot_has_dofs(model, b)) return false;
  const BodySlots slots(model);
  for (const Joint& j : model.joints)
    if (!j.a.world() && !j.b.world()) {
      const int ja = slots.slot(j.a.body), jb = slots.slot(j.b.body);
      if ((ja == a && jb == b) || (ja == b && jb == a)) return false;
    }
  return true;
}

int slot_material(const Model& model, int slot) {
  const BodyRef b = BodySlots(model).body(slot);
  return b.type == BodyType::Fem ? model.fem[b.index].material : model.rigid[b.index].material;
}

Vec3 surface_point_world(const Model& model, const State& state, const SurfacePoint& p) {
  const BodyRef body = BodySlots(model).body(p.slot);
  if (body.type == BodyType::Fem) {
    const BoundarySurface& bs = model.fem[body.index].boundary;
    const Tri& t = bs.surface.triangles[p.triangle];
    const Points& x = state.fem[body.index].x;
    return p.bary[0] * x[bs.node_of_vertex[t[0]]] + p.bary[1] * x[bs.node_of_vertex[t[1]]] +
           p.bary[2] * x[bs.node_of_vertex[t[2]]];
  }
  const RigidBody& b = model.rigid[body.index];
  const Tri& t = b.surface.triangles[p.triangle];
  const Vec3 local = p.bary[0] * b.surface.vertices[t[0]] + p.bary[1] * b.surface.vertices[t[1]] +
                     p.bary[2] * b.surface.vertices[t[2]];
  return rigid_point(state.rigid[body.index], local);
}

Points cavity_world_vertices(const Model& model, const State& state, const CavityState& c) {
  Points x(c.vertices.size());
  for (size_t i = 0; i < c.vertices.size(); ++i) x[i] = surface_point_world(model, state, c.vertices[i]);
  return x;
}

}  // namespace suction
