#include "model/springs.h"

#include <cmath>

namespace suction {

namespace {
// the unit axis of ends `length` apart along delta, or `fallback` when they are too close to
// give one (1e-12 of the rest length, or of a millimetre for zero-length springs)
Vec3 spring_axis_of(const Spring& spring, const Vec3& delta, double length, const Vec3& fallback) {
  const double tiny = 1e-12 * (spring.rest_length > 0.0 ? spring.rest_length : 1e-3);
  return length > tiny && std::isfinite(length) ? Vec3(delta / length) : fallback;
}

Vec3 weighted_mean(const SpringEnd& end, const Points& x) {
  Vec3 p = Vec3::Zero();
  for (size_t i = 0; i < end.nodes.size(); ++i) p += end.weights[i] * x[end.nodes[i]];
  return p;
}
}  // namespace

Vec3 spring_end_initial_position(const Model& model, const SpringEnd& end) {
  if (end.body.type == BodyType::Fem) return weighted_mean(end, model.fem[end.body.index].rest.nodes);
  const RigidBody& r = model.rigid[end.body.index];
  return r.initial_position + r.initial_orientation * end.local;
}

Vec3 spring_end_position(const Model& model, const State& state, const SpringEnd& end) {
  if (end.body.type == BodyType::Fem) return weighted_mean(end, state.fem[end.body.index].x);
  const RigidBodyState& r = state.rigid[end.body.index];
  return r.position + r.orientation * end.local;
}

SpringGeometry spring_geometry(const Model& model, const State& state, int k) {
  const Spring& s = model.springs[k];
  SpringGeometry g;
  g.delta = spring_end_position(model, state, s.a) - spring_end_position(model, state, s.b);
  g.length = g.delta.norm();
  const Vec3 last = k < static_cast<int>(state.spring_axis.size()) ? state.spring_axis[k] : Vec3::UnitZ();
  g.axis = spring_axis_of(s, g.delta, g.length, last);
  return g;
}

double spring_tension(const Spring& spring, const Vec3& row_force) {
  // the row force is the force on end a along the axis (b -> a): negative when it pulls a back
  return spring.zero_length() ? row_force.norm() : -row_force.x();
}

}  // namespace suction
