#include "cavity/cavity_mesh.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <set>

namespace suction {

double mesh_volume(const Points& x, const std::vector<Tri>& triangles) {
  double v = 0.0;
  for (const Tri& t : triangles) v += x[t[0]].cross(x[t[1]]).dot(x[t[2]]);
  return v / 6.0;
}

Points mesh_volume_gradient(const Points& x, const std::vector<Tri>& triangles) {
  Points g(x.size(), Vec3::Zero());
  for (const Tri& t : triangles) {
    g[t[0]] += x[t[1]].cross(x[t[2]]) / 6.0;
    g[t[1]] += x[t[2]].cross(x[t[0]]) / 6.0;
    g[t[2]] += x[t[0]].cross(x[t[1]]) / 6.0;
  }
  return g;
}

double mesh_area(const Points& x, const std::vector<Tri>& triangles, size_t begin, size_t end) {
  double a = 0.0;
  for (size_t i = begin; i < end && i < triangles.size(); ++i) {
    const Tri& t = triangles[i];
    a += 0.5 * (x[t[1]] - x[t[0]]).cross(x[t[2]] - x[t[0]]).norm();
  }
  return a;
}

std::vector<std::array<int, 2>> seam_ring_edges(const CavityState& c) {
  std::vector<std::array<int, 2>> edges;
  const int nt = static_cast<int>(c.triangles.size());
  const int nv = static_cast<int>(c.vertices.size());
  if (c.seam_begin < 0 || c.seam_begin >= nt) return edges;
  // a seam quad joins a ring edge on body a to the matching edge on body b, split in two
  // triangles: the ring edges are the seam-triangle edges whose endpoints lie on one body
  std::set<std::pair<int, int>> seen;
  for (int t = c.seam_begin; t < nt; ++t) {
    const Tri& tri = c.triangles[t];
    for (int e = 0; e < 3; ++e) {
      const int a = tri[e], b = tri[(e + 1) % 3];
      if (a < 0 || b < 0 || a >= nv || b >= nv) continue;
      if (c.vertices[a].slot != c.vertices[b].slot) continue;
      if (!seen.insert({std::min(a, b), std::max(a, b)}).second) continue;
      edges.push_back({a, b});
    }
  }
  return edges;
}

Vec3 seam_ring_normal(const Points& x, const CavityState& c, const std::vector<std::array<int, 2>>& ring) {
  Vec3 m = Vec3::Zero();
  int count = 0;
  for (const auto& e : ring)
    if (c.vertices[e[0]].slot == c.slots.front()) {
      m += x[e[0]];
      ++count;
    }
  if (count < 3) return Vec3::UnitZ();
  m /= static_cast<double>(count);
  Vec3 n = Vec3::Zero();
  for (const auto& e : ring)
    if (c.vertices[e[0]].slot == c.slots.front()) n += (x[e[0]] - m).cross(x[e[1]] - m);
  const double len = n.norm();
  if (!(len > 0.0)) return Vec3::UnitZ();
  const bool flip = n.z() < 0 || (n.z() == 0 && (n.y() < 0 || (n.y() == 0 && n.x() < 0)));
  return (flip ? -1.0 : 1.0) * n / len;
}

double projected_area(const Points& x, const std::vector<Tri>& triangles, const Vec3& n) {
  double sum = 0.0;
  for (const Tri& t : triangles) sum += std::abs(n.dot((x[t[1]] - x[t[0]]).cross(x[t[2]] - x[t[0]])));
  return 0.25 * sum;
}

double holding_area(const Points& x, const std::vector<Tri>& triangles, const std::vector<int>& triangle_body,
                    int count) {
  std::vector<std::pair<int, Vec3>> walls;  // (body, its vector area), few bodies
  for (int t = 0; t < count; ++t) {
    const int body = triangle_body[t];
    if (body < 0) continue;
    const Tri& tri = triangles[t];
    const Vec3 a = 0.5 * (x[tri[1]] - x[tri[0]]).cross(x[tri[2]] - x[tri[0]]);
    auto it = std::find_if(walls.begin(), walls.end(), [&](const auto& w) { return w.first == body; });
    if (it == walls.end()) walls.emplace_back(body, a);
    else it->second += a;
  }
  double sum = 0.0;
  for (const auto& w : walls) sum += w.second.norm();
  return 0.5 * sum;
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

void jitter_vertices(UnionMesh& m, double amplitude, std::uint64_t salt) {
  for (size_t i = 0; i < m.vertices.size(); ++i)
    for (int k = 0; k < 3; ++k) {
      std::uint64_t z = (static_cast<std::uint64_t>(i) * 3 + k) ^ salt;  // splitmix64
      z += 0x9e3779b97f4a7c15ULL;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      z ^= z >> 31;
      m.vertices[i][k] += amplitude * (static_cast<double>(z >> 11) * 0x1.0p-52 - 1.0);  // [-1, 1)
    }
}

SeamFollowed follow_seam(CavityState& c, const std::vector<int>& slots,
                         const std::vector<const std::vector<Tri>*>& triangles, const UnionVertexAt& at) {
  auto body_of = [&](int slot) {
    return static_cast<int>(std::find(slots.begin(), slots.end(), slot) - slots.begin());
  };
  struct Found {
    double s = 0.0;  // along the edge
    int face = -1;   // the triangle it crosses (-1: lost)
    Vec3 bary;       // in that triangle
  };
  std::vector<Found> found(c.crossings.size());
  SeamFollowed out;
  for (size_t i = 0; i < c.crossings.size(); ++i) {
    const SeamCrossing& x = c.crossings[i];
    const SurfacePoint& e = c.vertices[x.edge_copy];
    const SurfacePoint& f = c.vertices[x.face_copy];
    const int be = body_of(e.slot), bf = body_of(f.slot);
    const Tri& te = (*triangles[be])[e.triangle];
    const Vec3 a = at(be, te[(x.edge_zero + 1) % 3]);
    const Vec3 b = at(be, te[(x.edge_zero + 2) % 3]);
    // where the edge crosses triangle t's plane, if that is inside t (reached: whether the edge
    // crosses the plane at all)
    auto cross = [&](int t, Found& into, bool* reached = nullptr) {
      const Tri& tf = (*triangles[bf])[t];
      const Vec3 p0 = at(bf, tf[0]), p1 = at(bf, tf[1]), p2 = at(bf, tf[2]);
      const Vec3 n = (p1 - p0).cross(p2 - p0);
      const double den = n.dot(b - a);
      if (!(std::abs(den) > 0.0)) return false;
      const double s = n.dot(p0 - a) / den;
      if (!(s > 0.0 && s < 1.0)) return false;
      if (reached) *reached = true;
      const Vec3 q = a + s * (b - a);
      const double nn = n.squaredNorm();  // q's barycentric coordinates: signed sub-areas
      const double u = n.dot((p1 - q).cross(p2 - q)) / nn, v = n.dot((p2 - q).cross(p0 - q)) / nn;
      const Vec3 bary(u, v, 1.0 - u - v);
      if (!(bary.minCoeff() > 0.0)) return false;
      into = {s, t, bary};
      return true;
    };
    // the triangle it was in last, else the ring around the union's (the first that holds it)
    bool reached = false;
    bool held = cross(f.triangle, found[i], &reached);
    for (int k = 0; k < x.ring_size && !held; ++k)
      if (x.ring[k] != f.triangle) held = cross(x.ring[k], found[i], &reached);
    if (!held) ++out.lost;
    if (!reached) ++out.left;
  }
  for (size_t i = 0; i < c.crossings.size(); ++i) {
    if (found[i].face < 0) continue;
    const SeamCrossing& x = c.crossings[i];
    Vec3& be = c.vertices[x.edge_copy].bary;
    be[x.edge_zero] = 0.0;
    be[(x.edge_zero + 1) % 3] = 1.0 - found[i].s;
    be[(x.edge_zero + 2) % 3] = found[i].s;
    c.vertices[x.face_copy].triangle = found[i].face;
    c.vertices[x.face_copy].bary = found[i].bary;
  }
  return out;
}

namespace {
/// Where faces of three or more bodies meet at one union vertex, the seam quads of its edges
/// leave a small loop between the vertex's copies open: each such loop (the directed edges with
/// no twin) is closed by a fan, so the cavity mesh stays closed as the bodies move apart.
void close_junctions(CavityState& cav) {
  std::map<std::pair<int, int>, int> count;
  for (const Tri& t : cav.triangles)
    for (int e = 0; e < 3; ++e) ++count[{t[e], t[(e + 1) % 3]}];
  std::map<int, int> next;  // boundary edge u -> v (no v -> u in the mesh)
  for (const auto& [e, n] : count)
    if (!count.count({e.second, e.first})) next.emplace(e.first, e.second);
  while (!next.empty()) {
    std::vector<int> loop{next.begin()->first};
    for (int u = next.begin()->first;;) {
      const auto it = next.find(u);
      if (it == next.end()) break;  // not a loop: leave it (the volume check reports it)
      const int v = it->second;
      next.erase(it);
      if (v == loop.front()) break;
      loop.push_back(v);
      u = v;
    }
    // the cap runs against the loop: triangles (u0, u_{k+1}, u_k)
    for (size_t k = 1; k + 1 < loop.size(); ++k)
      cav.triangles.push_back(Tri{loop[0], loop[k + 1], loop[k]});
  }
}

/// The seam vertices of a cavity as edges crossing triangles (SeamCrossing), from its copies
/// (union vertex, body) -> cavity vertex; empty unless every seam vertex is one: two copies, one
/// with exactly one barycentric coordinate 0 (on an edge of its triangle), the other with none
/// (inside its triangle).  The union's input is jittered (kUnionJitter), so a crossing on a
/// vertex or on two edges does not arise but by a chance of the order of the jitter.
std::vector<SeamCrossing> seam_crossings(const CavityState& cav, const std::map<std::pair<int, int>, int>& copy,
                                         const std::vector<UnionMesh>& meshes, const std::vector<int>& slots) {
  constexpr double kOnEdge = 1e-9;  // a coordinate this small is the edge's (rounding of 0)
  std::vector<SeamCrossing> out;
  std::vector<std::vector<std::vector<int>>> vertex_triangles(meshes.size());  // per body, built when needed
  auto ring_of = [&](SeamCrossing& x) {
    const SurfacePoint& f = cav.vertices[x.face_copy];
    const size_t body = static_cast<size_t>(std::find(slots.begin(), slots.end(), f.slot) - slots.begin());
    std::vector<std::vector<int>>& vt = vertex_triangles[body];
    const std::vector<Tri>& tris = meshes[body].triangles;
    if (vt.empty()) {
      vt.resize(meshes[body].vertices.size());
      for (size_t t = 0; t < tris.size(); ++t)
        for (int k = 0; k < 3; ++k) vt[tris[t][k]].push_back(static_cast<int>(t));
    }
    x.ring[x.ring_size++] = f.triangle;
    for (int k = 0; k < 3; ++k)
      for (int t : vt[tris[f.triangle][k]]) {
        if (x.ring_size == SeamCrossing::kRing) return;
        if (std::find(x.ring.begin(), x.ring.begin() + x.ring_size, t) == x.ring.begin() + x.ring_size)
          x.ring[x.ring_size++] = t;
      }
  };
  for (auto it = copy.begin(); it != copy.end();) {
    auto end = it;
    while (end != copy.end() && end->first.first == it->first.first) ++end;
    const long copies = std::distance(it, end);
    if (copies == 2) {
      SeamCrossing x;
      for (auto c = it; c != end; ++c) {
        const Vec3& b = cav.vertices[c->second].bary;
        int zeros = 0, zero = -1;
        for (int k = 0; k < 3; ++k)
          if (b[k] < kOnEdge) ++zeros, zero = k;
        if (zeros == 0) x.face_copy = c->second;
        else if (zeros == 1) x.edge_copy = c->second, x.edge_zero = zero;
      }
      if (x.edge_copy < 0 || x.face_copy < 0) return {};
      ring_of(x);
      out.push_back(x);
    } else if (copies > 2) {
      return {};
    }
    it = end;
  }
  return out;
}
}  // namespace

std::vector<CavityState> cavities_from_union(const std::vector<UnionComponent>& components,
                                             const std::vector<UnionMesh>& meshes,
                                             const std::vector<int>& slots) {
  std::vector<CavityState> out;
  for (size_t ci = 1; ci < components.size(); ++ci) {  // [0] is the outer skin
    const UnionComponent& comp = components[ci];
    if (!(comp.volume < 0.0)) continue;  // a second solid, not a void
    std::vector<char> has(meshes.size(), 0);
    for (int fb : comp.face_body) has[fb] = 1;
    if (std::count(has.begin(), has.end(), 1) < 2) continue;  // a void inside one body alone

    CavityState cav;
    for (size_t m = 0; m < meshes.size(); ++m)
      if (has[m]) cav.slots.push_back(slots[m]);
    std::sort(cav.slots.begin(), cav.slots.end());
    // one copy of each component vertex per body whose faces use it
    std::map<std::pair<int, int>, int> copy;  // (vertex, body) -> cavity vertex
    auto copy_of = [&](int v, int body, int source) {
      const auto key = std::make_pair(v, body);
      const auto it = copy.find(key);
      if (it != copy.end()) return it->second;
      const UnionMesh& m = meshes[body];
      const Tri& t = m.triangles[source];
      SurfacePoint sp;
      sp.slot = slots[body];
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
      const int body = comp.face_body[f];
      Tri t;
      for (int k = 0; k < 3; ++k) t[k] = copy_of(reversed[f][k], body, comp.face_source[f]);
      cav.triangles.push_back(t);
    }
    cav.seam_begin = static_cast<int>(cav.triangles.size());
    // seam: every edge between a face of body p (u→v) and one of body q > p (v→u) gets a quad
    // joining the two copies, so the mesh stays closed when the bodies slide or separate
    for (size_t f = 0; f < nt; ++f) {
      const int p = comp.face_body[f];
      for (int e = 0; e < 3; ++e) {
        const int u = reversed[f][e], v = reversed[f][(e + 1) % 3];
        const auto twin = face_of_edge.find(std::make_pair(v, u));
        if (twin == face_of_edge.end()) continue;
        const int q = comp.face_body[twin->second];
        if (q <= p) continue;
        const int up = copy.at({u, p}), vp = copy.at({v, p});
        const int uq = copy.at({u, q}), vq = copy.at({v, q});
        cav.triangles.push_back(Tri{vp, up, uq});
        cav.triangles.push_back(Tri{uq, vq, vp});
      }
    }
    close_junctions(cav);
    cav.crossings = seam_crossings(cav, copy, meshes, slots);
    out.push_back(std::move(cav));
  }
  return out;
}

std::vector<CavityState> cavities_from_union(const std::vector<UnionComponent>& components,
                                             const UnionMesh& a, const UnionMesh& b, int slot_a,
                                             int slot_b) {
  return cavities_from_union(components, std::vector<UnionMesh>{a, b}, std::vector<int>{slot_a, slot_b});
}

}  // namespace suction
