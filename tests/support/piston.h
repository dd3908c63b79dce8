// A kinematic piston over a fixed rigid cylinder, the bore between them sealed as a tracked
// cavity by hand: the gas-law oracles (Boyle's law, tests/cavity/test_cavity.cpp; the adiabatic,
// polytropic and exchange laws, tests/solver/test_gas_law.cpp).  The bore is 40 × 40 mm and
// 20 mm high at t = 0; the piston's driver segments are the caller's.
#pragma once
#include <algorithm>
#include <string>
#include <vector>

#include "cavity/cavity_mesh.h"
#include "cavity/cavity_state.h"
#include "scene/scene.h"
#include "sim/simulation.h"

namespace suction::test {

constexpr double kBoreArea = 0.04 * 0.04;  // [m²]
constexpr double kBoreHeight = 0.02;       // at t = 0 [m]

/// The piston scene.  cavity: the JSON object of settings.cavity; segments: the JSON array of
/// the kinematic piston's position-driver segments; dt: the time step.  With free = true the
/// piston is a dynamic rigid body (0.1248 kg) pushed by `segments` as a force driver's keyframes.
inline std::string piston_scene(const std::string& cavity, const std::string& segments, double dt = 0.002,
                                bool free = false) {
  const std::string driver = free ? R"({"name": "push", "type": "force", "body": "piston", "keyframes": )"
                                  : R"({"name": "push", "type": "position", "body": "piston", "segments": )";
  return R"({
  "name": "piston",
  "settings": {"dt": )" + std::to_string(dt) + R"(, "gravity": [0, 0, 0], "cavity": )" + cavity + R"(},
  "materials": {"steel": {"young": 2e11, "poisson": 0.3, "density": 7800, "friction": 0}},
  "bodies": [
    {"name": "cylinder", "type": "fixed", "material": "steel",
     "mesh": {"generator": "box", "size": [0.04, 0.04, 0.01]}, "position": [0, 0, -0.005]},
    {"name": "piston", "type": ")" + std::string(free ? "rigid" : "kinematic") + R"(", "material": "steel",
     "mesh": {"generator": "box", "size": [0.04, 0.04, 0.01]}, "position": [0, 0, 0.025]}
  ],
  "drivers": [)" + driver + segments + R"(}]
})";
}

namespace detail {
/// The surface point of `slot` at vertex v of its surface.
inline SurfacePoint at_vertex(const SurfaceMesh& m, int slot, int v) {
  for (size_t t = 0; t < m.triangles.size(); ++t)
    for (int k = 0; k < 3; ++k)
      if (m.triangles[t][k] == v) {
        SurfacePoint p;
        p.slot = slot;
        p.triangle = static_cast<int>(t);
        p.bary = Vec3::Zero();
        p.bary[k] = 1.0;
        return p;
      }
  return {};
}
}  // namespace detail

/// The bore as a cavity of ambient air: the box between the cylinder's top face (z = 0) and the
/// piston's bottom face (z = 20 mm), its walls mapped to the cylinder (bottom) and the piston
/// (top).  Returns false (and adds nothing) when the meshes are not the scene's boxes.
inline bool seal_piston_bore(Simulation& sim) {
  const Model& m = sim.model();
  const SurfaceMesh& cyl = m.rigid[0].surface;
  const SurfaceMesh& pis = m.rigid[1].surface;
  const State& s0 = sim.state();
  std::vector<int> bottom, top;
  for (size_t v = 0; v < cyl.vertices.size(); ++v)
    if ((s0.rigid[0].position + cyl.vertices[v]).z() > -1e-9) bottom.push_back(static_cast<int>(v));
  for (size_t v = 0; v < pis.vertices.size(); ++v)
    if ((s0.rigid[1].position + pis.vertices[v]).z() < kBoreHeight + 1e-9) top.push_back(static_cast<int>(v));
  if (bottom.size() != 4 || top.size() != 4) return false;
  // order both squares by (x, y): 0 (-,-), 1 (+,-), 2 (-,+), 3 (+,+)
  auto order = [&](std::vector<int>& idx, const SurfaceMesh& mesh) {
    std::sort(idx.begin(), idx.end(), [&](int i, int j) {
      const Vec3 &a = mesh.vertices[i], &b = mesh.vertices[j];
      return a.y() != b.y() ? a.y() < b.y() : a.x() < b.x();
    });
  };
  order(bottom, cyl);
  order(top, pis);
  CavityState c;
  c.id = 0;
  c.slots = {0, 1};
  for (int v : bottom) c.vertices.push_back(detail::at_vertex(cyl, 0, v));  // 0..3
  for (int v : top) c.vertices.push_back(detail::at_vertex(pis, 1, v));     // 4..7
  // a box 0..7 with outward triangles; the side quads' diagonals alternate, so that the walls'
  // pressure loads exert no torque about the bore's axis on a free piston (one sense of
  // diagonal on every side spins it)
  c.triangles = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 5}, {0, 5, 4},
                 {1, 3, 5}, {3, 7, 5}, {3, 2, 6}, {3, 6, 7}, {2, 0, 6}, {0, 4, 6}};
  c.seam_begin = 12;
  const double v0 = mesh_volume(cavity_world_vertices(m, s0, c), c.triangles);
  c.volume = v0;
  c.max_volume = v0;
  c.air = m.settings.p_atm * v0;
  c.pressure = m.settings.p_atm;
  c.temperature = m.settings.cavity.gas.t_ambient;
  sim.mutable_state().book.cavities.push_back(c);
  return true;
}

}  // namespace suction::test
