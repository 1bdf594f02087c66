// A fixed set of worker threads running submitted tasks: the crawler parses and curates feeds on all
// cores while libcurl keeps fetching on the calling thread.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace longread::pipeline {

class TaskPool {
 public:
  explicit TaskPool(unsigned threads);
  ~TaskPool();  // waits for queued tasks, then joins
  TaskPool(const TaskPool&) = delete;
  TaskPool& operator=(const TaskPool&) = delete;

  // A task that throws is logged and counted as finished.
  void submit(std::function<void()> task);
  // Blocks until every submitted task has finished.
  void wait_idle();

 private:
  void work();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable idle_;
  std::deque<std::function<void()>> queue_;
  int running_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace longread::pipeline
