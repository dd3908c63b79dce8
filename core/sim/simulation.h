// The simulation: a Model, its State and the Workspace, stepped by the stage list of
// docs/method.md §1 (Simulation::step in simulation.cpp; the stages in core/stages).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "model/model.h"
#include "model/state.h"
#include "probes/probes.h"
#include "sim/profile.h"
#include "sim/watchdog.h"

namespace suction {

struct Workspace;
struct ShapeFindings;

class Simulation {
 public:
  explicit Simulation(Model model);
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  const Model& model() const { return model_; }
  const State& state() const { return state_; }
  /// The state to change from outside (a test's, a tool's): what the simulation found at the
  /// current state for the next step (the seal check's contacts and unions) is dropped.
  State& mutable_state();

  /// Advances by model().settings.dt.  Throws SimulationError when the step diverges
  /// (NaN or exploding energy); the state is then left at its last good value.
  void step();
  /// Back to the initial state.
  void reset();
  /// Live tuning: the simulation goes on from its current state with `next` as its model (the
  /// same scene with other values: a leak, P_max, a friction coefficient, a driver's speed, a
  /// material's stiffness; applied from the next step).  Drivers continue from where they are:
  /// each driver's offset takes the difference of the old and the new displacement now, so the
  /// driven nodes do not jump and move at the new profile's velocity from here (a new position
  /// profile shows in full after a reset).  The workspace (factorizations, caches) is rebuilt;
  /// the state (positions, velocities, cavities and their air, contact warm starts) is kept.
  /// Throws InputError naming what differs when `next` cannot replace the model while it runs
  /// (model/compare.h: another mesh, other bodies, drivers, springs, joints or probes); the
  /// simulation is then unchanged.
  void retune(Model next);
  /// The check of retune without a simulation: throws InputError, prefixed by `context` (e.g.
  /// "--tune 1.5:/settings/cavity/leak_rate=1e-3: "), when `next` cannot replace `running`.
  static void check_retune(const Model& running, const Model& next, const std::string& context = "");

  const StepProfile& profile() const { return profile_; }  // of the last step
  /// Values of model().probes in the current state, in order.
  std::vector<double> probe_values() const;
  CavitySummary cavity_summary() const;
  /// Interactive dragging: an offset added to driver d's prescribed displacement from the next
  /// step on (move it smoothly: the driven nodes reach it within one step).
  void set_driver_offset(int driver, const Vec3& offset);
  /// Kinetic energy of all dynamic bodies [J].
  double kinetic_energy() const;

  /// Warnings of the last step (a failed mesh union: the step, the bodies and the reason; the
  /// watchdog's tunnelling, deep contact and left-the-scene warnings, sim/watchdog.h); the run
  /// goes on.  Callers print them (the CLI to stderr, the page in its banner).
  const std::vector<std::string>& warnings() const { return warnings_; }
  /// Mesh unions that failed since the last reset.
  long union_failures() const { return union_failures_; }
  /// Body surfaces that crossed themselves and were repaired for a union since the last reset
  /// (method §9.3; the first of each body is a warning).
  long surface_repairs() const { return surface_repairs_; }

 private:
  void report_union_failures(const Workspace& w);
  std::string slot_name(int slot) const;

  Model model_;
  State state_;
  std::unique_ptr<Workspace> work_;
  // what the last step's seal check found at state_'s shape (stages/stages.h ShapeFindings):
  // the next step's start; null when nothing was found there or state_ or model_ changed since
  std::unique_ptr<ShapeFindings> at_start_;
  StepProfile profile_;
  double max_energy_seen_ = 0.0;
  std::vector<std::string> warnings_;
  long union_failures_ = 0;
  long surface_repairs_ = 0;
  std::vector<char> repaired_slot_;  // per slot: its first repair was reported
  Watchdog watchdog_;
};

}  // namespace suction
