#include "sim/simulation.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>

#include "common/error.h"
#include "model/compare.h"
#include "probes/probes.h"
#include "rigid/rigid_dynamics.h"
#include "stages/stage_list.h"

namespace suction {

Simulation::Simulation(Model model) : model_(std::move(model)), work_(std::make_unique<Workspace>()) {
  reset();
}

Simulation::~Simulation() = default;

void Simulation::reset() {
  state_ = make_initial_state(model_);
  // the rigid surfaces' check as the last init found it (the construction's reset: none yet)
  const std::vector<char> rigid_checks = std::move(work_->rigid_surface_checked);
  init_workspace(model_, *work_, rigid_checks.empty() ? nullptr : &rigid_checks);
  at_start_.reset();
  profile_ = StepProfile{};
  warnings_.clear();
  union_failures_ = 0;
  surface_repairs_ = 0;
  repaired_slot_.assign(static_cast<size_t>(BodySlots(model_).count()), 0);
  max_energy_seen_ = kinetic_energy();
  watchdog_.reset(model_, state_);
}

void Simulation::check_retune(const Model& running, const Model& next, const std::string& context) {
  const std::string difference = running_difference(running, next);
  if (!difference.empty())
    throw InputError((context.empty() ? "" : context + ": ") + "cannot change while the simulation runs: " +
                     difference + " differs; change it with a reset");
}

void Simulation::retune(Model next) {
  check_retune(model_, next);
  const double t = state_.time;
  for (size_t d = 0; d < model_.drivers.size(); ++d)
    state_.driver_offset[d] += model_.drivers[d].displacement(t) - next.drivers[d].displacement(t);
  model_ = std::move(next);
  // the isothermal law keeps the air at the ambient temperature (docs/method.md §6.8)
  if (model_.settings.cavity.gas.isothermal())
    for (CavityState& c : state_.book.cavities) c.temperature = model_.settings.cavity.gas.t_ambient;
  const std::vector<char> rigid_checks = std::move(work_->rigid_surface_checked);  // same surfaces
  init_workspace(model_, *work_, rigid_checks.empty() ? nullptr : &rigid_checks);
  at_start_.reset();  // found under the old model (its reach, its sealing distance)
}

State& Simulation::mutable_state() {
  at_start_.reset();
  return state_;
}

namespace {
using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}
// energy scale m |g| L of the scene: what gravity can give over the scene's size
double energy_scale(const Model& m, const State& s) {
  Aabb box;
  double mass = 0.0;
  for (size_t i = 0; i < m.fem.size(); ++i) {
    for (const Vec3& p : s.fem[i].x) box.extend(p);
    for (double nm : m.fem[i].node_mass) mass += nm;
  }
  for (size_t i = 0; i < m.rigid.size(); ++i) {
    box.extend(s.rigid[i].position);
    if (m.rigid[i].kind == RigidKind::Dynamic) mass += m.rigid[i].mass;
  }
  const double size = box.hi.x() >= box.lo.x() ? (box.hi - box.lo).norm() : 1.0;
  return mass * std::max(m.settings.gravity.norm(), 1.0) * std::max(size, 1e-3);
}
bool state_is_finite(const State& s) {
  for (const auto& b : s.fem)
    for (size_t n = 0; n < b.x.size(); ++n)
      if (!b.x[n].allFinite() || !b.v[n].allFinite()) return false;
  for (const auto& r : s.rigid)
    if (!r.position.allFinite() || !r.velocity.allFinite() || !r.angular_velocity.allFinite() ||
        !r.orientation.coeffs().allFinite())
      return false;
  return true;
}
}  // namespace

