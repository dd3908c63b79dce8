// suction run SCENE: headless simulation with CSV and VTK output and a summary at the end.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <fstream>
#include <iostream>
#include <limits>
#include <memory>

#include "cli_common.h"
#include "io/bench.h"
#include "io/csv.h"
#include "io/vtk.h"
#include "sim/simulation.h"

namespace suction::cli {

namespace {

using Clock = std::chrono::steady_clock;

volatile std::sig_atomic_t g_interrupted = 0;
extern "C" void on_interrupt(int) { g_interrupted = 1; }

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// One-line progress bar on stderr, redrawn at most 10 times a second:
///   [########........]  42%  step 420/1000  t = 4.200 s  123 steps/s  ETA 5.21 s
class ProgressBar {
 public:
  ProgressBar(bool enabled, long total_steps) : enabled_(enabled), total_(total_steps) {}
  void update(long done, double sim_time, double wall_seconds, bool force = false) {
    if (!enabled_) return;
    const auto now = Clock::now();
    if (!force && now - last_draw_ < std::chrono::milliseconds(100)) return;
    last_draw_ = now;
    const double fraction = total_ > 0 ? double(done) / double(total_) : 1.0;
    constexpr int kWidth = 24;
    const int filled = std::clamp(int(fraction * kWidth), 0, kWidth);
    const double rate = wall_seconds > 0 ? done / wall_seconds : 0.0;
    const double eta = rate > 0 ? (total_ - done) / rate : std::numeric_limits<double>::infinity();
    std::string bar(filled, '#');
    bar += std::string(kWidth - filled, '.');
    std::cerr << format("\r[%s] %3.0f%%  step %ld/%ld  t = %.3f s  %.1f steps/s  ETA %s   ",
                        bar.c_str(), 100.0 * fraction, done, total_, sim_time, rate,
                        format_duration(eta).c_str())
              << std::flush;
    drawn_ = true;
  }
  /// erases the bar so that the summary starts on a clean line
  void clear() {
    if (enabled_ && drawn_) std::cerr << "\r\033[K" << std::flush;
    drawn_ = false;
  }

