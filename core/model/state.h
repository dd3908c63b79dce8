// State: everything that changes during a simulation.  Copyable; a copy restarts exactly.
#pragma once
#include <cstdint>

#include "common/types.h"

namespace suction {

struct Model;

struct FemBodyState {
  Points x;  // #nodes×3 positions [m]
  Points v;  // #nodes×3 velocities [m/s]
};

struct RigidBodyState {
  Vec3 position = Vec3::Zero();         // centre of mass [m]
  Quat orientation = Quat::Identity();  // body -> world
  Vec3 velocity = Vec3::Zero();         // [m/s]
  Vec3 angular_velocity = Vec3::Zero(); // world frame [rad/s]
};

/// A contact of the last step and the force it carried (also the next step's warm start).
struct ContactForce {
  std::uint64_t key = 0;        // feature-pair identity (Contact::key)
  int body_a = -1, body_b = -1; // collision slots (FEM bodies first, then rigid bodies)
  Vec3 point = Vec3::Zero();    // contact point on b, world [m]
  Vec3 normal = Vec3::UnitZ();  // from b towards a
  Vec3 local = Vec3::Zero();    // (λ_n, λ_t1, λ_t2) in the contact frame [N]
  Vec3 force = Vec3::Zero();    // world force on a (−force on b) [N]
};

/// A point on a body's collision surface: slot (FEM bodies first, then rigid bodies), surface
/// triangle and barycentric coordinates.  It follows the body as it moves and deforms.
struct SurfacePoint {
  int slot = -1;
  int triangle = -1;
  Vec3 bary = Vec3::Zero();
};

/// A trapped-air cavity between two bodies (../shared/METHOD.md section 4): a closed triangle
/// mesh whose vertices are mapped to the bodies, and its air.
struct CavityState {
  int id = -1;                    // stable identity across recomputations
  int slot_a = -1, slot_b = -1;   // the two bodies (collision slots, slot_a < slot_b)
  std::vector<SurfacePoint> vertices;
  std::vector<Tri> triangles;     // outward orientation (volume > 0)
  int seam_begin = 0;             // triangles [seam_begin, end) join the seam copies
  double air = 0.0;               // N = P·V [J]
  double pressure = kPAtm;        // absolute pressure at the end of the last step [Pa]
  double volume = 0.0;            // volume at the end of the last step [m³]
  double outflow = 0.0;           // ΔN of the last step (≤ 0: air pushed out) [J]
  double max_volume = 0.0;        // largest volume since detection [m³]
  double seam_area0 = 0.0;        // seam area when detected (the sealing offset) [m²]
  bool dormant = false;           // flattened: remembered (with its air) but exerts no force
};

struct State {
  double time = 0.0;   // [s]
  long step = 0;
  std::vector<FemBodyState> fem;
  std::vector<RigidBodyState> rigid;
  std::vector<Vec3> driver_reaction;  // per driver: force it exerted on its target last step [N]
  std::vector<ContactForce> contacts; // last step's contacts, sorted by key
  std::vector<CavityState> cavities;  // tracked cavities
  int next_cavity_id = 0;
  /// contacts within the sealing distance at the last cavity update, (slot_a, slot_b, key)
  /// sorted: a change for a pair of bodies triggers a new union for that pair
  std::vector<std::array<std::uint64_t, 3>> sealing_contacts;
  /// per driver: a user offset added to its displacement (interactive dragging) [m]
  std::vector<Vec3> driver_offset;
};

/// The state at t = 0: rest positions, initial velocities.
State make_initial_state(const Model& model);

}  // namespace suction
