// Workspace: per-step scratch of the stages (free velocities, factorizations, constraint data).
// Rebuilt from the Model; never part of the physical state.
#pragma once
#include <memory>

#include "collision/contact.h"
#include "collision/detector.h"
#include "constraints/compliance_backend.h"
#include "constraints/rows.h"
#include "fem/implicit_euler.h"
#include "model/model.h"

namespace suction {

struct RigidWork {
  Vec3 v_free = Vec3::Zero();  // end-of-step velocity without constraints [m/s]
  Vec3 w_free = Vec3::Zero();  // [rad/s]
  Vec3 x_free = Vec3::Zero();  // centre of mass at the free-motion pose [m]
  Quat q_free = Quat::Identity();
};

struct Workspace {
  std::vector<FemSystem> fem;        // per FEM body: system matrix and its factorization
  std::vector<Points> fem_v_free;    // per FEM body: #nodes×3 free velocities [m/s]
  std::vector<Points> fem_x_free;    // per FEM body: #nodes×3 free positions [m]
  std::vector<RigidWork> rigid;      // per rigid body

  // collision: one detector slot per body (FEM bodies first, then rigid bodies)
  ContactDetector detector;
  std::vector<BodyRef> collision_body;   // slot -> body
  std::vector<Points> collision_points;  // slot -> world surface vertices at the free pose
  std::vector<Contact> contacts;         // this step's contacts
  std::vector<double> contact_mu;        // friction coefficient of each contact

  // constraints: rows (3 per contact), W = h H A⁻¹ Hᵀ, free velocities, targets, forces
  ConstraintRows rows;
  Eigen::MatrixXd W;
  VecX u_free;     // H v_free
  VecX lambda;     // row forces [N]
  std::unique_ptr<ComplianceBackend> compliance;

  // cavities: one row per active (non-dormant) cavity after the 3·num_contacts contact rows
  std::vector<int> cavity_index;           // cavity row k -> index into State::cavities
  std::vector<double> cavity_volume_free;  // V(x_free) of cavity row k [m³]
  int cavity_unions = 0;                   // unions computed in this step
  long cavity_union_failures = 0;          // unions that failed since reset (cavities kept)

  int num_contacts = 0;
  int num_constraints = 0;
  int solver_iterations = 0;
  double solver_residual = 0.0;
};

/// Sizes the workspace, analyses each FEM body's system pattern, sets up collision.
void init_workspace(const Model& model, Workspace& work);

}  // namespace suction
