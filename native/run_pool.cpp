// The sweep's engine: `suction run` processes (run_pool.h).
#include "run_pool.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <sstream>

extern char** environ;

namespace suction::cli {

namespace fs = std::filesystem;

std::string self_executable() {
  // the link itself, not its target: the kernel resolves it to this very program even when the
  // file has since been replaced (a rebuild during a long sweep), whose path reads "... (deleted)"
  const char* self = "/proc/self/exe";
  if (access(self, X_OK) != 0) throw InputError(std::string("cannot run this program again: ") + self + ": " + std::strerror(errno));
  return self;
}

std::string read_text(const fs::path& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string last_line(const std::string& text) {
  size_t end = text.find_last_not_of(" \r\n\t");
  if (end == std::string::npos) return "";
  size_t begin = text.rfind('\n', end);
  begin = begin == std::string::npos ? 0 : begin + 1;
  std::string line = text.substr(begin, end + 1 - begin);
  if (line.size() > 300) line = line.substr(0, 297) + "...";
  return line;
}

std::vector<std::string> run_base_args(const SceneOptions& scene, long steps, double duration) {
  std::vector<std::string> base = {self_executable(), "run", scene.scene, "-q"};
  for (const std::string& s : scene.sets) base.insert(base.end(), {"--set", s});
  if (!scene.backend.empty()) base.insert(base.end(), {"--backend", scene.backend});
  if (!scene.solver.empty()) base.insert(base.end(), {"--solver", scene.solver});
  base.insert(base.end(), {"--threads", std::to_string(scene.threads)});
  if (scene.quality != "reference") base.insert(base.end(), {"--quality", scene.quality});
  if (steps > 0) base.insert(base.end(), {"--steps", std::to_string(steps)});
  if (duration > 0) base.insert(base.end(), {"--duration", format("%.17g", duration)});
  return base;
}

RunPool::RunPool(std::vector<std::string> base, fs::path dir, int jobs)
    : base_(std::move(base)), dir_(std::move(dir)), jobs_(jobs < 1 ? 1 : jobs) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) throw InputError(dir_.string() + ": cannot create the runs' folder: " + ec.message());
}

RunPool::~RunPool() {
  for (const auto& [pid, r] : running_) kill(pid, SIGTERM);
  for (const auto& [pid, r] : running_) waitpid(pid, nullptr, 0);
}

void RunPool::start(size_t id, const std::vector<std::string>& extra, const std::string& stem) {
  const fs::path csv = dir_ / (stem + ".csv"), log = dir_ / (stem + ".log");
  std::vector<std::string> args = base_;
  args.insert(args.end(), extra.begin(), extra.end());
  args.insert(args.end(), {"--csv", csv.string()});
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
  if (rc != 0) throw InputError("cannot start " + args[0] + ": " + std::strerror(rc));
  running_[pid] = {id, std::chrono::steady_clock::now(), csv, log};
}

std::optional<RunOutcome> RunPool::wait(bool block) {
  while (!running_.empty()) {
    int status = 0;
    const pid_t pid = waitpid(-1, &status, block ? 0 : WNOHANG);
    if (pid == 0) return std::nullopt;  // none has ended yet
    if (pid < 0) {
      if (errno == EINTR) return std::nullopt;  // a signal: the caller looks at its flag
      throw InputError(std::string("waitpid: ") + std::strerror(errno));
    }
    const auto it = running_.find(pid);
    if (it == running_.end()) continue;  // not one of ours
    const Running r = it->second;
    running_.erase(it);
    RunOutcome o;
    o.id = r.id;
    o.csv = r.csv;
    o.log = r.log;
    o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - r.start).count();
    o.signaled = WIFSIGNALED(status);
    o.signal = o.signaled ? WTERMSIG(status) : 0;
    o.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + o.signal;
    o.interrupted = o.exit_code == kExitInterrupted || (o.signaled && o.signal == SIGINT);
    return o;
  }
  return std::nullopt;
}

void RunPool::signal_all(int sig) {
  for (const auto& [pid, r] : running_) kill(pid, sig);
}

RunsDir::RunsDir(const std::string& given, const std::string& tag)
    : path_(given.empty() ? fs::temp_directory_path() / ("suction_" + tag + "_" + std::to_string(getpid()))
                          : fs::path(given)),
      temporary_(given.empty()) {}

RunsDir::~RunsDir() {
  std::error_code ec;
  if (temporary_) fs::remove_all(path_, ec);
}

std::vector<RunOutcome> run_all(RunPool& pool, const std::vector<std::vector<std::string>>& extras,
                                const std::string& stem_prefix, bool& interrupted) {
  std::vector<RunOutcome> out(extras.size());
  size_t next = 0, done = 0;
  interrupted = false;
  while (done < extras.size()) {
    while (!interrupted && next < extras.size() && pool.has_slot()) {
      pool.start(next, extras[next], stem_prefix + std::to_string(next));
      ++next;
    }
    if (InterruptGuard::interrupted() && !interrupted) {
      interrupted = true;
      pool.signal_all(SIGINT);
    }
    if (pool.running() == 0) break;
    std::optional<RunOutcome> o = pool.wait(true);
    if (!o) continue;
    if (o->interrupted) interrupted = true;
    out[o->id] = *o;
    ++done;
  }
  return out;
}

namespace {
volatile std::sig_atomic_t g_interrupted = 0;
void on_interrupt(int) { g_interrupted = 1; }
struct sigaction g_previous_int{}, g_previous_term{};
}  // namespace

InterruptGuard::InterruptGuard() {
  g_interrupted = 0;
  struct sigaction action{};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &g_previous_int);
  sigaction(SIGTERM, &action, &g_previous_term);
}

InterruptGuard::~InterruptGuard() {
  sigaction(SIGINT, &g_previous_int, nullptr);
  sigaction(SIGTERM, &g_previous_term, nullptr);
}

bool InterruptGuard::interrupted() { return g_interrupted != 0; }

}  // namespace suction::cli
