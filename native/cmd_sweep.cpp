// suction sweep SCENE --grid POINTER=V1,V2,... [--grid ...] --out TABLE.csv [--jobs N]:
// every combination of the grid's values run as its own `suction run` process (a failed or
// crashed run never stops the sweep), up to N at a time; one result table, one row per run in
// the grid's order, with each run's outcome and the summary of its CSV (io/sweep.h).  A sweep
// started again with the same --out skips the runs already in its table (docs/cli.md).
// Under mpirun (a build with Open MPI) rank 0 hands the runs out one at a time to the ranks
// that are free (runs differ in cost by 10x), runs its own share, and writes the table.
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <thread>

#include "cli_common.h"
#include "io/sweep.h"
#include "mpi_runs.h"
#include "run_pool.h"

#ifdef SUCTION_HAVE_MPI
#include <mpi.h>
#endif

namespace suction::cli {

namespace fs = std::filesystem;

void add_sweep_command(CLI::App& app, SweepOptions& options, CLI::App*& command) {
  command = app.add_subcommand("sweep",
                               "run every combination of a grid of scene values, each as its own process, into one "
                               "result table (one row per run: outcome and summary metrics)");
  add_scene_options(command, options.scene);
  command
      ->add_option("--grid", options.grid,
                   "POINTER=V1,V2,...: the values one scene key takes (repeatable; every combination is run, "
                   "the first --grid varying slowest)")
      ->required();
  command->add_option("--out,-o", options.out, "the result table (CSV); an existing one is resumed")->required();
  command->add_option("--jobs,-j", options.jobs, "runs at a time (local processes; under mpirun: per rank)")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  command->add_option("--runs-dir", options.runs_dir,
                      "keep each run's CSV and log here (run_K.csv, run_K.log; K its row); default: a temporary "
                      "folder, removed at the end");
  command->add_option("--steps", options.steps, "steps of each run (default: the scene's duration)")
      ->check(CLI::Range(1L, kMaxRunSteps));
  command->add_option("--duration", options.duration, "simulated time of each run [s]")
      ->check(CLI::PositiveNumber & finite_number());
  command->add_flag("--quiet,-q", options.quiet, "no progress lines");
}

namespace {

std::string describe(const std::vector<SweepAxis>& axes, const std::vector<std::string>& values) {
  std::string s;
  for (size_t i = 0; i < axes.size(); ++i) s += (i ? " " : "") + axes[i].pointer + "=" + values[i];
  return s;
}

std::vector<std::string> grid_args(const std::vector<SweepAxis>& axes, const std::vector<std::string>& values) {
  std::vector<std::string> args;
  for (size_t i = 0; i < axes.size(); ++i) args.insert(args.end(), {"--set", axes[i].pointer + "=" + values[i]});
  return args;
}

/// the table row of a finished run: its outcome, and the summary of its CSV when it is ok
SweepRow row_of(const RunOutcome& o, const std::vector<std::string>& grid) {
  SweepRow row;
  row.grid = grid;
  row.exit_code = o.exit_code;
  const std::string name = o.csv.filename().string();
  if (o.exit_code == 0) {
    try {
      RunSummary summary = summarize_run_csv(read_text(o.csv), name);
      const RunSummary health = summarize_run_log(read_text(o.log));
      summary.names.insert(summary.names.end(), health.names.begin(), health.names.end());
      summary.values.insert(summary.values.end(), health.values.begin(), health.values.end());
      set_metrics(row, summary);
      row.status = "ok";
    } catch (const InputError& e) {
      row.status = "failed";
      row.error = e.what();
    }
  } else {
    row.status = "failed";
    row.error = o.signaled ? "killed by signal " + std::to_string(o.signal) : last_line(read_text(o.log));
  }
  return row;
}

void write_table(const std::string& path, const std::vector<SweepAxis>& axes, const std::vector<SweepRow>& rows) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary);
    if (!f) throw InputError(path + ": cannot open for writing");
    f << format_sweep_table(axes, rows);
    if (!f) throw InputError(path + ": write failed");
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);  // a table is never half written
  if (ec) throw InputError(path + ": cannot replace: " + ec.message());
}

/// What every process of a sweep knows: the grid, and (on the process that writes the table)
/// the table's rows so far.
struct SweepPlan {
  std::vector<SweepAxis> axes;
  std::vector<std::vector<std::string>> combos;
  std::vector<SweepRow> rows;   // one per combination (valid where have[k])
  std::vector<bool> have;
  std::vector<SweepRow> extra;  // rows of an earlier, larger grid: kept at the end
  std::vector<size_t> todo;

