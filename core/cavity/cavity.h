// Trapped-air cavities (../shared/METHOD.md sections 1 step 1 and 4).
// Stage placeholders: cavities arrive with the passive-suction issue.
#pragma once
#include "model/model.h"
#include "model/state.h"
#include "model/workspace.h"

namespace suction {

/// 1. leak: N ← N + h Ṅ_leak for every tracked cavity.  (No cavities yet.)
void leak_cavities(const Model& model, State& state, Workspace& work);

/// 4. cavity detection / update at x_free.  (No cavities yet.)
void update_cavities(const Model& model, State& state, Workspace& work);

}  // namespace suction
