// The CUDA compliance backend, host side: turns the step's systems and rows into plain arrays
// for the device (dense_compliance.cu) and its failures into the simulator's errors.
//   prepare: every FEM body's A (compressed columns) is sent and its factorization queued, to
//   run on the device while the CPU detects contacts and cavities;
//   build: per FEM body Hᵀ's entries for the rows touching its free nodes, combined per (row,
//   node) in the rows' term order (as the CPU backend fills Z); per rigid body J (rows × 6) and
//   M⁻¹J from the same terms the CPU backend reads; then the device's work in one burst.
#include "backends/cuda/compliance_cuda.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <unordered_map>

#include "backends/cuda/cuda_info.h"
#include "backends/cuda/dense_compliance.h"
#include "common/error.h"

namespace suction {

namespace {

class CudaCompliance final : public ComplianceBackend {
 public:
  const char* name() const override { return "cuda"; }

  ~CudaCompliance() override {
    if (!profile_ || host_.steps == 0) return;
    const cuda::DenseCompliance::Timings& t = device_.timings();
    const double n = static_cast<double>(host_.steps);
    std::fprintf(stderr,
                 "cuda compliance profile, mean ms over %ld builds: build %.3f = host arrays %.3f + "
                 "queueing %.3f + wait and copy %.3f; on the device: factorize %.3f, solve %.3f, rigid %.3f, "
                 "download %.3f\n",
                 host_.steps, host_.build_ms / n, host_.prepare_ms / n, host_.enqueue_ms / n, host_.finish_ms / n,
                 t.factorize_ms / n,
                 t.solve_ms / n, t.rigid_ms / n, t.download_ms / n);
  }

  void init(const ComplianceSetup& setup) override {
    try {
      const char* env = std::getenv("SUCTION_CUDA_PROFILE");
      profile_ = env && *env && std::string(env) != "0";
      device_.enable_timings(profile_);
      device_.init(static_cast<int>(setup.fem.size()), setup.num_rigid);
    } catch (const cuda::CudaError& e) {
      throw SimulationError("compliance backend 'cuda': " + e.message);
    }
  }

  void prepare(const ComplianceInput& in) override {
    try {
      for (size_t b = 0; b < in.fem.size(); ++b) factorize(in, static_cast<int>(b));
    } catch (const cuda::CudaError& e) {
      throw SimulationError("compliance backend 'cuda': " + e.message);
    }
  }

  const double* device_matrix(int rows) const override { return device_.device_W(rows); }

  void build(const ComplianceInput& in, Eigen::MatrixXd& W) override {
    const ConstraintRows& rows = *in.rows;
    const int k = rows.count();
    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();
    W.resize(k, k);
    try {
      // the host's arrays first, then the device's work queued in one burst
      fem_arrays(in, rows);
      rigid_arrays(in, rows);
      for (size_t b = 0; b < in.fem.size(); ++b) {
        if (fem_[b].rows.empty()) continue;
        const Eigen::SparseMatrix<double>& A = *in.fem[b].A;
        if (!device_.factorized(static_cast<int>(b), static_cast<int>(A.nonZeros()), A.valuePtr()))
          factorize(in, static_cast<int>(b));
      }
      const auto t_arrays = Clock::now();
      device_.begin(k);
      for (size_t b = 0; b < fem_.size(); ++b) {
        const FemArrays& f = fem_[b];
        if (f.rows.empty()) continue;
        device_.add_fem(static_cast<int>(b), static_cast<int>(f.rows.size()), f.rows.data(),
                        static_cast<int>(f.dof.size()), f.dof.data(), f.col.data(), f.value.data(), in.h);
      }
      for (size_t r = 0; r < rigid_.size(); ++r) {
        const RigidArrays& a = rigid_[r];
        if (a.rows.empty()) continue;
        device_.add_rigid(static_cast<int>(r), static_cast<int>(a.rows.size()), a.rows.data(), a.J.data(),
                          a.MinvJ.data(), in.h);
      }
      const auto t1 = Clock::now();
      const int failed = device_.finish(W.data());
      if (profile_) {
        const auto t2 = Clock::now();
        ++host_.steps;
        host_.prepare_ms += std::chrono::duration<double, std::milli>(t_arrays - t0).count();
        host_.enqueue_ms += std::chrono::duration<double, std::milli>(t1 - t_arrays).count();
        host_.finish_ms += std::chrono::duration<double, std::milli>(t2 - t1).count();
        host_.build_ms += std::chrono::duration<double, std::milli>(t2 - t0).count();
      }
      if (failed >= 0)
        throw SimulationError("compliance backend 'cuda': the system matrix of FEM body " + std::to_string(failed) +
                              " is not positive definite on the device (dense Cholesky failed)");
    } catch (const cuda::CudaError& e) {
      throw SimulationError("compliance backend 'cuda': " + e.message);
    }
  }

 private:
  struct FemArrays {
    std::vector<int> rows, dof, col;  // global rows (increasing); Hᵀ's entries
    std::vector<double> value;
  };
  struct RigidArrays {
    std::vector<int> rows;
    Eigen::Matrix<double, Eigen::Dynamic, 6> J, MinvJ;
  };

