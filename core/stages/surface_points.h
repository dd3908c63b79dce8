// Every slot's world surface vertices (model/body_slots.h) at one configuration: the
// collision stage takes them at the free-motion pose, the cavity stage at the solved shape.
#pragma once
#include <vector>

#include "model/model.h"
#include "model/state.h"
#include "stages/workspace.h"

namespace suction {

/// at the free-motion pose: FEM nodes at work.fem_x_free, rigid bodies at (x_free, q_free)
void surface_points_free(const Model& model, const Workspace& work, std::vector<Points>& out);
/// at the state's positions (the solved shape of the last step)
void surface_points_state(const Model& model, const State& state, std::vector<Points>& out);

}  // namespace suction
