// Spring geometry (Model::springs, docs/method.md §8.6): where a spring's ends are, how far
// apart, along which axis, in a State.  The stage that turns springs into constraint rows is
// stages/springs.cpp; the probes read the lengths and forces from here.
#pragma once
#include "model/model.h"
#include "model/state.h"

namespace suction {

/// World position of a spring end: a rigid body's point, or the mass-weighted mean of an FEM
/// node set [m].
Vec3 spring_end_position(const Model& model, const State& state, const SpringEnd& end);

/// The separation of spring k's ends in a state: delta = x_a − x_b, its length, and the unit
/// axis delta/length (state.spring_axis[k] where the ends coincide: the last axis they had).
struct SpringGeometry {
  Vec3 delta = Vec3::Zero();
  double length = 0.0;
  Vec3 axis = Vec3::UnitZ();
};
SpringGeometry spring_geometry(const Model& model, const State& state, int k);

/// World position of a spring end at t = 0: FEM ends at the rest nodes, rigid ends at the
/// body's initial pose (what the scene loader measures rest lengths on) [m].
Vec3 spring_end_initial_position(const Model& model, const SpringEnd& end);

/// What the spring_force probe reports of spring k's last row forces (State::spring_force):
/// the tension (positive when the spring pulls its ends together) for an axial spring, the
/// force's magnitude for a zero-length one [N].
double spring_tension(const Spring& spring, const Vec3& row_force);

}  // namespace suction
