// Whether a model can replace another in a simulation that goes on (live tuning,
// Simulation::retune): the same bodies, meshes and constraint structure.
#pragma once
#include <string>

#include "model/model.h"

namespace suction {

/// What keeps `next` from replacing `running` in a simulation that goes on (Simulation::retune):
/// '' when both have the same bodies with the same meshes, fixed and driven nodes and rigid
/// kinds, the same drivers, springs and joints on the same bodies and nodes, and the same probes;
/// else what differs, e.g. "body 'cup': its mesh".  Everything else may differ: settings (the
/// leak, P_max, the time step, the solver), materials (friction, stiffness, density), masses,
/// driver and joint profiles, spring constants.
std::string running_difference(const Model& running, const Model& next);

}  // namespace suction
