// Projected Gauss-Seidel on the contact blocks (../shared/METHOD.md section 3; Jourdan, Alart,
// Jean 1998): per contact, Signorini on the normal written at velocity level with the gap
// term, Coulomb friction by projection on the disk ‖λ_t‖ ≤ μ λ_n; warm-started from the
// previous step's forces matched by contact identity.  Cavity pressures join with the
// suction issue (one quadratic per cavity after the contact sweep).
#pragma once
#include "model/model.h"
#include "model/state.h"
#include "model/workspace.h"

namespace suction {

/// 5b. solves for the contact forces λ (work.lambda, [N]).
void solve_constraints(const Model& model, State& state, Workspace& work);

struct PgsResult {
  int iterations = 0;
  double residual = 0.0;  // largest change of a force in the last sweep, relative to the largest force
};

/// The contact problem alone, for tests and backends: rows 3k, 3k+1, 3k+2 are contact k's
/// normal and tangents; target normal velocity −gap_k/h; friction mu_k.  lambda: warm start in,
/// solution out.
PgsResult solve_contacts_pgs(const Eigen::MatrixXd& W, const VecX& u_free, const std::vector<double>& gap,
                             const std::vector<double>& mu, double h, int max_iterations,
                             double tolerance, VecX& lambda);

}  // namespace suction
