// A fixed set of worker threads that run Work(job) on the jobs submitted to
// them, first submitted first started; the caller waits for each job it needs
// (the trace reader and writer wait in submission order, so files and results
// do not depend on the thread count). A job is any struct with a `bool done`.
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace warpscope::trace {

template <class Job, void (*Work)(Job&)>
class JobWorkers {
 public:
  explicit JobWorkers(unsigned threads) {
    for (unsigned i = 0; i < threads; ++i) threads_.emplace_back([this] { run(); });
  }
  ~JobWorkers() {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    work_.notify_all();
    for (auto& t : threads_) t.join();
  }
  JobWorkers(const JobWorkers&) = delete;
  JobWorkers& operator=(const JobWorkers&) = delete;

  void submit(Job* job) {
    {
      std::lock_guard lock(mu_);
      job->done = false;
      queue_.push_back(job);
    }
    work_.notify_one();
  }
  void wait(Job* job) {
    std::unique_lock lock(mu_);
    done_.wait(lock, [job] { return job->done; });
  }

 private:
  void run() {
    for (;;) {
      Job* job = nullptr;
      {
        std::unique_lock lock(mu_);
        work_.wait(lock, [this] { return stop_ || !queue_.empty(); });
        if (queue_.empty()) return;  // stopping, nothing left
        job = queue_.front();
        queue_.pop_front();
      }
      Work(*job);
      {
        std::lock_guard lock(mu_);
        job->done = true;
      }
      done_.notify_all();
    }
  }

  std::mutex mu_;
  std::condition_variable work_, done_;
  std::deque<Job*> queue_;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace warpscope::trace
