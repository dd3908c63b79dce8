// Data-parallel loops over a small pool of worker threads (docs/method.md §7.2, decisions.md).
// The count is a process-wide execution setting, not scene data: 1 (the default) runs every
// loop on the calling thread.  Results never depend on it: a parallel loop writes disjoint
// outputs, each computed in a fixed order by whichever thread takes its index.
// WebAssembly builds without -pthread have no threads: the count stays 1.
#pragma once
#include <functional>

namespace suction {

/// Threads used by parallel_for, the calling thread included (clamped to [1, 64]; 1 where the
/// build has no threads).  Not to be changed while a parallel_for runs.
void set_thread_count(int n);
int thread_count();
/// Whether this build can run more than one thread.
bool threads_available();

/// f(i, worker) for every i in [0, n), spread over thread_count() threads, each index exactly
/// once; worker in [0, thread_count()) names the thread (for per-thread scratch).  Returns when
/// all are done; an exception thrown by f is rethrown here (the first one).
void parallel_for(int n, const std::function<void(int i, int worker)>& f);

}  // namespace suction
