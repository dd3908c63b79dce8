// Stage 4, cavities (docs/method.md §6 and §9; docs/decisions.md), and the cavity parts of
// stages 1 (leak) and 6 (volumes after the correction).  The stage's jobs, in order:
//   1. remesh_plan:       which body pairs need a new union (their sealing contacts changed,
//                         or a seam opened), which lost every seal (released)
//   2. release_pairs:     drop the cavities of released pairs (their air joins the atmosphere)
//   0. (collision stage)  the contacts at the solved shape x_t (the start-of-step positions):
//                         seals, unions and tracking are judged there, rows at x_free
//   3. union_pair:        offset the two surfaces at x_t, unite them (core/cavity_cgal),
//                         cut the cavities out of the union (cavity/cavity_mesh.h)
//   4. track_cavities:    relate them to the pair's tracked cavities and hand the air on
//                         (cavity/tracking.h)
//   5. add_cavity_rows:   one pressure row per active cavity, H_p = ∂V/∂x mapped to the bodies
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "cavity/cavity_mesh.h"
#include "cavity/tracking.h"
#include "model/body_slots.h"
#include "stages/stages.h"
#include "stages/surface_points.h"

namespace suction {

namespace {

using PairKey = std::pair<int, int>;  // (slot_a, slot_b), slot_a < slot_b

// the union's input jitter, as a fraction of the sealing distance (offset_meshes)
constexpr double kUnionJitter = 1e-4;

bool debug_cavities() { return std::getenv("SUCTION_DEBUG_CAVITY") != nullptr; }

/// A cavity's vertices at the given per-slot surface positions (x_free: work.collision_points;
/// x_t: work.seal_points).
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

/// Per pair, the contacts within the sealing distance at x_t, as sorted keys.
std::map<PairKey, std::vector<std::uint64_t>> sealing_contacts_by_pair(const Model& model,
                                                                       const Workspace& work) {
  std::map<PairKey, std::vector<std::uint64_t>> by_pair;
  const double d = model.settings.cavity.sealing_distance;
  for (const Contact& c : work.seal_contacts) {
    if (c.gap > d || c.a.body == c.b.body) continue;  // a body touching itself seals nothing
    const PairKey k{std::min(c.a.body, c.b.body), std::max(c.a.body, c.b.body)};
    by_pair[k].push_back(c.key);
  }
  for (auto& [k, keys] : by_pair) std::sort(keys.begin(), keys.end());
  return by_pair;
}

struct RemeshPlan {
  std::vector<PairKey> recompute;  // pairs that need a new union, sorted
  std::vector<PairKey> released;   // pairs that lost every sealing contact
};

/// Job 1: compares this step's sealing contacts with the last update's (and stores them in
/// the state); a pair whose seam grew by more than remesh_seam_ratio of the wall is redone too.
RemeshPlan remesh_plan(const Model& model, State& state, const Workspace& work) {
  const CavitySettings& cs = model.settings.cavity;
  RemeshPlan plan;
  const auto sealing = sealing_contacts_by_pair(model, work);
  std::map<PairKey, std::vector<std::uint64_t>> previous;
  for (const auto& s : state.sealing_contacts)
    previous[{static_cast<int>(s[0]), static_cast<int>(s[1])}].push_back(s[2]);
  for (const auto& [pair, keys] : sealing) {
    const auto it = previous.find(pair);
    if (it == previous.end() || it->second != keys) plan.recompute.push_back(pair);
  }
  for (const auto& [pair, keys] : previous)
    if (!sealing.count(pair)) plan.released.push_back(pair);
  for (const CavityState& c : state.cavities) {
    if (c.dormant) continue;
    const PairKey pair{c.slot_a, c.slot_b};
    if (!sealing.count(pair) ||
        std::find(plan.recompute.begin(), plan.recompute.end(), pair) != plan.recompute.end())
      continue;
    const Points x = cavity_points(model, work.seal_points, c);
    const double seam = mesh_area(x, c.triangles, c.seam_begin, c.triangles.size());
    const double wall = mesh_area(x, c.triangles, 0, c.seam_begin);
    if (seam - c.seam_area0 > cs.remesh_seam_ratio * wall) plan.recompute.push_back(pair);
  }
  std::sort(plan.recompute.begin(), plan.recompute.end());
  state.sealing_contacts.clear();
  for (const auto& [pair, keys] : sealing)
    for (std::uint64_t k : keys)
      state.sealing_contacts.push_back({static_cast<std::uint64_t>(pair.first),
                                        static_cast<std::uint64_t>(pair.second), k});
  return plan;
}

/// Job 2: released pairs lose their cavities (the air joins the atmosphere).
void release_pairs(State& state, const std::vector<PairKey>& released, AirLedger* ledger) {
  std::erase_if(state.cavities, [&](const CavityState& c) {
    const bool r = std::find(released.begin(), released.end(), PairKey{c.slot_a, c.slot_b}) != released.end();
    if (r && ledger) ledger->released += c.air;
    return r;
  });
}

/// The two bodies' surfaces at x_t, with every vertex of a sealing contact moved by the
/// sealing distance along the contact normal into the other body.
void offset_meshes(const Model& model, const Workspace& work, const PairKey& pair, UnionMesh& a,
                   UnionMesh& b) {
  const double d = model.settings.cavity.sealing_distance;
  a.vertices = work.seal_points[pair.first];
  a.triangles = slot_surface(model, pair.first).triangles;
  b.vertices = work.seal_points[pair.second];
  b.triangles = slot_surface(model, pair.second).triangles;
  std::vector<char> moved_a(a.vertices.size(), 0), moved_b(b.vertices.size(), 0);
  auto move = [&](const ContactSide& side, const Vec3& dir) {
    if (side.count != 1) return;
    const bool is_a = side.body == pair.first;
    UnionMesh& m = is_a ? a : b;
    std::vector<char>& moved = is_a ? moved_a : moved_b;
    const int v = side.vertex[0];
    if (moved[v]) return;
    moved[v] = 1;
    m.vertices[v] += d * dir;
  };
  for (const Contact& c : work.seal_contacts) {
    if (c.gap > d) continue;
    if (std::min(c.a.body, c.b.body) != pair.first || std::max(c.a.body, c.b.body) != pair.second)
      continue;
    move(c.a, -c.normal);  // a moves against the normal (b → a): into b
    move(c.b, c.normal);
  }
  // a 5 nm jitter (kUnionJitter × d_seal) keeps CGAL's filters decisive (method §9.2)
  jitter_vertices(a, kUnionJitter * d, 0x51ed2701ULL);
  jitter_vertices(b, kUnionJitter * d, 0x7f4a7c15ULL);
  // a rigid surface checked at reset needs its self-intersection check only around the
  // vertices the offset moved (method §9.3)
  auto rigid_check = [&](int slot, const std::vector<char>& moved, UnionMesh& m) {
    if (slot >= static_cast<int>(work.rigid_surface_checked.size()) || !work.rigid_surface_checked[slot]) return;
    m.rigid_motion_of_checked = true;
    for (size_t v = 0; v < moved.size(); ++v)
      if (moved[v]) m.moved.push_back(static_cast<int>(v));
  };
  rigid_check(pair.first, moved_a, a);
  rigid_check(pair.second, moved_b, b);
}

/// Job 3: the cavities of one pair's union (vertices and triangles; no air yet).  A failed
/// union is recorded in the workspace (reported by the simulation) and returns false: the
/// pair's cavities are then kept as they were, and the union is retried at the next change.
bool union_pair(const Model& model, const State& state, Workspace& work, const PairKey& pair,
                std::vector<CavityState>& fresh) {
  // the pair's sealing contacts (remesh_plan stored them in the state)
  std::vector<std::uint64_t> keys;
  for (const auto& s : state.sealing_contacts)
    if (static_cast<int>(s[0]) == pair.first && static_cast<int>(s[1]) == pair.second) keys.push_back(s[2]);
  auto& cache = work.union_cache;
  std::erase_if(cache, [&](const Workspace::CachedUnion& u) { return u.step != state.step; });
  for (const Workspace::CachedUnion& u : cache)
    if (u.slot_a == pair.first && u.slot_b == pair.second && u.keys == keys) {
      fresh = u.fresh;  // the seal check's union at this very shape
      return true;
    }
  UnionMesh ma, mb;
  offset_meshes(model, work, pair, ma, mb);
  std::vector<UnionComponent> comps;
  try {
    comps = mesh_union_components(ma, mb);
    ++work.cavity_unions;
  } catch (const MeshUnionError& e) {
    work.union_failures.push_back({pair.first, pair.second, e.what()});
    if (debug_cavities()) std::fprintf(stderr, "t=%.3f union failed: %s\n", state.time, e.what());
    return false;
  }
  fresh = cavities_from_union(comps, ma, mb, pair.first, pair.second);
  std::erase_if(cache, [&](const Workspace::CachedUnion& u) { return u.slot_a == pair.first && u.slot_b == pair.second; });
  cache.push_back({state.step, pair.first, pair.second, std::move(keys), fresh});
  if (debug_cavities()) {
    std::fprintf(stderr, "t=%.3f pair %d-%d: %zu components:", state.time, pair.first, pair.second, comps.size());
    for (const auto& cp : comps) std::fprintf(stderr, " %.3g", cp.volume);
    std::fprintf(stderr, " -> %zu cavities\n", fresh.size());
  }
  return true;
}

/// Job 4 around the tracking kernel: the pair's tracked cavities are replaced by the result.
/// Shapes at x_t: a new cavity's air is P_atm times its volume at the shape that sealed it.
void track_pair(const Model& model, State& state, const Workspace& work, const PairKey& pair,
                std::vector<CavityState> fresh, AirLedger* ledger) {
  const CavitySettings& cs = model.settings.cavity;
  std::vector<const CavityState*> old;
  std::vector<CavityGeometry> go, gn;
  for (const CavityState& c : state.cavities)
    if (c.slot_a == pair.first && c.slot_b == pair.second) {
      old.push_back(&c);
      go.push_back(cavity_geometry(cavity_points(model, work.seal_points, c), c));
    }
  for (const CavityState& c : fresh) gn.push_back(cavity_geometry(cavity_points(model, work.seal_points, c), c));
  TrackingSettings ts;
  ts.p_atm = model.settings.p_atm;
  ts.sealing_distance = cs.sealing_distance;
  ts.flattened_volume_ratio = cs.flattened_volume_ratio;
  std::vector<CavityState> tracked =
      track_cavities(old, go, std::move(fresh), std::move(gn), ts, state.next_cavity_id, ledger);
  // other pairs' cavities stay, in order; this pair's are replaced
  std::erase_if(state.cavities,
                [&](const CavityState& c) { return c.slot_a == pair.first && c.slot_b == pair.second; });
  for (CavityState& c : tracked) state.cavities.push_back(std::move(c));
}

/// Job 5: one row per active cavity after the contact rows: H_p = ∂V/∂x at the solved shape
/// x_t mapped to the FEM nodes (through the surface map) and to dynamic rigid bodies (linear
/// and angular terms); u_free of the row is H_p v_free, and the row's free volume is V
/// linearized from x_t, V_free = V_t + ∂V/∂x·(x_free − x_t).  Taken at x_free instead, a cup
/// that relaxes in the free motion (mm at h = 10 ms) had the pressure act on its unloaded
/// shape's area, and the pull at detachment exceeded (P_atm − P)·A by 15 %.
void add_cavity_rows(const Model& model, const State& state, Workspace& work) {
  const BodySlots slots(model);
  ConstraintLayout& layout = work.rows.layout;
  for (size_t ci = 0; ci < state.cavities.size(); ++ci) {
    const CavityState& c = state.cavities[ci];
    if (c.dormant) continue;
    const Points xt = cavity_points(model, work.seal_points, c);
    const Points x = cavity_points(model, work.collision_points, c);  // lever arms at x_free
    const Points g = mesh_volume_gradient(xt, c.triangles);
    double volume_free = mesh_volume(xt, c.triangles);
    for (size_t v = 0; v < x.size(); ++v) volume_free += g[v].dot(x[v] - xt[v]);
    const int row = layout.cavity_row(layout.cavities);
    work.cavity_index.push_back(static_cast<int>(ci));
    work.cavity_volume_free.push_back(volume_free);
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
  for (CavityState& c : state.cavities)
    if (!c.dormant) {
      c.air += h * model.settings.cavity.leak_rate;
      work.air.leaked_in += h * model.settings.cavity.leak_rate;
    }
}

void update_cavities(const Model& model, State& state, Workspace& work) {
  work.cavity_index.clear();
  work.cavity_volume_free.clear();
  work.cavity_unions = 0;
  work.union_failures.clear();
  work.rows.layout.cavities = 0;
  if (!model.settings.cavity.enabled) {
    for (const CavityState& c : state.cavities) work.air.released += c.air;
    state.cavities.clear();
    return;
  }
  // 0. the contacts of the solved shape x_t (work.seal_contacts), found by the collision
  //    stage.  The free-motion shape carries neither the pressure nor the contact forces: at
  //    h = 10 ms it is close to the unloaded cup, whose lip lifts off a surface the solved lip
  //    still seals.
  const RemeshPlan plan = remesh_plan(model, state, work);           // 1.
  release_pairs(state, plan.released, &work.air);                     // 2.
  for (const PairKey& pair : plan.recompute) {
    std::vector<CavityState> fresh;
    if (!union_pair(model, state, work, pair, fresh)) continue;       // 3.
    track_pair(model, state, work, pair, std::move(fresh), &work.air);  // 4.
  }
  // a redo of the step (check_seals): the cavities whose seal the solved shape opened are
  // released (their air joins the atmosphere); their pairs are united again at the next step
  std::vector<PairKey> reopened;
  std::erase_if(state.cavities, [&](const CavityState& c) {
    const bool r = std::find(work.release_cavity_ids.begin(), work.release_cavity_ids.end(), c.id) !=
                   work.release_cavity_ids.end();
    if (r) {
      reopened.push_back({c.slot_a, c.slot_b});
      work.air.released += c.air;
    }
    return r;
  });
  std::erase_if(state.sealing_contacts, [&](const auto& s) {
    return std::find(reopened.begin(), reopened.end(),
                     PairKey{static_cast<int>(s[0]), static_cast<int>(s[1])}) != reopened.end();
  });
  work.release_cavity_ids.clear();
  std::stable_sort(state.cavities.begin(), state.cavities.end(),
                   [](const CavityState& x, const CavityState& y) { return x.id < y.id; });
  add_cavity_rows(model, state, work);                                // 5.
}

std::vector<int> check_seals(const Model& model, const State& state, Workspace& work) {
  std::vector<int> had_row;
  for (int ci : work.cavity_index) had_row.push_back(state.cavities[ci].id);
  if (had_row.empty() || !model.settings.cavity.enabled) return {};
  // jobs 0-4 at the end-of-step shape, on a copy of the cavities and the seal bookkeeping.
  // The detection replaces this step's (nothing later in the step reads it) and is the next
  // step's x_t detection (work.seal_step).
  const size_t failures = work.union_failures.size();
  surface_points_state(model, state, work.seal_points);
  work.seal_contacts = work.detector.detect(work.seal_points, model.settings.contact.collision);
  work.seal_step = state.step;
  State s;
  s.step = state.step;
  s.time = state.time;
  s.cavities = state.cavities;
  s.sealing_contacts = state.sealing_contacts;
  s.next_cavity_id = state.next_cavity_id;
  const RemeshPlan plan = remesh_plan(model, s, work);
  release_pairs(s, plan.released, nullptr);  // a trial on a copy: no air moves
  for (const PairKey& pair : plan.recompute) {
    std::vector<CavityState> fresh;
    if (!union_pair(model, s, work, pair, fresh)) continue;
    track_pair(model, s, work, pair, std::move(fresh), nullptr);
  }
  work.union_failures.resize(failures);  // reported by the next step, which retries them
  std::vector<int> opened;
  for (int id : had_row)
    if (std::none_of(s.cavities.begin(), s.cavities.end(), [&](const CavityState& c) { return c.id == id; }))
      opened.push_back(id);
  if (debug_cavities() && !opened.empty())
    std::fprintf(stderr, "t=%.3f seal check: %zu cavities opened, step solved again\n", state.time, opened.size());
  return opened;
}

void measure_cavities(const Model& model, State& state, Workspace&) {
  for (CavityState& c : state.cavities) {
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
