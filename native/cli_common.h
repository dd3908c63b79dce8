// Shared pieces of the `suction` subcommands: option structs, scene loading with --set
// overrides, error reporting and number formatting.  Native only (not built for wasm).
#pragma once
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "common/error.h"
#include "model/model.h"
#include "scene/scene.h"

namespace suction::cli {

/// exit codes of the tool
constexpr int kExitOk = 0;
constexpr int kExitSimulationFailed = 1;  // SimulationError (and any unexpected exception)
constexpr int kExitBadInput = 2;          // InputError, SceneError, CLI parse errors, unreadable files
constexpr int kExitNotConverged = 3;       // `suction fit` ran, but its result cannot be believed
constexpr int kExitInterrupted = 130;     // Ctrl-C during `run` (128 + SIGINT)

/// the scene file and its --set overrides, common to every subcommand
struct SceneOptions {
  std::string scene;
  std::vector<std::string> sets;  // "POINTER=VALUE"
  std::string backend;            // --backend: overrides /settings/compliance_backend
  std::string solver;             // --solver: overrides /settings/solver/method
  int threads = 1;                // --threads: common/parallel.h's thread count (load_model sets it)
  std::string quality = "reference";  // --quality: reference | interactive (scene/quality.h)
};
void add_scene_options(CLI::App* command, SceneOptions& options);
/// "interactive: POINTER=VALUE, ..." (what the interactive quality changed) or the sentence that it
/// changed nothing; "" at reference quality
std::string quality_line(const Model& model);

/// A CLI11 check that a number is finite (CLI11's PositiveNumber lets `nan` through).
CLI::Validator finite_number();
/// The most steps one run takes (a --duration or --steps beyond it is bad input).
constexpr long kMaxRunSteps = 1000000000L;

struct RunOptions {
  SceneOptions scene;
  long steps = -1;        // -1: from --duration or the scene's settings.duration
  double duration = -1;   // [s]
  double dt = -1;         // [s], -1: the scene's
  std::string csv;
  std::string frames;
  long every = 1;
  bool quiet = false;
  bool strict = false;             // --strict: a warning makes the exit status 1
  std::vector<std::string> tunes;  // --tune "T:POINTER=VALUE": live tuning at simulated time T
};
void add_run_command(CLI::App& app, RunOptions& options, CLI::App*& command);
int run_command(const RunOptions& options);

struct BenchOptions {
  SceneOptions scene;
  long steps = 200;
  long warmup = 20;
  std::string json;
};
void add_bench_command(CLI::App& app, BenchOptions& options, CLI::App*& command);
int bench_command(const BenchOptions& options);

struct SoakOptions {
  SceneOptions scene;
  long steps = 20000;
  double rss_tolerance = 0.01;
  std::string json;
  bool per_loop = false;
  bool quiet = false;
};
void add_soak_command(CLI::App& app, SoakOptions& options, CLI::App*& command);
int soak_command(const SoakOptions& options);

struct MeshOptions {
  SceneOptions scene;
  std::string body;  // the FEM body whose mesh is written
  std::string out;   // the .msh file
  bool write_cache = false;  // --write-cache: every "tetrahedralize" cache file that is missing or stale
};
void add_mesh_command(CLI::App& app, MeshOptions& options, CLI::App*& command);
int mesh_command(const MeshOptions& options);

struct SweepOptions {
  SceneOptions scene;              // the scene and the overrides every run shares
  std::vector<std::string> grid;   // "POINTER=V1,V2,..."
  std::string out;                 // the result table
  int jobs = 1;                    // runs at a time
  std::string runs_dir;            // where the runs' CSVs and logs are kept ("" : a temporary folder)
  long steps = -1;                 // each run's --steps (-1: the scene's duration)
  double duration = -1;            // each run's --duration [s]
  bool quiet = false;
};
void add_sweep_command(CLI::App& app, SweepOptions& options, CLI::App*& command);
int sweep_command(const SweepOptions& options);
/// whether this build spreads a sweep over MPI ranks, and the MPI library's name and version
bool sweep_mpi_built();
std::string sweep_mpi_library();

struct FitOptions {
  SceneOptions scene;                 // the scene and the overrides every run shares
  std::vector<std::string> params;    // "POINTER=LO:HI[:START]"
  std::string data;                   // measured time series (CSV: t and the probe)
  std::string probe;                  // the run's column matched against --data
  std::vector<std::string> targets;   // "METRIC=VALUE" (instead of --data)
  std::string window;                 // "T0:T1"
  double sigma = 0;                   // the measurement's standard deviation (0: estimated)
  int jobs = 1;
  double fd_step = 0.01;              // of each parameter's range
  int max_iterations = 20;
  int start_grid = -1;                // --start-grid N (0: never; -1: only after a first attempt that failed)
  long steps = -1;
  double duration = -1;
  std::string prefix;                 // PREFIX.json / .csv / .svg
  std::string json;
  std::string runs_dir;
  bool quiet = false;
};
void add_fit_command(CLI::App& app, FitOptions& options, CLI::App*& command);
int fit_command(const FitOptions& options);
/// whether this build has Ceres Solver (suction fit)
bool fit_built();

struct QualityOptions {
  SceneOptions scene;     // its --quality is ignored: both are run
  int jobs = 2;
  double tolerance = 0.03;
  std::vector<std::string> floors;  // --floor NAME=VALUE
  std::string json;
  std::string runs_dir;
};
void add_quality_command(CLI::App& app, QualityOptions& options, CLI::App*& command);
int quality_command(const QualityOptions& options);

void add_info_command(CLI::App& app, SceneOptions& options, CLI::App*& command);
int info_command(const SceneOptions& options);

/// suction validate FILE: a scene, or a lesson of the page (lessons/NAME.json, core/scene/lesson.h)
struct ValidateOptions {
  SceneOptions scene;
  std::string scenes_dir;      // --scenes: a lesson's scenes (default: ../scenes beside its folder, else ./scenes)
  CLI::Option* quality = nullptr;  // given or not: a lesson is checked at interactive quality unless --quality says
};
void add_validate_command(CLI::App& app, ValidateOptions& options, CLI::App*& command);
int validate_command(const ValidateOptions& options);

/// the --set overrides, then --backend as /settings/compliance_backend (throws InputError)
std::vector<SceneOverride> scene_overrides(const SceneOptions& options);
/// sets the thread count (--threads), then loads the scene with its overrides (throws
/// SceneError / InputError)
Model load_model(const SceneOptions& options);

/// prints "<file>: <pointer>: <message>" per issue to stderr ("<file>: <message>" when the
/// issue concerns the whole file)
void print_scene_issues(const std::string& file, const std::vector<SceneIssue>& issues);

/// "12.3 ms", "4.56 s", "2 min 03 s", "1 h 02 min"
std::string format_duration(double seconds);
/// printf into a std::string
std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
/// a body's type in words: "FEM", "rigid", "fixed", "kinematic"
std::string body_kind_name(const Model& model, const BodyRef& ref);
/// a body's name from its reference ("?" when out of range)
std::string body_name(const Model& model, const BodyRef& ref);
/// text broken into lines of at most width characters at spaces; every line after the first
/// starts with indent
std::string wrap_text(const std::string& text, size_t width, const std::string& indent);
/// a number with its SI prefix-free unit, compact: "0.0123", "1.5e+06"
std::string format_value(double value);

}  // namespace suction::cli
