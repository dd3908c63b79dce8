// suction quality SCENE: the scene at reference and at interactive quality (two `suction run`
// processes, side by side), its story numbers compared against their limits (io/quality_check.h).
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli_common.h"
#include "io/quality_check.h"
#include "io/sweep.h"
#include "run_pool.h"

namespace suction::cli {

void add_quality_command(CLI::App& app, QualityOptions& options, CLI::App*& command) {
  command = app.add_subcommand(
      "quality",
      "run a scene at reference and at interactive quality and compare its story numbers "
      "(settings.interactive.compare): exit 0 when every one is within its limit, 1 otherwise");
  add_scene_options(command, options.scene);
  command->add_option("-j,--jobs", options.jobs, "runs at a time (default 2: both at once)")
      ->check(CLI::Range(1, 2));
  command->add_option("--tolerance", options.tolerance,
                      "largest relative difference of a number (default 0.03); a time may also differ "
                      "by two interactive steps")
      ->check(CLI::Range(1e-9, 1.0));
  command->add_option("--floor", options.floors,
                      "a floor of a number that is not a time (make quality-params: a tenth of its reference "
                      "at the scene's default parameters): its limit is the tolerance times the larger of "
                      "|reference| and |VALUE|, so that two numbers near zero are not compared with each "
                      "other (repeatable)")
      ->type_name("NAME=VALUE");
  command->add_option("--json", options.json, "also write the comparison as JSON")->type_name("FILE");
  command->add_option("--runs-dir", options.runs_dir,
                      "keep both runs' CSVs and logs here (run_0: reference, run_1: interactive); default: a "
                      "temporary folder, removed at the end")
      ->type_name("DIR");
}

int quality_command(const QualityOptions& options) {
  SceneOptions scene = options.scene;
  scene.quality = "reference";
  const Model reference = load_model(scene);  // the scene's own errors: exit 2 before any run
  scene.quality = "interactive";
  const Model interactive = load_model(scene);
  scene.quality = "reference";
  const std::string name = reference.name.empty() ? options.scene.scene : reference.name;
  std::cout << "scene     " << name << "  (" << options.scene.scene << ")\n";
  std::cout << "quality   " << quality_line(interactive) << '\n';
  if (interactive.quality_changes.empty()) {
    std::cout << "verdict   one run: both qualities are the same simulation\n";
    return kExitOk;
  }
  const std::vector<std::string> numbers =
      reference.settings.story_numbers.empty() ? default_story_numbers() : reference.settings.story_numbers;
  QualityLimits limits;
  limits.relative = options.tolerance;
  limits.interactive_dt = interactive.settings.dt;
  for (const std::string& spec : options.floors) {
    const size_t eq = spec.find('=');
    const std::string value = eq == std::string::npos ? std::string() : spec.substr(eq + 1);
    char* end = nullptr;
    const double v = value.empty() ? 0.0 : std::strtod(value.c_str(), &end);
    if (eq == 0 || value.empty() || end != value.c_str() + value.size() || !std::isfinite(v))
      throw InputError("--floor " + spec + ": expected NAME=VALUE, VALUE a finite number");
    limits.floor[spec.substr(0, eq)] = v;
  }
  try {  // a misspelt floor is bad input before the runs, not after them
    check_floors(numbers, limits);
  } catch (const InputError& e) {
    throw InputError(std::string("--floor: ") + e.what());
  }

  const RunsDir dir(options.runs_dir, "quality");
  InterruptGuard guard;
  RunPool pool(run_base_args(scene, -1, -1), dir.path(), options.jobs);
  bool interrupted = false;
  // run_0: reference, run_1: interactive
  const std::vector<RunOutcome> outcomes = run_all(pool, {{}, {"--quality", "interactive"}}, "run_", interrupted);
  if (interrupted) {
    std::cerr << "interrupted\n";
    return kExitInterrupted;
  }
  const char* const stems[2] = {"reference", "interactive"};
  RunSummary summary[2];
  for (int k = 0; k < 2; ++k) {
    const RunOutcome& o = outcomes[k];
    if (o.exit_code != 0) {
      std::cerr << "the " << stems[k] << " run failed (exit " << o.exit_code
                << "): " << last_line(read_text(o.log)) << '\n';
      return kExitSimulationFailed;
    }
    summary[k] = summarize_run_csv(read_text(o.csv), o.csv.string());
  }
  std::vector<QualityRow> rows;
  try {
    rows = compare_story_numbers(summary[0], summary[1], numbers, limits);
  } catch (const InputError& e) {
    throw InputError(std::string("/settings/interactive/compare: ") + e.what());
  }

  std::cout << format("runs      reference %s, interactive %s of wall time (%.2fx less)\n\n",
                      format_duration(outcomes[0].seconds).c_str(), format_duration(outcomes[1].seconds).c_str(),
                      outcomes[1].seconds > 0 ? outcomes[0].seconds / outcomes[1].seconds : 0.0);
  std::cout << format("%-22s %14s %14s %12s %12s\n", "number", "reference", "interactive", "difference", "limit");
  int failed = 0;
  for (const QualityRow& r : rows) {
    std::string diff, limit;
    if (std::isnan(r.error)) diff = "-";
    else if (r.relative && r.reference != 0) diff = format("%+.2f %%", 100 * r.error / std::abs(r.reference));
    else diff = format("%+.4g", r.error);
    limit = r.floored ? format("%.3g", r.limit) : r.relative ? format("%.3g %%", 100 * options.tolerance) : format("%.3g s", r.limit);
    auto number = [](double v) { return std::isnan(v) ? std::string("never") : format("%.6g", v); };
    std::cout << format("%-22s %14s %14s %12s %12s  %s\n", r.name.c_str(), number(r.reference).c_str(),
                        number(r.interactive).c_str(), diff.c_str(), limit.c_str(), r.ok ? "ok" : "EXCEEDS");
    failed += !r.ok;
  }
  std::string floored;
  for (const QualityRow& r : rows)
    if (r.floored) floored += format("%s%s %.4g", floored.empty() ? "" : ", ", r.name.c_str(), r.floor);
  if (!floored.empty())
    std::cout << format("floor     %s: the limit is %.3g %% of the floor, above the reference\n", floored.c_str(),
                        100 * options.tolerance);
  std::cout << '\n'
            << (failed == 0 ? format("verdict   interactive within its limits on all %zu number%s\n", rows.size(), rows.size() == 1 ? "" : "s")
                            : format("verdict   interactive exceeds its limit on %d of %zu numbers\n", failed, rows.size()));
  if (!options.json.empty()) {
    nlohmann::json j;
    j["scene"] = name;
    j["scene_file"] = options.scene.scene;
    j["quality_changes"] = interactive.quality_changes;
    j["seconds"] = {{"reference", outcomes[0].seconds}, {"interactive", outcomes[1].seconds}};
    j["tolerance"] = options.tolerance;
    j["ok"] = failed == 0;
    for (const QualityRow& r : rows) {
      auto num = [](double v) { return std::isnan(v) ? nlohmann::json(nullptr) : nlohmann::json(v); };
      j["numbers"].push_back({{"name", r.name}, {"reference", num(r.reference)}, {"interactive", num(r.interactive)},
                              {"limit", r.limit}, {"relative", r.relative}, {"ok", r.ok}});
      if (r.floor != 0) j["numbers"].back()["floor"] = r.floor;
    }
    std::ofstream file(options.json);
    file << j.dump(2) << '\n';
    if (!file) throw InputError("cannot write " + options.json);
  }
  return failed == 0 ? kExitOk : kExitSimulationFailed;
}

}  // namespace suction::cli
