#include "mpi_runs.h"

#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#ifdef SUCTION_HAVE_MPI
#include <mpi.h>
#endif

namespace suction::cli {

std::optional<std::string> mpi_launch() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"}) {
    if (const char* v = std::getenv(name)) {
      if (std::string(name) == "OMPI_COMM_WORLD_SIZE" || std::string(name) == "PMI_SIZE") return std::string(v);
      return std::string();
    }
  }
  return std::nullopt;
}

void refuse_launch_without_mpi(const std::string& command) {
#ifndef SUCTION_HAVE_MPI
  const std::optional<std::string> launch = mpi_launch();
  if (launch && !launch->empty() && launch->find_first_not_of("0123456789") == std::string::npos &&
      std::stol(*launch) > 1)
    throw InputError(command + ": started by an MPI launcher with " + *launch +
                     " processes, but this suction was built without MPI (every process would do the whole " +
                     command + "): install Open MPI (apt-get install libopenmpi-dev openmpi-bin) and rebuild, or "
                     "run one process with --jobs N");
#else
  (void)command;
#endif
}

#ifdef SUCTION_HAVE_MPI

namespace {

// rank 0 -> worker: kRun "ID\nSTEM\nARG\0ARG\0..."; kStop, kInterrupt (an empty message).
// worker -> rank 0: kResult "ID EXIT SIGNALED SIGNAL INTERRUPTED SECONDS CSV_BYTES\n" + CSV + log line
constexpr int kRun = 11, kResult = 12, kStop = 13, kInterrupt = 14;

void send(const std::string& message, int to, int tag) {
  MPI_Send(message.data(), static_cast<int>(message.size()), MPI_CHAR, to, tag, MPI_COMM_WORLD);
}

std::string receive(const MPI_Status& status) {
  int count = 0;
  MPI_Get_count(&status, MPI_CHAR, &count);
  std::string message(static_cast<size_t>(count), '\0');
  MPI_Recv(message.data(), count, MPI_CHAR, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return message;
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
}

}  // namespace

void mpi_idle() { std::this_thread::sleep_for(std::chrono::milliseconds(2)); }

MpiSession::MpiSession() {
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SINGLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
}

MpiSession::~MpiSession() { MPI_Finalize(); }

std::vector<RunOutcome> MpiRuns::run_all(const std::vector<std::vector<std::string>>& extras,
                                         const std::string& stem_prefix, bool& interrupted) {
  std::vector<RunOutcome> out(extras.size());
  std::deque<size_t> queue;
  for (size_t i = 0; i < extras.size(); ++i) queue.push_back(i);
  std::vector<int> free_slots(static_cast<size_t>(size_), jobs_);
  size_t remote = 0, done = 0;
  interrupted = false;
  auto interrupt = [&] {
    if (interrupted) return;
    interrupted = true;
    local_.signal_all(SIGINT);
    for (int w = 1; w < size_; ++w) send("", w, kInterrupt);
  };
  while (done < extras.size()) {
    for (int w = 1; w < size_ && !interrupted; ++w)  // the other ranks' free slots first
      while (free_slots[static_cast<size_t>(w)] > 0 && !queue.empty()) {
        const size_t k = queue.front();
        queue.pop_front();
        std::string message = std::to_string(k) + "\n" + stem_prefix + std::to_string(k) + "\n";
        for (const std::string& a : extras[k]) message += a + '\0';
        send(message, w, kRun);
        --free_slots[static_cast<size_t>(w)];
        ++remote;
      }
    while (!interrupted && !queue.empty() && local_.has_slot()) {
      const size_t k = queue.front();
      queue.pop_front();
      local_.start(k, extras[k], stem_prefix + std::to_string(k));
    }
    if (InterruptGuard::interrupted()) interrupt();
    if (interrupted && remote == 0 && local_.running() == 0) break;
    bool progress = false;
    if (const std::optional<RunOutcome> o = local_.wait(false)) {
      progress = true;
      if (o->interrupted) interrupt();
      out[o->id] = *o;
      ++done;
    }
    int flag = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, kResult, MPI_COMM_WORLD, &flag, &status);
    if (flag) {
      progress = true;
      const std::string message = receive(status);
      ++free_slots[static_cast<size_t>(status.MPI_SOURCE)];
      --remote;
      const size_t eol = message.find('\n');
      std::istringstream head(message.substr(0, eol));
      RunOutcome o;
      int signaled = 0, was_interrupted = 0;
      size_t csv_bytes = 0;
      head >> o.id >> o.exit_code >> signaled >> o.signal >> was_interrupted >> o.seconds >> csv_bytes;
      if (!head || o.id >= extras.size() || eol == std::string::npos || eol + 1 + csv_bytes > message.size())
        throw InputError("fit: rank " + std::to_string(status.MPI_SOURCE) + " sent a malformed result");
      o.signaled = signaled != 0;
      o.interrupted = was_interrupted != 0;
      const std::string stem = stem_prefix + std::to_string(o.id);
      o.csv = local_.dir() / (stem + ".csv");
      o.log = local_.dir() / (stem + ".log");
      write_text(o.csv, message.substr(eol + 1, csv_bytes));
      // the whole log (a sweep reads its warnings and union counts), its last line (the error
      // of a failed run) marked with the rank that ran it
      std::string log = message.substr(eol + 1 + csv_bytes);
      while (!log.empty() && log.back() == '\n') log.pop_back();
      const size_t last = log.rfind('\n');
      log.insert(last == std::string::npos ? 0 : last + 1, "rank " + std::to_string(status.MPI_SOURCE) + ": ");
      write_text(o.log, log + "\n");
      if (o.interrupted) interrupt();
      out[o.id] = o;
      ++done;
    }
    if (!progress) mpi_idle();
  }
  return out;
}

