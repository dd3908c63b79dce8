#include "cavity/cavity.h"

#include "rigid/rigid_dynamics.h"

namespace suction {

Vec3 surface_point_world(const Model& model, const State& state, const SurfacePoint& p) {
  const int nf = static_cast<int>(model.fem.size());
  if (p.slot < nf) {
    const BoundarySurface& bs = model.fem[p.slot].boundary;
    const Tri& t = bs.surface.triangles[p.triangle];
    const Points& x = state.fem[p.slot].x;
    return p.bary[0] * x[bs.node_of_vertex[t[0]]] + p.bary[1] * x[bs.node_of_vertex[t[1]]] +
           p.bary[2] * x[bs.node_of_vertex[t[2]]];
  }
  const RigidBody& b = model.rigid[p.slot - nf];
  const Tri& t = b.surface.triangles[p.triangle];
  const Vec3 local = p.bary[0] * b.surface.vertices[t[0]] + p.bary[1] * b.surface.vertices[t[1]] +
                     p.bary[2] * b.surface.vertices[t[2]];
  return rigid_point(state.rigid[p.slot - nf], local);
}

Points cavity_world_vertices(const Model& model, const State& state, const CavityState& c) {
  Points x(c.vertices.size());
  for (size_t i = 0; i < c.vertices.size(); ++i) x[i] = surface_point_world(model, state, c.vertices[i]);
  return x;
}

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

void leak_cavities(const Model& model, State& state, Workspace&) {
  const double h = model.settings.dt;
  for (CavityState& c : state.cavities)
    if (!c.dormant) c.air += h * model.settings.cavity.leak_rate;
}

}  // namespace suction
