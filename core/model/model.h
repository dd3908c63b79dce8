// Model: what a scene *is*, built once by the scene loader and read-only during a step
// (rest shapes, materials, masses, drivers, probes).  What changes lives in State
// (model/state.h); per-step scratch in Workspace (sim/workspace.h).  MuJoCo's mjModel/mjData split.
#pragma once
#include <map>
#include <optional>
#include <string>

#include "collision/contact.h"
#include "common/types.h"
#include "fem/corotational.h"
#include "mesh/tet_mesh.h"

namespace suction {

struct Material {
  std::string name;
  double young = 1e6;             // Young's modulus E [Pa]
  double poisson = 0.45;          // Poisson ratio ν [-]
  double density = 1000.0;        // ρ [kg/m³]
  double damping_mass = 0.0;      // Rayleigh α [1/s]:  B = -(α M + β K)
  double damping_stiffness = 0.0; // Rayleigh β [s]
  double friction = 0.5;          // Coulomb μ used when no pair value is given [-]
};

/// A deformable body: co-rotational linear tetrahedra.
struct FemBody {
  std::string name;
  int material = 0;                   // index into Model::materials
  TetMesh rest;                       // rest (and initial) configuration, world frame [m]
  BoundarySurface boundary;           // collision / visual surface (boundary of rest)
  ElasticElements elements;           // per-tet rest data (fem/corotational.h)
  std::vector<double> node_mass;      // lumped mass per node [kg]
  std::map<std::string, std::vector<int>> node_sets;  // named node index lists
  /// per node: -1 free, -2 fixed in place, k >= 0 follows driver k (position/velocity driver)
  std::vector<int> node_constraint;
  Vec3 initial_velocity = Vec3::Zero();  // [m/s]
};

enum class RigidKind { Dynamic, Fixed, Kinematic };

/// A rigid body (dynamic, fixed, or kinematic = moved by a driver).
struct RigidBody {
  std::string name;
  RigidKind kind = RigidKind::Dynamic;
  int material = 0;
  SurfaceMesh surface;            // closed surface in the body frame, origin at the centre of mass [m]
  double mass = 0.0;              // [kg] (infinite for fixed/kinematic: not used)
  Mat3 inertia_body = Mat3::Zero();  // about the centre of mass, body frame [kg m²]
  Vec3 initial_position = Vec3::Zero();       // centre of mass, world [m]
  Quat initial_orientation = Quat::Identity();
  Vec3 initial_velocity = Vec3::Zero();          // [m/s]
  Vec3 initial_angular_velocity = Vec3::Zero();  // world frame [rad/s]
  int driver = -1;                // kinematic: the position/velocity driver moving it
};

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

/// Moves or pushes a target: an FEM node set or a rigid body (kinematic for motion drivers,
/// dynamic for force drivers).
struct Driver {
  std::string name;
  DriverKind kind = DriverKind::Position;
  BodyRef body;
  std::string node_set;     // FEM targets: the set name
  std::vector<int> nodes;   // FEM targets: node indices
  Keyframes keyframes;
  /// displacement from the initial position at time t [m] (motion drivers)
  Vec3 displacement(double t) const;
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
  CavityCount        // number of active cavities
};

/// A named quantity recorded every step.
struct Probe {
  std::string name;
  ProbeKind kind = ProbeKind::Position;
  BodyRef body;
  std::vector<int> nodes;   // NodeSetPosition
  int driver = -1;          // DriverForce
  int component = 2;        // 0 x, 1 y, 2 z, 3 norm
  Vec3 direction = Vec3::UnitX();  // Displacement: unit direction
  double scale = 1.0;       // multiplies the value (e.g. -1 to make a pull positive)
  int cavity = 0;           // Cavity*: the k-th active cavity, oldest first
};

struct SolverSettings {
  int max_iterations = 50;     // PGS iteration cap
  double tolerance = 1e-6;     // PGS residual tolerance
};

/// Friction coefficient of a pair of materials (overrides the per-material rule).
struct FrictionPair {
  int material_a = -1, material_b = -1;
  double friction = 0.5;
};

struct ContactSettings {
  CollisionSettings collision;           // alarm and contact distances [m]
  std::vector<FrictionPair> friction_pairs;  // μ of a pair; otherwise min(μ_a, μ_b)
};

/// Trapped air (../shared/METHOD.md sections 3 and 4).
struct CavitySettings {
  bool enabled = true;               // detect cavities and solve their pressure
  double p_max = kPAtm;              // pressure above which air escapes [Pa] (≥ p_atm)
  double sealing_distance = 5e-5;    // contacting vertices move this far into the other body [m]
  double leak_rate = 0.0;            // Ṅ_leak per cavity: air flowing in [J/s] (N = P·V)
  double remesh_seam_ratio = 0.01;   // recompute when seam area exceeds this share of the cavity's
  double flattened_volume_ratio = 0.05;  // a vanished cavity below this share of its largest
                                         // volume is kept (flattened), otherwise released
};

struct Settings {
  double dt = 0.01;                       // time step h [s]
  double duration = 1.0;                  // default run length [s]
  Vec3 gravity = Vec3(0, 0, -9.81);       // [m/s²]
  SolverSettings solver;
  ContactSettings contact;
  std::string compliance_backend = "cpu";  // "cpu" or "cuda" (built with SUCTION_WITH_CUDA)
  double p_atm = kPAtm;                   // ambient pressure [Pa]
  CavitySettings cavity;
  /// a step whose kinetic energy exceeds this many times the largest seen so far (plus the
  /// work scale m g L) is reported as diverging
  double divergence_energy_factor = 1e6;
};

struct Model {
  std::string name;
  std::string description;
  Settings settings;
  std::vector<Material> materials;
  std::vector<FemBody> fem;
  std::vector<RigidBody> rigid;
  std::vector<Driver> drivers;
  std::vector<Probe> probes;

  /// finds a body by name; nullopt when absent
  std::optional<BodyRef> find_body(const std::string& name) const;
  int num_fem_nodes() const;
};

}  // namespace suction
