#include "probes/probes.h"

#include <algorithm>

#include "cavity/cavity_mesh.h"
#include "model/body_slots.h"
#include "model/springs.h"

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

Vec3 body_contact_force(const Model& model, const State& state, BodyRef body) {
  const int slot = BodySlots(model).slot(body);
  Vec3 f = Vec3::Zero();
  for (const ContactForce& c : state.contacts) {
    if (c.body_a == slot) f += c.force;
    if (c.body_b == slot) f -= c.force;
  }
  return f;
}

CavityHold cavity_hold(const Model& model, const State& state, const CavityState& cavity) {
  CavityHold hold;
  const Points x = cavity_world_vertices(model, state, cavity);
  hold.normal = seam_ring_normal(x, cavity, seam_ring_edges(cavity));
  // the net pull on the bodies, not the cavity's shadow: an overhanging wall counts with its sign
  std::vector<int> body(static_cast<size_t>(cavity.seam_begin));
  for (int t = 0; t < cavity.seam_begin; ++t) body[t] = cavity.vertices[cavity.triangles[t][0]].slot;
  hold.area = holding_area(x, cavity.triangles, body, cavity.seam_begin);
  hold.force = cavity.dormant ? 0.0 : (model.settings.p_atm - cavity.pressure) * hold.area;
  return hold;
}

CavitySummary cavity_summary(const Model& model, const State& state) {
  CavitySummary c;
  c.pressure_min = model.settings.p_atm;
  c.temperature_min = c.temperature_max = model.settings.cavity.gas.t_ambient;
  for (const CavityState& cav : state.book.cavities) {
    if (cav.dormant) continue;
    // the lowest of the cavities' pressures, above P_atm too (a cup pushed with no outflow)
    c.pressure_min = ++c.count == 1 ? cav.pressure : std::min(c.pressure_min, cav.pressure);
    c.temperature_min = c.count == 1 ? cav.temperature : std::min(c.temperature_min, cav.temperature);
    c.temperature_max = c.count == 1 ? cav.temperature : std::max(c.temperature_max, cav.temperature);
    c.volume_total += cav.volume;
    c.air_total += cav.air;
    c.holding_force += cavity_hold(model, state, cav).force;
  }
  return c;
}

double evaluate_probe(const Model& model, const State& state, const Probe& probe) {
  Vec3 value = Vec3::Zero();
  switch (probe.kind) {
    case ProbeKind::Time:
      return probe.scale * state.time;
    case ProbeKind::SpringForce:
      return probe.scale * spring_tension(model.springs[probe.spring], state.spring_force[probe.spring]);
    case ProbeKind::SpringLength:
      return probe.scale * spring_geometry(model, state, probe.spring).length;
    case ProbeKind::JointAngle:
      return probe.scale * state.joint_angle[probe.joint];
    case ProbeKind::JointTorque:
      return probe.scale * state.joint_torque[probe.joint];
    case ProbeKind::CavityCount: {
      int n = 0;
      for (const CavityState& c : state.book.cavities) n += !c.dormant;
      return probe.scale * n;
    }
    case ProbeKind::CavityPressure:
    case ProbeKind::CavityVolume:
    case ProbeKind::CavityAir:
    case ProbeKind::CavityTemperature:
    case ProbeKind::CavityHoldingForce: {
      int k = 0;
      const int slot = probe.cavity_of_body ? BodySlots(model).slot(probe.body) : -1;
      for (const CavityState& c : state.book.cavities) {  // sorted by id: oldest first
        if (c.dormant) continue;
        if (slot >= 0 && !std::binary_search(c.slots.begin(), c.slots.end(), slot)) continue;
        if (k++ != probe.cavity) continue;
        const double v = probe.kind == ProbeKind::CavityPressure   ? c.pressure
                         : probe.kind == ProbeKind::CavityVolume   ? c.volume
                         : probe.kind == ProbeKind::CavityAir      ? c.air
                         : probe.kind == ProbeKind::CavityTemperature ? c.temperature
                                                                   : cavity_hold(model, state, c).force;
        return probe.scale * v;
      }
      return probe.scale * (probe.kind == ProbeKind::CavityPressure      ? model.settings.p_atm
                            : probe.kind == ProbeKind::CavityTemperature ? model.settings.cavity.gas.t_ambient
                                                                         : 0.0);
    }
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
    case ProbeKind::Displacement: {
      const Vec3 c0 = probe.body.type == BodyType::Rigid
                          ? model.rigid[probe.body.index].initial_position
                          : mass_weighted_mean(model.fem[probe.body.index], model.fem[probe.body.index].rest.nodes);
      return probe.scale * (body_center_of_mass(model, state, probe.body) - c0).dot(probe.direction);
    }
    case ProbeKind::ContactForce:
      value = body_contact_force(model, state, probe.body);
      break;
  }
  const double v = probe.component == 3 ? value.norm() : value[probe.component];
  return probe.scale * v;
}

}  // namespace suction
