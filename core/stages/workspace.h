// Workspace: per-step scratch of the stages (free velocities, factorizations, constraint data).
// Rebuilt from the Model by init_workspace (stages/stages.h); never part of the physical state.
#pragma once
#include <memory>
#include <string>

#include "backends/compliance_backend.h"
#include "cavity/cavity_state.h"
#include "collision/contact.h"
#include "collision/detector.h"
#include "collision/reduction.h"
#include "constraints/rows.h"
#include "fem/implicit_euler.h"
#include "model/body_slots.h"
#include "model/model.h"
#include "solver/pgs.h"
#include "solver/solver.h"

namespace suction {

struct RigidWork {
  Vec3 v_free = Vec3::Zero();  // end-of-step velocity without constraints [m/s]
  Vec3 w_free = Vec3::Zero();  // [rad/s]
  Vec3 x_free = Vec3::Zero();  // centre of mass at the free-motion pose [m]
  Quat q_free = Quat::Identity();
  Mat3 inertia_inv = Mat3::Zero();  // world inverse inertia at the start of the step [1/(kg m²)]
};

/// A mesh union that failed this step (the group's cavities were kept as they were).
struct UnionFailure {
  std::vector<int> slots;  // the group's bodies
  std::string what;
};

/// A body's surface that crossed itself and was repaired for a union (UnionRepair, method §9.3).
struct SurfaceRepair {
  int slot = -1;
  int crossing_pairs = 0;
  Vec3 where = Vec3::Zero();  // [m]
  double max_move = 0.0;      // [m]
};

struct Workspace {
  std::vector<FemSystem> fem;        // per FEM body: system matrix and its factorization
  std::vector<Points> fem_v_free;    // per FEM body: #nodes×3 free velocities [m/s]
  std::vector<Points> fem_x_free;    // per FEM body: #nodes×3 free positions [m]
  std::vector<RigidWork> rigid;      // per rigid body

  // collision: one detector body per slot; the names say which configuration they hold
  ContactDetector detector;
  std::vector<Points> surface_x_free;  // slot -> world surface vertices at the free pose x_free
  std::vector<Contact> contacts;       // this step's contacts
  // the seal is judged on the solved shape (docs/method.md §9.1): the start-of-step positions
  std::vector<Points> surface_x_t;     // slot -> world surface vertices at x_t
  std::vector<Contact> contacts_x_t;   // the contacts at x_t (the cavity stage's; the seal
                                       // check's at the end-of-step shape after it)
  std::vector<double> contact_mu;        // friction coefficient of each contact
  std::vector<ReductionBody> reduction_bodies;  // slot -> what the contact reduction needs
  ReductionStats reduction;                     // this step's contacts dropped by it

  // constraints: rows in the order of rows.layout, W = h H A⁻¹ Hᵀ, free velocities, forces
  ConstraintRows rows;
  Eigen::MatrixXd W;
  VecX u_free;     // H v_free
  VecX lambda;     // row forces: [N] for contacts, P − P_atm [Pa] for cavities
  std::unique_ptr<ComplianceBackend> compliance;
  std::unique_ptr<ConstraintSolver> solver;  // settings.solver.method (solver/solver.h)

  // cavities: one row per active (non-dormant) cavity (rows.layout.cavity_rows())
  std::vector<int> cavity_index;           // cavity row k -> index into State::cavities
  std::vector<double> cavity_volume_free;  // V at x_free of cavity row k, linearized from x_t [m³]
  std::vector<double> cavity_volume_t;     // V at x_t of cavity row k (the step's start) [m³]
  int cavity_unions = 0;                   // unions computed in this step
  AirLedger air;                           // the step's air books (reset by each attempt)
  std::vector<UnionFailure> union_failures;  // unions that failed in this step
  std::vector<SurfaceRepair> surface_repairs;  // self-crossing surfaces the step's unions repaired
  // springs: one soft row per row of rows.layout.soft_rows() (stages/springs.cpp)
  std::vector<SoftRow> soft_rows;
  // joints (stages/joints.cpp): each joint-limit block's joint and side (+1 the lower limit,
  // −1 the upper) and angular gap, and each joint's drive row (−1: none)
  struct JointLimitBlock {
    int joint = -1;
    double side = 1.0;
    double gap = 0.0;  // [rad] at the free motion's end
  };
  std::vector<JointLimitBlock> joint_limits;
  std::vector<int> joint_drive_row;
  // per slot: a rigid body whose surface passed the union's input check at reset (its
  // unions then check only the triangles around the vertices their offset moves)
  std::vector<char> rigid_surface_checked;

  int solver_iterations = 0;
  double solver_residual = 0.0;     // the common residual (natural_residual)
  bool solver_converged = true;     // residual ≤ settings.solver.tolerance
};

}  // namespace suction
