// Cavity detection by mesh union, the seam duplication, tracking across recomputations, and
// the per-step cavity rows (../shared/METHOD.md sections 3 and 4; docs/decisions.md).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <map>
#include <numeric>

#include "cavity/cavity.h"
#include "cavity/cavity_build.h"
#include "cavity_cgal/mesh_union.h"
#include "rigid/rigid_dynamics.h"

namespace suction {

namespace {


using PairKey = std::pair<int, int>;  // (slot_a, slot_b), slot_a < slot_b

Vec3 point_at(const Model& model, const Workspace& work, const SurfacePoint& p) {
  const Tri& t = slot_surface(model, p.slot).triangles[p.triangle];
  const Points& x = work.collision_points[p.slot];
  return p.bary[0] * x[t[0]] + p.bary[1] * x[t[1]] + p.bary[2] * x[t[2]];
}

Points points_at_free(const Model& model, const Workspace& work, const CavityState& c) {
  Points x(c.vertices.size());
  for (size_t i = 0; i < x.size(); ++i) x[i] = point_at(model, work, c.vertices[i]);
  return x;
}

struct Geometry {
  Points x;
  double volume = 0.0;
  Vec3 centroid = Vec3::Zero();  // area-weighted centroid of the wall (non-seam) triangles
  Aabb box;
};

Geometry geometry_of(const Points& x, const CavityState& c) {
  Geometry g;
  g.x = x;
  g.volume = mesh_volume(x, c.triangles);
  double area = 0.0;
  for (int i = 0; i < c.seam_begin; ++i) {
    const Tri& t = c.triangles[i];
    const double a = 0.5 * (x[t[1]] - x[t[0]]).cross(x[t[2]] - x[t[0]]).norm();
    g.centroid += a * (x[t[0]] + x[t[1]] + x[t[2]]) / 3.0;
    area += a;
  }
  if (area > 0.0) g.centroid /= area;
  for (const Vec3& p : x) g.box.extend(p);
  return g;
}

bool box_contains(const Aabb& b, const Vec3& p, double margin) {
  return (p.array() >= b.lo.array() - margin).all() && (p.array() <= b.hi.array() + margin).all();
}

/// Per pair, the contacts within the sealing distance this step, as sorted keys.
std::map<PairKey, std::vector<std::uint64_t>> sealing_contacts_by_pair(const Model& model,
                                                                       const Workspace& work) {
  std::map<PairKey, std::vector<std::uint64_t>> by_pair;
  const double d = model.settings.cavity.sealing_distance;
  for (const Contact& c : work.contacts) {
    if (c.gap > d) continue;
    const PairKey k{std::min(c.a.body, c.b.body), std::max(c.a.body, c.b.body)};
    by_pair[k].push_back(c.key);
  }
  for (auto& [k, keys] : by_pair) std::sort(keys.begin(), keys.end());
  return by_pair;
}

/// The two bodies' surfaces at x_free, with every vertex of a sealing contact moved by the
/// sealing distance along the contact normal into the other body.
void offset_meshes(const Model& model, const Workspace& work, const PairKey& pair, UnionMesh& a,
                   UnionMesh& b) {
  const double d = model.settings.cavity.sealing_distance;
  a.vertices = work.collision_points[pair.first];
  a.triangles = slot_surface(model, pair.first).triangles;
  b.vertices = work.collision_points[pair.second];
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
  for (const Contact& c : work.contacts) {
    if (c.gap > d) continue;
    if (std::min(c.a.body, c.b.body) != pair.first || std::max(c.a.body, c.b.body) != pair.second)
      continue;
    move(c.a, -c.normal);  // a moves against the normal (b → a): into b
    move(c.b, c.normal);
  }
}

}  // namespace

const SurfaceMesh& slot_surface(const Model& model, int slot) {
  const int nf = static_cast<int>(model.fem.size());
  return slot < nf ? model.fem[slot].boundary.surface : model.rigid[slot - nf].surface;
}

Vec3 barycentric_in_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 e0 = b - a, e1 = c - a, d = p - a;
  const double d00 = e0.dot(e0), d01 = e0.dot(e1), d11 = e1.dot(e1);
  const double d20 = d.dot(e0), d21 = d.dot(e1);
  const double den = d00 * d11 - d01 * d01;
  if (!(den > 0.0)) return Vec3(1.0, 0.0, 0.0);
  double v = (d11 * d20 - d01 * d21) / den;
  double w = (d00 * d21 - d01 * d20) / den;
  double u = 1.0 - v - w;
  u = std::max(u, 0.0);
  v = std::max(v, 0.0);
  w = std::max(w, 0.0);
  const double s = u + v + w;
  return s > 0.0 ? Vec3(u / s, v / s, w / s) : Vec3(1.0, 0.0, 0.0);
}

