// suction bench SCENE: per-stage step timings in the layout of the paper's Table 1.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>

#include "cli_common.h"
#include "scene/quality.h"
#include "common/parallel.h"
#include "io/bench.h"
#include "sim/simulation.h"

namespace suction::cli {

void add_bench_command(CLI::App& app, BenchOptions& options, CLI::App*& command) {
  command = app.add_subcommand(
      "bench", "time the stages of a step (mean and max ms, as the paper's Table 1)");
  add_scene_options(command, options.scene);
  command->add_option("--steps", options.steps,
                      "timed steps (default 200); 0: the scene's whole duration at its time step (after "
                      "the warmup)")
      ->check(CLI::Range(0L, kMaxRunSteps))
      ->type_name("N");
  command->add_option("--warmup", options.warmup, "untimed steps first (default 20)")
      ->check(CLI::Range(0L, kMaxRunSteps))
      ->type_name("N");
  command->add_option("--json", options.json, "also write the statistics as JSON")
      ->type_name("FILE");
}

int bench_command(const BenchOptions& options) {
  Simulation sim(load_model(options.scene));
  const Model& model = sim.model();
  const ModelCounts counts = count_model(model);
  const long timed_steps = options.steps > 0 ? options.steps
                                             : std::max(1L, std::lround(model.settings.duration / model.settings.dt));
  std::cout << "scene     " << (model.name.empty() ? options.scene.scene : model.name) << "  ("
            << options.scene.scene << ")\n";
  if (const std::string q = quality_line(model); !q.empty()) std::cout << "quality   " << q << '\n';
  std::cout << format("steps     %ld warmup + %ld timed, dt = %.4g ms, %d thread%s\n", options.warmup,
                      timed_steps, model.settings.dt * 1e3, thread_count(), thread_count() > 1 ? "s" : "")
            << std::flush;

  BenchStats stats;
  const auto start = std::chrono::steady_clock::now();
  try {
    for (long i = 0; i < options.warmup; ++i) sim.step();
    for (long i = 0; i < timed_steps; ++i) {
      sim.step();
      stats.add(sim.profile());
    }
  } catch (const SimulationError& e) {
    std::cerr << format("simulation failed at step %ld (t = %.6g s): %s\n",
                        sim.state().step + 1, sim.state().time, e.what());
    if (stats.samples() > 0) std::cout << '\n' << format_bench_table(stats, counts);
    return kExitSimulationFailed;
  }
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::cout << "wall      " << format_duration(wall) << "\n\n" << format_bench_table(stats, counts);
  const double mean_ms = stats.total().mean_ms;
  if (mean_ms > 0)
    std::cout << format("real time %.2fx  (dt / mean step: the fastest a player of this build can go)\n",
                        model.settings.dt * 1e3 / mean_ms);
  if (!options.json.empty()) {
    nlohmann::json j = bench_json(stats, counts);
    j["scene"] = model.name;
    j["scene_file"] = options.scene.scene;
    j["overrides"] = options.scene.sets;
    j["quality"] = quality_name(model.quality);
    j["quality_changes"] = model.quality_changes;
    j["warmup"] = options.warmup;
    j["dt"] = model.settings.dt;
    j["real_time_factor"] = mean_ms > 0 ? model.settings.dt * 1e3 / mean_ms : 0.0;
    j["threads"] = thread_count();
    std::ofstream file(options.json);
    file << j.dump(2) << '\n';
    file.close();
    if (!file) throw InputError("cannot write " + options.json);
    std::cout << "\njson      " << options.json << '\n';
  }
  return kExitOk;
}

}  // namespace suction::cli
