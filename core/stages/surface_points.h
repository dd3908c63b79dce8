// Every slot's world surface vertices (model/body_slots.h) at a given configuration: the
// collision stage takes them at the free-motion pose, the cavity stage at the solved shape.
#pragma once
#include <vector>

#include "model/model.h"

namespace suction {

/// out[slot]: the slot's surface vertices in world coordinates, FEM bodies from their node
/// positions fem_x[body] (#nodes×3), rigid bodies from their pose (position[i], orientation[i]).
void world_surface_points(const Model& model, const std::vector<const Points*>& fem_x,
                          const std::vector<Vec3>& position, const std::vector<Quat>& orientation,
                          std::vector<Points>& out);

}  // namespace suction
