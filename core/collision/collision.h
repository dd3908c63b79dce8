// Collision detection on the free-motion positions (../shared/METHOD.md section 1 step 3).
// Stage placeholder: contacts arrive with the frictional-contact issue.
#pragma once
#include "model/model.h"
#include "model/state.h"
#include "model/workspace.h"

namespace suction {

/// 3. finds contacts between bodies at x_free; fills the contact rows.  (No contacts yet.)
void detect_collisions(const Model& model, const State& state, Workspace& work);

}  // namespace suction
