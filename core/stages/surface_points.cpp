#include "stages/surface_points.h"

#include "model/body_slots.h"

namespace suction {

void world_surface_points(const Model& model, const std::vector<const Points*>& fem_x,
                          const std::vector<Vec3>& position, const std::vector<Quat>& orientation,
                          std::vector<Points>& out) {
  const BodySlots slots(model);
  out.resize(slots.count());
  for (int s = 0; s < slots.count(); ++s) {
    const BodyRef b = slots.body(s);
    Points& p = out[s];
    if (b.type == BodyType::Fem) {
      const auto& map = model.fem[b.index].boundary.node_of_vertex;
      const Points& x = *fem_x[b.index];
      p.resize(map.size());
      for (size_t v = 0; v < map.size(); ++v) p[v] = x[map[v]];
    } else {
      const RigidBody& body = model.rigid[b.index];
      p.resize(body.surface.vertices.size());
      for (size_t v = 0; v < p.size(); ++v) p[v] = position[b.index] + orientation[b.index] * body.surface.vertices[v];
    }
  }
}

}  // namespace suction