  void factorize(const ComplianceInput& in, int b) {
    const ComplianceFemSystem& sys = in.fem[b];
    if (sys.num_free == 0) return;
    const Eigen::SparseMatrix<double>& A = *sys.A;
    if (!A.isCompressed()) throw SimulationError("compliance backend 'cuda': the system matrix is not compressed");
    device_.factorize(b, static_cast<int>(A.rows()), static_cast<int>(A.nonZeros()), A.outerIndexPtr(),
                      A.innerIndexPtr(), A.valuePtr());
  }

  // per FEM body: the rows touching its free nodes and Hᵀ's entries, one per (dof, column); a
  // repeated (row, node) is summed in term order, as the CPU backend fills Z
  void fem_arrays(const ComplianceInput& in, const ConstraintRows& rows) {
    fem_.resize(in.fem.size());
    for (size_t b = 0; b < in.fem.size(); ++b) {
      FemArrays& f = fem_[b];
      f.rows.clear();
      f.dof.clear();
      f.col.clear();
      f.value.clear();
      const ComplianceFemSystem& sys = in.fem[b];
      const std::vector<int>& free_index = *sys.free_index;
      row_local_.assign(rows.count(), -1);
      for (const auto& t : rows.fem_terms) {
        if (t.body != static_cast<int>(b) || free_index[t.node] < 0) continue;
        if (row_local_[t.row] < 0) {
          row_local_[t.row] = 0;
          f.rows.push_back(t.row);
        }
      }
      if (f.rows.empty()) continue;
      std::sort(f.rows.begin(), f.rows.end());
      for (size_t c = 0; c < f.rows.size(); ++c) row_local_[f.rows[c]] = static_cast<int>(c);
      slot_.clear();
      for (const auto& t : rows.fem_terms) {
        if (t.body != static_cast<int>(b) || free_index[t.node] < 0) continue;
        const int col = row_local_[t.row];
        const int dof0 = 3 * free_index[t.node];
        const long long key = static_cast<long long>(col) * (3LL * sys.num_free) + dof0;
        auto [it, inserted] = slot_.try_emplace(key, static_cast<int>(f.dof.size()));
        if (inserted) {
          for (int d = 0; d < 3; ++d) {
            f.dof.push_back(dof0 + d);
            f.col.push_back(col);
            f.value.push_back(t.coeff[d]);
          }
        } else {
          for (int d = 0; d < 3; ++d) f.value[it->second + d] += t.coeff[d];
        }
      }
    }
  }

  // per dynamic rigid body: J (rows × 6) and M⁻¹J
  void rigid_arrays(const ComplianceInput& in, const ConstraintRows& rows) {
    rigid_.resize(in.rigid.size());
    for (size_t r = 0; r < in.rigid.size(); ++r) {
      RigidArrays& a = rigid_[r];
      a.rows.clear();
      const ComplianceRigidBody& body = in.rigid[r];
      if (!body.dynamic) continue;
      row_local_.assign(rows.count(), -1);
      for (const auto& t : rows.rigid_terms)
        if (t.body == static_cast<int>(r) && row_local_[t.row] < 0) {
          row_local_[t.row] = 0;
          a.rows.push_back(t.row);
        }
      if (a.rows.empty()) continue;
      std::sort(a.rows.begin(), a.rows.end());
      for (size_t c = 0; c < a.rows.size(); ++c) row_local_[a.rows[c]] = static_cast<int>(c);
      const int kb = static_cast<int>(a.rows.size());
      a.J.setZero(kb, 6);
      for (const auto& t : rows.rigid_terms) {
        if (t.body != static_cast<int>(r)) continue;
        a.J.block<1, 3>(row_local_[t.row], 0) += t.linear.transpose();
        a.J.block<1, 3>(row_local_[t.row], 3) += t.angular.transpose();
      }
      a.MinvJ.resize(kb, 6);
      a.MinvJ.leftCols<3>() = a.J.leftCols<3>() / body.mass;
      a.MinvJ.rightCols<3>() = a.J.rightCols<3>() * body.inverse_inertia.transpose();
    }
  }

  cuda::DenseCompliance device_;
  bool profile_ = false;
  struct {
    long steps = 0;
    double build_ms = 0, prepare_ms = 0, enqueue_ms = 0, finish_ms = 0;
  } host_;
  std::vector<FemArrays> fem_;
  std::vector<RigidArrays> rigid_;
  std::vector<int> row_local_;
  std::unordered_map<long long, int> slot_;
};

}  // namespace

std::unique_ptr<ComplianceBackend> make_cuda_compliance_backend() {
  if (cuda_device_count() == 0)
    throw InputError("compliance backend 'cuda': " + cuda::device_description() +
                     " (this build has the CUDA backend, but it needs an NVIDIA GPU and driver at run time; "
                     "use compliance_backend \"cpu\")");
  return std::make_unique<CudaCompliance>();
}

std::string cuda_device_summary() { return cuda::device_description(); }

}  // namespace suction
