// common/parallel.h: every index once, on any thread count; errors come back to the caller.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

#include "common/parallel.h"

using namespace suction;

namespace {
// restores the process-wide count after a test
struct ThreadCount {
  explicit ThreadCount(int n) : old(thread_count()) { set_thread_count(n); }
  ~ThreadCount() { set_thread_count(old); }
  int old;
};
}  // namespace

TEST(Parallel, EveryIndexRunsExactlyOnceOnAnyThreadCount) {
  for (int threads : {1, 2, 3, 8}) {
    ThreadCount tc(threads);
    EXPECT_EQ(thread_count(), threads_available() ? threads : 1);
    for (int n : {0, 1, 7, 1000}) {
      std::vector<std::atomic<int>> hits(n);
      std::atomic<int> bad_worker{0};
      parallel_for(n, [&](int i, int worker) {
        hits[i].fetch_add(1);
        if (worker < 0 || worker >= thread_count()) bad_worker.fetch_add(1);
      });
      for (int i = 0; i < n; ++i) ASSERT_EQ(hits[i].load(), 1) << "threads " << threads << ", n " << n << ", i " << i;
      EXPECT_EQ(bad_worker.load(), 0);
    }
  }
}

TEST(Parallel, TheCountIsClampedAndAnExceptionReachesTheCaller) {
  {
    ThreadCount tc(0);
    EXPECT_EQ(thread_count(), 1);
  }
  ThreadCount tc(3);
  EXPECT_THROW(parallel_for(50, [](int i, int) {
                 if (i == 17) throw std::runtime_error("index 17");
               }),
               std::runtime_error);
  // the pool still works after a failed loop
  std::atomic<int> sum{0};
  parallel_for(100, [&](int i, int) { sum.fetch_add(i); });
  EXPECT_EQ(sum.load(), 4950);
}
