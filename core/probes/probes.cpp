#include "probes/probes.h"

namespace suction {

static Vec3 mass_weighted_mean(const FemBody& b, const Points& p) {
  Vec3 sum = Vec3::Zero();
  double m = 0.0;
  for (size_t n = 0; n < p.size(); ++n) {
    sum += b.node_mass[n] * p[n];
    m += b.node_mass[n];
  }
  return sum / m;
}

Vec3 body_center_of_mass(const Model& model, const State& state, BodyRef body) {
  if (body.type == BodyType::Rigid) return state.rigid[body.index].position;
  return mass_weighted_mean(model.fem[body.index], state.fem[body.index].x);
}

Vec3 body_velocity(const Model& model, const State& state, BodyRef body) {
  if (body.type == BodyType::Rigid) return state.rigid[body.index].velocity;
  return mass_weighted_mean(model.fem[body.index], state.fem[body.index].v);
}

double evaluate_probe(const Model& model, const State& state, const Probe& probe) {
  Vec3 value = Vec3::Zero();
  switch (probe.kind) {
    case ProbeKind::Time:
      return probe.scale * state.time;
    case ProbeKind::Position:
      value = body_center_of_mass(model, state, probe.body);
      break;
    case ProbeKind::Velocity:
      value = body_velocity(model, state, probe.body);
      break;
    case ProbeKind::NodeSetPosition: {
      const Points& x = state.fem[probe.body.index].x;
      for (int n : probe.nodes) value += x[n];
      if (!probe.nodes.empty()) value /= static_cast<double>(probe.nodes.size());
      break;
    }
    case ProbeKind::DriverForce:
      value = state.driver_reaction[probe.driver];
      break;
  }
  const double v = probe.component == 3 ? value.norm() : value[probe.component];
  return probe.scale * v;
}

}  // namespace suction
