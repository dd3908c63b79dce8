// The stage list of one time step (docs/method.md §1, the paper's Algorithm 1), written once:
// Simulation::step runs it, timing each stage into its profile, and tests that need the state
// between two stages (the CUDA compliance against the CPU's) run the same parts of it.
#pragma once
#include "stages/stages.h"

namespace suction {

/// The timed stages, in the columns of the paper's Table 1.
enum class Stage { Leak, FreeMotion, Collision, Cavities, Compliance, Solve, Correction, Count };
constexpr int kStageCount = static_cast<int>(Stage::Count);

/// short lowercase name of a stage: "leak", "free_motion", "collision", "cavities",
/// "compliance", "solve", "correction"
const char* stage_name(Stage stage);

/// A stage timer takes (Stage, fn) and calls fn once; this one only calls it.
inline constexpr auto kUntimed = [](Stage, auto&& fn) { fn(); };

/// Stages 1-4c of one attempt of a step: leak, the pressing drivers and the free motion, the
/// compliance backend's early start, collision, cavities, the spring and the joint rows.  Afterwards the
/// step's rows, u_free and cavity volumes at x_free are built.  `at_start`: what the last step's
/// seal check found at this step's starting shape (ShapeFindings; null: found here);
/// `released`: the cavities a seal check of this step opened (a redo).
template <class Timed>
void stages_up_to_rows(const Model& model, State& state, Workspace& work, Timed&& timed,
                       const ShapeFindings* at_start = nullptr, const std::vector<int>& released = {}) {
  timed(Stage::Leak, [&] { leak_cavities(model, state, work); });                // 1. leak
  timed(Stage::FreeMotion, [&] {                                                 // 2. free motion
    press_drivers(model, state);                                                 //    (2a. pressing drivers)
    free_motion(model, state, work);
  });
  timed(Stage::Compliance, [&] { prepare_compliance(model, state, work); });     //    (5a begins)
  timed(Stage::Collision, [&] {                                                  // 3. collision
    detect_collisions(model, state, work, at_start);
    add_joint_limit_rows(model, state, work);                                    //    (3b. joint limits)
  });
  timed(Stage::Cavities, [&] { update_cavities(model, state, work, at_start, released); });  // 4. cavities
  timed(Stage::Collision, [&] {
    add_spring_rows(model, state, work);                                         // 4b. spring rows
    add_joint_rows(model, state, work);                                          // 4c. joint rows
  });
}

/// Stages 5b-6 after the compliance: the PGS solve, the correction and integration, and the
/// cavities' volumes at the new positions.
template <class Timed>
void stages_after_compliance(const Model& model, State& state, Workspace& work, Timed&& timed) {
  timed(Stage::Solve, [&] { solve_constraints(model, state, work); });           // 5b. PGS
  timed(Stage::Correction, [&] {                                                 // 6.
    correct_and_integrate(model, state, work);
    measure_cavities(model, state, work);
  });
}

/// One attempt of a step, stages 1-6: the rows, W = h H A⁻¹ Hᵀ (5a), the solve and correction.
/// The seal check (check_seals) and the decision to solve the step again are Simulation::step's.
template <class Timed>
void step_stages(const Model& model, State& state, Workspace& work, Timed&& timed,
                 const ShapeFindings* at_start = nullptr, const std::vector<int>& released = {}) {
  stages_up_to_rows(model, state, work, timed, at_start, released);
  timed(Stage::Compliance, [&] { build_compliance(model, state, work); });       // 5a. W
  stages_after_compliance(model, state, work, timed);
}

}  // namespace suction
