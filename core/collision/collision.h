// Collision stage (../shared/METHOD.md section 1 step 3): contacts between bodies at the
// free-motion positions, and their constraint rows H_c (normal, two tangents each).
#pragma once
#include "model/model.h"
#include "model/state.h"
#include "model/workspace.h"

namespace suction {

/// Registers every body's surface with the detector (FEM bodies first, then rigid bodies).
void init_collision(const Model& model, Workspace& work);

/// 3. finds contacts at x_free; fills work.contacts, contact_mu, rows (3 per contact) and
///    u_free (H v_free, kinematic and held motion included).
void detect_collisions(const Model& model, const State& state, Workspace& work);

/// Friction coefficient between two materials: the scene's pair value, else min(μ_a, μ_b).
double pair_friction(const Model& model, int material_a, int material_b);

}  // namespace suction
