// suction fit SCENE --param POINTER=LO:HI[:START] ... (--data FILE.csv --probe NAME | --target
// METRIC=VALUE ...): identifies scene parameters from measurements by nonlinear least squares
// (Ceres Solver's Levenberg-Marquardt within the bounds).  Every residual evaluation is a
// simulation, a `suction run` process of the sweep's engine (run_pool.h); the forward
// differences of the Jacobian run in parallel (--jobs).  Prints and writes the fitted values
// with their uncertainty (sigma^2 (J^T J)^-1), the residual and the runs it took; writes the
// fitted scene, the measured and fitted curves (CSV and SVG) and, with --json, a summary.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <functional>
#include <map>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "cli_common.h"
#include "io/csv.h"
#include "io/fit.h"
#include "io/sweep.h"
#include "mpi_runs.h"
#include "run_pool.h"

#ifdef SUCTION_HAVE_CERES
#include <ceres/ceres.h>
#endif

namespace suction::cli {

namespace fs = std::filesystem;
using OJson = nlohmann::ordered_json;

void add_fit_command(CLI::App& app, FitOptions& options, CLI::App*& command) {
  command = app.add_subcommand(
      "fit",
      "identify scene parameters from measured data (a probe's time series or summary values) by nonlinear "
      "least squares (Ceres Solver); every evaluation is a simulation");
  add_scene_options(command, options.scene);
  command
      ->add_option("--param", options.params,
                   "POINTER=LO:HI[:START]: a scene value to identify within bounds, starting at START (default: "
                   "the scene's value) (repeatable)")
      ->required();
  command->add_option("--data", options.data, "measured time series: a CSV with the columns t [s] and the probe's");
  command->add_option("--probe", options.probe,
                      "the run's CSV column to match --data against (a probe's name or a fixed column); with "
                      "--target only: the curve drawn in the plot");
  command->add_option("--target", options.targets,
                      "METRIC=VALUE: a summary value to match (a column of `suction sweep`'s table, e.g. "
                      "pull_force_max=25.54) (repeatable; instead of --data)");
  command->add_option("--window", options.window, "T0:T1: fit only the data with T0 <= t <= T1 [s]");
  command->add_option("--sigma", options.sigma,
                      "the measurement's standard deviation (--data: the probe's units; --target: relative, e.g. "
                      "0.05): the uncertainty's scale (default: estimated from the residuals)")
      ->check(CLI::PositiveNumber & finite_number());
  command->add_option("--jobs,-j", options.jobs, "simulations at a time (the Jacobian's runs are parallel)")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  command->add_option("--fd-step", options.fd_step,
                      "the forward-difference step, a fraction of each parameter's range [LO, HI]")
      ->check(CLI::Range(1e-6, 0.25))
      ->capture_default_str();
  command->add_option("--start-grid", options.start_grid,
                      "N: first run the N^n cell centres of the bounds (in parallel) and start from the best of "
                      "them and the start (for a rough misfit with local minima); default: only when the first "
                      "attempt stops at its iteration cap or leaves a residual far above the data's noise (a 7-point "
                      "grid for one parameter, 3^n for two or three); 0: never")
      ->check(CLI::Range(0, 50));
  command->add_option("--max-iterations", options.max_iterations, "Levenberg-Marquardt iterations at most")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  command->add_option("--steps", options.steps, "steps of each run (default: the scene's duration)")
      ->check(CLI::Range(1L, kMaxRunSteps));
  command->add_option("--duration", options.duration, "simulated time of each run [s]")
      ->check(CLI::PositiveNumber & finite_number());
  command->add_option("--prefix", options.prefix,
                      "where the results go: PREFIX.json (the fitted scene), PREFIX.csv and PREFIX.svg (measured "
                      "against fitted); default: the scene's path without .json, plus _fit");
  command->add_option("--json", options.json, "a summary: the fitted parameters, their uncertainty, the residual, the runs");
  command->add_option("--runs-dir", options.runs_dir,
                      "keep every run's CSV and log here (default: a temporary folder, removed at the end)");
  command->add_flag("--quiet,-q", options.quiet, "no progress lines");
}

namespace {

/// a JSON value for a --set value: JSON when it parses, else a string (as the scene reader does)
OJson override_json(const std::string& value) {
  try {
    return OJson::parse(value);
  } catch (const std::exception&) {
    return OJson(value);
  }
}

/// sets POINTER in a scene document ("/parameters/NAME" sets the parameter's default)
void set_pointer(OJson& doc, const std::string& pointer, const OJson& value) {
  const OJson::json_pointer ptr(pointer);
  if (!ptr.empty() && ptr.parent_pointer().to_string() == "/parameters" && doc.contains(ptr) && doc[ptr].is_object()) {
    doc[ptr]["default"] = value;
    return;
  }
  doc[ptr] = value;
}

/// the value at POINTER of the scene with its --set overrides, as a number (a parameter's
/// default for "/parameters/NAME"); nothing when it is absent or not a number
std::optional<double> scene_number(const OJson& doc, const std::string& pointer) {
  try {
    const OJson::json_pointer ptr(pointer);
    if (!doc.contains(ptr)) return std::nullopt;
    OJson v = doc[ptr];
    if (ptr.parent_pointer().to_string() == "/parameters" && v.is_object()) v = v.value("default", OJson());
    if (v.is_number()) return v.get<double>();
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

std::string number_text(double x) { return format("%.10g", x); }

struct Problem {
  const FitOptions& options;
  std::vector<FitParameter> params;
  std::vector<FitTarget> targets;
  std::optional<FitSeries> data;   // --data
  double slack = 0;                // how far the data may reach past the run [s]
  std::vector<double> x0;          // the start, normalized to [0, 1]
  size_t runs = 0;                 // simulations run
  int failed_runs = 0;
  std::string last_failure;

  size_t residual_count() const { return data ? data->t.size() : targets.size(); }
  double physical(size_t j, double x) const { return params[j].lo + x * (params[j].hi - params[j].lo); }

  std::vector<std::string> extra_args(const std::vector<double>& x) const {
    std::vector<std::string> args;
    for (size_t j = 0; j < params.size(); ++j)
      args.insert(args.end(), {"--set", params[j].pointer + "=" + format("%.17g", physical(j, x[j]))});
    return args;
  }

  /// residuals of a finished run (nothing when it failed)
  std::optional<std::vector<double>> residuals_of(const RunOutcome& o) {
    if (o.exit_code != 0) {
      ++failed_runs;
      last_failure = o.signaled ? "killed by signal " + std::to_string(o.signal) : last_line(read_text(o.log));
      return std::nullopt;
    }
    const std::string csv = read_text(o.csv);
    std::vector<double> r;
    if (data) {
      const FitSeries sim = read_series_csv(csv, options.probe, o.csv.filename().string());
      const std::vector<double> at = interpolate_series(sim, data->t, slack);
      for (size_t i = 0; i < at.size(); ++i) r.push_back(at[i] - data->y[i]);
    } else {
      const RunSummary s = summarize_run_csv(csv, o.csv.filename().string());
      for (const FitTarget& target : targets) {
        size_t i = 0;
        while (i < s.names.size() && s.names[i] != target.metric) ++i;
        if (i == s.names.size()) {
          std::string names;
          for (const std::string& n : s.names) names += (names.empty() ? "" : ", ") + n;
          throw InputError("--target " + target.metric + ": not a summary value of the run (" + names + ")");
        }
        if (!std::isfinite(s.values[i])) {
          ++failed_runs;
          last_failure = target.metric + " is undefined in this run (no such event)";
          return std::nullopt;
        }
        // relative, so that targets in other units weigh alike (absolute for a target of 0)
        r.push_back((s.values[i] - target.value) / (target.value != 0.0 ? std::abs(target.value) : 1.0));
      }
    }
    return r;
  }
};

#ifdef SUCTION_HAVE_CERES

/// The bounds as a change of variable: x = (1 - cos z) / 2 maps every z to [0, 1] (x the
/// parameter scaled by its bounds), so Levenberg-Marquardt steps freely in z.  (Ceres' own
/// bounds project its steps with a line search that asks for the Jacobian at every trial
/// point: n + 1 simulations each.)
double x_of_z(double z) { return 0.5 * (1.0 - std::cos(z)); }
double z_of_x(double x) { return std::acos(std::clamp(1.0 - 2.0 * x, -1.0, 1.0)); }
double dx_dz(double z) { return 0.5 * std::sin(z); }

/// The least squares problem for Ceres: one parameter block z (x = x_of_z(z) in [0, 1]^n, the
/// parameters scaled by their bounds), the residuals of a simulation at x, the Jacobian by
/// forward differences in x (backward near the upper bound), whose runs go to the pool
/// together.  Every run's residuals are kept, so asking again at a point runs nothing.
/// a batch of runs (their extra arguments) and their outcomes in the order given: run_all on
/// this machine's pool, or MpiRuns::run_all over the ranks
using RunBatch = std::function<std::vector<RunOutcome>(const std::vector<std::vector<std::string>>&,
                                                       const std::string&, bool&)>;

class SimulationCost final : public ceres::CostFunction {
 public:
  struct InterruptedFit {};

  SimulationCost(Problem& problem, RunBatch batch) : problem_(problem), batch_(std::move(batch)) {
    set_num_residuals(static_cast<int>(problem.residual_count()));
    mutable_parameter_block_sizes()->push_back(static_cast<int>(problem.params.size()));
  }

  bool Evaluate(double const* const* parameters, double* residuals, double** jacobians) const override {
    const size_t n = problem_.params.size(), m = problem_.residual_count();
    std::vector<double> x(n);
    for (size_t j = 0; j < n; ++j) x[j] = x_of_z(parameters[0][j]);
    const bool want_jacobian = jacobians && jacobians[0];
    Eigen::VectorXd r;
    Eigen::MatrixXd J;
    if (!evaluate_x(x, want_jacobian, r, J)) return false;
    for (size_t i = 0; i < m; ++i) residuals[i] = r(static_cast<long>(i));
    if (want_jacobian)
      for (size_t i = 0; i < m; ++i)
        for (size_t j = 0; j < n; ++j)
          jacobians[0][i * n + j] = J(static_cast<long>(i), static_cast<long>(j)) * dx_dz(parameters[0][j]);
    return true;
  }

  /// the residuals and (when asked) their Jacobian in x at x; false when a run failed
  bool evaluate_x(const std::vector<double>& x, bool with_jacobian, Eigen::VectorXd& r, Eigen::MatrixXd& J) const {
    const size_t n = problem_.params.size(), m = problem_.residual_count();
    std::vector<std::vector<double>> points = {x};
    std::vector<double> steps(n, 0.0);
    if (with_jacobian) {
      for (size_t j = 0; j < n; ++j) {
        std::vector<double> xj = x;
        steps[j] = xj[j] + problem_.options.fd_step <= 1.0 ? problem_.options.fd_step : -problem_.options.fd_step;
        xj[j] += steps[j];
        points.push_back(xj);
      }
    }
    run(points);
    const auto& r0 = cache_.at(x);
    if (!r0) return false;
    r = Eigen::Map<const Eigen::VectorXd>(r0->data(), static_cast<long>(m));
    if (with_jacobian) {
      J.resize(static_cast<long>(m), static_cast<long>(n));
      for (size_t j = 0; j < n; ++j) {
        const auto& rj = cache_.at(points[j + 1]);
        if (!rj) return false;
        for (size_t i = 0; i < m; ++i) J(static_cast<long>(i), static_cast<long>(j)) = ((*rj)[i] - (*r0)[i]) / steps[j];
      }
    }
    return true;
  }

 /// the sum of squared residuals at a point already run (infinity when its run failed)
  double cost_at(const std::vector<double>& x) const {
    const auto& r = cache_.at(x);
    if (!r) return std::numeric_limits<double>::infinity();
    double c = 0;
    for (double v : *r) c += v * v;
    return c;
  }

  /// runs the points not yet run, in parallel
 public:
  void run(const std::vector<std::vector<double>>& points) const {
    std::vector<std::vector<double>> todo;
    for (const auto& p : points)
      if (!cache_.count(p) && std::find(todo.begin(), todo.end(), p) == todo.end()) todo.push_back(p);
    if (todo.empty()) return;
    std::vector<std::vector<std::string>> extras;
    for (const auto& p : todo) extras.push_back(problem_.extra_args(p));
    bool interrupted = false;
    const std::vector<RunOutcome> outcomes = batch_(extras, "run_" + std::to_string(problem_.runs) + "_", interrupted);
    if (interrupted) throw InterruptedFit();
    for (size_t i = 0; i < todo.size(); ++i) cache_[todo[i]] = problem_.residuals_of(outcomes[i]);
    problem_.runs += todo.size();
  }

 private:
  Problem& problem_;
  RunBatch batch_;
  mutable std::map<std::vector<double>, std::optional<std::vector<double>>> cache_;
};

/// one progress line per iteration
class Progress final : public ceres::IterationCallback {
 public:
  Progress(const Problem& problem, const double* z, std::chrono::steady_clock::time_point start)
      : problem_(problem), z_(z), start_(start) {}
  ceres::CallbackReturnType operator()(const ceres::IterationSummary& s) override {
    std::string values;
    for (size_t j = 0; j < problem_.params.size(); ++j)
      values += (j ? ", " : "") + problem_.params[j].pointer + " " + format("%.6g", problem_.physical(j, x_of_z(z_[j])));
    const double rms = std::sqrt(2.0 * s.cost / static_cast<double>(problem_.residual_count()));
    std::cout << format("fit: iteration %d  rms residual %.6g  %s  (%zu runs, %s)", s.iteration, rms,
                        s.step_is_successful ? "" : "[step rejected]", problem_.runs,
                        format_duration(std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count()).c_str())
              << "\n     " << values << '\n'
              << std::flush;
    return ceres::SOLVER_CONTINUE;
  }

 private:
  const Problem& problem_;
  const double* z_;
  std::chrono::steady_clock::time_point start_;
};

#endif  // SUCTION_HAVE_CERES

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  if (!f) throw InputError(path.string() + ": cannot open for writing");
  f << text;
  if (!f) throw InputError(path.string() + ": write failed");
}

}  // namespace

bool fit_built() {
#ifdef SUCTION_HAVE_CERES
  return true;
#else
  return false;
#endif
}

int fit_command(const FitOptions& options) {
  refuse_launch_without_mpi("fit");  // several processes of a build without MPI: each would fit
#ifndef SUCTION_HAVE_CERES
  (void)options;
  throw InputError("fit: this suction was built without Ceres Solver (apt-get install libceres-dev, then rebuild)");
#else
  const auto start_time = std::chrono::steady_clock::now();
  Problem problem{options, {}, {}, {}, 0, {}, 0, 0, {}};
  for (const std::string& p : options.params) problem.params.push_back(parse_fit_parameter(p));
  for (size_t i = 0; i < problem.params.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (problem.params[i].pointer == problem.params[j].pointer)
        throw InputError("--param " + problem.params[i].pointer + " is given twice");
  for (const std::string& t : options.targets) problem.targets.push_back(parse_fit_target(t));
  if (options.data.empty() == problem.targets.empty())
    throw InputError("fit: give the measurements either as --data FILE.csv with --probe NAME, or as --target METRIC=VALUE");
  if (!options.data.empty() && options.probe.empty()) throw InputError("fit: --data needs --probe NAME (the column to match)");
  double t0 = -1e300, t1 = 1e300;
  if (!options.window.empty()) {
    const size_t colon = options.window.find(':');
    char* end = nullptr;
    if (colon == std::string::npos) throw InputError("--window '" + options.window + "': expected T0:T1 [s]");
    const std::string a = options.window.substr(0, colon), b = options.window.substr(colon + 1);
    t0 = std::strtod(a.c_str(), &end);
    if (a.empty() || *end) throw InputError("--window '" + options.window + "': T0 is not a number");
    t1 = std::strtod(b.c_str(), &end);
    if (b.empty() || *end || !(t1 > t0)) throw InputError("--window '" + options.window + "': expected T0:T1 with T1 > T0");
  }
  if (!options.data.empty()) {
    if (!fs::is_regular_file(options.data)) throw InputError("--data " + options.data + ": no such file");
    problem.data = read_series_csv(read_text(options.data), options.probe, options.data, t0, t1);
    if (problem.data->t.size() < problem.params.size())
      throw InputError("--data " + options.data + ": " + std::to_string(problem.data->t.size()) +
                       " measured values for " + std::to_string(problem.params.size()) + " parameters");
  }

  std::string prefix = options.prefix;
  if (prefix.empty()) {
    const fs::path p = options.scene.scene;
    prefix = (p.parent_path() / (p.stem().string() + "_fit")).string();
  }
  if (!options.json.empty())
    for (const char* ext : {".json", ".csv", ".svg"})
      if (fs::weakly_canonical(options.json) == fs::weakly_canonical(prefix + ext))
        throw InputError("--json " + options.json + ": the fit writes " + prefix + ext +
                         " there (--prefix); give the summary another name");

  // the start: START, else the scene's value (its --set overrides included)
  OJson doc;
  try {
    doc = OJson::parse(read_text(options.scene.scene));
  } catch (const std::exception&) {
    (void)load_model(options.scene);  // reports the scene's own error (exit 2)
    throw InputError(options.scene.scene + ": not a JSON document");
  }
  for (const std::string& s : options.scene.sets) {
    const SceneOverride o = parse_override(s);
    try {
      set_pointer(doc, o.pointer, override_json(o.value));
    } catch (const std::exception&) {  // the scene reader says what is wrong below
    }
  }
  for (FitParameter& p : problem.params) {
    if (!p.start) {
      const std::optional<double> v = scene_number(doc, p.pointer);
      if (!v)
        throw InputError("--param " + p.pointer + ": the scene has no number there to start from (give POINTER=LO:HI:START)");
      if (*v < p.lo || *v > p.hi)
        throw InputError("--param " + p.pointer + ": the scene's value " + number_text(*v) + " lies outside [" +
                         number_text(p.lo) + ", " + number_text(p.hi) + "] (widen the bounds or give a START)");
      p.start = *v;
    }
    problem.x0.push_back((*p.start - p.lo) / (p.hi - p.lo));
  }

  // the scene with the parameters at their start must load (unknown pointers: exit 2), and the
  // probe must be one of its CSV's columns
  SceneOptions start_scene = options.scene;
  for (const FitParameter& p : problem.params) start_scene.sets.push_back(p.pointer + "=" + format("%.17g", *p.start));
  const Model model = load_model(start_scene);
  problem.slack = model.settings.dt * 0.5 + 1e-12;
  if (!options.probe.empty()) {
    const std::vector<std::string> columns = csv_columns(model);
    if (std::find(columns.begin(), columns.end(), options.probe) == columns.end() || options.probe == "step" ||
        options.probe == "t") {
      std::string names;
      for (size_t i = 2; i < columns.size(); ++i) names += (names.empty() ? "" : ", ") + columns[i];
      throw InputError("--probe " + options.probe + ": not a column of the scene's runs (" + names + ")");
    }
  }

  // under mpirun (a build with Open MPI): rank 0 fits, the other ranks run what it sends
  const std::vector<std::string> base_args = run_base_args(options.scene, options.steps, options.duration);
#ifdef SUCTION_HAVE_MPI
  std::unique_ptr<MpiSession> mpi;
  if (mpi_launch()) {
    mpi = std::make_unique<MpiSession>();
    if (mpi->size > 1 && mpi->rank != 0)
      return mpi_run_worker(base_args, options.runs_dir.empty() ? "" : options.runs_dir + "/rank_" + std::to_string(mpi->rank),
                            options.jobs);
  }
  const int ranks = mpi ? mpi->size : 1;
#else
  const int ranks = 1;
#endif
  const RunsDir dir(options.runs_dir, "fit");  // a temporary one is removed at the end
  const size_t n = problem.params.size(), m = problem.residual_count();
  if (!options.quiet)
    std::cout << "fit: " << n << " parameter" << (n == 1 ? "" : "s") << " to " << m << " measured value"
              << (m == 1 ? "" : "s") << "; each evaluation a run of " << options.scene.scene << ", " << options.jobs
              << " at a time" << (ranks > 1 ? " on each of " + std::to_string(ranks) + " MPI ranks" : "") << "\n"
              << std::flush;

  InterruptGuard guard;
  std::vector<double> x = problem.x0, z(n);
  for (size_t j = 0; j < n; ++j) {
    // strictly inside: at z = 0 or pi the change of variable has no slope
    x[j] = std::clamp(x[j], 1e-6, 1.0 - 1e-6);
    z[j] = z_of_x(x[j]);
    x[j] = x_of_z(z[j]);  // the very point Ceres starts from (no second run of it)
  }
  ceres::Solver::Summary summary;
  Eigen::VectorXd r;
  Eigen::MatrixXd Jx;
  bool have_jacobian = false;
  // what the fit is judged against (judge_fit): the measurements' noise, given (--sigma) or
  // estimated from the data's own scatter (curve_noise), and 1 % of the data's range: no
  // simulation follows a curve closer than its own discretization (a lip's stick-slip moves a
  // pull curve's steps by that much, docs/validation.md); targets are relative, and a fit of
  // as many targets as parameters should meet them, to 0.5 % without --sigma
  double noise = options.sigma, floor = 0.0;
  if (problem.data) {
    if (!(noise > 0)) noise = curve_noise(problem.data->y);
    const auto [lo, hi] = std::minmax_element(problem.data->y.begin(), problem.data->y.end());
    floor = 0.01 * (*hi - *lo);
  } else {
    floor = 0.005;
  }
  FitVerdict verdict;
  std::string retry_note;
  {
    RunPool pool(base_args, dir.path(), options.jobs);
#ifdef SUCTION_HAVE_MPI
    std::unique_ptr<MpiRuns> remote;  // its destructor ends the other ranks' loops
    if (ranks > 1) remote = std::make_unique<MpiRuns>(pool, ranks, options.jobs);
#endif
    RunBatch batch = [&](const std::vector<std::vector<std::string>>& extras, const std::string& prefix, bool& interrupted) {
#ifdef SUCTION_HAVE_MPI
      if (remote) return remote->run_all(extras, prefix, interrupted);
#endif
      return run_all(pool, extras, prefix, interrupted);
    };
    auto* cost = new SimulationCost(problem, batch);  // owned by the ceres::Problem
    ceres::Problem least_squares;
    least_squares.AddResidualBlock(cost, nullptr, z.data());
    ceres::Solver::Options solver;
    solver.minimizer_type = ceres::TRUST_REGION;
    solver.trust_region_strategy_type = ceres::LEVENBERG_MARQUARDT;
    solver.linear_solver_type = ceres::DENSE_QR;
    solver.max_num_iterations = options.max_iterations;
    solver.function_tolerance = 1e-8;
    solver.parameter_tolerance = 1e-6;
    solver.gradient_tolerance = 1e-12;
    solver.num_threads = 1;  // the parallelism is the runs'
    solver.logging_type = ceres::SILENT;
    solver.minimizer_progress_to_stdout = false;
    Progress progress(problem, z.data(), start_time);
    if (!options.quiet) {
      solver.callbacks.push_back(&progress);
      solver.update_state_every_iteration = true;
    }
    // the N^n cell centres of the bounds and the current point, run together; x and z move to
    // the best of them (a local method on a rough misfit needs a start in its basin)
    auto start_grid = [&](int cells, const char* why) {
      std::vector<std::vector<double>> points = {x};
      std::vector<size_t> index(n, 0);
      const size_t N = static_cast<size_t>(cells);
      while (true) {
        std::vector<double> p(n);
        for (size_t j = 0; j < n; ++j) p[j] = x_of_z(z_of_x((static_cast<double>(index[j]) + 0.5) / static_cast<double>(N)));
        points.push_back(p);
        size_t j = 0;
        while (j < n && ++index[j] == N) index[j++] = 0;
        if (j == n) break;
      }
      cost->run(points);
      size_t best = 0;
      for (size_t k = 1; k < points.size(); ++k)
        if (cost->cost_at(points[k]) < cost->cost_at(points[best])) best = k;
      if (!options.quiet) {
        std::string values;
        for (size_t j = 0; j < n; ++j)
          values += (j ? ", " : "") + problem.params[j].pointer + " " + format("%.6g", problem.physical(j, points[best][j]));
        std::cout << "fit: " << why << "start grid of " << points.size() - 1 << " points: the best is "
                  << (best == 0 ? "where it was" : values)
                  << format(", rms residual %.6g", std::sqrt(cost->cost_at(points[best]) / static_cast<double>(m))) << '\n'
                  << std::flush;
      }
      x = points[best];
      for (size_t j = 0; j < n; ++j) z[j] = z_of_x(x[j]), x[j] = x_of_z(z[j]);
      return best != 0;
    };
    auto judge = [&] {
      const double rms_now = have_jacobian ? std::sqrt(r.squaredNorm() / static_cast<double>(m)) : HUGE_VAL;
      verdict = judge_fit(summary.termination_type == ceres::CONVERGENCE, summary.message, rms_now, noise, floor);
    };
    try {
      if (options.start_grid > 0) {  // --start-grid N: before the first attempt
        start_grid(options.start_grid, "");
        for (size_t j = 0; j < n; ++j) problem.params[j].start = problem.physical(j, x[j]);
      }
      // the start must run: its failure is the scene's, not the fit's
      Eigen::VectorXd r0;
      Eigen::MatrixXd J0;
      if (!cost->evaluate_x(x, true, r0, J0))
        throw SimulationError("fit: the run at the start failed: " + problem.last_failure);
      ceres::Solve(solver, &least_squares, &summary);
      for (size_t j = 0; j < n; ++j) x[j] = x_of_z(z[j]);
      have_jacobian = cost->evaluate_x(x, true, r, Jx);
      judge();
      // A first attempt that cannot be believed, without a grid of the user's: a coarse grid
      // over the bounds, and Levenberg-Marquardt again from its best point when that is better
      // (docs/cli.md, "fit"; --start-grid 0 turns it off).  Up to 3 parameters (7, 9, 27 runs).
      if (!verdict.trustworthy() && options.start_grid < 0 && n <= 3) {
        const int cells = n == 1 ? 7 : 3;
        retry_note = "the first attempt could not be believed (" + verdict.why + "); ";
        if (!options.quiet) std::cout << "fit: " << retry_note << "trying a coarse grid\n" << std::flush;
        if (start_grid(cells, "")) {
          ceres::Solve(solver, &least_squares, &summary);
          for (size_t j = 0; j < n; ++j) x[j] = x_of_z(z[j]);
          have_jacobian = cost->evaluate_x(x, true, r, Jx);
          judge();
          retry_note += "it restarted from the grid's best point";
        } else {
          retry_note += "no grid point was better";
        }
      }
    } catch (const SimulationCost::InterruptedFit&) {
      std::cerr << "fit: interrupted after " << problem.runs << " runs\n";
      return kExitInterrupted;
    }
  }
  if (!have_jacobian) throw SimulationError("fit: the run at the fitted values failed: " + problem.last_failure);

  // the uncertainty, in the parameters' own units
  Eigen::MatrixXd J = Jx;
  for (size_t j = 0; j < n; ++j) J.col(static_cast<long>(j)) /= problem.params[j].hi - problem.params[j].lo;
  FitUncertainty u = fit_uncertainty(J, r, options.sigma);
  if (!verdict.trustworthy()) {  // a spread around a point that is not the answer means nothing
    u = FitUncertainty{};
    u.why = "not given: " + verdict.why;
  }
  const double rms = std::sqrt(r.squaredNorm() / static_cast<double>(m));
  std::vector<double> fitted;
  for (size_t j = 0; j < n; ++j) fitted.push_back(problem.physical(j, x[j]));

  std::cout << "\nfit: " << (verdict.trustworthy() ? "converged" : "NOT CONVERGED") << " after "
            << summary.iterations.size() - 1 << " iterations, " << problem.runs << " runs in "
            << format_duration(std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count())
            << " (" << summary.message << ")\n";
  std::cout << format("%-36s %14s %14s %14s  %s\n", "parameter", "start", "fitted", "+/- (1 sigma)", "bounds");
  for (size_t j = 0; j < n; ++j) {
    const FitParameter& p = problem.params[j];
    const bool at_bound = x[j] <= 1e-9 || x[j] >= 1 - 1e-9;
    std::cout << format("%-36s %14.6g %14.6g %14s  [%g, %g]%s\n", p.pointer.c_str(), *p.start, fitted[j],
                        u.defined ? format("%.3g", u.stddev[j]).c_str() : "-", p.lo, p.hi,
                        at_bound ? "  at a bound" : "");
  }
  if (!u.defined) std::cout << "uncertainty: " << u.why << '\n';
  else if (n > 1) {
    std::cout << "correlation:";
    for (size_t i = 0; i < n; ++i)
      for (size_t j = i + 1; j < n; ++j) std::cout << format(" %s~%s %.3f", problem.params[i].pointer.c_str(), problem.params[j].pointer.c_str(), u.correlation[i * n + j]);
    std::cout << '\n';
  }
  if (problem.data)
    std::cout << format("residual: rms %.6g over %zu samples of %s (sigma %.4g)\n", rms, m, options.probe.c_str(), u.sigma);
  else
    for (size_t i = 0; i < m; ++i)
      std::cout << format("residual: %s = %.6g (target %.6g, off by %.3g %%)\n", problem.targets[i].metric.c_str(),
                          problem.targets[i].value + r(static_cast<long>(i)) * (problem.targets[i].value != 0.0 ? std::abs(problem.targets[i].value) : 1.0),
                          problem.targets[i].value, 100.0 * r(static_cast<long>(i)));
  if (!retry_note.empty()) std::cout << "note: " << retry_note << '\n';
  if (!verdict.trustworthy())
    std::cout << "fit: these values are not an answer: " << verdict.why
              << ". Try a start grid (--start-grid N: N^n runs over the bounds), tighter bounds, a --window around "
                 "the informative part of the data, or more --max-iterations\n";
  if (problem.failed_runs)
    std::cout << "note: " << problem.failed_runs << " run(s) failed during the fit (steps rejected); the last: "
              << problem.last_failure << '\n';

  // outputs: the fitted scene, the curves, the plot
  OJson fitted_doc = doc;
  for (size_t j = 0; j < n; ++j) set_pointer(fitted_doc, problem.params[j].pointer, OJson(fitted[j]));
  if (fitted_doc.contains("description") && fitted_doc["description"].is_string()) {
    std::string note = " Fitted by suction fit:";
    for (size_t j = 0; j < n; ++j) note += " " + problem.params[j].pointer + " = " + format("%.6g", fitted[j]);
    fitted_doc["description"] = fitted_doc["description"].get<std::string>() + note + ".";
  }
  write_file(prefix + ".json", fitted_doc.dump(2) + "\n");
  // the fitted run's curve: one more run at the fitted values, kept
  std::optional<FitSeries> fitted_curve;
  if (!options.probe.empty()) {
    const RunsDir curve_dir("", "fit_curve");
    RunPool pool(run_base_args(options.scene, options.steps, options.duration), curve_dir.path(), 1);
    bool interrupted = false;
    const auto o = run_all(pool, {problem.extra_args(x)}, "fitted_", interrupted);
    if (!interrupted && o[0].exit_code == 0) fitted_curve = read_series_csv(read_text(o[0].csv), options.probe, "the fitted run");
  }
  std::string csv = "t,measured,fitted\n";
  if (problem.data && fitted_curve) {
    const std::vector<double> f = interpolate_series(*fitted_curve, problem.data->t, problem.slack);
    for (size_t i = 0; i < problem.data->t.size(); ++i)
      csv += format_double(problem.data->t[i]) + "," + format_double(problem.data->y[i]) + "," + format_double(f[i]) + "\n";
  } else if (fitted_curve) {
    for (size_t i = 0; i < fitted_curve->t.size(); ++i)
      csv += format_double(fitted_curve->t[i]) + ",," + format_double(fitted_curve->y[i]) + "\n";
  }
  if (fitted_curve) {
    write_file(prefix + ".csv", csv);
    FitSeries measured = problem.data ? *problem.data : FitSeries{};
    std::string title = model.name + ": " + options.probe + ", measured and fitted";
    if (!problem.data) {
      // targets: each drawn as a horizontal line's ends (a flat pair of points)
      for (const FitTarget& t : problem.targets)
        // a level of the probe itself (PROBE_max / _min / _final); std::string::compare with a
        // position past a short name's start threw out_of_range here before
        if (t.metric == options.probe + "_max" || t.metric == options.probe + "_min" ||
            t.metric == options.probe + "_final") {
          measured.t = {fitted_curve->t.front(), fitted_curve->t.back()};
          measured.y = {t.value, t.value};
          title = model.name + ": " + options.probe + " of the fitted run; points: the target " + t.metric;
        }
    }
    write_file(prefix + ".svg", fit_plot_svg(measured, *fitted_curve, title, options.probe));
  }
  std::cout << "wrote " << prefix << ".json (the fitted scene)";
  if (fitted_curve) std::cout << ", " << prefix << ".csv and " << prefix << ".svg (measured against fitted)";
  std::cout << '\n';

  if (!options.json.empty()) {
    OJson out;
    out["scene"] = options.scene.scene;
    out["parameters"] = OJson::object();
    out["uncertainty"] = OJson::object();
    out["start"] = OJson::object();
    out["bounds"] = OJson::object();
    for (size_t j = 0; j < n; ++j) {
      const std::string& ptr = problem.params[j].pointer;
      out["parameters"][ptr] = fitted[j];
      out["uncertainty"][ptr] = u.defined ? OJson(u.stddev[j]) : OJson(nullptr);
      out["start"][ptr] = *problem.params[j].start;
      out["bounds"][ptr] = {problem.params[j].lo, problem.params[j].hi};
    }
    if (!u.defined) out["uncertainty_note"] = u.why;
    out["residual"] = rms;
    out["residual_definition"] = problem.data ? "rms of fitted - measured over the data's samples"
                                              : "rms of (fitted - target) / |target| over the targets";
    out["sigma"] = u.defined ? OJson(u.sigma) : OJson(nullptr);
    out["runs"] = problem.runs;
    out["iterations"] = summary.iterations.size() - 1;
    out["converged"] = verdict.trustworthy();
    out["solver_converged"] = verdict.converged;
    out["misfit"] = verdict.misfit;
    out["noise"] = noise;
    if (!verdict.trustworthy()) out["why_not"] = verdict.why;
    if (!retry_note.empty()) out["retry"] = retry_note;
    out["message"] = summary.message;
    out["fitted_scene"] = prefix + ".json";
    write_file(options.json, out.dump(2) + "\n");
  }
  return verdict.trustworthy() ? kExitOk : kExitNotConverged;
#endif
}

}  // namespace suction::cli