bool point_inside_mesh(const Points& x, const std::vector<Tri>& triangles, const Vec3& q) {
  // generalized winding number: Σ signed solid angles / 4π (±1 inside, 0 outside)
  double w = 0.0;
  for (const Tri& t : triangles) {
    const Vec3 a = x[t[0]] - q, b = x[t[1]] - q, c = x[t[2]] - q;
    const double la = a.norm(), lb = b.norm(), lc = c.norm();
    const double num = a.dot(b.cross(c));
    const double den = la * lb * lc + a.dot(b) * lc + a.dot(c) * lb + b.dot(c) * la;
    w += 2.0 * std::atan2(num, den);
  }
  return std::abs(w) > 2.0 * kPi;
}

std::vector<CavityState> cavities_from_union(const std::vector<UnionComponent>& components,
                                             const UnionMesh& a, const UnionMesh& b, int slot_a,
                                             int slot_b) {
  std::vector<CavityState> out;
  for (size_t ci = 1; ci < components.size(); ++ci) {  // [0] is the outer skin
    const UnionComponent& comp = components[ci];
    if (!(comp.volume < 0.0)) continue;  // a second solid, not a void
    bool has[2] = {false, false};
    for (int fb : comp.face_body) has[fb != 0] = true;
    if (!has[0] || !has[1]) continue;  // a void inside one body alone

    CavityState cav;
    cav.slot_a = slot_a;
    cav.slot_b = slot_b;
    // one copy of each component vertex per body whose faces use it
    std::map<std::pair<int, int>, int> copy;  // (vertex, body) -> cavity vertex
    auto copy_of = [&](int v, int body, int source) {
      const auto key = std::make_pair(v, body);
      const auto it = copy.find(key);
      if (it != copy.end()) return it->second;
      const UnionMesh& m = body == 0 ? a : b;
      const Tri& t = m.triangles[source];
      SurfacePoint sp;
      sp.slot = body == 0 ? slot_a : slot_b;
      sp.triangle = source;
      sp.bary = barycentric_in_triangle(comp.vertices[v], m.vertices[t[0]], m.vertices[t[1]],
                                        m.vertices[t[2]]);
      const int idx = static_cast<int>(cav.vertices.size());
      cav.vertices.push_back(sp);
      copy.emplace(key, idx);
      return idx;
    };
    // walls: the union's orientation points into the void; reverse it so the volume is > 0
    const size_t nt = comp.triangles.size();
    std::map<std::pair<int, int>, int> face_of_edge;  // directed edge (reversed orientation)
    std::vector<Tri> reversed(nt);
    for (size_t f = 0; f < nt; ++f) {
      const Tri& t = comp.triangles[f];
      reversed[f] = Tri{t[0], t[2], t[1]};
      for (int e = 0; e < 3; ++e)
        face_of_edge.emplace(std::make_pair(reversed[f][e], reversed[f][(e + 1) % 3]), static_cast<int>(f));
    }
    for (size_t f = 0; f < nt; ++f) {
      const int body = comp.face_body[f] != 0;
      Tri t;
      for (int k = 0; k < 3; ++k) t[k] = copy_of(reversed[f][k], body, comp.face_source[f]);
      cav.triangles.push_back(t);
    }
    cav.seam_begin = static_cast<int>(cav.triangles.size());
    // seam: every edge between a face of body a (u→v) and one of body b (v→u) gets a quad
    // joining the two copies, so the mesh stays closed when the bodies slide or separate
    for (size_t f = 0; f < nt; ++f) {
      if (comp.face_body[f] != 0) continue;
      for (int e = 0; e < 3; ++e) {
        const int u = reversed[f][e], v = reversed[f][(e + 1) % 3];
        const auto twin = face_of_edge.find(std::make_pair(v, u));
        if (twin == face_of_edge.end() || comp.face_body[twin->second] == 0) continue;
        const int ua = copy.at({u, 0}), va = copy.at({v, 0});
        const int ub = copy.at({u, 1}), vb = copy.at({v, 1});
        cav.triangles.push_back(Tri{va, ua, ub});
        cav.triangles.push_back(Tri{ub, vb, va});
      }
    }
    out.push_back(std::move(cav));
  }
  return out;
}

