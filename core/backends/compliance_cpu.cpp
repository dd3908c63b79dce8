// CPU compliance backend (docs/method.md §7): W = h H A⁻¹ Hᵀ, exact for the step's A.
// FEM bodies: G = H_b A⁻¹ H_bᵀ from the step's factorization with H_b sparse (a contact row
// touches at most 12 DOFs); the supernodal Cholesky computes it as Yᵀ Y, Y = L⁻¹ P H_bᵀ, over
// the supernodes each row reaches (fem/block_ldlt.h); rigid bodies: analytic J M⁻¹ Jᵀ.
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
      // B = H_bᵀ restricted to the body's free DOFs (one column per row), G = Bᵀ A⁻¹ B
      triplets_.clear();
      for (const auto* t : terms_)
        for (int d = 0; d < 3; ++d)
          if (t->coeff[d] != 0.0) triplets_.emplace_back(3 * free_index[t->node] + d, row_local_[t->row], t->coeff[d]);
      B_.resize(3 * sys.num_free, k_rows);
      B_.setFromTriplets(triplets_.begin(), triplets_.end());
      sys.factorization->inverse_quadratic_form(B_, G_);
      for (int s = 0; s < k_rows; ++s)
        for (int r = 0; r < k_rows; ++r) W(body_rows_[r], body_rows_[s]) += h * G_(r, s);
    }
  }

  // per dynamic rigid body b with terms (rows) r, s: W[r,s] += h (l_r·l_s / m + a_rᵀ I_w⁻¹ a_s),
  // as one product J M⁻¹ Jᵀ per body (J: the body's terms × 6) rather than a loop over all
  // pairs of terms of all bodies
  void add_rigid_blocks(const ComplianceInput& in, const ConstraintRows& rows, Eigen::MatrixXd& W) {
    const double h = in.h;
    for (size_t b = 0; b < in.rigid.size(); ++b) {
      rigid_terms_.clear();
      for (const auto& t : rows.rigid_terms)
        if (t.body == static_cast<int>(b)) rigid_terms_.push_back(&t);
      if (rigid_terms_.empty()) continue;
      const ComplianceRigidBody& body = in.rigid[b];
      const int nt = static_cast<int>(rigid_terms_.size());
      J_.resize(nt, 6);
      MJ_.resize(nt, 6);  // rows of J M⁻¹
      for (int i = 0; i < nt; ++i) {
        const auto& t = *rigid_terms_[i];
        J_.block<1, 3>(i, 0) = t.linear.transpose();
        J_.block<1, 3>(i, 3) = t.angular.transpose();
        MJ_.block<1, 3>(i, 0) = t.linear.transpose() / body.mass;
        MJ_.block<1, 3>(i, 3) = (body.inverse_inertia * t.angular).transpose();
      }
      S_.noalias() = MJ_ * J_.transpose();
      for (int j = 0; j < nt; ++j)
        for (int i = 0; i < nt; ++i) W(rigid_terms_[i]->row, rigid_terms_[j]->row) += h * S_(i, j);
    }
  }

  std::vector<int> row_local_, body_rows_;
  std::vector<const ConstraintRows::FemTerm*> terms_;
  std::vector<Eigen::Triplet<double>> triplets_;
  Eigen::SparseMatrix<double> B_;
  Eigen::MatrixXd G_;
  std::vector<const ConstraintRows::RigidTerm*> rigid_terms_;
  Eigen::Matrix<double, Eigen::Dynamic, 6> J_, MJ_;
  Eigen::MatrixXd S_;
};

}  // namespace

std::unique_ptr<ComplianceBackend> make_cpu_compliance_backend() { return std::make_unique<CpuCompliance>(); }

}  // namespace suction
