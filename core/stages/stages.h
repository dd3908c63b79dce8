// The stages of one time step (docs/method.md §1, the paper's Algorithm 1), each of the form
// stage(const Model&, State&, Workspace&), one file each in this folder.  Simulation::step
// (sim/simulation.cpp) calls them in this order and times each into the StepProfile.
// Adding a stage: docs/architecture.md.
#pragma once
#include <optional>
#include <vector>

#include "model/model.h"
#include "model/state.h"
#include "stages/workspace.h"

namespace suction {

/// Sizes the workspace, analyses each FEM body's system pattern, registers the bodies with
/// the collision detector and initialises the compliance backend (init_workspace.cpp).
/// `rigid_checks`: the rigid surfaces' union input check (Workspace::rigid_surface_checked) as
/// a former call found it for the same rigid surfaces (a reset, a retune: a surface cannot
/// change while the simulation runs), taken instead of checking again; null: checked here.
void init_workspace(const Model& model, Workspace& work, const std::vector<char>* rigid_checks = nullptr);

/// Chooses the model's compliance backend and lets it prepare (compliance.cpp); part of
/// init_workspace.
void init_compliance(const Model& model, Workspace& work);

/// 1. leak: N ← N + h Ṅ_leak for every tracked, non-dormant cavity (cavities.cpp).
void leak_cavities(const Model& model, State& state, Workspace& work);

/// 2. free motion: implicit Euler of every FEM body (A Δv = b), rigid bodies' unconstrained
///    velocities, prescribed motion of held nodes and kinematic bodies; fills v_free, x_free
///    (free_motion.cpp).
void free_motion(const Model& model, const State& state, Workspace& work);

/// What the cavity stage found at one shape: the contacts there (the detection the seal is
/// judged on) and the unions it made, per group.  The seal check finds them at the solved
/// end-of-step shape, which is where the next step starts: the simulation hands them to that
/// step (stages 3 and 4 then take them instead of finding them again) and keeps a step's own
/// for a redo of it.  Valid for the state they were found at, under the model they were found
/// with, and for nothing else (the simulation drops them when either is changed from outside).
struct ShapeFindings {
  std::vector<Contact> contacts;
  struct Union {
    SealGroup group;                     // its bodies and sealing contacts
    std::vector<CavityState> fresh;      // the union's cavities (no air yet)
    std::vector<SurfaceRepair> repairs;  // reported again by the step that takes it
  };
  std::vector<Union> unions;
};

/// The seal check's answer (check_seals): the cavities the solved shape opened, and what it
/// found there (none when no cavity had a row: the next step finds it).
struct SealCheck {
  std::vector<int> opened;
  std::optional<ShapeFindings> at_end;
};

/// 3. collision: the contacts at the solved shape x_t (work.surface_x_t, contacts_x_t: the
///    cavity stage judges seals on them; taken from `at_start` when given) with their gaps
///    linearized to x_free, plus those only x_free brings within reach (gather_contacts); fills
///    work.contacts, contact_mu, the contact rows (rows.layout.contact_rows()) and their
///    u_free = H v_free (collision.cpp).
void detect_collisions(const Model& model, const State& state, Workspace& work,
                       const ShapeFindings* at_start = nullptr);
/// The contact gathering of stage 3 alone (work.contacts_x_t and work.contacts).
void gather_contacts(const Model& model, const State& state, Workspace& work,
                     const ShapeFindings* at_start = nullptr);
/// The side each vertex was on in the state's contacts (the last step's), sorted: what the
/// detector keeps a vertex to (VertexSide, method §5.2).
std::vector<VertexSide> vertex_sides(const State& state);

/// 4. cavities: detection (when the sealing contacts change or a seam has opened; a union
///    `at_start` made for the same group is taken), tracking, the release of the cavities
///    `released` names (a redo: the seal check opened them), and one pressure row per active
///    cavity with V(x_free) and H_p (cavities.cpp).
void update_cavities(const Model& model, State& state, Workspace& work, const ShapeFindings* at_start = nullptr,
                     const std::vector<int>& released = {});

/// 4b. springs: the soft rows of Model::springs after the cavity rows (rows.layout.soft_rows()),
///    their u_free and work.soft_rows (springs.cpp); timed with the collision stage.
void add_spring_rows(const Model& model, const State& state, Workspace& work);
/// 3b. joint limits: one frictionless block per limit of every limited revolute joint, after
///    the contact blocks (rows.layout.limit_row), with its angular gap (joints.cpp); timed
///    with the collision stage.
void add_joint_limit_rows(const Model& model, const State& state, Workspace& work);
/// 4c. joints: the equality and drive rows of Model::joints after the spring rows
///    (rows.layout.joint_row), appended to work.soft_rows (joints.cpp); timed with collision.
void add_joint_rows(const Model& model, const State& state, Workspace& work);
/// 6. each joint's drive and limit torque of the step into state.joint_torque (joints.cpp).
void record_joints(const Model& model, State& state, const Workspace& work);
/// 6 (end). the rigid bodies projected back onto their revolute joints (Newton on the position
///    errors, mass-weighted), and each joint's angle at the new pose (joints.cpp).
void project_joints(const Model& model, State& state);
/// 6. the springs' row forces of the step into state.spring_force (springs.cpp; part of correction).
void record_springs(const Model& model, State& state, const Workspace& work);
/// 6 (end). each spring's axis at the new positions (state.spring_axis; springs.cpp).
void update_spring_axes(const Model& model, State& state);

/// 6 (check). the seal at the solved end-of-step shape: detection and union there (as the
///    next step's stage 4 will do), on a copy of the cavity book; returns the ids of the
///    cavities that had a pressure row this step and whose seal that shape opens (released or
///    dropped by the tracker), and what it found there.  The simulation then solves the step
///    again with them released (update_cavities' `released`): a seal that opens during a step
///    ends in that step; otherwise the findings are the next step's `at_start`.  Unions that
///    failed are neither reported nor kept here (the next step retries them).
SealCheck check_seals(const Model& model, const State& state, Workspace& work);

/// 2a. drivers in a press segment (Driver::presses) move their target on by
/// h·gain·(force − last reaction), at most max_speed (drivers.cpp); before free motion.
void press_drivers(const Model& model, State& state);
/// 2b. lets the compliance backend start on the step's FEM systems (compliance.cpp); timed
/// with the compliance stage.
void prepare_compliance(const Model& model, const State& state, Workspace& work);
/// 5a. compliance: W = h H A⁻¹ Hᵀ through the selected backend (compliance.cpp).
void build_compliance(const Model& model, const State& state, Workspace& work);

/// 5b. solve: contact forces and cavity pressures by projected Gauss-Seidel (solve.cpp).
void solve_constraints(const Model& model, State& state, Workspace& work);

/// 6. correction: v = v_free + h A⁻¹ Hᵀ λ, x ← x + h v; records contacts and the drivers'
///    reaction forces; advances time (correction.cpp).
void correct_and_integrate(const Model& model, State& state, Workspace& work);
/// The velocity change of FEM body b's free DOFs that row forces λ make, Δv = A⁻¹ h H_bᵀ λ (the
/// step's factorization, or CG on the step's A preconditioned by a kept one: method §7.6);
/// false, Δv untouched, when no row touches the body's free nodes (correction.cpp; the
/// solve's refinement uses it too).
bool fem_impulse_response(const Model& model, Workspace& work, size_t b, const VecX& lambda, VecX& dv);
/// The same for the rigid bodies: per body Δv = h F/m, Δω = h I_w⁻¹ τ of the rows' forces λ
/// (zero for a body that is not dynamic).
void rigid_impulse_response(const Model& model, const Workspace& work, const VecX& lambda, std::vector<Vec3>& dv,
                            std::vector<Vec3>& dw);

/// 6 (end). each cavity's volume at the new positions, and its largest volume (cavities.cpp).
void measure_cavities(const Model& model, State& state, Workspace& work);

/// Friction coefficient between two materials: the scene's pair value, else the film's where a
/// material is wet (both wet: the lower), else min(μ_a, μ_b) (collision.cpp).
double pair_friction(const Model& model, int material_a, int material_b);

/// The distance within which two bodies (slots) seal: settings.cavity.sealing_distance, or the
/// thicker film of their materials (docs/method.md §9.10) (collision.cpp).
double pair_sealing_distance(const Model& model, int slot_a, int slot_b);

}  // namespace suction
