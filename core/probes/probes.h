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

}  // namespace suction
