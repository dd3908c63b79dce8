// Model: what a scene *is*, built once by the scene loader and read-only during a step
// (rest shapes, materials, masses, drivers, probes, the scene's parameters).  What changes
// lives in State (model/state.h); per-step scratch in Workspace (stages/workspace.h).
// MuJoCo's mjModel/mjData split; docs/architecture.md.
#pragma once
#include <optional>
#include <string>

#include "collision/contact.h"
#include "common/types.h"
#include "fem/factorization.h"
#include "fem/fem_body.h"
#include "rigid/rigid_body.h"

namespace suction {

enum class BodyType { Fem, Rigid };
struct BodyRef {
  BodyType type = BodyType::Fem;
  int index = -1;  // into Model::fem or Model::rigid
};

/// Piecewise-linear keyframes of a vector quantity; constant before the first and after the last.
struct Keyframes {
  std::vector<double> times;  // strictly increasing [s]
  std::vector<Vec3> values;
  Vec3 value(double t) const;
  /// ∫_0^t value(τ) dτ (exact for piecewise-linear data)
  Vec3 integral(double t) const;
};

enum class DriverKind {
  Position,  // keyframes give the displacement of the target from its initial position [m]
  Velocity,  // keyframes give the target's velocity [m/s]; displacement is its integral
  Force      // keyframes give a force applied to the target [N] (split by mass over a node set)
};

/// A segment of a position driver that presses with a force instead of following keyframes,
/// like a robot pressing a cup until it is attached: during [t0, t1) the target moves from
/// where it is at v = gain·(force − reaction), at most max_speed (an admittance controller;
/// the reaction is the force the driver exerted the step before).  The keyframes hold still
/// over the segment; the travel accumulates in State::driver_offset, so later segments move on
/// from wherever the press ended.
struct PressSegment {
  double t0 = 0.0, t1 = 0.0;   // [s]
  Vec3 force = Vec3::Zero();   // the force the driver should exert on its target [N]
  double gain = 5e-3;          // [m/(N s)]
  double max_speed = 0.02;     // [m/s]
};

/// Moves or pushes a target: an FEM node set or a rigid body (kinematic for motion drivers,
/// dynamic for force drivers).
struct Driver {
  std::string name;
  DriverKind kind = DriverKind::Position;
  BodyRef body;
  std::string node_set;     // FEM targets: the set name
  std::vector<int> nodes;   // FEM targets: node indices
  Keyframes keyframes;
  std::vector<PressSegment> presses;  // position drivers: segments that press by force
  /// displacement from the initial position at time t [m] (motion drivers)
  Vec3 displacement(double t) const;
};

/// One end of a spring: a point of a rigid body or the mass-weighted mean of an FEM node set.
struct SpringEnd {
  BodyRef body;
  std::string node_set;         // FEM ends: the set's name
  std::vector<int> nodes;       // FEM ends: its nodes
  std::vector<double> weights;  // FEM ends: each node's share of the set's mass (sum 1)
  Vec3 local = Vec3::Zero();    // rigid ends: the point in the body frame, from its centre of mass [m]
};

/// A spring-damper between two bodies (docs/method.md §8.6), solved implicitly with the contacts
/// and cavities as a soft bilateral row: the force at the end of the step is
/// −k (L − L0) − c L̇ along the line of the ends, pulling them together when stretched.  A rest
/// length of 0 makes it a zero-length spring on the vector between the ends (three rows, x y z):
/// an elastic attachment of one body to another.
struct Spring {
  std::string name;
  SpringEnd a, b;
  double stiffness = 0.0;    // k [N/m]
  double damping = 0.0;      // c [N s/m]
  double rest_length = 0.0;  // L0 [m]; 0: a zero-length spring (three rows)
  bool zero_length() const { return rest_length == 0.0; }
  int rows() const { return zero_length() ? 3 : 1; }
};

/// One body of a joint: a rigid body (dynamic, fixed or kinematic), the world (body.index −1),
/// or, for a weld only, an FEM node set.
struct JointEnd {
  BodyRef body{BodyType::Rigid, -1};  // index −1: the world
  std::vector<int> nodes;             // weld, FEM end: the nodes welded
  bool world() const { return body.type == BodyType::Rigid && body.index < 0; }
};

enum class JointKind {
  Revolute,  // a hinge: b turns about one axis relative to a (5 equality rows)
  Weld       // every node of an FEM node set held at its point of a rigid body (3 rows a node)
};

/// What drives a revolute joint's angle θ (docs/method.md §8.8).
enum class JointTargetMode {
  None,      // a free hinge
  Position,  // θ follows keyframes θ*(t): a servo, hard (stiffness 0) or a spring-damper
  Velocity   // θ̇ follows keyframes ω*(t): a motor, hard (damping 0) or with a damping gain
};

/// A joint between two bodies (docs/method.md §8.8), solved with the contacts, cavities and
/// springs as equality rows of the same solve (the springs' soft rows with no compliance)
/// and projected back onto its constraint after each step (rigid ends).  Angles are measured
/// from the pose at t = 0 (θ = 0 as the scene places the bodies), positive about `axis` by
/// the right-hand rule, b relative to a.
struct Joint {
  std::string name;
  JointKind kind = JointKind::Revolute;
  JointEnd a, b;
  Vec3 anchor_a = Vec3::Zero();  // the hinge point in a's body frame (world for the world) [m]
  Vec3 anchor_b = Vec3::Zero();  // ... in b's body frame [m]
  Vec3 axis_a = Vec3::UnitZ();   // the hinge axis in a's frame (unit)
  Vec3 axis_b = Vec3::UnitZ();   // ... in b's frame (unit)
  Quat rest_relative = Quat::Identity();  // q_a⁻¹ q_b at t = 0 (θ = 0)
  std::vector<Vec3> weld_points;  // weld: each node's point in the rigid body's frame [m]
  // limits on θ [rad] (lower ≤ upper); absent: none
  bool limited = false;
  double lower = 0.0, upper = 0.0;
  // the drive
  JointTargetMode mode = JointTargetMode::None;
  Keyframes target;        // θ*(t) [rad] or ω*(t) [rad/s] in x; piecewise linear
  double stiffness = 0.0;  // position servo: k [N m/rad]; 0: hard
  double damping = 0.0;    // position servo: c [N m s/rad]; velocity motor: its gain [N m s/rad]; 0: hard
  /// the drive's target at time t (x of the keyframes)
  double target_at(double t) const { return target.value(t).x(); }
};

enum class ProbeKind {
  Position,          // body centre of mass (FEM: mass-weighted mean of nodes) [m]
  Velocity,          // body centre-of-mass velocity [m/s]
  NodeSetPosition,   // mean position of an FEM node set [m]
  DriverForce,       // force the driver exerts on its target [N]
  Time,              // simulated time [s]
  Displacement,      // travel of the body's centre of mass along `direction` since t = 0 [m]
  ContactForce,      // total contact force on the body [N]
  CavityPressure,    // absolute pressure of a tracked cavity [Pa] (P_atm when there is none)
  CavityVolume,      // its volume [m³] (0 when there is none)
  CavityAir,         // its air N = P·V [J] (0 when there is none)
  CavityHoldingForce,  // its holding force (P_atm − P)·A [N] (0 when there is none)
  CavityCount,       // number of active cavities
  CavityTemperature,  // its air's temperature [K] (the ambient one when there is none)
  SpringForce,       // a spring's tension (its force on each end along the line, positive when
                     // it pulls them together) [N]; zero-length springs: the force's magnitude
  SpringLength,      // the distance between a spring's ends [m]
  JointAngle,        // a revolute joint's angle θ from its pose at t = 0 [rad]
  JointTorque        // the torque its drive and limits exert on body b about the axis [N m]
};

/// A named quantity recorded every step.
struct Probe {
  std::string name;
  ProbeKind kind = ProbeKind::Position;
  BodyRef body;
  std::vector<int> nodes;   // NodeSetPosition
  int driver = -1;          // DriverForce
  int spring = -1;          // SpringForce, SpringLength
  int joint = -1;           // JointAngle, JointTorque
  int component = 2;        // 0 x, 1 y, 2 z, 3 norm
  Vec3 direction = Vec3::UnitX();  // Displacement: unit direction
  double scale = 1.0;       // multiplies the value (e.g. -1 to make a pull positive)
  int cavity = 0;           // Cavity*: the k-th active cavity, oldest first
  bool cavity_of_body = false;  // Cavity*: counts only the cavities `body` bounds
};

struct SolverSettings {
  std::string method = "pgs";  // a name from available_constraint_solvers() (solver/solver.h)
  int max_iterations = 300;    // iteration cap (stops earlier at the tolerance)
  double tolerance = 1e-6;     // on the common residual, natural_residual (the PGS stops
                               // when its largest change per sweep is below it as well)
  /// pgs: an exact solve on the contacts that press and stick after every this many sweeps (the
  /// subspace step, docs/method.md §8.9); 0: none (the paper's Algorithm 2)
  int subspace_every = 0;
  /// the subspace step holds the sliding contacts too, their friction along its direction (§8.9);
  /// false: only the contacts that stick, the sliding ones keep their forces
  bool subspace_sliding = true;
  /// with subspace_sliding: each sliding contact's friction direction turned by Newton's method on
  /// its slip within the step, and a contact that left the set may come back once (§8.9); false:
  /// the directions held as the sweeps left them
  bool subspace_newton = true;
};

/// Friction coefficient of a pair of materials (overrides the per-material rule).
struct FrictionPair {
  int material_a = -1, material_b = -1;
  double friction = 0.5;
};

struct ContactSettings {
  CollisionSettings collision;           // alarm and contact distances [m]
  std::vector<FrictionPair> friction_pairs;  // μ of a pair; otherwise min(μ_a, μ_b)
  /// a contact deeper than this share of the smallest extent of the body it enters is warned about
  /// (sim/watchdog.h); 0 turns the warning off
  double penetration_warning = 0.75;
  /// self-contact (FEM bodies with "self_contact"): a vertex and a triangle of one body closer
  /// than this at rest never touch [m]; 0: 1.5 × the detector's reach (detection_reach:
  /// max(alarm + contact distance, 3 × alarm)), so that the two sides of a wall are never
  /// taken for a contact
  double self_contact_exclusion = 0.0;
  /// drop the contacts that others imply where a rigid body takes part (collision/reduction.h:
  /// flat rigid vertices on soft triangles, the inside of a planar patch between rigid bodies)
  bool reduction = true;
};

/// Trapped air (docs/method.md §6 and §9).
/// The air's thermodynamics in a cavity (docs/method.md §6.8): the law its pressure follows
/// within a step, for the air that stays, P·V^n constant per amount.
struct GasSettings {
  enum class Law { Isothermal, Adiabatic, Polytropic, Exchange };
  Law law = Law::Isothermal;  // isothermal: P·V = N, the paper's (every number as before)
  double gamma = 1.4;         // heat capacity ratio c_p/c_v of the air (> 1; dry air 1.4)
  double exponent = 1.2;      // polytropic: the exponent n (≥ 1)
  double tau = 0.05;          // exchange: the thermal time constant of Newton's cooling [s] (> 0)
  double t_ambient = kTAmbient;  // ambient temperature [K] (> 0): new air, and what exchange relaxes to
  /// n of P·V^n within a step: 1 (isothermal), γ (adiabatic, exchange), n (polytropic)
  double step_exponent() const {
    return law == Law::Isothermal ? 1.0 : law == Law::Polytropic ? exponent : gamma;
  }
  bool isothermal() const { return law == Law::Isothermal || (law == Law::Polytropic && exponent == 1.0); }
};

struct CavitySettings {
  GasSettings gas;                   // the air's law (settings.cavity.gas)
  bool enabled = true;               // detect cavities and solve their pressure
  double p_max = kPAtm;              // pressure above which air escapes [Pa] (≥ p_atm)
  double sealing_distance = 5e-5;    // contacting vertices move this far into the other body [m]
  double leak_rate = 0.0;            // Ṅ_leak per cavity: air flowing in [J/s] (N = P·V)
  double remesh_seam_ratio = 0.01;   // recompute when seam area exceeds this share of the cavity's
  double flattened_volume_ratio = 0.05;  // a vanished cavity below this share of its largest
                                         // volume is kept (flattened), otherwise released
  /// true: a group is united again whenever its seals change.  false (the interactive quality's
  /// `carry_cavities`): not when they change only within the ring of a cavity that is still near
  /// the shape it was found at; the cavity is carried on (stages/cavities.cpp, method §9.1)
  bool unite_on_ring_change = true;
  /// true (the interactive quality's `carry_cavities`): between unions a cavity's seam vertices
  /// are found again where the bodies' union input crosses now, and a union runs when one leaves
  /// its edge or triangle (stages/cavities.cpp, method §9.8)
  bool follow_seal = false;
};

struct Settings {
  double dt = 0.01;                       // time step h [s]
  double duration = 1.0;                  // default run length [s]
  Vec3 gravity = Vec3(0, 0, -9.81);       // [m/s²]
  SolverSettings solver;
  FactorizationReuse factorization;      // reuse of FEM factorizations across steps
  ContactSettings contact;
  std::string compliance_backend = "cpu";  // a name from available_compliance_backends()
  double p_atm = kPAtm;                   // ambient pressure [Pa]
  CavitySettings cavity;
  /// a step whose kinetic energy exceeds this many times the largest seen so far (plus the
  /// work scale m g L) is reported as diverging
  double divergence_energy_factor = 1e6;
  /// caps on each body's mesh, checked while the scene is loaded (settings.limits)
  MeshLimits limits;
  /// settings.interactive.compare: the run-summary numbers (io/sweep.h) that tell this scene's
  /// story, compared between the qualities by `suction quality`; empty: the default ones
  std::vector<std::string> story_numbers;
};

/// A scene parameter (the scene's "parameters" object, docs/scene-format.md) as evaluated
/// with the overrides applied: what the CLI's --set, the wasm facade and the page change.
struct Parameter {
  std::string name;
  double value = 0.0;              // current value (the default, or the override)
  std::optional<double> min, max;  // absent when the scene gives none
  std::string unit, doc;           // "" when absent
};

/// A body whose tet mesh the loader made from a closed surface, or read from its cache (cavity_cgal/tet_mesher.h: a
/// block generator's surface or an OBJ / STL file): what `suction info` reports.
struct MeshingRecord {
  std::string body;
  double seconds = 0.0;           // wall time of the tetrahedralization at load [s]
  int nodes = 0, tets = 0;
  double min_radius_ratio = 0.0;  // worst tet (tet_radius_ratio)
  /// "tetrahedralize": {"cache": FILE} (cavity_cgal/tet_mesh_cache.h): the file as resolved
  /// ("" when the scene names none), and what became of it: "read" (its fingerprint matched,
  /// nothing was meshed), "missing" or "stale" (meshed at load; `suction mesh --write-cache`
  /// writes it)
  std::string cache_file, cache_status;
  std::string fingerprint;  // of the surface and options (meshing_fingerprint)
  /// the tets in the body's own frame, kept only when the cache is missing or stale (what
  /// `suction mesh --write-cache` writes); empty otherwise
  TetMesh unsaved;
};

/// How a scene is run (scene/quality.h): exactly as written, or with the cheaper settings the
/// core derives for the page.
enum class Quality { Reference, Interactive };

struct Model {
  std::string name;
  std::string description;
  std::vector<Parameter> parameters;  // in file order
  Settings settings;
  std::vector<Material> materials;
  std::vector<FemBody> fem;
  std::vector<RigidBody> rigid;
  std::vector<Driver> drivers;
  std::vector<Spring> springs;
  std::vector<Joint> joints;
  std::vector<Probe> probes;
  /// the quality it was loaded at, and what that changed: "POINTER=VALUE" per change (empty
  /// at reference quality, and for a scene whose settings.interactive.enabled is false)
  Quality quality = Quality::Reference;
  std::vector<std::string> quality_changes;
  /// the FEM bodies tetrahedralized while loading, in body order (load-time facts, not physics)
  std::vector<MeshingRecord> meshing;

  /// finds a body by name; nullopt when absent
  std::optional<BodyRef> find_body(const std::string& name) const;
  /// a parameter by name; nullptr when absent
  const Parameter* find_parameter(const std::string& name) const;
  int num_fem_nodes() const;
};

}  // namespace suction
