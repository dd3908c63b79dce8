// Stage 4, cavities (docs/method.md §6 and §9; docs/decisions.md), and the cavity parts of
// stages 1 (leak) and 6 (volumes after the correction).  The stage's jobs, in order:
//   0. (collision stage)  the contacts at the solved shape x_t (the start-of-step positions):
//                         seals, unions and tracking are judged there, rows at x_free
//   1. plan_unions:       the groups of bodies joined by sealing contacts (§9.4); cavities
//                         whose bodies no longer share a group are released (their air joins
//                         the atmosphere); the groups whose seals changed, or whose seam
//                         opened, need a new union
//   2. unite_group:       offset the group's surfaces at x_t, unite them all (core/cavity_cgal),
//                         cut the cavities out of the union (cavity/cavity_mesh.h)
//   3. track_group:       relate them to the group's tracked cavities and hand the air on
//                         (cavity/tracking.h)
//   4. add_cavity_rows:   one pressure row per active cavity, H_p = ∂V/∂x mapped to every body
//                         that bounds it
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <map>

#include "cavity/cavity_mesh.h"
#include "cavity/tracking.h"
#include "model/body_slots.h"
#include "stages/stages.h"
#include "stages/surface_points.h"

namespace suction {

namespace {

// the union's input jitter, as a fraction of the sealing distance (offset_meshes)
constexpr double kUnionJitter = 1e-4;

bool debug_cavities() { return std::getenv("SUCTION_DEBUG_CAVITY") != nullptr; }

/// A cavity's vertices at the given per-slot surface positions (x_free: work.surface_x_free;
/// x_t: work.surface_x_t).
Points cavity_points(const Model& model, const std::vector<Points>& slot_points, const CavityState& c) {
  Points x(c.vertices.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const SurfacePoint& p = c.vertices[i];
    const Tri& t = slot_surface(model, p.slot).triangles[p.triangle];
    const Points& s = slot_points[p.slot];
    x[i] = p.bary[0] * s[t[0]] + p.bary[1] * s[t[1]] + p.bary[2] * s[t[2]];
  }
  return x;
}

// A seal's identity: the vertex the union's offset moves (offset_meshes) and the body it moves
// into.  Two contacts of one vertex with two triangles of a body are one seal, and a lip vertex
// sliding from one triangle of a fine mesh onto the next changes no input of the union; only a
// vertex that starts or stops sealing does (2026-11-27, docs/decisions.md).
constexpr std::uint64_t kSealVertexTag = 1ULL << 63;
std::uint64_t seal_vertex_key(int slot, int vertex) {
  return kSealVertexTag | (static_cast<std::uint64_t>(static_cast<std::uint32_t>(slot)) << 32) |
         static_cast<std::uint32_t>(vertex);
}

/// The seals at x_t between two different bodies, ascending and unique (a body touching itself
/// seals nothing): one per (vertex moved by the offset, body it moves into), and one per
/// edge–edge contact within the sealing distance (it joins the bodies' group, moves nothing).
std::vector<SealingContact> sealing_contacts(const Model& model, const Workspace& work) {
  std::vector<SealingContact> out;
  for (const Contact& c : work.contacts_x_t) {
    if (c.a.body == c.b.body || c.gap > pair_sealing_distance(model, c.a.body, c.b.body)) continue;
    const int lo = std::min(c.a.body, c.b.body), hi = std::max(c.a.body, c.b.body);
    bool vertex = false;
    for (const ContactSide* side : {&c.a, &c.b})
      if (side->count == 1) {
        out.push_back({lo, hi, seal_vertex_key(side->body, side->vertex[0])});
        vertex = true;
      }
    if (!vertex) out.push_back({lo, hi, c.key & ~kSealVertexTag});  // edge–edge: the pair itself
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

/// A cavity's air and its internal energy leave the books (released to the atmosphere).
void book_release(const Model& model, const CavityState& c, AirLedger& ledger) {
  const GasSettings& gas = model.settings.cavity.gas;
  ledger.released += c.air;
  ledger.energy_released += c.air * (c.temperature / gas.t_ambient) / (gas.gamma - 1.0);
}

/// Whether a tracked cavity's seam (the offset strip between its bodies) grew by more than
/// remesh_seam_ratio of its wall since detection: the seal is sliding open, unite again.  A
/// carried cavity (cavity.unite_on_ring_change false) at ambient pressure with p_max = P_atm is
/// not: its air escapes as it shrinks, so opened or not it holds the air an open cup would (N =
/// P_atm V), and once it falls below ambient its seam, grown since its union, unites it at the
/// end of that step, where the seal check redoes the step if it opened (method §9.1).
bool seam_opened(const Model& model, const Workspace& work, const CavityState& c) {
  if (!model.settings.cavity.unite_on_ring_change && model.settings.cavity.p_max <= model.settings.p_atm &&
      c.pressure >= model.settings.p_atm)
    return false;
  const Points x = cavity_points(model, work.surface_x_t, c);
  const double seam = mesh_area(x, c.triangles, c.seam_begin, c.triangles.size());
  const double wall = mesh_area(x, c.triangles, 0, c.seam_begin);
  return seam - c.seam_area0 > model.settings.cavity.remesh_seam_ratio * wall;
}

/// How far a cavity's volume may move from its union's and still be carried through a change of
/// its seals: its seam stays on the body points the union found, while the seal moves as the cavity swells or
/// shrinks, so a cavity is carried through a change of its seals only near the shape it was
/// found at (cavity.unite_on_ring_change false; docs/method.md §9.1).  0.5 %: on the pull test
/// a carried cavity then ends each step within 1.3 % of a fresh union's volume and 1.0 % of its
/// pressure (2 %: 2.1 % and 2.2 %; docs/validation.md).
constexpr double kCarryVolumeChange = 0.005;

/// Whether a group whose bodies did not change (`before` → `now`, the same slots) changed its
/// seals only within the ring of its active cavities, so that they are carried on instead of
/// united again (cavity.unite_on_ring_change false; docs/method.md §9.1).  Every seal that
/// started or stopped must be an edge–edge seal (it joins bodies, moves no vertex of the union's
/// input) or a vertex seal between two bodies of such a cavity, the vertex at x_t inside the
/// cavity's box grown by a tenth of its diagonal (elsewhere a new cavity may close); a vertex
/// that stopped sealing must not be one of a triangle the cavity's seam crosses (that may have
/// opened it; one that starts there only widens the seal); and no such cavity may have moved
/// its volume by more than kCarryVolumeChange since its union.
bool only_ring_changed(const Model& model, const CavityBook& book, const Workspace& work, const SealGroup& before,
                       const SealGroup& now) {
  struct Ring {
    const CavityState* c;
    Aabb box;  // at x_t, grown
  };
  std::vector<std::uint64_t> at_seam;  // seal_vertex_key of the vertices of the triangles the seams cross
  std::vector<Ring> rings;
  for (const CavityState& c : book.cavities) {
    if (c.dormant || !now.contains(c.slots)) continue;
    CavityGeometry g = cavity_geometry(cavity_points(model, work.surface_x_t, c), c);
    if (c.volume0 <= 0.0 || std::abs(g.volume / c.volume0 - 1.0) > kCarryVolumeChange) return false;
    const Vec3 grow = Vec3::Constant(0.1 * (g.box.hi - g.box.lo).norm());
    g.box.lo -= grow, g.box.hi += grow;
    rings.push_back({&c, g.box});
    for (size_t t = c.seam_begin; t < c.triangles.size(); ++t)
      for (int k = 0; k < 3; ++k) {
        const SurfacePoint& sp = c.vertices[c.triangles[t][k]];
        for (int v : slot_surface(model, sp.slot).triangles[sp.triangle]) at_seam.push_back(seal_vertex_key(sp.slot, v));
      }
  }
  if (rings.empty()) return false;
  std::sort(at_seam.begin(), at_seam.end());
  std::vector<SealingContact> changed;
  std::set_symmetric_difference(before.contacts.begin(), before.contacts.end(), now.contacts.begin(),
                                now.contacts.end(), std::back_inserter(changed));
  auto has = [](const std::vector<int>& slots, int s) { return std::binary_search(slots.begin(), slots.end(), s); };
  for (const SealingContact& sc : changed) {
    if (!(sc.key & kSealVertexTag)) continue;  // edge–edge: joins the bodies, moves nothing
    const int slot = static_cast<int>((sc.key >> 32) & 0x7fffffffULL);
    const int vertex = static_cast<int>(sc.key & 0xffffffffULL);
    const Vec3& p = work.surface_x_t[slot][vertex];
    const bool inside = std::any_of(rings.begin(), rings.end(), [&](const Ring& r) {
      return has(r.c->slots, sc.slot_a) && has(r.c->slots, sc.slot_b) && (p.array() >= r.box.lo.array()).all() &&
             (p.array() <= r.box.hi.array()).all();
    });
    if (!inside) return false;
    // a seal that stopped on a triangle a seam crosses may have opened the cavity
    const bool stopped = std::binary_search(before.contacts.begin(), before.contacts.end(), sc);
    if (stopped && std::binary_search(at_seam.begin(), at_seam.end(), sc.key)) return false;
  }
  return true;
}

/// Job 1: this step's sealing groups against the last update's (book.sealing_contacts, then
/// replaced by this step's).  A cavity whose bodies were all in one group and no longer are has
/// lost its seal: it is released (into `ledger`'s books when given).  With cavity.follow_seal the
/// active cavities of a group whose bodies did not change move their seams to where the union's
/// input crosses now (follow_seam), before the tests below look at them.  Returns the groups
/// that need a new union: new or changed groups (other bodies or other sealing contacts), and
/// unchanged ones where an active cavity's seam opened.
std::vector<SealGroup> plan_unions(const Model& model, CavityBook& book, const Workspace& work,
                                   AirLedger* ledger) {
  std::vector<SealingContact> now = sealing_contacts(model, work);
  const std::vector<SealGroup> groups = seal_groups(now);
  const std::vector<SealGroup> before = seal_groups(book.sealing_contacts);
  auto in_a_group = [](const std::vector<SealGroup>& gs, const CavityState& c) {
    return std::any_of(gs.begin(), gs.end(), [&](const SealGroup& g) { return g.contains(c.slots); });
  };
  std::erase_if(book.cavities, [&](const CavityState& c) {
    const bool lost = in_a_group(before, c) && !in_a_group(groups, c);
    if (lost && ledger) book_release(model, c, *ledger);
    return lost;
  });
  std::vector<SealGroup> unite;
  for (const SealGroup& g : groups) {
    bool changed = std::find(before.begin(), before.end(), g) == before.end();
    const auto same_bodies =
        std::find_if(before.begin(), before.end(), [&](const SealGroup& b) { return b.slots == g.slots; });
    if (model.settings.cavity.follow_seal && same_bodies != before.end()) {
      std::vector<const std::vector<Tri>*> triangles;
      for (int slot : g.slots) triangles.push_back(&slot_surface(model, slot).triangles);
      for (CavityState& c : book.cavities) {
        if (c.dormant || c.seam_input.empty() || !g.contains(c.slots)) continue;
        // the union's input moved with the bodies: x_t and the displacement the union gave each
        // vertex, so that the seam follows their motion and not the seals that started or
        // stopped since (those are the union tests' below); a crossing found nowhere keeps its
        // place
        follow_seam(c, g.slots, triangles, [&](int body, int v) {
          const int slot = g.slots[body];
          const std::uint64_t key = static_cast<std::uint64_t>(slot) << 32 | static_cast<std::uint32_t>(v);
          const auto it = std::lower_bound(c.seam_input.begin(), c.seam_input.end(), key,
                                           [](const auto& e, std::uint64_t k) { return e.first < k; });
          const Vec3& x = work.surface_x_t[slot][v];
          return it != c.seam_input.end() && it->first == key ? Vec3(x + it->second) : x;
        });
      }
    }
    if (changed && !model.settings.cavity.unite_on_ring_change && same_bodies != before.end() &&
        only_ring_changed(model, book, work, *same_bodies, g))
      changed = false;
    for (const CavityState& c : book.cavities)
      if (!changed && !c.dormant && g.contains(c.slots)) changed = seam_opened(model, work, c);
    if (changed) unite.push_back(g);
  }
  book.sealing_contacts = std::move(now);
  return unite;
}

/// The group's surfaces at x_t (meshes[i] is body slots[i]), with every vertex of a sealing
/// contact moved by the sealing distance along the contact normal into the other body (once
/// per vertex and other body).
std::vector<UnionMesh> offset_meshes(const Model& model, const Workspace& work, const SealGroup& group) {
  const double d = model.settings.cavity.sealing_distance;
  const size_t n = group.slots.size();
  std::vector<UnionMesh> meshes(n);
  auto index_of = [&](int slot) {
    return static_cast<size_t>(std::lower_bound(group.slots.begin(), group.slots.end(), slot) - group.slots.begin());
  };
  for (size_t i = 0; i < n; ++i) {
    meshes[i].vertices = work.surface_x_t[group.slots[i]];
    meshes[i].triangles = slot_surface(model, group.slots[i]).triangles;
  }
  std::vector<std::vector<char>> moved(n);
  for (size_t i = 0; i < n; ++i) moved[i].assign(meshes[i].vertices.size() * n, 0);  // (vertex, other)
  std::vector<std::vector<char>> moved_any(n);
  for (size_t i = 0; i < n; ++i) moved_any[i].assign(meshes[i].vertices.size(), 0);
  auto move = [&](const ContactSide& side, int other, const Vec3& dir, double depth) {
    if (side.count != 1) return;
    const size_t i = index_of(side.body), j = index_of(other);
    const int v = side.vertex[0];
    char& done = moved[i][static_cast<size_t>(v) * n + j];
    if (done) return;
    done = 1;
    moved_any[i][v] = 1;
    meshes[i].vertices[v] += depth * dir;
  };
  for (const Contact& c : work.contacts_x_t) {
    if (c.a.body == c.b.body) continue;
    const double dp = pair_sealing_distance(model, c.a.body, c.b.body);  // d, or a film's thickness
    if (c.gap > dp) continue;
    if (!std::binary_search(group.slots.begin(), group.slots.end(), c.a.body)) continue;
    move(c.a, c.b.body, -c.normal, dp);  // a moves against the normal (b → a): into b
    move(c.b, c.a.body, c.normal, dp);
  }
  // a 5 nm jitter (kUnionJitter × d_seal) keeps CGAL's filters decisive (method §9.2); the
  // first two bodies keep the salts a pair had before groups (the same unions, bit for bit)
  for (size_t i = 0; i < n; ++i) {
    const std::uint64_t salt = i == 0 ? 0x51ed2701ULL : i == 1 ? 0x7f4a7c15ULL : 0x9e3779b9ULL * (i + 1);
    jitter_vertices(meshes[i], kUnionJitter * d, salt);
  }
  // a rigid surface checked at reset needs its self-intersection check only around the
  // vertices the offset moved (method §9.3)
  for (size_t i = 0; i < n; ++i) {
    const int slot = group.slots[i];
    if (slot >= static_cast<int>(work.rigid_surface_checked.size()) || !work.rigid_surface_checked[slot]) continue;
    meshes[i].rigid_motion_of_checked = true;
    for (size_t v = 0; v < moved_any[i].size(); ++v)
      if (moved_any[i][v]) meshes[i].moved.push_back(static_cast<int>(v));
  }
  return meshes;
}

std::string slots_text(const std::vector<int>& slots) {
  std::string s;
  for (int slot : slots) s += (s.empty() ? "" : "-") + std::to_string(slot);
  return s;
}

/// cavity.follow_seal: the union input's displacement (offset and jitter) of the vertices c's
/// seam crossings are found with, kept in c.seam_input.
void keep_seam_input(const Model& model, const Workspace& work, const SealGroup& group,
                     const std::vector<UnionMesh>& meshes, CavityState& c) {
  auto body_of = [&](int slot) {
    return static_cast<size_t>(std::lower_bound(group.slots.begin(), group.slots.end(), slot) - group.slots.begin());
  };
  std::vector<std::uint64_t> keys;
  auto add = [&](int slot, int triangle) {
    for (int v : slot_surface(model, slot).triangles[triangle])
      keys.push_back(static_cast<std::uint64_t>(slot) << 32 | static_cast<std::uint32_t>(v));
  };
  for (const SeamCrossing& x : c.crossings) {
    add(c.vertices[x.edge_copy].slot, c.vertices[x.edge_copy].triangle);
    for (int k = 0; k < x.ring_size; ++k) add(c.vertices[x.face_copy].slot, x.ring[k]);
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  c.seam_input.clear();
  c.seam_input.reserve(keys.size());
  for (std::uint64_t key : keys) {
    const int slot = static_cast<int>(key >> 32), v = static_cast<int>(key & 0xffffffffULL);
    c.seam_input.emplace_back(key, meshes[body_of(slot)].vertices[v] - work.surface_x_t[slot][v]);
  }
}

/// Job 2: the cavities of one group's union (vertices and triangles; no air yet).  A failed
/// union is recorded in the workspace (reported by the simulation) and returns false: the
/// group's cavities are then kept as they were, and the union is retried at the next change.
/// A union found at this very shape for the same group (`found`: the seal check's at the end of
/// the last step) is taken; one made here is recorded in `record` when given.
bool unite_group(const Model& model, double time, Workspace& work, const SealGroup& group,
                 std::vector<CavityState>& fresh, const ShapeFindings* found, ShapeFindings* record) {
  if (found)
    for (const ShapeFindings::Union& u : found->unions)
      if (u.group == group) {
        fresh = u.fresh;
        work.surface_repairs.insert(work.surface_repairs.end(), u.repairs.begin(), u.repairs.end());
        return true;
      }
  std::vector<UnionMesh> meshes = offset_meshes(model, work, group);
  for (size_t i = 0; i < meshes.size(); ++i) {
    meshes[i].name = "the surface of '";
    meshes[i].name.append(slot_name(model, group.slots[i])).push_back('\'');
  }
  std::vector<UnionComponent> comps;
  std::vector<UnionRepair> repairs;
  try {
    comps = mesh_union_components(meshes, &repairs);
    ++work.cavity_unions;
  } catch (const MeshUnionError& e) {
    work.union_failures.push_back({group.slots, e.what()});
    if (debug_cavities()) std::fprintf(stderr, "t=%.3f union failed: %s\n", time, e.what());
    return false;
  }
  fresh = cavities_from_union(comps, meshes, group.slots);
  if (model.settings.cavity.follow_seal)
    for (CavityState& c : fresh)
      if (!c.crossings.empty()) keep_seam_input(model, work, group, meshes, c);
  std::vector<SurfaceRepair> surface_repairs;
  for (const UnionRepair& r : repairs) surface_repairs.push_back({group.slots[r.mesh], r.crossing_pairs, r.where, r.max_move});
  work.surface_repairs.insert(work.surface_repairs.end(), surface_repairs.begin(), surface_repairs.end());
  if (record) record->unions.push_back({group, fresh, std::move(surface_repairs)});
  if (debug_cavities()) {
    std::fprintf(stderr, "t=%.3f group %s: %zu components:", time, slots_text(group.slots).c_str(), comps.size());
    for (const auto& cp : comps) std::fprintf(stderr, " %.3g", cp.volume);
    std::fprintf(stderr, " -> %zu cavities\n", fresh.size());
  }
  return true;
}

/// Job 3 around the tracking kernel: the group's tracked cavities (those whose bodies all lie
/// in it) are replaced by the result.  Shapes at x_t: a new cavity's air is P_atm times its
/// volume at the shape that sealed it.
void track_group(const Model& model, CavityBook& book, const Workspace& work, const SealGroup& group,
                 std::vector<CavityState> fresh, AirLedger* ledger) {
  const CavitySettings& cs = model.settings.cavity;
  std::vector<const CavityState*> old;
  std::vector<CavityGeometry> go, gn;
  for (const CavityState& c : book.cavities)
    if (group.contains(c.slots)) {
      old.push_back(&c);
      go.push_back(cavity_geometry(cavity_points(model, work.surface_x_t, c), c));
    }
  for (const CavityState& c : fresh) gn.push_back(cavity_geometry(cavity_points(model, work.surface_x_t, c), c));
  TrackingSettings ts;
  ts.p_atm = model.settings.p_atm;
  ts.t_ambient = model.settings.cavity.gas.t_ambient;
  ts.gamma = model.settings.cavity.gas.gamma;
  ts.sealing_distance = cs.sealing_distance;
  ts.flattened_volume_ratio = cs.flattened_volume_ratio;
  std::vector<CavityState> tracked =
      track_cavities(old, go, std::move(fresh), std::move(gn), ts, book.next_cavity_id, ledger);
  // other groups' cavities stay, in order; this group's are replaced
  std::erase_if(book.cavities, [&](const CavityState& c) { return group.contains(c.slots); });
  for (CavityState& c : tracked) book.cavities.push_back(std::move(c));
}

/// Jobs 1-3 on a cavity book at the shape x_t of work.surface_x_t / work.contacts_x_t (the
/// simulated time `time` is for SUCTION_DEBUG_CAVITY's lines); unions from `found` (made at this
/// shape) are taken, those made here recorded in `record` (both may be null).
void detect_and_track(const Model& model, CavityBook& book, double time, Workspace& work, AirLedger* ledger,
                      const ShapeFindings* found, ShapeFindings* record) {
  for (const SealGroup& group : plan_unions(model, book, work, ledger)) {      // 1.
    std::vector<CavityState> fresh;
    if (!unite_group(model, time, work, group, fresh, found, record)) continue;  // 2.
    track_group(model, book, work, group, std::move(fresh), ledger);           // 3.
  }
}

/// Job 4: one row per active cavity after the contact rows: H_p = ∂V/∂x at the solved shape
/// x_t mapped to the FEM nodes (through the surface map) and to dynamic rigid bodies (linear
/// and angular terms); u_free of the row is H_p v_free, and the row's free volume is V
/// linearized from x_t, V_free = V_t + ∂V/∂x·(x_free − x_t).  Taken at x_free instead, a cup
/// that relaxes in the free motion (mm at h = 10 ms) had the pressure act on its unloaded
/// shape's area, and the pull at detachment exceeded (P_atm − P)·A by 15 %.
void add_cavity_rows(const Model& model, const State& state, Workspace& work) {
  const BodySlots slots(model);
  ConstraintLayout& layout = work.rows.layout;
  for (size_t ci = 0; ci < state.book.cavities.size(); ++ci) {
    const CavityState& c = state.book.cavities[ci];
    if (c.dormant) continue;
    const Points xt = cavity_points(model, work.surface_x_t, c);
    const Points x = cavity_points(model, work.surface_x_free, c);  // lever arms at x_free
    const Points g = mesh_volume_gradient(xt, c.triangles);
    const double volume_t = mesh_volume(xt, c.triangles);
    double volume_free = volume_t;
    for (size_t v = 0; v < x.size(); ++v) volume_free += g[v].dot(x[v] - xt[v]);
    const int row = layout.cavity_row(layout.cavities);
    work.cavity_index.push_back(static_cast<int>(ci));
    work.cavity_volume_free.push_back(volume_free);
    work.cavity_volume_t.push_back(volume_t);
    std::map<std::pair<int, int>, Vec3> fem_coeff;  // (body, node) -> coefficient
    std::map<int, std::pair<Vec3, Vec3>> rigid_coeff;
    for (size_t v = 0; v < c.vertices.size(); ++v) {
      const SurfacePoint& sp = c.vertices[v];
      const Tri& t = slot_surface(model, sp.slot).triangles[sp.triangle];
      const BodyRef body = slots.body(sp.slot);
      if (body.type == BodyType::Fem) {
        const auto& map = model.fem[body.index].boundary.node_of_vertex;
        for (int k = 0; k < 3; ++k) {
          Vec3& acc = fem_coeff.try_emplace({body.index, map[t[k]]}, Vec3::Zero()).first->second;
          acc += sp.bary[k] * g[v];
        }
      } else {
        const int r = body.index;
        if (model.rigid[r].kind != RigidKind::Dynamic) continue;
        auto& acc = rigid_coeff.try_emplace(r, Vec3::Zero(), Vec3::Zero()).first->second;
        acc.first += g[v];
        acc.second += (x[v] - work.rigid[r].x_free).cross(g[v]);
      }
    }
    double u = 0.0;
    for (const auto& [bn, coeff] : fem_coeff) {
      work.rows.fem_terms.push_back({row, bn.first, bn.second, coeff});
      u += coeff.dot(work.fem_v_free[bn.first][bn.second]);
    }
    for (const auto& [r, lin_ang] : rigid_coeff) {
      work.rows.rigid_terms.push_back({row, r, lin_ang.first, lin_ang.second});
      u += lin_ang.first.dot(work.rigid[r].v_free) + lin_ang.second.dot(work.rigid[r].w_free);
    }
    ++layout.cavities;
    work.u_free.conservativeResize(layout.count());
    work.u_free[row] = u;
  }
}

}  // namespace

void leak_cavities(const Model& model, State& state, Workspace& work) {
  const double h = model.settings.dt;
  const GasSettings& gas = model.settings.cavity.gas;
  const double leak = h * model.settings.cavity.leak_rate;
  const double cv = 1.0 / (gas.gamma - 1.0);  // U = cv N θ
  for (CavityState& c : state.book.cavities)
    if (!c.dormant) {
      if (gas.law == GasSettings::Law::Exchange && c.temperature != gas.t_ambient) {  // Newton's cooling (§6.8)
        const double before = c.temperature;
        c.temperature = gas.t_ambient + (c.temperature - gas.t_ambient) * std::exp(-h / gas.tau);
        work.air.heat += cv * c.air * (c.temperature - before) / gas.t_ambient;
      }
      // the leak brings ambient air's enthalpy; what the law does not keep of it (the flow work,
      // where the law holds the temperature) goes to the walls as heat
      const double u_before = cv * c.air * c.temperature / gas.t_ambient;
      if (!gas.isothermal() && leak > 0.0 && c.air + leak > 0.0) {
        // air from outside, at the ambient temperature, brings its enthalpy (γ c_v T_ambient per
        // amount) into the cavity's internal energy (c_v N T): the mixture's temperature (§6.8)
        const double in = gas.law == GasSettings::Law::Polytropic ? 1.0 : gas.gamma;
        c.temperature = (std::max(0.0, c.air) * c.temperature + in * leak * gas.t_ambient) / (std::max(0.0, c.air) + leak);
      }
      c.air += leak;
      work.air.leaked_in += leak;
      if (leak != 0.0) {
        work.air.enthalpy_in += gas.gamma * cv * leak;
        work.air.heat += cv * c.air * c.temperature / gas.t_ambient - u_before - gas.gamma * cv * leak;
      }
    }
}

void update_cavities(const Model& model, State& state, Workspace& work, const ShapeFindings* at_start,
                     const std::vector<int>& released) {
  work.cavity_index.clear();
  work.cavity_volume_free.clear();
  work.cavity_volume_t.clear();
  work.cavity_unions = 0;
  work.union_failures.clear();
  work.surface_repairs.clear();
  work.rows.layout.cavities = 0;
  if (!model.settings.cavity.enabled) {
    for (const CavityState& c : state.book.cavities) book_release(model, c, work.air);
    state.book.cavities.clear();
    return;
  }
  // 0. the contacts of the solved shape x_t (work.contacts_x_t), found by the collision
  //    stage.  The free-motion shape carries neither the pressure nor the contact forces: at
  //    h = 10 ms it is close to the unloaded cup, whose lip lifts off a surface the solved lip
  //    still seals.
  // the state's cavity book through jobs 1-3
  CavityBook& book = state.book;
  detect_and_track(model, book, state.time, work, &work.air, at_start, nullptr);  // 1.-3.
  // a redo of the step (check_seals): the cavities whose seal the solved shape opened are
  // released (their air joins the atmosphere); the sealing contacts among their bodies are
  // forgotten, so that their group is united again at the next step
  std::vector<std::vector<int>> reopened;
  std::erase_if(book.cavities, [&](const CavityState& c) {
    const bool r = std::find(released.begin(), released.end(), c.id) != released.end();
    if (r) {
      reopened.push_back(c.slots);
      book_release(model, c, work.air);
    }
    return r;
  });
  std::erase_if(book.sealing_contacts, [&](const SealingContact& s) {
    return std::any_of(reopened.begin(), reopened.end(), [&](const std::vector<int>& slots) {
      return std::binary_search(slots.begin(), slots.end(), s.slot_a) &&
             std::binary_search(slots.begin(), slots.end(), s.slot_b);
    });
  });
  std::stable_sort(book.cavities.begin(), book.cavities.end(),
                   [](const CavityState& x, const CavityState& y) { return x.id < y.id; });
  add_cavity_rows(model, state, work);                                // 4.
}

SealCheck check_seals(const Model& model, const State& state, Workspace& work) {
  SealCheck check;
  std::vector<int> had_row;
  for (int ci : work.cavity_index) had_row.push_back(state.book.cavities[ci].id);
  if (had_row.empty() || !model.settings.cavity.enabled) return check;
  // jobs 0-3 at the end-of-step shape, on a copy of the cavity book.  The detection replaces
  // this step's (nothing later in the step reads it); with the unions made there it is what
  // the next step, which starts at this shape, finds there (check.at_end)
  const size_t failures = work.union_failures.size(), repairs = work.surface_repairs.size();
  surface_points_state(model, state, work.surface_x_t);
  const std::vector<VertexSide> sides =
      model.settings.contact.collision.keep_side ? vertex_sides(state) : std::vector<VertexSide>{};
  work.contacts_x_t = work.detector.detect(work.surface_x_t, model.settings.contact.collision, &sides);
  ShapeFindings found;
  CavityBook trial = state.book;
  detect_and_track(model, trial, state.time, work, nullptr, nullptr, &found);  // a trial: no air moves
  found.contacts = std::move(work.contacts_x_t);  // read by nothing else in this step (a redo finds its own)
  work.union_failures.resize(failures);  // reported by the next step, which retries them
  work.surface_repairs.resize(repairs);  // ... or takes the repaired union (found.unions)
  for (int id : had_row)
    if (std::none_of(trial.cavities.begin(), trial.cavities.end(), [&](const CavityState& c) { return c.id == id; }))
      check.opened.push_back(id);
  if (debug_cavities() && !check.opened.empty())
    std::fprintf(stderr, "t=%.3f seal check: %zu cavities opened, step solved again\n", state.time, check.opened.size());
  check.at_end = std::move(found);
  return check;
}

void measure_cavities(const Model& model, State& state, Workspace&) {
  for (CavityState& c : state.book.cavities) {
    const Points x = cavity_world_vertices(model, state, c);
    c.volume = mesh_volume(x, c.triangles);
    if (c.dormant) {
      c.pressure = model.settings.p_atm;
      c.outflow = 0.0;
      continue;
    }
    c.max_volume = std::max(c.max_volume, c.volume);
  }
}

}  // namespace suction
