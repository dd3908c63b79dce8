// Probes: named quantities recorded every step (a body's position or velocity, a node set's
// mean position, a driver's force, cavity quantities; docs/scene-format.md lists them).
#pragma once
#include "model/model.h"
#include "model/state.h"

namespace suction {

/// Value of one probe in a state (component or norm, times the probe's scale).
double evaluate_probe(const Model& model, const State& state, const Probe& probe);

/// Centre of mass of a body [m] (FEM: mass-weighted node mean) and its velocity [m/s].
Vec3 body_center_of_mass(const Model& model, const State& state, BodyRef body);
Vec3 body_velocity(const Model& model, const State& state, BodyRef body);

/// Sum of the last step's contact forces on a body [N].
Vec3 body_contact_force(const Model& model, const State& state, BodyRef body);

/// What holds a cup on (docs/method.md §6.3): the pressure difference over the cavity's area
/// seen along its sealing ring's normal.
struct CavityHold {
  Vec3 normal = Vec3::UnitZ();  // unit normal of the sealing ring (towards +z)
  double area = 0.0;            // the area the pressure difference pulls the bodies with:
                                // half of Σ over the bodies of |their walls' vector area|
                                // (cavity/cavity_mesh.h holding_area) [m²]
  double force = 0.0;           // (P_atm − P)·A, > 0 when the atmosphere presses on; 0 dormant [N]
};
CavityHold cavity_hold(const Model& model, const State& state, const CavityState& cavity);

/// Cavity summary of a state (the CSV's cavity columns); dormant (flattened) cavities are
/// not counted.
struct CavitySummary {
  int count = 0;
  double pressure_min = kPAtm;  // lowest absolute cavity pressure, P_atm when none [Pa]
  double volume_total = 0.0;    // [m³]
  double air_total = 0.0;       // Σ N = P·V [J]
  double holding_force = 0.0;   // Σ (P_atm − P)·A over the active cavities [N]
  double temperature_min = kTAmbient;  // the air's lowest and highest temperature, the ambient
  double temperature_max = kTAmbient;  // one when there is no cavity [K] (docs/method.md §6.8)
};
CavitySummary cavity_summary(const Model& model, const State& state);

}  // namespace suction
