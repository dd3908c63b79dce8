// suction sweep SCENE --grid POINTER=V1,V2,... [--grid ...] --out TABLE.csv [--jobs N]:
// every combination of the grid's values run as its own `suction run` process (a failed or
// crashed run never stops the sweep), up to N at a time; one result table, one row per run in
// the grid's order, with each run's outcome and the summary of its CSV (io/sweep.h).  A sweep
// started again with the same --out skips the runs already in its table (docs/cli.md).
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "cli_common.h"
#include "io/sweep.h"

extern char** environ;

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
  command->add_option("--jobs,-j", options.jobs, "runs at a time (local processes)")
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

volatile std::sig_atomic_t g_interrupted = 0;
void on_sigint(int) { g_interrupted = 1; }

std::string self_executable() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw InputError("sweep: cannot find this program's path (/proc/self/exe): " + ec.message());
  return p.string();
}

std::string read_text(const fs::path& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

/// the last non-empty line of a run's log (its error), at most 300 characters
std::string last_line(const std::string& text) {
  size_t end = text.find_last_not_of(" \r\n\t");
  if (end == std::string::npos) return "";
  size_t begin = text.rfind('\n', end);
  begin = begin == std::string::npos ? 0 : begin + 1;
  std::string line = text.substr(begin, end + 1 - begin);
  if (line.size() > 300) line = line.substr(0, 297) + "...";
  return line;
}

std::string describe(const std::vector<SweepAxis>& axes, const std::vector<std::string>& values) {
  std::string s;
  for (size_t i = 0; i < axes.size(); ++i) s += (i ? " " : "") + axes[i].pointer + "=" + values[i];
  return s;
}

struct Running {
  size_t run;  // index into the combinations
  std::chrono::steady_clock::time_point start;
};

/// starts `suction run` for one combination, its output into log; the child's pid
pid_t spawn_run(const std::vector<std::string>& args, const fs::path& log) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw InputError("sweep: cannot start " + args[0] + ": " + std::strerror(rc));
  return pid;
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

}  // namespace