void Simulation::step() {
  const State before = state_;
  StepProfile p;
  const auto t_step = Clock::now();
  auto timed = [&](Stage stage, auto&& fn) {
    const auto t0 = Clock::now();
    fn();
    p.ms[static_cast<int>(stage)] += ms_since(t0);
  };
  Workspace& w = *work_;
  // what the last step's seal check found at this shape: this step's start, and its redo's
  std::unique_ptr<ShapeFindings> at_start = std::move(at_start_);
  try {
    // a seal the solved shape opens ends in this step: the step is solved again with those
    // cavities released (at most three times; those released stay released)
    std::vector<int> released;
    auto total_air = [&] {
      double n = 0.0;
      for (const CavityState& c : state_.book.cavities) n += c.air;
      return n;
    };
    const GasSettings& gas = model_.settings.cavity.gas;
    auto total_energy = [&] {  // U = Σ N θ / (γ − 1) (docs/method.md §6.8)
      double u = 0.0;
      for (const CavityState& c : state_.book.cavities) u += c.air * (c.temperature / gas.t_ambient);
      return u / (gas.gamma - 1.0);
    };
    for (int attempt = 0;; ++attempt) {
      w.air = AirLedger{};  // a redo starts from `before` again
      w.air.start = total_air();
      w.air.energy_start = total_energy();
      step_stages(model_, state_, w, timed, at_start.get(), released);  // 1.-6. (stages/stage_list.h)
      // the step's one redo decision: the seal check at the solved shape names the cavities
      // whose seal it opened (input: the state after the correction; output: their ids, and
      // what it found there, the next step's start)
      SealCheck check;                        // 6 (check).
      if (attempt < 3)
        timed(Stage::Cavities, [&] { check = check_seals(model_, state_, w); });
      if (check.opened.empty()) {
        w.air.end = total_air();
        w.air.energy_end = total_energy();
        if (check.at_end) at_start_ = std::make_unique<ShapeFindings>(std::move(*check.at_end));
        break;
      }
      p.seals_opened += static_cast<int>(check.opened.size());
      state_ = before;
      released.insert(released.end(), check.opened.begin(), check.opened.end());
    }
  } catch (const SimulationError& e) {
    state_ = before;
    at_start_ = std::move(at_start);
    throw SimulationError("step " + std::to_string(before.step + 1) + " (t = " +
                          std::to_string(before.time + model_.settings.dt) + " s): " + e.what());
  }
  p.total_ms = ms_since(t_step);
  p.contacts = w.rows.layout.contacts;
  p.contacts_reduced = w.reduction.flat_rigid_vertices + w.reduction.patch_interior;
  p.constraints = w.rows.count();
  p.cavities = w.rows.layout.cavities;
  p.cavity_unions = w.cavity_unions;
  for (const FemSystem& s : w.fem) {
    if (s.num_free == 0) continue;
    if (s.factor_age == 0) ++p.factorizations;
    p.cg_iterations += s.cg_iterations;
  }
  p.cavity_union_failures = static_cast<int>(w.union_failures.size());
  p.solver_iterations = w.solver_iterations;
  p.solver_residual = w.solver_residual;
  p.solver_converged = w.solver_converged;
  p.air = w.air;
  profile_ = p;

  // divergence: NaN, or kinetic energy exploding beyond anything the scene can supply
  const double ke = kinetic_energy();
  const double limit = model_.settings.divergence_energy_factor *
                       (max_energy_seen_ + energy_scale(model_, state_));
  if (!state_is_finite(state_) || !(ke <= limit)) {
    const long bad_step = state_.step;
    const double bad_time = state_.time;
    state_ = before;
    at_start_ = std::move(at_start);
    throw SimulationError("step " + std::to_string(bad_step) + " (t = " + std::to_string(bad_time) +
                          " s) diverged: " +
                          (std::isfinite(ke) ? "kinetic energy " + std::to_string(ke) +
                                                   " J exceeds the limit " + std::to_string(limit) + " J"
                                             : std::string("non-finite positions or velocities")) +
                          "; try a smaller time step or more damping");
  }
  max_energy_seen_ = std::max(max_energy_seen_, ke);
  report_union_failures(w);
  const auto t_watchdog = Clock::now();  // part of the step: in its total (the bench's "other")
  watchdog_.check(model_, before, state_, w.contacts, warnings_);
  profile_.total_ms += ms_since(t_watchdog);
}

void Simulation::report_union_failures(const Workspace& w) {
  warnings_.clear();
  for (const UnionFailure& f : w.union_failures) {
    ++union_failures_;
    std::string bodies;
    for (size_t i = 0; i < f.slots.size(); ++i)
      bodies += std::string(i == 0 ? "" : i + 1 == f.slots.size() ? "' and '" : "', '") + slot_name(f.slots[i]);
    warnings_.push_back("step " + std::to_string(state_.step) + " (t = " + std::to_string(state_.time) +
                        " s): the mesh union of '" + bodies + "' failed (" + f.what +
                        "); their cavities are kept as they were");
  }
  for (const SurfaceRepair& r : w.surface_repairs) {
    ++surface_repairs_;
    if (repaired_slot_.at(static_cast<size_t>(r.slot))) continue;
    repaired_slot_[static_cast<size_t>(r.slot)] = 1;
    char where[96], moved[64];
    std::snprintf(where, sizeof where, "around (%.1f, %.1f, %.1f) mm", 1e3 * r.where.x(), 1e3 * r.where.y(),
                  1e3 * r.where.z());
    std::snprintf(moved, sizeof moved, "%.2g mm", 1e3 * r.max_move);
    warnings_.push_back("step " + std::to_string(state_.step) + " (t = " + std::to_string(state_.time) +
                        " s): the surface of '" + slot_name(r.slot) + "' crosses itself (" +
                        std::to_string(r.crossing_pairs) + (r.crossing_pairs == 1 ? " pair" : " pairs") +
                        " of its triangles, " + where +
                        "): the body is folded through itself there, which the contacts do not prevent; "
                        "its unions take a copy with that patch smoothed until it no longer crosses "
                        "(a vertex moved up to " + moved + "; further repairs are counted, not repeated)");
  }
}

std::string Simulation::slot_name(int slot) const { return suction::slot_name(model_, slot); }

std::vector<double> Simulation::probe_values() const {
  std::vector<double> values;
  values.reserve(model_.probes.size());
  for (const Probe& p : model_.probes) values.push_back(evaluate_probe(model_, state_, p));
  return values;
}

CavitySummary Simulation::cavity_summary() const { return suction::cavity_summary(model_, state_); }

void Simulation::set_driver_offset(int driver, const Vec3& offset) {
  if (driver < 0 || driver >= static_cast<int>(model_.drivers.size()))
    throw InputError("set_driver_offset: no driver " + std::to_string(driver) + " (the scene has " +
                     std::to_string(model_.drivers.size()) + ")");
  state_.driver_offset[driver] = offset;
}

double Simulation::kinetic_energy() const {
  double e = 0.0;
  for (size_t i = 0; i < model_.fem.size(); ++i)
    for (size_t n = 0; n < state_.fem[i].v.size(); ++n)
      e += 0.5 * model_.fem[i].node_mass[n] * state_.fem[i].v[n].squaredNorm();
  for (size_t i = 0; i < model_.rigid.size(); ++i) {
    const RigidBody& b = model_.rigid[i];
    if (b.kind != RigidKind::Dynamic) continue;
    const RigidBodyState& s = state_.rigid[i];
    e += 0.5 * b.mass * s.velocity.squaredNorm() +
         0.5 * s.angular_velocity.dot(world_inertia(b, s.orientation) * s.angular_velocity);
  }
  return e;
}

}  // namespace suction
