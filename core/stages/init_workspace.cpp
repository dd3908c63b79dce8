// The workspace of a model (docs/architecture.md): sized once per Simulation::reset.
#include "cavity/cavity_mesh.h"  // the union's input check (cavity_cgal, through cavity)
#include "stages/stages.h"

namespace suction {

namespace {

// every body's surface goes to the detector, in slot order (model/body_slots.h)
void init_collision(const Model& model, Workspace& work) {
  const BodySlots slots(model);
  const int n = slots.count();
  std::vector<std::vector<Tri>> triangles;
  std::vector<bool> movable;
  work.reduction_bodies.assign(n, ReductionBody());
  for (int s = 0; s < n; ++s) {
    const BodyRef b = slots.body(s);
    const SurfaceMesh& surface = slot_surface(model, s);
    triangles.push_back(surface.triangles);
    movable.push_back(b.type == BodyType::Fem || model.rigid[b.index].kind != RigidKind::Fixed);
    if (b.type == BodyType::Rigid) {  // its surface never deforms: flat once, flat always
      work.reduction_bodies[s].rigid = true;
      work.reduction_bodies[s].flat = flat_vertices(surface.vertices, surface.triangles);
    }
  }
  work.detector = ContactDetector();
  work.detector.set_bodies(std::move(triangles), std::move(movable));
  // pairs where neither body has degrees of freedom (kinematic against fixed or kinematic), and
  // bodies joined by a joint (contact there would fight it): model/body_slots.h
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (!slot_pair_collides(model, i, j)) work.detector.exclude_pair(i, j);
  // self-contact of the FEM bodies that ask for it, pairs close at rest excluded
  const ContactSettings& contact = model.settings.contact;
  const double exclusion = contact.self_contact_exclusion > 0.0
                               ? contact.self_contact_exclusion
                               : 1.5 * detection_reach(contact.collision);
  for (int s = 0; s < n; ++s) {
    const BodyRef b = slots.body(s);
    if (b.type != BodyType::Fem || !model.fem[b.index].self_contact) continue;
    const FemBody& body = model.fem[b.index];
    Points rest(body.boundary.node_of_vertex.size());
    for (size_t v = 0; v < rest.size(); ++v) rest[v] = body.rest.nodes[body.boundary.node_of_vertex[v]];
    work.detector.enable_self_contact(s, rest, exclusion);
  }
  work.surface_x_free.resize(n);
}

// A rigid body's surface enters every union of its pairs as a rigid motion of itself: checked
// once here (its vertices in the body frame), the unions need not check all of it again
// (UnionMesh::rigid_motion_of_checked).  A surface that fails keeps the full check, which then
// reports it at its first union, as before.
void init_rigid_surface_checks(const Model& model, Workspace& work) {
  const BodySlots slots(model);
  work.rigid_surface_checked.assign(slots.count(), 0);
  if (!model.settings.cavity.enabled) return;
  for (int s = 0; s < slots.count(); ++s) {
    if (slots.body(s).type != BodyType::Rigid) continue;
    const SurfaceMesh& surface = slot_surface(model, s);
    try {
      check_union_input(UnionMesh{surface.vertices, surface.triangles, false, {}, {}}, "rigid surface");
      work.rigid_surface_checked[s] = 1;
    } catch (const MeshUnionError&) {
    }
  }
}

}  // namespace

void init_workspace(const Model& model, Workspace& work, const std::vector<char>* rigid_checks) {
  work.fem.clear();
  work.fem.resize(model.fem.size());
  work.fem_v_free.resize(model.fem.size());
  work.fem_x_free.resize(model.fem.size());
  for (size_t i = 0; i < model.fem.size(); ++i) init_fem_system(model.fem[i], work.fem[i]);
  work.rigid.assign(model.rigid.size(), RigidWork{});
  init_collision(model, work);
  // the check is the slowest part of a reset where CGAL's filters throw (tentacle: 0.4-0.7 s in
  // WebAssembly, whose exceptions are slow), and its answer depends on the surfaces only
  if (rigid_checks != nullptr && rigid_checks->size() == static_cast<size_t>(BodySlots(model).count()))
    work.rigid_surface_checked = *rigid_checks;
  else
    init_rigid_surface_checks(model, work);
  work.rows.clear();
  init_compliance(model, work);
}

}  // namespace suction