int sweep_command(const SweepOptions& options) {
  std::vector<SweepAxis> axes;
  for (const std::string& g : options.grid) axes.push_back(parse_sweep_axis(g));
  for (size_t i = 0; i < axes.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (axes[i].pointer == axes[j].pointer) throw InputError("--grid " + axes[i].pointer + " is given twice");
  const auto combos = sweep_combinations(axes);
  // the scene and its --set overrides must load before anything is run (bad input: exit 2)
  (void)load_model(options.scene);

  // resume: the rows already in the table
  std::vector<SweepRow> old_rows;
  if (fs::exists(options.out)) old_rows = parse_sweep_table(read_text(options.out), axes, options.out);
  std::map<std::vector<std::string>, size_t> old_of;
  for (size_t i = 0; i < old_rows.size(); ++i) old_of.emplace(old_rows[i].grid, i);
  std::vector<SweepRow> rows(combos.size());
  std::vector<bool> have(combos.size(), false);
  std::vector<size_t> todo;
  for (size_t k = 0; k < combos.size(); ++k) {
    const auto it = old_of.find(combos[k]);
    if (it != old_of.end()) {
      rows[k] = old_rows[it->second];
      have[k] = true;
      old_of.erase(it);
    } else {
      todo.push_back(k);
    }
  }
  // rows of the table that are not in this grid (an earlier, larger grid) are kept at the end
  std::vector<SweepRow> extra;
  for (size_t i = 0; i < old_rows.size(); ++i)
    if (old_of.count(old_rows[i].grid) && old_of.at(old_rows[i].grid) == i) extra.push_back(old_rows[i]);
  auto table_rows = [&]() {
    std::vector<SweepRow> out;
    for (size_t k = 0; k < combos.size(); ++k)
      if (have[k]) out.push_back(rows[k]);
    out.insert(out.end(), extra.begin(), extra.end());
    return out;
  };

  const bool temporary = options.runs_dir.empty();
  const fs::path dir = temporary ? fs::temp_directory_path() / ("suction_sweep_" + std::to_string(getpid()))
                                 : fs::path(options.runs_dir);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw InputError("--runs-dir " + dir.string() + ": cannot create: " + ec.message());

  std::vector<std::string> base = {self_executable(), "run", options.scene.scene, "-q"};
  for (const std::string& s : options.scene.sets) base.insert(base.end(), {"--set", s});
  if (!options.scene.backend.empty()) base.insert(base.end(), {"--backend", options.scene.backend});
  if (!options.scene.solver.empty()) base.insert(base.end(), {"--solver", options.scene.solver});
  base.insert(base.end(), {"--threads", std::to_string(options.scene.threads)});
  if (options.steps > 0) base.insert(base.end(), {"--steps", std::to_string(options.steps)});
  if (options.duration > 0) base.insert(base.end(), {"--duration", format("%.17g", options.duration)});

  if (!options.quiet)
    std::cout << "sweep: " << combos.size() << " run" << (combos.size() == 1 ? "" : "s") << " ("
              << combos.size() - todo.size() << " already in " << options.out << "), " << options.jobs
              << " at a time\n"
              << std::flush;

  struct sigaction action{}, previous{};
  action.sa_handler = on_sigint;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &previous);
  g_interrupted = 0;

  std::map<pid_t, Running> running;
  size_t next = 0, done = combos.size() - todo.size();
  bool interrupted = false;
  int failed = 0;
  for (size_t k = 0; k < combos.size(); ++k)
    if (have[k] && rows[k].status != "ok") ++failed;
  try {
    while (next < todo.size() || !running.empty()) {
      while (!interrupted && !g_interrupted && next < todo.size() && running.size() < static_cast<size_t>(options.jobs)) {
        const size_t k = todo[next++];
        std::vector<std::string> args = base;
        for (size_t i = 0; i < axes.size(); ++i) args.insert(args.end(), {"--set", axes[i].pointer + "=" + combos[k][i]});
        const fs::path csv = dir / ("run_" + std::to_string(k) + ".csv");
        args.insert(args.end(), {"--csv", csv.string()});
        const pid_t pid = spawn_run(args, dir / ("run_" + std::to_string(k) + ".log"));
        running[pid] = {k, std::chrono::steady_clock::now()};
      }
      if (g_interrupted) interrupted = true;
      if (running.empty()) break;
      int status = 0;
      const pid_t pid = waitpid(-1, &status, 0);
      if (pid < 0) {
        if (errno == EINTR) continue;
        throw InputError(std::string("sweep: waitpid: ") + std::strerror(errno));
      }
      const auto it = running.find(pid);
      if (it == running.end()) continue;
      const Running r = it->second;
      running.erase(it);
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - r.start).count();
      const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      if (code == kExitInterrupted || (WIFSIGNALED(status) && WTERMSIG(status) == SIGINT)) {
        interrupted = true;  // not a result: the run is done again when the sweep is resumed
        continue;
      }
      const std::string stem = "run_" + std::to_string(r.run);
      SweepRow& row = rows[r.run];
      row.grid = combos[r.run];
      row.exit_code = code;
      if (code == 0) {
        try {
          set_metrics(row, summarize_run_csv(read_text(dir / (stem + ".csv")), stem + ".csv"));
          row.status = "ok";
        } catch (const InputError& e) {
          row.status = "failed";
          row.error = e.what();
        }
      } else {
        row.status = "failed";
        row.error = WIFSIGNALED(status) ? std::string("killed by signal ") + std::to_string(WTERMSIG(status))
                                        : last_line(read_text(dir / (stem + ".log")));
      }
      failed += row.status != "ok";
      have[r.run] = true;
      ++done;
      write_table(options.out, axes, table_rows());
      if (!options.quiet)
        std::cout << format("[%zu/%zu] ", done, combos.size()) << describe(axes, combos[r.run]) << ": " << row.status
                  << (row.status == "ok" ? "" : " (exit " + std::to_string(code) + ": " + row.error + ")")
                  << format(" in %.1f s\n", seconds) << std::flush;
    }
  } catch (...) {
    for (const auto& [pid, r] : running) kill(pid, SIGTERM);
    for (const auto& [pid, r] : running) waitpid(pid, nullptr, 0);
    sigaction(SIGINT, &previous, nullptr);
    throw;
  }
  sigaction(SIGINT, &previous, nullptr);
  write_table(options.out, axes, table_rows());
  if (temporary) fs::remove_all(dir, ec);
  if (interrupted) {
    std::cerr << "sweep: interrupted; " << done << " of " << combos.size() << " runs in " << options.out
              << " (run the same command again to finish)\n";
    return kExitInterrupted;
  }
  if (!options.quiet)
    std::cout << "sweep: " << combos.size() - failed << " ok, " << failed << " failed; table " << options.out << '\n';
  return failed ? kExitSimulationFailed : kExitOk;
}

}  // namespace suction::cli
