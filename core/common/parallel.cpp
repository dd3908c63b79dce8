#include "common/parallel.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define SUCTION_NO_THREADS 1
#endif

namespace suction {

namespace {

#ifndef SUCTION_NO_THREADS
// A fixed pool: workers sleep on a condition variable between jobs; a job hands out indices
// through an atomic counter (dynamic scheduling: which thread takes which index varies, the
// outputs do not).
class Pool {
 public:
  ~Pool() { resize(0); }

  void resize(int workers) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      stop_ = true;
      ++generation_;
    }
    wake_.notify_all();
    for (std::thread& t : threads_) t.join();
    threads_.clear();
    stop_ = false;
    // a worker starts from the current generation: a job posted before it first runs is seen
    const unsigned long gen = generation_;
    for (int w = 0; w < workers; ++w) threads_.emplace_back([this, w, gen] { loop(w + 1, gen); });
  }
  int workers() const { return static_cast<int>(threads_.size()); }

  void run(int n, const std::function<void(int, int)>& f) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      job_ = &f;
      n_ = n;
      next_.store(0);
      busy_ = static_cast<int>(threads_.size());
      error_ = nullptr;
      ++generation_;
    }
    wake_.notify_all();
    work(0);
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return busy_ == 0; });
    job_ = nullptr;
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void work(int worker) {
    for (int i = next_.fetch_add(1); i < n_; i = next_.fetch_add(1)) {
      try {
        (*job_)(i, worker);
      } catch (...) {
        std::unique_lock<std::mutex> lock(mutex_);
        if (!error_) error_ = std::current_exception();
      }
    }
  }
  void loop(int worker, unsigned long seen) {
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
      }
      work(worker);
      {
        std::unique_lock<std::mutex> lock(mutex_);
        --busy_;
      }
      done_.notify_one();
    }
  }

  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(int, int)>* job_ = nullptr;
  int n_ = 0, busy_ = 0;
  std::atomic<int> next_{0};
  unsigned long generation_ = 0;
  bool stop_ = false;
  std::exception_ptr error_;
};

Pool& pool() {
  static Pool p;
  return p;
}
#endif

int g_threads = 1;

}  // namespace

bool threads_available() {
#ifdef SUCTION_NO_THREADS
  return false;
#else
  return true;
#endif
}

void set_thread_count(int n) {
  n = std::clamp(n, 1, 64);
#ifdef SUCTION_NO_THREADS
  n = 1;
#else
  if (pool().workers() != n - 1) {
    try {
      pool().resize(n - 1);
    } catch (const std::system_error&) {  // no thread could be started (e.g. no pthread pool)
      pool().resize(0);
      n = 1;
    }
  }
#endif
  g_threads = n;
}

int thread_count() { return g_threads; }

void parallel_for(int n, const std::function<void(int, int)>& f) {
  if (n <= 0) return;
#ifndef SUCTION_NO_THREADS
  if (g_threads > 1 && n > 1) {
    pool().run(n, f);
    return;
  }
#endif
  for (int i = 0; i < n; ++i) f(i, 0);
}

}  // namespace suction