 private:
  bool enabled_;
  long total_;
  bool drawn_ = false;
  Clock::time_point last_draw_{};
};

/// min, max and last value of every probe over the recorded states
struct ProbeRange {
  std::vector<double> min, max, last;
  void add(const std::vector<double>& values) {
    if (last.empty()) {
      min = max = last = values;
      return;
    }
    for (size_t i = 0; i < values.size(); ++i) {
      min[i] = std::min(min[i], values[i]);
      max[i] = std::max(max[i], values[i]);
    }
    last = values;
  }
};

long steps_to_run(const RunOptions& options, const Model& model) {
  if (options.steps >= 0) return options.steps;
  const double duration = options.duration >= 0 ? options.duration : model.settings.duration;
  // a duration that is a whole number of steps up to rounding gives exactly that many
  const double steps = std::ceil(duration / model.settings.dt - 1e-9);
  if (!(steps <= static_cast<double>(kMaxRunSteps)))
    throw InputError("a duration of " + format_value(duration) + " s at dt = " + format_value(model.settings.dt) +
                     " s is " + format_value(steps) + " steps: at most " + std::to_string(kMaxRunSteps) +
                     " steps per run");
  return std::max(0L, static_cast<long>(steps));
}

void print_summary(const RunOptions& options, const Simulation& sim, long steps_done,
                   double wall_seconds, const BenchStats& timings, const ProbeRange& probes,
                   const CsvRecorder* csv, const VtkSeriesWriter* frames) {
  const Model& model = sim.model();
  std::ostream& out = std::cout;
  out << "scene     " << (model.name.empty() ? options.scene.scene : model.name) << "  ("
      << options.scene.scene << ")\n";
  if (!model.description.empty())
    out << "          " << wrap_text(model.description, 80, "          ") << '\n';
  for (const std::string& set : options.scene.sets) out << "          --set " << set << '\n';
  for (const std::string& tune : options.tunes) out << "          --tune " << tune << '\n';
  if (const std::string q = quality_line(model); !q.empty()) out << "quality   " << q << '\n';

  // bodies
  size_t name_width = 4;
  for (const FemBody& b : model.fem) name_width = std::max(name_width, b.name.size());
  for (const RigidBody& b : model.rigid) name_width = std::max(name_width, b.name.size());
  const char* label = "bodies    ";
  for (const FemBody& b : model.fem) {
    double mass = 0;
    for (double m : b.node_mass) mass += m;
    out << label
        << format("%-*s  FEM        %6zu nodes  %6zu tets  %.4g kg", int(name_width),
                  b.name.c_str(), b.rest.nodes.size(), b.rest.tets.size(), mass)
        << '\n';
    label = "          ";
  }
  for (size_t i = 0; i < model.rigid.size(); ++i) {
    const RigidBody& b = model.rigid[i];
    const std::string kind = body_kind_name(model, BodyRef{BodyType::Rigid, int(i)});
    out << label
        << format("%-*s  %-9s  %6zu vertices", int(name_width), b.name.c_str(), kind.c_str(),
                  b.surface.vertices.size());
    if (b.kind == RigidKind::Dynamic) out << format("           %.4g kg", b.mass);
    out << '\n';
    label = "          ";
  }

  // run
  const double dt = model.settings.dt;
  out << format("steps     %ld x %.4g ms = %.4g s simulated\n", steps_done, dt * 1e3,
                sim.state().time);
  out << "wall      " << format_duration(wall_seconds);
  if (steps_done > 0)
    out << format("  (%.3f ms/step, %.1f steps/s, %.3gx real time)",
                  1e3 * wall_seconds / steps_done, steps_done / wall_seconds,
                  wall_seconds > 0 ? sim.state().time / wall_seconds : 0.0);
  out << '\n';
  if (sim.union_failures() > 0)
    out << "unions    " << sim.union_failures()
        << " mesh unions failed (warnings above); those pairs kept their cavities\n";
  if (sim.surface_repairs() > 0)
    out << "unions    " << sim.surface_repairs()
        << " body surfaces that crossed themselves were repaired for a union (warnings above)\n";
  if (csv) out << "csv       " << options.csv << "  (" << csv->rows() << " rows)\n";
  if (frames)
    out << "frames    " << frames->dir() << "/series.pvd  (" << frames->frames()
        << " frames)\n";

  // probes
  if (!model.probes.empty() && !probes.last.empty()) {
    size_t width = 5;
    for (const Probe& p : model.probes) width = std::max(width, p.name.size());
    out << '\n'
        << format("%-*s  %14s  %14s  %14s\n", int(width), "probe", "final", "min", "max");
    for (size_t i = 0; i < model.probes.size(); ++i)
      out << format("%-*s  %14.6g  %14.6g  %14.6g\n", int(width), model.probes[i].name.c_str(),
                    probes.last[i], probes.min[i], probes.max[i]);
  }

  // per-stage timings (the paper's Table 1 columns)
  if (timings.samples() > 0) {
    out << "\ntimings per step [ms]\n" << format_bench_table(timings, count_model(model));
  }
  out << std::flush;
}

}  // namespace

void add_run_command(CLI::App& app, RunOptions& options, CLI::App*& command) {
  command = app.add_subcommand("run", "simulate a scene headless; summary on stdout");
  add_scene_options(command, options.scene);
  auto* steps = command->add_option("--steps", options.steps, "number of steps to run")
                    ->check(CLI::Range(0L, kMaxRunSteps))
                    ->type_name("N");
  auto* duration = command
                       ->add_option("--duration", options.duration,
                                    "simulated time to run [s] (default: the scene's "
                                    "settings.duration)")
                       ->check(CLI::NonNegativeNumber & finite_number())
                       ->type_name("S");
  steps->excludes(duration);
  command->add_option("--dt", options.dt, "time step h [s] (default: the scene's settings.dt)")
      ->check(CLI::PositiveNumber & finite_number())
      ->type_name("H");
  command->add_option("--csv", options.csv, "write a CSV row per step (docs/cli.md)")
      ->type_name("FILE");
  auto* frames = command
                     ->add_option("--frames", options.frames,
                                  "write ParaView frames to DIR: series.pvd (bodies, with stress), cavities.pvd, contacts.pvd")
                     ->type_name("DIR");
  command->add_option("--every", options.every, "write a frame every K steps (default 1)")
      ->check(CLI::PositiveNumber)
      ->type_name("K")
      ->needs(frames);
  command->add_option("--tune", options.tunes,
                      "at simulated time T, change POINTER to VALUE while the run goes on (live "
                      "tuning: the leak, P_max, friction, a driver's speed, ...; repeatable)")
      ->type_name("T:POINTER=VALUE");
  command->add_flag("-q,--quiet", options.quiet, "no progress bar");
  command->add_flag("--strict", options.strict,
                    "a warning (the watchdog's: tunnelling, a deep contact, interpenetration, a body "
                    "gone; a failed union) is an error: the run goes on to its end, writes its "
                    "outputs, and exits 1");
}

/// One --tune: from the step that starts at T on, the model of the scene with its --set and
/// every --tune up to this one.
struct Tune {
  double time = 0.0;
  std::string set;  // POINTER=VALUE
  Model model;
};

/// The --tune models, in the order of their times (stable), each checked to be able to replace
/// the running model (Simulation::retune); an InputError names the --tune otherwise.
std::vector<Tune> tune_models(const RunOptions& options, const Model& initial) {
  struct Parsed {
    double time;
    std::string set, text;
  };
  std::vector<Parsed> parsed;
  for (const std::string& text : options.tunes) {
    const size_t colon = text.find(':');
    double t = -1.0;
    size_t used = 0;
    try {
      if (colon != std::string::npos) t = std::stod(text.substr(0, colon), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (colon == std::string::npos || used != colon || !std::isfinite(t) || t < 0.0)
      throw InputError("--tune " + text + ": expected T:POINTER=VALUE with a time T >= 0 [s]");
    parsed.push_back({t, text.substr(colon + 1), text});
  }
  std::stable_sort(parsed.begin(), parsed.end(), [](const Parsed& a, const Parsed& b) { return a.time < b.time; });
  std::vector<Tune> out;
  SceneOptions scene = options.scene;
  for (const Parsed& p : parsed) {
    scene.sets.push_back(p.set);
    Model model;
    try {
      model = load_model(scene);
    } catch (const InputError& e) {
      throw InputError("--tune " + p.text + ": " + e.what());
    }
    if (options.dt > 0) model.settings.dt = options.dt;
    Simulation::check_retune(initial, model, "--tune " + p.text);
    out.push_back({p.time, p.set, std::move(model)});
  }
  return out;
}

int run_command(const RunOptions& options) {
  Model model = load_model(options.scene);
  if (options.dt > 0) model.settings.dt = options.dt;
  const long total_steps = steps_to_run(options, model);
  std::vector<Tune> tunes = tune_models(options, model);
  size_t next_tune = 0;
  Simulation sim(std::move(model));

  // outputs: CSV (header + the initial state), frames (the initial state)
  std::ofstream csv_file;
  std::unique_ptr<CsvRecorder> csv;
  if (!options.csv.empty()) {
    csv_file.open(options.csv, std::ios::binary);
    if (!csv_file) throw InputError("cannot write " + options.csv);
    csv = std::make_unique<CsvRecorder>(csv_file, sim.model());
    csv->record(sim);
  }
  std::unique_ptr<VtkSeriesWriter> frames;
  if (!options.frames.empty()) {
    frames = std::make_unique<VtkSeriesWriter>(options.frames, sim.model());
    frames->write_frame(sim);
  }

  ProbeRange probes;
  probes.add(sim.probe_values());
  BenchStats timings;
  ProgressBar progress(!options.quiet && isatty(STDERR_FILENO), total_steps);

  g_interrupted = 0;
  auto previous_handler = std::signal(SIGINT, on_interrupt);
  const auto start = Clock::now();
  long done = 0;
  int exit_code = kExitOk;
  long warnings = 0;
  std::string failure;
  try {
    for (; done < total_steps && !g_interrupted; ++done) {
      // a --tune applies from the first step that starts at or after its time
      while (next_tune < tunes.size() &&
             sim.state().time >= tunes[next_tune].time - 0.5 * sim.model().settings.dt) {
        progress.clear();
        std::cerr << format("tuned at t = %.6g s: %s\n", sim.state().time, tunes[next_tune].set.c_str());
        sim.retune(std::move(tunes[next_tune].model));
        ++next_tune;
      }
      sim.step();
      timings.add(sim.profile());
      for (const std::string& w : sim.warnings()) {
        progress.clear();
        std::cerr << "warning: " << w << '\n';
        ++warnings;
      }
      const std::vector<double> values = sim.probe_values();
      probes.add(values);
      if (csv)
        csv->record_row({sim.state().step, sim.state().time, sim.profile().contacts,
                         sim.profile().solver_iterations, sim.profile().solver_residual},
                        sim.cavity_summary(), values);
      if (frames && sim.state().step % options.every == 0) frames->write_frame(sim);
      progress.update(done + 1, sim.state().time, seconds_since(start));
    }
  } catch (const SimulationError& e) {
    // the state is left at its last good value: the failing step is the next one
    failure = format("simulation failed at step %ld (t = %.6g s -> %.6g s): %s",
                     sim.state().step + 1, sim.state().time,
                     sim.state().time + sim.model().settings.dt, e.what());
    exit_code = kExitSimulationFailed;
  }
  const double wall = seconds_since(start);
  std::signal(SIGINT, previous_handler);
  progress.update(done, sim.state().time, wall, true);
  progress.clear();

  // flush everything written so far, also after a failure
  if (csv) {
    csv->flush();
    csv_file.flush();
    if (!csv_file) {
      std::cerr << "error: writing " << options.csv << " failed\n";
      if (exit_code == kExitOk) exit_code = kExitBadInput;
    }
  }
  if (frames) frames->finish();

  print_summary(options, sim, done, wall, timings, probes, csv.get(), frames.get());
  if (exit_code == kExitSimulationFailed) {
    std::cerr << failure << '\n';
    if (csv)
      std::cerr << "the CSV is complete up to step " << sim.state().step << " (" << csv->rows()
                << " rows flushed to " << options.csv << ")\n";
    if (frames)
      std::cerr << frames->frames() << " frames written to " << frames->dir() << '\n';
  } else if (g_interrupted) {
    std::cerr << "interrupted at step " << sim.state().step << "; outputs flushed\n";
    exit_code = kExitInterrupted;
  } else if (options.strict && warnings > 0 && exit_code == kExitOk) {
    std::cerr << "strict: " << warnings << (warnings == 1 ? " warning" : " warnings")
              << " (above): exit status 1\n";
    exit_code = kExitSimulationFailed;
  }
  return exit_code;
}

}  // namespace suction::cli
