// Runs spread over MPI ranks (a build with Open MPI): the launch check both commands share, and
// the batches of `suction fit` (the sweep keeps its own protocol: cmd_sweep.cpp).  Rank 0 sends
// a run (its extra arguments) to whichever rank has a free slot, runs its own share in its pool,
// and gets back each remote run's outcome with its CSV and the last line of its log, written
// into its own runs folder: the caller reads a remote run exactly as a local one.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "run_pool.h"

namespace suction::cli {

/// the environment of a process started by an MPI launcher (mpirun / mpiexec, srun with PMIx
/// or PMI-2): its world size when the launcher says it ("" when it does not), nullopt when no
/// launcher started this process
std::optional<std::string> mpi_launch();

/// InputError when an MPI launcher started several processes of a build without MPI (each
/// would do the whole work); `command`: "sweep", "fit"
void refuse_launch_without_mpi(const std::string& command);

#ifdef SUCTION_HAVE_MPI
/// the pause of a polling loop that found nothing to do (2 ms): the sweep's and the batches'
void mpi_idle();

/// MPI_Init_thread / MPI_Finalize around a command; its rank and world size
struct MpiSession {
  int rank = 0, size = 1;
  MpiSession();
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
};

/// Rank 0's side: batches of runs over every rank's pool (`local` is rank 0's own).
class MpiRuns {
 public:
  MpiRuns(RunPool& local, int size, int jobs_per_rank) : local_(local), size_(size), jobs_(jobs_per_rank) {}
  /// as run_all (run_pool.h): the outcomes in the order given
  std::vector<RunOutcome> run_all(const std::vector<std::vector<std::string>>& extras, const std::string& stem_prefix,
                                  bool& interrupted);
  /// ends the other ranks' loops (once; also at destruction)
  void stop();
  ~MpiRuns() { stop(); }

 private:
  RunPool& local_;
  int size_, jobs_;
  bool stopped_ = false;
};

/// A rank other than 0: runs what rank 0 sends, in a pool of `jobs` runs of `base`, until it
/// says stop.  Returns the exit status for the rank.
int mpi_run_worker(const std::vector<std::string>& base, const std::string& runs_dir, int jobs);
#endif

}  // namespace suction::cli
