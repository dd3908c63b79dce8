// Stage 3, collision (docs/method.md §5): contacts between the bodies' surfaces, found at the
// solved shape x_t (the start-of-step positions) and linearized to the free-motion positions,
// plus the contacts that only the free motion brings within reach (each held by the face its
// vertex crossed); their rows H_c (normal, two tangents each).
#include <algorithm>
#include <set>
#include <tuple>

#include "stages/stages.h"
#include "stages/surface_points.h"

namespace suction {

namespace {

// velocity of a contact side's point at the free-motion velocities
Vec3 side_velocity(const Model& m, const Workspace& w, const ContactSide& side, const Vec3& point) {
  const BodyRef b = BodySlots(m).body(side.body);
  if (b.type == BodyType::Fem) {
    const auto& map = m.fem[b.index].boundary.node_of_vertex;
    Vec3 v = Vec3::Zero();
    for (int i = 0; i < side.count; ++i) v += side.weight[i] * w.fem_v_free[b.index][map[side.vertex[i]]];
    return v;
  }
  const RigidWork& r = w.rigid[b.index];
  return r.v_free + r.w_free.cross(point - r.x_free);
}

// adds sign·(the side's Jacobian) for direction d to row `row`
void add_side_terms(const Model& m, Workspace& w, const ContactSide& side, const Vec3& point,
                    double sign, const Vec3& d, int row) {
  const BodyRef b = BodySlots(m).body(side.body);
  if (b.type == BodyType::Fem) {
    const FemBody& body = m.fem[b.index];
    for (int i = 0; i < side.count; ++i) {
      const int node = body.boundary.node_of_vertex[side.vertex[i]];
      if (body.node_constraint[node] != kNodeFree || side.weight[i] == 0.0) continue;  // held: no DOF
      w.rows.fem_terms.push_back({row, b.index, node, sign * side.weight[i] * d});
    }
    return;
  }
  if (m.rigid[b.index].kind != RigidKind::Dynamic) return;
  const Vec3 r = point - w.rigid[b.index].x_free;
  w.rows.rigid_terms.push_back({row, b.index, sign * d, sign * r.cross(d)});
}

// displacement of a contact side's point from x_t (surface_x_t) to x_free (surface_x_free):
// exact for FEM sides (linear in the vertices) and for rigid ones (an affine map commutes
// with the barycentric sum)
Vec3 side_displacement(const Workspace& w, const ContactSide& side) {
  const Points& xf = w.surface_x_free[side.body];
  const Points& xt = w.surface_x_t[side.body];
  Vec3 d = Vec3::Zero();
  for (int i = 0; i < side.count; ++i) d += side.weight[i] * (xf[side.vertex[i]] - xt[side.vertex[i]]);
  return d;
}

// the vertex–triangle feature a contact holds: (vertex body, vertex, other body); edge–edge
// contacts are identified by their key
using Feature = std::tuple<int, int, int>;

}  // namespace

double pair_friction(const Model& model, int material_a, int material_b) {
  for (const FrictionPair& p : model.settings.contact.friction_pairs)
    if ((p.material_a == material_a && p.material_b == material_b) ||
        (p.material_a == material_b && p.material_b == material_a))
      return p.friction;
  // a wetted surface (docs/method.md §9.10): the film's friction (both wet: the lower)
  const Material &a = model.materials[material_a], &b = model.materials[material_b];
  if (a.film_thickness > 0.0 || b.film_thickness > 0.0) {
    const double fa = a.film_thickness > 0.0 ? a.film_friction : b.film_friction;
    const double fb = b.film_thickness > 0.0 ? b.film_friction : a.film_friction;
    return std::min(fa, fb);
  }
  return std::min(a.friction, b.friction);
}

double pair_sealing_distance(const Model& model, int slot_a, int slot_b) {
  return std::max({model.settings.cavity.sealing_distance, model.materials[slot_material(model, slot_a)].film_thickness,
                   model.materials[slot_material(model, slot_b)].film_thickness});
}

std::vector<VertexSide> vertex_sides(const State& state) {
  std::vector<VertexSide> sides;
  for (const ContactForce& c : state.contacts)
    if (c.vertex_a >= 0) sides.push_back({c.body_a, c.vertex_a, c.body_b, c.normal});
  std::sort(sides.begin(), sides.end());
  return sides;
}

void gather_contacts(const Model& model, const State& state, Workspace& work, const ShapeFindings* at_start) {
  const CollisionSettings& cs = model.settings.contact.collision;
  // the side each vertex was on in the last step's contacts: kept at both shapes
  const std::vector<VertexSide> sides = cs.keep_side ? vertex_sides(state) : std::vector<VertexSide>{};
  // 1. the solved shape: the contacts that carry the seal and the loads of the last step (the
  //    seal check at the end of the last step found them there already: at_start)
  surface_points_state(model, state, work.surface_x_t);
  if (at_start)
    work.contacts_x_t = at_start->contacts;
  else
    work.contacts_x_t = work.detector.detect(work.surface_x_t, cs, &sides);
  // 2. the free-motion shape
  surface_points_free(model, work, work.surface_x_free);
  const std::vector<Contact>& free_contacts = work.detector.detect(work.surface_x_free, cs, &sides);
  // 3. every x_t contact, its points moved with the bodies and its gap linearized along its
  //    normal: gap_free = gap_t + n·(Δp_a − Δp_b).  A contact the free motion pulls apart (a
  //    cup relaxing when the pressure and contact forces are off) stays a row; a vertex the
  //    free motion pushes deeper than the detector's reach is not lost.
  work.contacts.clear();
  std::set<Feature> held;
  std::set<std::uint64_t> held_keys;
  for (const Contact& c : work.contacts_x_t) {
    Contact& k = work.contacts.emplace_back(c);
    const Vec3 da = side_displacement(work, c.a), db = side_displacement(work, c.b);
    k.point_a += da;
    k.point_b += db;
    k.gap += c.normal.dot(da - db);
    if (c.a.count == 1) held.insert({c.a.body, c.a.vertex[0], c.b.body});
    held_keys.insert(c.key);
  }
  // 4. the contacts that only the free motion brings within reach (a falling body), unless
  //    their vertex is already held by an x_t contact with the same body.  A vertex that was
  //    behind its contact's face at x_t did not come through that face: the free motion took it
  //    deeper than half of what it entered (a cup crushed on a slab, method §5.2), and the
  //    nearest face is the far one; it is held by the face it crossed instead.
  for (const Contact& c : free_contacts) {
    if (held_keys.count(c.key)) continue;
    if (c.a.count == 1 && held.count({c.a.body, c.a.vertex[0], c.b.body})) continue;
    if (c.a.count == 1 && c.a.body != c.b.body) {
      const Points& xb = work.surface_x_t[c.b.body];
      Vec3 q = Vec3::Zero();
      for (int i = 0; i < c.b.count; ++i) q += c.b.weight[i] * xb[c.b.vertex[i]];
      if ((work.surface_x_t[c.a.body][c.a.vertex[0]] - q).dot(c.normal) < 0.0) {
        Contact crossed;
        if (work.detector.crossing_contact(c.a.body, c.a.vertex[0], c.b.body, work.surface_x_t, work.surface_x_free,
                                           cs, crossed) &&
            !held_keys.count(crossed.key))
          work.contacts.push_back(crossed);
        continue;
      }
    }
    work.contacts.push_back(c);
  }
}

void detect_collisions(const Model& model, const State& state, Workspace& work, const ShapeFindings* at_start) {
  gather_contacts(model, state, work, at_start);
  // the rows need only the contacts that others do not imply (collision/reduction.h); the
  // cavity stage's seals are judged on every contact (work.contacts_x_t)
  work.reduction = {};
  if (model.settings.contact.reduction)
    work.reduction = reduce_contacts(work.contacts, work.reduction_bodies,
                                     {1e-3 * model.settings.contact.collision.alarm_distance});

  // rows: normal, t1, t2 per contact; u_free = relative velocity of the two points
  const int nc = static_cast<int>(work.contacts.size());
  work.rows.clear();
  ConstraintLayout& layout = work.rows.layout;
  layout.contacts = nc;
  work.u_free.setZero(layout.count());
  work.contact_mu.resize(nc);
  for (int k = 0; k < nc; ++k) {
    const Contact& c = work.contacts[k];
    Vec3 dir[3];
    dir[0] = c.normal;
    tangent_basis(c.normal, dir[1], dir[2]);
    const Vec3 rel = side_velocity(model, work, c.a, c.point_a) - side_velocity(model, work, c.b, c.point_b);
    const int row = layout.contact_row(k);
    for (int j = 0; j < ConstraintLayout::kRowsPerContact; ++j) {
      add_side_terms(model, work, c.a, c.point_a, +1.0, dir[j], row + j);
      add_side_terms(model, work, c.b, c.point_b, -1.0, dir[j], row + j);
      work.u_free[row + j] = rel.dot(dir[j]);
    }
    work.contact_mu[k] = pair_friction(model, slot_material(model, c.a.body), slot_material(model, c.b.body));
  }
}

}  // namespace suction
