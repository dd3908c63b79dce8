// Projected Gauss-Seidel on contacts and cavity pressures (../shared/METHOD.md section 3).
// Stage placeholder: the solver arrives with the frictional-contact issue.
#pragma once
#include "model/model.h"
#include "model/state.h"
#include "model/workspace.h"

namespace suction {

/// 5b. solves for contact forces λ and cavity pressures P.  (Nothing to solve yet.)
void solve_constraints(const Model& model, State& state, Workspace& work);

}  // namespace suction