void MpiRuns::stop() {
  if (stopped_) return;
  stopped_ = true;
  for (int w = 1; w < size_; ++w) send("", w, kStop);
}

int mpi_run_worker(const std::vector<std::string>& base, const std::string& runs_dir, int jobs) {
  const RunsDir dir(runs_dir, "fit");  // a temporary one per process is removed at the end
  InterruptGuard guard;
  RunPool pool(base, dir.path(), jobs);
  std::map<size_t, std::string> stems;
  bool stop = false, interrupted = false;
  while (!stop || pool.running() > 0) {
    bool progress = false;
    if (const std::optional<RunOutcome> o = pool.wait(false)) {
      const std::string csv = read_text(o->csv);
      const std::string head = std::to_string(o->id) + " " + std::to_string(o->exit_code) + " " +
                               std::to_string(o->signaled ? 1 : 0) + " " + std::to_string(o->signal) + " " +
                               std::to_string(o->interrupted ? 1 : 0) + " " + format("%.6f", o->seconds) + " " +
                               std::to_string(csv.size()) + "\n";
      send(head + csv + read_text(o->log), 0, kResult);
      progress = true;
    }
    int flag = 0;
    MPI_Status status;
    MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status);
    if (flag) {
      const std::string message = receive(status);
      if (status.MPI_TAG == kRun) {
        const size_t a = message.find('\n'), b = message.find('\n', a + 1);
        const size_t id = std::stoul(message.substr(0, a));
        std::vector<std::string> extra;
        std::string arg;
        for (size_t i = b + 1; i < message.size(); ++i) {
          if (message[i] == '\0') extra.push_back(arg), arg.clear();
          else arg += message[i];
        }
        pool.start(id, extra, message.substr(a + 1, b - a - 1));
      } else if (status.MPI_TAG == kStop) {
        stop = true;
      } else if (status.MPI_TAG == kInterrupt && !interrupted) {
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
  return kExitOk;
}

#endif  // SUCTION_HAVE_MPI

}  // namespace suction::cli
