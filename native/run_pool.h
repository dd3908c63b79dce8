// The sweep's engine (used by `suction sweep` and `suction fit`): `suction run` processes, each
// an independent simulation spawned from this very program (/proc/self/exe), up to `jobs` at a
// time; a run that fails or crashes is a result like any other.  Native only.
#pragma once
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cli_common.h"

namespace suction::cli {

/// this program's path (/proc/self/exe); InputError when it cannot be read
std::string self_executable();
/// a file's whole text ("" when it cannot be read)
std::string read_text(const std::filesystem::path& path);
/// the last non-empty line of a text (a run's error), at most 300 characters
std::string last_line(const std::string& text);

/// `suction run SCENE -q [--set ...] [--backend] [--solver] --threads N [--steps|--duration]`:
/// the arguments every run of a sweep or a fit shares (the scene's own --set overrides first)
std::vector<std::string> run_base_args(const SceneOptions& scene, long steps, double duration);

/// One finished run.
struct RunOutcome {
  size_t id = 0;            // the id it was started with
  int exit_code = 0;        // 128 + signal when killed
  bool signaled = false;
  int signal = 0;
  bool interrupted = false; // ended by Ctrl-C (exit 130 or SIGINT): not a result
  double seconds = 0;
  std::filesystem::path csv, log;
};

/// Runs `base + extra + --csv DIR/STEM.csv` processes (output into DIR/STEM.log), at most
/// `jobs` at once.  Not thread-safe; one pool per process reaps all of its children.
class RunPool {
 public:
  RunPool(std::vector<std::string> base, std::filesystem::path dir, int jobs);
  ~RunPool();  // kills (SIGTERM) and reaps what still runs
  RunPool(const RunPool&) = delete;
  RunPool& operator=(const RunPool&) = delete;

  bool has_slot() const { return running_.size() < static_cast<size_t>(jobs_); }
  size_t running() const { return running_.size(); }
  const std::filesystem::path& dir() const { return dir_; }

  /// starts one run; InputError when the process cannot be started
  void start(size_t id, const std::vector<std::string>& extra, const std::string& stem);
  /// the next finished run: waits for one when `block` (none when nothing runs), else only
  /// reaps one that has already ended.  A signal that interrupts the wait returns nothing.
  std::optional<RunOutcome> wait(bool block);
  /// sends a signal to every running run
  void signal_all(int sig);

 private:
  struct Running {
    size_t id;
    std::chrono::steady_clock::time_point start;
    std::filesystem::path csv, log;
  };
  std::vector<std::string> base_;
  std::filesystem::path dir_;
  int jobs_;
  std::map<pid_t, Running> running_;
};

/// Where a command's runs write their CSVs and logs: the folder the user gave (kept), or a
/// temporary one per process, `suction_<tag>_<pid>` (removed when this goes out of scope).
class RunsDir {
 public:
  RunsDir(const std::string& given, const std::string& tag);
  ~RunsDir();
  RunsDir(const RunsDir&) = delete;
  RunsDir& operator=(const RunsDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  bool temporary() const { return temporary_; }

 private:
  std::filesystem::path path_;
  bool temporary_;
};

/// Runs every set of extra arguments (e.g. {"--set", "/x=1"}) in the pool and returns the
/// outcomes in the order given.  Stops early (the rest not run) when interrupted by SIGINT;
/// `interrupted` then says so.
std::vector<RunOutcome> run_all(RunPool& pool, const std::vector<std::vector<std::string>>& extras,
                                const std::string& stem_prefix, bool& interrupted);

/// Ctrl-C (SIGINT) and SIGTERM while a pool runs: while a guard lives, either signal only sets
/// a flag that the loops read (the previous handlers are restored on destruction).
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
  static bool interrupted();
};

}  // namespace suction::cli
