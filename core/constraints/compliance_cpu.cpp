// CPU compliance backend: W = h H A⁻¹ Hᵀ, exact for the step's A.
// FEM bodies: one solve with the step's factorization per constraint row touching the body
// (a row touches at most 12 DOFs, so H is assembled sparse and only the touched rows of
// A⁻¹Hᵀ are read back); rigid bodies: analytic J M⁻¹ Jᵀ.
#include <algorithm>

#include "common/error.h"
#include "constraints/compliance_backend.h"
#include "model/workspace.h"
#include "rigid/rigid_dynamics.h"

#if SUCTION_HAVE_CUDA
#include "backends/cuda/compliance_cuda.h"
#endif

namespace suction {

namespace {

class CpuCompliance final : public ComplianceBackend {
 public:
  const char* name() const override { return "cpu"; }

  void build(const Model& model, const State& state, const Workspace& work,
             const ConstraintRows& rows, double h, Eigen::MatrixXd& W) override {
    const int m = rows.count;
    W.setZero(m, m);
    add_fem_blocks(model, work, rows, h, W);
    add_rigid_blocks(model, state, rows, h, W);
  }

 private:
  // per FEM body: Z = A⁻¹ H_bᵀ (one column per row touching b), W[r,s] += h H_b[r]·Z[:,s]
  void add_fem_blocks(const Model& model, const Workspace& work, const ConstraintRows& rows,
                      double h, Eigen::MatrixXd& W) {
    for (size_t b = 0; b < model.fem.size(); ++b) {
      const FemSystem& sys = work.fem[b];
      // rows touching this body's free nodes, in increasing order
      row_local_.assign(rows.count, -1);
      body_rows_.clear();
      terms_.clear();
      for (const auto& t : rows.fem_terms) {
        if (t.body != static_cast<int>(b) || sys.free_index[t.node] < 0) continue;
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
        Z.block<3, 1>(3 * sys.free_index[t->node], row_local_[t->row]) += t->coeff;
      sys.solver->solve_many_in_place(Z);
      // W[r, s] += h Σ_{terms of r} coeff·Z(node, s)
      for (const auto* t : terms_) {
        const int r = t->row;
        const int fi = 3 * sys.free_index[t->node];
        for (int s = 0; s < k_rows; ++s)
          W(r, body_rows_[s]) += h * t->coeff.dot(Z.block<3, 1>(fi, s));
      }
    }
  }

  // per dynamic rigid body: W[r,s] += h (l_r·l_s / m + a_rᵀ I_w⁻¹ a_s)
  void add_rigid_blocks(const Model& model, const State& state, const ConstraintRows& rows,
                        double h, Eigen::MatrixXd& W) {
    for (size_t i = 0; i < rows.rigid_terms.size(); ++i) {
      const auto& ti = rows.rigid_terms[i];
      const RigidBody& body = model.rigid[ti.body];
      const Mat3 Iinv = world_inertia(body, state.rigid[ti.body].orientation).inverse();
      for (size_t j = 0; j < rows.rigid_terms.size(); ++j) {
        const auto& tj = rows.rigid_terms[j];
        if (tj.body != ti.body) continue;
        W(ti.row, tj.row) += h * (ti.linear.dot(tj.linear) / body.mass + ti.angular.dot(Iinv * tj.angular));
      }
    }
  }

  std::vector<int> row_local_, body_rows_;
  std::vector<const ConstraintRows::FemTerm*> terms_;
};

}  // namespace

std::vector<std::string> available_compliance_backends() {
  std::vector<std::string> names = {"cpu"};
#if SUCTION_HAVE_CUDA
  names.push_back("cuda");
#endif
  return names;
}

std::unique_ptr<ComplianceBackend> make_compliance_backend(const std::string& name) {
  if (name == "cpu") return std::make_unique<CpuCompliance>();
  if (name == "cuda") {
#if SUCTION_HAVE_CUDA
    return make_cuda_compliance_backend();
#else
    throw InputError("compliance backend 'cuda' is not built: configure with -DSUCTION_WITH_CUDA=ON "
                     "(make cuda); available: cpu");
#endif
  }
  std::string list;
  for (const auto& n : available_compliance_backends()) list += (list.empty() ? "" : ", ") + n;
  throw InputError("unknown compliance backend '" + name + "'; available: " + list);
}

}  // namespace suction
