// Per-step timing of the stages of docs/method.md §1 (the paper's Table 1 columns).
#pragma once
#include <array>

#include "cavity/cavity_state.h"
#include "stages/stage_list.h"  // Stage, kStageCount, stage_name

namespace suction {

struct StepProfile {
  std::array<double, kStageCount> ms{};  // wall time of each stage [ms]
  double total_ms = 0.0;                 // whole step [ms]
  int contacts = 0;                      // contacts found this step (with rows)
  int contacts_reduced = 0;              // contacts others imply, dropped before the rows
                                         // (settings.contact.reduction, collision/reduction.h)
  int constraints = 0;                   // constraint rows (3 per contact + 1 per cavity)
  int cavities = 0;                      // active cavities (pressure rows)
  int cavity_unions = 0;                 // mesh unions computed this step
  int factorizations = 0;                // FEM bodies whose system was factorized this step
  int cg_iterations = 0;                 // CG iterations of FEM bodies that kept an old
                                         // factorization (settings.factorization.reuse)
  int cavity_union_failures = 0;         // mesh unions that failed this step (see warnings)
  int seals_opened = 0;                  // cavities released in this step because the solved
                                         // shape opened their seal (the step was solved again)
  int solver_iterations = 0;             // iterations of the constraint solver (its method's)
  double solver_residual = 0.0;          // the common residual of its forces (natural_residual)
  bool solver_converged = true;          // solver_residual ≤ settings.solver.tolerance
  AirLedger air;                         // where the cavities' air went (it closes: imbalance ≈ 0)
};

}  // namespace suction
