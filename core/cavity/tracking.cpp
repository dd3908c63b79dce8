#include "cavity/tracking.h"

#include <algorithm>
#include <numeric>

#include "cavity/cavity_mesh.h"

namespace suction {

namespace {
bool box_contains(const Aabb& b, const Vec3& p, double margin) {
  return (p.array() >= b.lo.array() - margin).all() && (p.array() <= b.hi.array() + margin).all();
}

/// The body surface a cavity lies on: per body it touches (ascending slots), the sorted,
/// distinct surface triangles its vertices map to.
using SurfaceFootprint = std::vector<std::pair<int, std::vector<int>>>;
SurfaceFootprint footprint(const CavityState& c) {
  SurfaceFootprint f;
  for (int slot : c.slots) f.push_back({slot, {}});
  for (const SurfacePoint& p : c.vertices)
    for (auto& [slot, tris] : f)
      if (p.slot == slot) tris.push_back(p.triangle);
  for (auto& [slot, tris] : f) {
    std::sort(tris.begin(), tris.end());
    tris.erase(std::unique(tris.begin(), tris.end()), tris.end());
  }
  return f;
}
bool intersect(const std::vector<int>& x, const std::vector<int>& y) {
  for (size_t i = 0, j = 0; i < x.size() && j < y.size();) {
    if (x[i] == y[j]) return true;
    if (x[i] < y[j]) ++i;
    else ++j;
  }
  return false;
}
/// two cavities are the same air when they lie on common surface of at least two bodies (one
/// body alone, the one with the coarser mesh, could relate neighbouring cups or suckers)
bool share_surface(const SurfaceFootprint& p, const SurfaceFootprint& q) {
  int common = 0;
  for (const auto& [slot_p, tris_p] : p)
    for (const auto& [slot_q, tris_q] : q)
      if (slot_p == slot_q && intersect(tris_p, tris_q)) ++common;
  return common >= 2;
}
}  // namespace

CavityGeometry cavity_geometry(const Points& x, const CavityState& c) {
  CavityGeometry g;
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

std::vector<CavityState> track_cavities(const std::vector<const CavityState*>& old,
                                        const std::vector<CavityGeometry>& go,
                                        std::vector<CavityState> fresh,
                                        std::vector<CavityGeometry> gn,
                                        const TrackingSettings& ts, int& next_id, AirLedger* ledger) {
  AirLedger unused;
  AirLedger& books = ledger ? *ledger : unused;
  // a new cavity with no volume (all offset) is not a cavity
  for (size_t j = fresh.size(); j-- > 0;)
    if (!(gn[j].volume > 0.0)) {
      fresh.erase(fresh.begin() + j);
      gn.erase(gn.begin() + j);
    }
  // relation old i ~ new j (union-find over old 0..no-1 and new no..no+nn-1)
  const int no = static_cast<int>(old.size()), nn = static_cast<int>(fresh.size());
  std::vector<int> parent(no + nn);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](int i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  std::vector<char> related(no + nn, 0);
  std::vector<SurfaceFootprint> fo(no), fn(nn);
  for (int i = 0; i < no; ++i) fo[i] = footprint(*old[i]);
  for (int j = 0; j < nn; ++j) fn[j] = footprint(fresh[j]);
  for (int i = 0; i < no; ++i) {
    const CavityState& oc = *old[i];
    const double margin = ts.sealing_distance + ts.dormant_box_margin * (go[i].box.hi - go[i].box.lo).norm();
    for (int j = 0; j < nn; ++j) {
      const bool rel = share_surface(fo[i], fn[j]) ||
                       (oc.dormant && box_contains(go[i].box, gn[j].centroid, margin));
      if (!rel) continue;
      related[i] = related[no + j] = 1;
      parent[find(i)] = find(no + j);
    }
  }
  // new cavities: identity and air
  for (int j = 0; j < nn; ++j) {
    CavityState& c = fresh[j];
    const double v = gn[j].volume;
    c.volume = v;
    c.max_volume = v;
    c.volume0 = v;
    c.seam_area0 = mesh_area(gn[j].x, c.triangles, c.seam_begin, c.triangles.size());
    if (!related[no + j]) {  // new: ambient air
      c.id = next_id++;
      c.air = ts.p_atm * v;
      c.pressure = ts.p_atm;
      c.temperature = ts.t_ambient;
      books.created += c.air;
      books.energy_created += c.air / (ts.gamma - 1.0);
      continue;
    }
    const int root = find(no + j);
    double air = 0.0, vol = 0.0, heat = 0.0;  // heat: Σ N T, the air's internal energy × (γ − 1)
    bool one_temperature = true;
    int first_old = -1, first_new = -1, n_old = 0, n_new = 0;
    for (int i = 0; i < no; ++i)
      if (find(i) == root) {
        air += old[i]->air;
        heat += old[i]->air * old[i]->temperature;
        ++n_old;
        if (first_old < 0) first_old = i;
        else one_temperature = one_temperature && old[i]->temperature == old[first_old]->temperature;
      }
    for (int k = 0; k < nn; ++k)
      if (find(no + k) == root) {
        vol += gn[k].volume;
        ++n_new;
        if (first_new < 0 || gn[k].volume > gn[first_new].volume) first_new = k;
      }
    if (j == first_new) {  // once per group
      books.merges += n_old > 1;
      books.splits += n_new > 1;
    }
    c.air = vol > 0.0 ? air * v / vol : 0.0;  // merge: sum; split: by volume
    // merge: the mixture's temperature conserves internal energy (N T); split: each part keeps it.
    // Air of one temperature keeps it exactly, and air at the ambient temperature takes Boyle's
    // N / V: the isothermal law's numbers stay bit for bit what they were
    c.temperature = first_old < 0 ? ts.t_ambient
                    : one_temperature || air <= 0.0 ? old[first_old]->temperature
                                                    : heat / air;
    c.pressure = v > 0.0 ? (c.temperature == ts.t_ambient ? c.air / v : c.air * (c.temperature / ts.t_ambient) / v)
                         : ts.p_atm;
    if (j == first_new && first_old >= 0) {
      const CavityState& oc = *old[first_old];
      c.id = oc.id;
      c.max_volume = std::max(v, oc.dormant ? v : oc.max_volume);
    } else {
      c.id = next_id++;
    }
  }
  // old cavities that vanished: flattened ones are kept (dormant, with their air) while the
  // group still seals; the others have lost their seal and are dropped
  std::vector<CavityState> out;
  for (int i = 0; i < no; ++i) {
    if (related[i]) continue;
    CavityState oc = *old[i];
    if (oc.dormant || go[i].volume <= ts.flattened_volume_ratio * oc.max_volume) {
      oc.dormant = true;
      out.push_back(std::move(oc));
    } else {
      books.released += oc.air;
      books.energy_released += oc.air * (oc.temperature / ts.t_ambient) / (ts.gamma - 1.0);
    }
  }
  for (CavityState& c : fresh) {
    c.dormant = false;
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace suction