void update_cavities(const Model& model, State& state, Workspace& work) {
  work.cavity_index.clear();
  work.cavity_volume_free.clear();
  work.cavity_unions = 0;
  const CavitySettings& cs = model.settings.cavity;
  if (!cs.enabled) {
    state.cavities.clear();
    return;
  }

  // 1. which pairs need a new union: the set of sealing contacts changed
  const auto sealing = sealing_contacts_by_pair(model, work);
  std::map<PairKey, std::vector<std::uint64_t>> previous;
  for (const auto& s : state.sealing_contacts)
    previous[{static_cast<int>(s[0]), static_cast<int>(s[1])}].push_back(s[2]);
  std::vector<PairKey> recompute;
  for (const auto& [pair, keys] : sealing) {
    const auto it = previous.find(pair);
    if (it == previous.end() || it->second != keys) recompute.push_back(pair);
  }
  // pairs that lost every sealing contact: their cavities are open (released)
  std::vector<PairKey> released;
  for (const auto& [pair, keys] : previous)
    if (!sealing.count(pair)) released.push_back(pair);
  // 2. ... or a seam opened by more than remesh_seam_ratio of the cavity's area
  for (const CavityState& c : state.cavities) {
    if (c.dormant) continue;
    const PairKey pair{c.slot_a, c.slot_b};
    if (!sealing.count(pair) || std::find(recompute.begin(), recompute.end(), pair) != recompute.end())
      continue;
    const Points x = points_at_free(model, work, c);
    const double seam = mesh_area(x, c.triangles, c.seam_begin, c.triangles.size());
    const double wall = mesh_area(x, c.triangles, 0, c.seam_begin);
    if (seam - c.seam_area0 > cs.remesh_seam_ratio * wall) recompute.push_back(pair);
  }
  std::sort(recompute.begin(), recompute.end());
  state.sealing_contacts.clear();
  for (const auto& [pair, keys] : sealing)
    for (std::uint64_t k : keys)
      state.sealing_contacts.push_back({static_cast<std::uint64_t>(pair.first),
                                        static_cast<std::uint64_t>(pair.second), k});

  // released pairs: drop their cavities (the air joins the atmosphere)
  std::erase_if(state.cavities, [&](const CavityState& c) {
    return std::find(released.begin(), released.end(), PairKey{c.slot_a, c.slot_b}) != released.end();
  });

  // 3. unions and tracking
  for (const PairKey& pair : recompute) {
    UnionMesh ma, mb;
    offset_meshes(model, work, pair, ma, mb);
    std::vector<UnionComponent> comps;
    try {
      comps = mesh_union_components(ma, mb);
      ++work.cavity_unions;
    } catch (const MeshUnionError& e) {
      if (std::getenv("SUCTION_DEBUG_CAVITY")) std::fprintf(stderr, "t=%.3f union failed: %s\n", state.time, e.what());
      ++work.cavity_union_failures;  // keep the pair's cavities as they are; retry next change
      continue;
    }
    std::vector<CavityState> fresh = cavities_from_union(comps, ma, mb, pair.first, pair.second);
    if (std::getenv("SUCTION_DEBUG_CAVITY")) {
      std::fprintf(stderr, "t=%.3f pair %d-%d: %zu components:", state.time, pair.first, pair.second, comps.size());
      for (const auto& cp : comps) std::fprintf(stderr, " %.3g", cp.volume);
      std::fprintf(stderr, " -> %zu cavities\n", fresh.size());
    }
    std::vector<int> old;
    for (size_t i = 0; i < state.cavities.size(); ++i)
      if (state.cavities[i].slot_a == pair.first && state.cavities[i].slot_b == pair.second)
        old.push_back(static_cast<int>(i));
    std::vector<Geometry> go, gn;
    for (int i : old) go.push_back(geometry_of(points_at_free(model, work, state.cavities[i]), state.cavities[i]));
    for (const CavityState& c : fresh) gn.push_back(geometry_of(points_at_free(model, work, c), c));
    // a new cavity with no volume (all offset) is not a cavity
    for (size_t j = fresh.size(); j-- > 0;)
      if (!(gn[j].volume > 0.0)) {
        fresh.erase(fresh.begin() + j);
        gn.erase(gn.begin() + j);
      }
    // relation old i ~ new j: one's centroid inside the other (a flattened, dormant cavity:
    // the new centroid within its box); groups of related cavities share their air
    const int no = static_cast<int>(old.size()), nn = static_cast<int>(fresh.size());
    std::vector<int> parent(no + nn);
    std::iota(parent.begin(), parent.end(), 0);
    auto find = [&](int i) {
      while (parent[i] != i) i = parent[i] = parent[parent[i]];
      return i;
    };
    std::vector<char> related(no + nn, 0);
    for (int i = 0; i < no; ++i) {
      const CavityState& oc = state.cavities[old[i]];
      const double margin = cs.sealing_distance + 0.1 * (go[i].box.hi - go[i].box.lo).norm();
      for (int j = 0; j < nn; ++j) {
        const bool rel = point_inside_mesh(gn[j].x, fresh[j].triangles, go[i].centroid) ||
                         point_inside_mesh(go[i].x, oc.triangles, gn[j].centroid) ||
                         (oc.dormant && box_contains(go[i].box, gn[j].centroid, margin));
        if (!rel) continue;
        related[i] = related[no + j] = 1;
        parent[find(i)] = find(no + j);
      }
    }
    std::vector<CavityState> kept;  // old cavities of other pairs stay; this pair's are rebuilt
    for (int j = 0; j < nn; ++j) {
      CavityState& c = fresh[j];
      const double v = gn[j].volume;
      c.volume = v;
      c.max_volume = v;
      c.seam_area0 = mesh_area(gn[j].x, c.triangles, c.seam_begin, c.triangles.size());
      if (!related[no + j]) {  // new: ambient air
        c.id = state.next_cavity_id++;
        c.air = model.settings.p_atm * v;
        c.pressure = model.settings.p_atm;
        continue;
      }
      const int root = find(no + j);
      double air = 0.0, vol = 0.0;
      int first_old = -1, first_new = -1;
      for (int i = 0; i < no; ++i)
        if (find(i) == root) {
          air += state.cavities[old[i]].air;
          if (first_old < 0) first_old = i;
        }
      for (int k = 0; k < nn; ++k)
        if (find(no + k) == root) {
          vol += gn[k].volume;
          if (first_new < 0 || gn[k].volume > gn[first_new].volume) first_new = k;
        }
      c.air = vol > 0.0 ? air * v / vol : 0.0;  // merge: sum; split: by volume
      c.pressure = v > 0.0 ? c.air / v : model.settings.p_atm;
      if (j == first_new && first_old >= 0) {
        const CavityState& oc = state.cavities[old[first_old]];
        c.id = oc.id;
        c.max_volume = std::max(v, oc.dormant ? v : oc.max_volume);
      } else {
        c.id = state.next_cavity_id++;
      }
    }
    // old cavities that vanished: flattened ones are kept (dormant, with their air) while the
    // pair still seals; the others have lost their seal and are dropped
    for (int i = 0; i < no; ++i) {
      if (related[i]) continue;
      CavityState oc = state.cavities[old[i]];
      if (oc.dormant || go[i].volume <= cs.flattened_volume_ratio * oc.max_volume) {
        oc.dormant = true;
        kept.push_back(std::move(oc));
      }
    }
    std::vector<CavityState> next;
    for (size_t i = 0; i < state.cavities.size(); ++i)
      if (std::find(old.begin(), old.end(), static_cast<int>(i)) == old.end())
        next.push_back(std::move(state.cavities[i]));
    for (CavityState& c : kept) next.push_back(std::move(c));
    for (CavityState& c : fresh) {
      c.dormant = false;
      next.push_back(std::move(c));
    }
    state.cavities = std::move(next);
  }
  std::stable_sort(state.cavities.begin(), state.cavities.end(),
                   [](const CavityState& x, const CavityState& y) { return x.id < y.id; });

  // 4. one row per active cavity: H_p = ∂V/∂x mapped to the bodies' velocities
  const int nc = work.num_contacts;
  const int nf = static_cast<int>(model.fem.size());
  for (size_t ci = 0; ci < state.cavities.size(); ++ci) {
    const CavityState& c = state.cavities[ci];
    if (c.dormant) continue;
    const Points x = points_at_free(model, work, c);
    const Points g = mesh_volume_gradient(x, c.triangles);
    const int row = 3 * nc + static_cast<int>(work.cavity_index.size());
    work.cavity_index.push_back(static_cast<int>(ci));
    work.cavity_volume_free.push_back(mesh_volume(x, c.triangles));
    std::map<std::pair<int, int>, Vec3> fem_coeff;  // (body, node) -> coefficient
    std::map<int, std::pair<Vec3, Vec3>> rigid_coeff;
    for (size_t v = 0; v < c.vertices.size(); ++v) {
      const SurfacePoint& sp = c.vertices[v];
      const Tri& t = slot_surface(model, sp.slot).triangles[sp.triangle];
      if (sp.slot < nf) {
        const auto& map = model.fem[sp.slot].boundary.node_of_vertex;
        for (int k = 0; k < 3; ++k) {
          Vec3& acc = fem_coeff.try_emplace({sp.slot, map[t[k]]}, Vec3::Zero()).first->second;
          acc += sp.bary[k] * g[v];
        }
      } else {
        const int r = sp.slot - nf;
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
    work.u_free.conservativeResize(row + 1);
    work.u_free[row] = u;
  }
  work.rows.count = 3 * nc + static_cast<int>(work.cavity_index.size());
  work.num_constraints = work.rows.count;
}

void finish_cavities(const Model& model, State& state, Workspace&) {
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
