#include "stages/surface_points.h"

#include "model/body_slots.h"

namespace suction {

namespace {
/// fem_x(i): FEM body i's node positions; pose(i, p): rigid body i's local point p in the world
template <class FemX, class Pose>
void world_surface_points(const Model& model, FemX fem_x, Pose pose, std::vector<Points>& out) {
  const BodySlots slots(model);
  out.resize(slots.count());
  for (int s = 0; s < slots.count(); ++s) {
    const BodyRef b = slots.body(s);
    Points& p = out[s];
    if (b.type == BodyType::Fem) {
      const auto& map = model.fem[b.index].boundary.node_of_vertex;
      const Points& x = fem_x(b.index);
      p.resize(map.size());
      for (size_t v = 0; v < map.size(); ++v) p[v] = x[map[v]];
    } else {
      const Points& local = model.rigid[b.index].surface.vertices;
      p.resize(local.size());
      for (size_t v = 0; v < p.size(); ++v) p[v] = pose(b.index, local[v]);
    }
  }
}
}  // namespace

void surface_points_free(const Model& model, const Workspace& work, std::vector<Points>& out) {
  world_surface_points(
      model, [&](int i) -> const Points& { return work.fem_x_free[i]; },
      [&](int i, const Vec3& p) { return Vec3(work.rigid[i].x_free + work.rigid[i].q_free * p); }, out);
}

void surface_points_state(const Model& model, const State& state, std::vector<Points>& out) {
  world_surface_points(
      model, [&](int i) -> const Points& { return state.fem[i].x; },
      [&](int i, const Vec3& p) { return Vec3(state.rigid[i].position + state.rigid[i].orientation * p); }, out);
}

}  // namespace suction
