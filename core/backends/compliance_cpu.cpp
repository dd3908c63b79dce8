// CPU compliance backend (docs/method.md §7): W = h H A⁻¹ Hᵀ, exact for the step's A.
// FEM bodies: one solve with the step's factorization per constraint row touching the body
// (a row touches at most 12 DOFs, so H is assembled sparse and only the touched rows of
// A⁻¹Hᵀ are read back); rigid bodies: analytic J M⁻¹ Jᵀ.
#include "backends/compliance_cpu.h"

#include <algorithm>

namespace suction {

namespace {

class CpuCompliance final : public ComplianceBackend {
 public:
  const char* name() const override { return "cpu"; }

  void init(const ComplianceSetup&) override {}

  void build(const ComplianceInput& in, Eigen::MatrixXd& W) override {
    const ConstraintRows& rows = *in.rows;
    W.setZero(rows.count(), rows.count());
    add_fem_blocks(in, rows, W);
    add_rigid_blocks(in, rows, W);
  }

 private:
  // per FEM body: Z = A⁻¹ H_bᵀ (one column per row touching b), W[r,s] += h H_b[r]·Z[:,s]
  void add_fem_blocks(const ComplianceInput& in, const ConstraintRows& rows, Eigen::MatrixXd& W) {
    const double h = in.h;
    for (size_t b = 0; b < in.fem.size(); ++b) {
      const ComplianceFemSystem& sys = in.fem[b];
      const std::vector<int>& free_index = *sys.free_index;
      // rows touching this body's free nodes, in increasing order
      row_local_.assign(rows.count(), -1);
      body_rows_.clear();
      terms_.clear();
      for (const auto& t : rows.fem_terms) {
        if (t.body != static_cast<int>(b) || free_index[t.node] < 0) continue;
        terms_.push_back(&t);
        if (row_local_[t.row] < 0) {
          row_local_[t.row] = 0;
          body_rows_.push_back(t.row);
        }
      }
      if (body_rows_.empty()) continue;
      std::sort(body_rows_.begin(), body_rows_.end());
      for (size_t k = 0; k < body_rows_.size(); ++k) row_local_[body_rows_[k]] = static_cast<int>(k);
      const int k_rows = static_cast<int>(body_rows_.size());
      Eigen::MatrixXd Z = Eigen::MatrixXd::Zero(3 * sys.num_free, k_rows);
      for (const auto* t : terms_)
        Z.block<3, 1>(3 * free_index[t->node], row_local_[t->row]) += t->coeff;
      sys.factorization->solve_many_in_place(Z);
      // W[r, s] += h Σ_{terms of r} coeff·Z(node, s)
      for (const auto* t : terms_) {
        const int r = t->row;
        const int fi = 3 * free_index[t->node];
        for (int s = 0; s < k_rows; ++s)
          W(r, body_rows_[s]) += h * t->coeff.dot(Z.block<3, 1>(fi, s));
      }
    }
  }

  // per dynamic rigid body: W[r,s] += h (l_r·l_s / m + a_rᵀ I_w⁻¹ a_s)
  void add_rigid_blocks(const ComplianceInput& in, const ConstraintRows& rows, Eigen::MatrixXd& W) {
    const double h = in.h;
    for (size_t i = 0; i < rows.rigid_terms.size(); ++i) {
      const auto& ti = rows.rigid_terms[i];
      const ComplianceRigidBody& body = in.rigid[ti.body];
      for (size_t j = 0; j < rows.rigid_terms.size(); ++j) {
        const auto& tj = rows.rigid_terms[j];
        if (tj.body != ti.body) continue;
        W(ti.row, tj.row) +=
            h * (ti.linear.dot(tj.linear) / body.mass + ti.angular.dot(body.inverse_inertia * tj.angular));
      }
    }
  }

  std::vector<int> row_local_, body_rows_;
  std::vector<const ConstraintRows::FemTerm*> terms_;
};

}  // namespace

std::unique_ptr<ComplianceBackend> make_cpu_compliance_backend() { return std::make_unique<CpuCompliance>(); }

}  // namespace suction
