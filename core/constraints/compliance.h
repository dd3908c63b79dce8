// Compliance (Delassus) matrices W = h H A⁻¹ Hᵀ (../shared/METHOD.md section 3).
// Stage placeholder: the ComplianceBackend arrives with the frictional-contact issue.
#pragma once
#include "model/model.h"
#include "model/state.h"
#include "model/workspace.h"

namespace suction {

/// 5a. builds W for the step's constraint rows.  (No rows yet.)
void build_compliance(const Model& model, const State& state, Workspace& work);

}  // namespace suction
