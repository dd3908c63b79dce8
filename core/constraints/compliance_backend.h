// Backends that build the compliance (Delassus) matrix W = h H A⁻¹ Hᵀ, the dominant cost of a
// step (the paper's Tables 1 and 2).  One interface, one factory: the factory is the only
// place that knows which backends exist; a backend that was not built is a clear error naming
// the CMake option.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "constraints/rows.h"
#include "model/model.h"
#include "model/state.h"

namespace suction {

struct Workspace;

class ComplianceBackend {
 public:
  virtual ~ComplianceBackend() = default;
  virtual const char* name() const = 0;
  /// W = h H A⁻¹ Hᵀ (rows.count square, symmetric) with the step's factorizations of A held
  /// in work (FEM bodies) and the world inertia of rigid bodies; rows in any order.
  virtual void build(const Model& model, const State& state, const Workspace& work,
                     const ConstraintRows& rows, double h, Eigen::MatrixXd& W) = 0;
};

/// "cpu" (always built) or "cuda" (built with -DSUCTION_WITH_CUDA=ON); throws InputError
/// naming the CMake option for a backend that is not built, and listing the known ones.
std::unique_ptr<ComplianceBackend> make_compliance_backend(const std::string& name);
std::vector<std::string> available_compliance_backends();

}  // namespace suction
