// Workspace: per-step scratch of the stages (free velocities, factorizations, constraint data).
// Rebuilt from the Model; never part of the physical state.
#pragma once
#include "fem/implicit_euler.h"
#include "model/model.h"

namespace suction {

struct RigidWork {
  Vec3 v_free = Vec3::Zero();  // end-of-step velocity without constraints [m/s]
  Vec3 w_free = Vec3::Zero();  // [rad/s]
};

struct Workspace {
  std::vector<FemSystem> fem;        // per FEM body: system matrix and its factorization
  std::vector<Points> fem_v_free;    // per FEM body: #nodes×3 free velocities [m/s]
  std::vector<Points> fem_x_free;    // per FEM body: #nodes×3 free positions [m]
  std::vector<RigidWork> rigid;      // per rigid body
  // constraint stages (filled by the collision, cavity and solver modules)
  int num_contacts = 0;
  int num_constraints = 0;
  int solver_iterations = 0;
  double solver_residual = 0.0;
};

/// Sizes the workspace and analyses each FEM body's system pattern.
void init_workspace(const Model& model, Workspace& work);

}  // namespace suction
