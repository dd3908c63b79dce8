// Compliance stage (../shared/METHOD.md section 3): W = h H A⁻¹ Hᵀ through the selected
// ComplianceBackend (constraints/compliance_backend.h).
#pragma once
#include "model/model.h"
#include "model/state.h"
#include "model/workspace.h"

namespace suction {

/// 5a. builds W for the step's constraint rows.
void build_compliance(const Model& model, const State& state, Workspace& work);

/// 6 (first half). v += h A⁻¹ Hᵀ λ on FEM bodies (one solve with the step's factorization)
/// and dynamic rigid bodies (Bernardin 2023, Eq. 3); v_free in work is corrected in place.
void apply_constraint_impulses(const Model& model, const State& state, Workspace& work);

}  // namespace suction
