// The stages of one time step (../shared/METHOD.md section 1, the paper's Algorithm 1), each of
// the form stage(const Model&, State&, Workspace&).  Simulation::step calls them in order.
#pragma once
#include "model/model.h"
#include "model/state.h"
#include "model/workspace.h"

namespace suction {

/// 2. free motion: implicit Euler of every FEM body (A Δv = b), rigid bodies' unconstrained
///    velocities, prescribed motion of held nodes and kinematic bodies; fills v_free, x_free.
void free_motion(const Model& model, const State& state, Workspace& work);

/// 6. correction and integration: v = v_free + h A⁻¹ Hᵀ λ (constraint impulses, none yet),
///    x ← x + h v; records the drivers' reaction forces; advances time.
void correct_and_integrate(const Model& model, State& state, Workspace& work);

}  // namespace suction