  std::vector<SweepRow> table_rows() const {
    std::vector<SweepRow> out;
    for (size_t k = 0; k < combos.size(); ++k)
      if (have[k]) out.push_back(rows[k]);
    out.insert(out.end(), extra.begin(), extra.end());
    return out;
  }
  int failed() const {
    int n = 0;
    for (size_t k = 0; k < combos.size(); ++k) n += have[k] && rows[k].status != "ok";
    return n;
  }
};

/// the grid of the options (InputError on a bad --grid)
void read_grid(const SweepOptions& options, SweepPlan& plan) {
  for (const std::string& g : options.grid) plan.axes.push_back(parse_sweep_axis(g));
  for (size_t i = 0; i < plan.axes.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (plan.axes[i].pointer == plan.axes[j].pointer)
        throw InputError("--grid " + plan.axes[i].pointer + " is given twice");
  plan.combos = sweep_combinations(plan.axes);
}

/// whether a table row is a run that was killed by a signal (SIGKILL from the out-of-memory
/// killer or a batch system's time limit, SIGSEGV): not an answer about its input, so a resumed
/// sweep runs it again; a run that failed on its input (an exit code) keeps its row
bool killed_by_signal(const SweepRow& row) {
  return row.status != "ok" && row.error.rfind("killed by signal ", 0) == 0;
}

/// resume: the rows already in the table, and the runs left to do (with those killed by a signal)
void read_table(const SweepOptions& options, SweepPlan& plan) {
  std::vector<SweepRow> old_rows;
  if (fs::exists(options.out)) old_rows = parse_sweep_table(read_text(options.out), plan.axes, options.out);
  std::map<std::vector<std::string>, size_t> old_of;
  for (size_t i = 0; i < old_rows.size(); ++i) old_of.emplace(old_rows[i].grid, i);
  plan.rows.assign(plan.combos.size(), {});
  plan.have.assign(plan.combos.size(), false);
  for (size_t k = 0; k < plan.combos.size(); ++k) {
    const auto it = old_of.find(plan.combos[k]);
    if (it != old_of.end() && killed_by_signal(old_rows[it->second])) {
      old_of.erase(it);
      plan.todo.push_back(k);
    } else if (it != old_of.end()) {
      plan.rows[k] = old_rows[it->second];
      plan.have[k] = true;
      old_of.erase(it);
    } else {
      plan.todo.push_back(k);
    }
  }
  for (size_t i = 0; i < old_rows.size(); ++i)
    if (old_of.count(old_rows[i].grid) && old_of.at(old_rows[i].grid) == i) plan.extra.push_back(old_rows[i]);
}

/// Records one finished run in the plan and the table, and prints its progress line.
struct Recorder {
  const SweepOptions& options;
  SweepPlan& plan;
  size_t done;

  void record(size_t k, const SweepRow& row, double seconds, const std::string& where) {
    plan.rows[k] = row;
    plan.have[k] = true;
    ++done;
    write_table(options.out, plan.axes, plan.table_rows());
    if (!options.quiet)
      std::cout << format("[%zu/%zu] ", done, plan.combos.size()) << describe(plan.axes, plan.combos[k]) << ": "
                << row.status
                << (row.status == "ok" ? "" : " (exit " + std::to_string(row.exit_code) + ": " + row.error + ")")
                << format(" in %.1f s", seconds) << where << '\n'
                << std::flush;
  }
};

void print_start(const SweepOptions& options, const SweepPlan& plan, const std::string& how) {
  if (options.quiet) return;
  std::cout << "sweep: " << plan.combos.size() << " run" << (plan.combos.size() == 1 ? "" : "s") << " ("
            << plan.combos.size() - plan.todo.size() << " already in " << options.out << "), " << how << '\n'
            << std::flush;
}

int finish(const SweepOptions& options, const SweepPlan& plan, size_t done, bool interrupted) {
  write_table(options.out, plan.axes, plan.table_rows());
  if (interrupted) {
    std::cerr << "sweep: interrupted; " << done << " of " << plan.combos.size() << " runs in " << options.out
              << " (run the same command again to finish)\n";
    return kExitInterrupted;
  }
  const int failed = plan.failed();
  if (!options.quiet)
    std::cout << "sweep: " << plan.combos.size() - failed << " ok, " << failed << " failed; table " << options.out
              << '\n';
  return failed ? kExitSimulationFailed : kExitOk;
}

/// one machine: options.jobs local processes
int sweep_local(const SweepOptions& options, SweepPlan& plan) {
  const RunsDir dir(options.runs_dir, "sweep");  // a temporary one per process is removed at the end
  InterruptGuard guard;
  bool interrupted = false;
  Recorder recorder{options, plan, plan.combos.size() - plan.todo.size()};
  {
    RunPool pool(run_base_args(options.scene, options.steps, options.duration), dir.path(), options.jobs);
    print_start(options, plan, std::to_string(options.jobs) + " at a time");
    size_t next = 0;
    while (next < plan.todo.size() || pool.running() > 0) {
      while (!interrupted && next < plan.todo.size() && pool.has_slot()) {
        const size_t k = plan.todo[next++];
        pool.start(k, grid_args(plan.axes, plan.combos[k]), "run_" + std::to_string(k));
      }
      if (InterruptGuard::interrupted() && !interrupted) {
        interrupted = true;  // Ctrl-C reached the runs too; SIGTERM did not
        pool.signal_all(SIGINT);
      }
      if (pool.running() == 0) break;
      const std::optional<RunOutcome> o = pool.wait(true);
      if (!o) continue;
      if (o->interrupted) {  // not a result: the run is done again when the sweep is resumed
        interrupted = true;
        continue;
      }
      recorder.record(o->id, row_of(*o, plan.combos[o->id]), o->seconds, "");
    }
  }
  return finish(options, plan, recorder.done, interrupted);
}

#ifdef SUCTION_HAVE_MPI

// The MPI protocol: rank 0 sends a run's index (kTagRun) to a rank with a free slot; that rank
// runs it and sends back "INDEX SECONDS\n" + the row as a one-row table (kTagResult); kTagStop
// ends a worker, kTagInterrupt asks it to interrupt its runs.
constexpr int kTagRun = 1, kTagResult = 2, kTagStop = 3, kTagInterrupt = 4;

std::string host_name() {
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(name, &length);
  return std::string(name, static_cast<size_t>(length));
}

/// a rank other than 0: runs what rank 0 sends until it says stop
int sweep_worker(const SweepOptions& options, const SweepPlan& plan) {
  const RunsDir dir(options.runs_dir, "sweep");  // a temporary one per process is removed at the end
  {
    InterruptGuard guard;
    RunPool pool(run_base_args(options.scene, options.steps, options.duration), dir.path(), options.jobs);
    bool stop = false, interrupted = false;
    while (!stop || pool.running() > 0) {
      bool progress = false;
      if (const std::optional<RunOutcome> o = pool.wait(false)) {
        std::string message = std::to_string(o->id) + " " + format("%.3f", o->seconds) + " " +
                              (o->interrupted ? "interrupted" : "done") + "\n";
        if (!o->interrupted) message += format_sweep_table(plan.axes, {row_of(*o, plan.combos[o->id])});
        MPI_Send(message.data(), static_cast<int>(message.size()), MPI_CHAR, 0, kTagResult, MPI_COMM_WORLD);
        progress = true;
      }
      int flag = 0;
      MPI_Status status;
      MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status);
      if (flag) {
        long long k = 0;
        MPI_Recv(&k, 1, MPI_LONG_LONG, 0, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (status.MPI_TAG == kTagRun) {
          const size_t run = static_cast<size_t>(k);
          pool.start(run, grid_args(plan.axes, plan.combos.at(run)), "run_" + std::to_string(run));
        } else if (status.MPI_TAG == kTagStop) {
          stop = true;
        } else if (status.MPI_TAG == kTagInterrupt && !interrupted) {
          interrupted = true;
          pool.signal_all(SIGINT);
        }
        progress = true;
      }
      if (InterruptGuard::interrupted() && !interrupted) {
        interrupted = true;
        pool.signal_all(SIGINT);
      }
      if (!progress) mpi_idle();
    }
  }
  return kExitOk;
}

/// rank 0: hands out the runs (a free slot anywhere gets the next run), runs its own share,
/// writes the table
int sweep_master(const SweepOptions& options, SweepPlan& plan, int size) {
  const RunsDir dir(options.runs_dir, "sweep");  // a temporary one per process is removed at the end
  InterruptGuard guard;
  bool interrupted = false;
  Recorder recorder{options, plan, plan.combos.size() - plan.todo.size()};
  const std::string here = host_name();
  {
    RunPool pool(run_base_args(options.scene, options.steps, options.duration), dir.path(), options.jobs);
    print_start(options, plan,
                std::to_string(size) + " MPI ranks, " + std::to_string(options.jobs) + " at a time each");
    std::deque<size_t> queue(plan.todo.begin(), plan.todo.end());
    std::vector<int> free_slots(static_cast<size_t>(size), options.jobs);
    size_t remote = 0;  // runs out on other ranks
    auto interrupt = [&] {
      if (interrupted) return;
      interrupted = true;
      pool.signal_all(SIGINT);
      long long zero = 0;
      for (int w = 1; w < size; ++w) MPI_Send(&zero, 1, MPI_LONG_LONG, w, kTagInterrupt, MPI_COMM_WORLD);
    };
    while ((!interrupted && !queue.empty()) || remote > 0 || pool.running() > 0) {
      // the free slots of the other ranks first: rank 0 also answers their messages
      for (int w = 1; w < size && !interrupted; ++w)
        while (free_slots[static_cast<size_t>(w)] > 0 && !queue.empty()) {
          const long long k = static_cast<long long>(queue.front());
          queue.pop_front();
          MPI_Send(&k, 1, MPI_LONG_LONG, w, kTagRun, MPI_COMM_WORLD);
          --free_slots[static_cast<size_t>(w)];
          ++remote;
        }
      while (!interrupted && !queue.empty() && pool.has_slot()) {
        const size_t k = queue.front();
        queue.pop_front();
        pool.start(k, grid_args(plan.axes, plan.combos[k]), "run_" + std::to_string(k));
      }
      if (InterruptGuard::interrupted()) interrupt();
      bool progress = false;
      if (const std::optional<RunOutcome> o = pool.wait(false)) {
        progress = true;
        if (o->interrupted) interrupt();
        else recorder.record(o->id, row_of(*o, plan.combos[o->id]), o->seconds, " (rank 0, " + here + ")");
      }
      int flag = 0;
      MPI_Status status;
      MPI_Iprobe(MPI_ANY_SOURCE, kTagResult, MPI_COMM_WORLD, &flag, &status);
      if (flag) {
        progress = true;
        int count = 0;
        MPI_Get_count(&status, MPI_CHAR, &count);
        std::string message(static_cast<size_t>(count), '\0');
        MPI_Recv(message.data(), count, MPI_CHAR, status.MPI_SOURCE, kTagResult, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        ++free_slots[static_cast<size_t>(status.MPI_SOURCE)];
        --remote;
        const size_t eol = message.find('\n');
        std::istringstream head(message.substr(0, eol));
        size_t k = 0;
        double seconds = 0;
        std::string what;
        head >> k >> seconds >> what;
        if (what == "interrupted") {
          interrupt();
        } else {
          const std::vector<SweepRow> rows = parse_sweep_table(message.substr(eol + 1), plan.axes, "a rank's result");
          if (rows.size() != 1 || k >= plan.combos.size() || rows[0].grid != plan.combos[k])
            throw InputError("sweep: rank " + std::to_string(status.MPI_SOURCE) + " sent a result that is not run " +
                             std::to_string(k) + "'s");
          recorder.record(k, rows[0], seconds, " (rank " + std::to_string(status.MPI_SOURCE) + ")");
        }
      }
      if (!progress) mpi_idle();
    }
    long long zero = 0;
    for (int w = 1; w < size; ++w) MPI_Send(&zero, 1, MPI_LONG_LONG, w, kTagStop, MPI_COMM_WORLD);
  }
  return finish(options, plan, recorder.done, interrupted);
}

int sweep_mpi(const SweepOptions& options, SweepPlan& plan, const MpiSession& mpi) {
  // rank 0 alone reads the table; the others learn whether it could (else they end too)
  int ok = 1;
  std::string error;
  if (mpi.rank == 0) {
    try {
      read_table(options, plan);
    } catch (const InputError& e) {
      ok = 0;
      error = e.what();
    }
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!ok) {
    if (mpi.rank == 0) throw InputError(error);
    return kExitBadInput;
  }
  if (mpi.rank != 0) return sweep_worker(options, plan);
  try {
    return sweep_master(options, plan, mpi.size);
  } catch (const InputError& e) {
    std::cerr << "error: " << e.what() << '\n';
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
  }
  MPI_Abort(MPI_COMM_WORLD, kExitBadInput);  // the workers wait for rank 0: end them all
  return kExitBadInput;
}

#endif  // SUCTION_HAVE_MPI

}  // namespace

bool sweep_mpi_built() {
#ifdef SUCTION_HAVE_MPI
  return true;
#else
  return false;
#endif
}

std::string sweep_mpi_library() {
#ifdef SUCTION_HAVE_MPI
  char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(version, &length);
  std::string v(version, static_cast<size_t>(length));
  const size_t comma = v.find(',');  // "Open MPI v4.1.4, package: ..." -> "Open MPI v4.1.4"
  if (comma != std::string::npos) v.resize(comma);
  while (!v.empty() && (v.back() == '\n' || v.back() == ' ')) v.pop_back();
  return v;
#else
  return "";
#endif
}

int sweep_command(const SweepOptions& options) {
  SweepPlan plan;
  read_grid(options, plan);
  // the scene and its --set overrides must load before anything is run (bad input: exit 2)
  (void)load_model(options.scene);

  const std::optional<std::string> launch = mpi_launch();
#ifdef SUCTION_HAVE_MPI
  if (launch) {
    const MpiSession mpi;
    if (mpi.size > 1) return sweep_mpi(options, plan, mpi);
  }
#else
  (void)launch;
  refuse_launch_without_mpi("sweep");
#endif
  read_table(options, plan);
  return sweep_local(options, plan);
}

}  // namespace suction::cli
