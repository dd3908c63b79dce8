// Backends that build the compliance (Delassus) matrix W = h H A⁻¹ Hᵀ, the dominant cost of a
// step (docs/method.md §7; the paper's Tables 1 and 2).  One interface, one factory: the
// factory (backends/factory.cpp) is the only place that knows which backends exist; a backend
// that was not built is a clear error naming the CMake option.  Backends are kernels: they see
// per-body systems and rows (below), never the Model, State or Workspace; the compliance stage
// (stages/compliance.cpp) fills their input.  Adding a backend: docs/architecture.md.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include "constraints/rows.h"
#include "fem/factorization.h"

namespace suction {

/// The fixed part of one FEM body's system, known when the model is built.
struct ComplianceFemBody {
  const std::vector<int>* free_index = nullptr;  // per node: index among free nodes, -1 held
  int num_free = 0;                              // free nodes (A is 3·num_free square)
};

/// What a backend may prepare once per model (init): the bodies' sizes and patterns.
struct ComplianceSetup {
  std::vector<ComplianceFemBody> fem;  // per FEM body (Model::fem order)
  int num_rigid = 0;                   // rigid bodies (Model::rigid order)
};

/// One FEM body's system this step.
struct ComplianceFemSystem {
  const std::vector<int>* free_index = nullptr;      // per node: free index or -1
  int num_free = 0;
  const Eigen::SparseMatrix<double>* A = nullptr;    // (3·free)² system matrix, the one factorized
  const Factorization* factorization = nullptr;      // the step's factorization of A
  /// counts the body's factorizations: a step with the number of an earlier step has the same
  /// factorization (and A) as that step, so what a backend computed from it still holds
  std::uint64_t factor_generation = 0;
  /// (FactorizationReuse::follow_rotation) A⁻¹ is taken as Q A_f⁻¹ Qᵀ, A_f the matrix above
  /// and Q = diag(Q_i), per free node its turn since the factorization; null: Q = identity
  const std::vector<Mat3>* rotation = nullptr;
};

/// One rigid body this step: a dynamic body's mass and world inverse inertia (W's rigid
/// blocks are l_r·l_s/m + a_rᵀ I⁻¹ a_s); fixed and kinematic bodies have no terms.
struct ComplianceRigidBody {
  bool dynamic = false;
  double mass = 0.0;                     // [kg]
  Mat3 inverse_inertia = Mat3::Zero();   // world frame, start of the step [1/(kg m²)]
};

/// Everything build() reads.
struct ComplianceInput {
  double h = 0.0;                            // time step [s]
  const ConstraintRows* rows = nullptr;      // rows.count() rows in rows.layout's order
  std::vector<ComplianceFemSystem> fem;      // per FEM body
  std::vector<ComplianceRigidBody> rigid;    // per rigid body
  /// factorizations are reused across steps (FactorizationReuse): a backend may keep, per
  /// body and factor_generation, what it computed (the CPU backend keeps A⁻¹ on contact nodes)
  bool factorizations_reused = false;
};

/// Constructing a backend must be cheap (the scene validator makes one to check the name);
/// allocation and device set-up belong in init().
class ComplianceBackend {
 public:
  virtual ~ComplianceBackend() = default;
  virtual const char* name() const = 0;
  /// whether build() applies ComplianceFemSystem::rotation (a backend that does not is refused
  /// with FactorizationReuse::follow_rotation)
  virtual bool applies_rotation() const { return false; }
  /// Once per model (Simulation construction and reset): allocate what build() reuses.
  virtual void init(const ComplianceSetup& setup) = 0;
  /// Optional, once per step as soon as the FEM systems are known (after free motion, before
  /// collision and cavities): input.fem and input.h are set, input.rows is null.  A backend may
  /// start work that needs no rows here (the CUDA backend queues its factorizations on the
  /// device, to run while the CPU detects contacts).  The systems must not change before build().
  virtual void prepare(const ComplianceInput& input) {}
  /// W = h H A⁻¹ Hᵀ: rows.count() square, symmetric [m/(N s)·s = m/N for contact rows].
  /// Works with or without a prepare() of the same step.
  virtual void build(const ComplianceInput& input, Eigen::MatrixXd& W) = 0;
  /// W of the last build() where the backend keeps it on a GPU (column-major, the same values
  /// as the host's W), valid until the next build(); null for a backend that does not, or when
  /// the last W does not have `rows` rows.  A GPU solver (solver/solver.h) reads it there
  /// instead of sending W again.
  virtual const double* device_matrix(int rows) const { return nullptr; }
};

/// Names of the backends in this build ("cpu" always; "cuda" with -DSUCTION_WITH_CUDA=ON).
std::vector<std::string> available_compliance_backends();
/// What a built backend runs on, in words ("" for cpu; for cuda the device, or why there is none).
std::string compliance_backend_device(const std::string& name);
/// A backend by name; throws InputError naming the CMake option for a backend that is not
/// built, or listing the available ones for an unknown name.
std::unique_ptr<ComplianceBackend> make_compliance_backend(const std::string& name);

class ConstraintSolver;  // solver/solver.h
/// Names of the constraint solvers in this build ("pgs", "apgd", "uzawa"; "apgd_cuda" with
/// -DSUCTION_WITH_CUDA=ON).
std::vector<std::string> available_constraint_solvers();
/// A solver by name; throws InputError as make_compliance_backend does.
std::unique_ptr<ConstraintSolver> make_constraint_solver(const std::string& name);
/// Throws the InputError that make_constraint_solver(name) would (for validators, which need
/// no solver).
void check_constraint_solver(const std::string& name);

}  // namespace suction
