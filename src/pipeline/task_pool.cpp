#include "pipeline/task_pool.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <exception>

namespace longread::pipeline {

TaskPool::TaskPool(unsigned threads) {
  threads = std::max(1U, threads);
  threads_.reserve(threads);
  for (unsigned i = 0; i < threads; ++i) threads_.emplace_back([this] { work(); });
}

TaskPool::~TaskPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& t : threads_) t.join();
}

void TaskPool::submit(std::function<void()> task) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(task));
  }
  wake_.notify_one();
}

void TaskPool::wait_idle() {
  std::unique_lock lock(mutex_);
  idle_.wait(lock, [this] { return queue_.empty() && running_ == 0; });
}

void TaskPool::work() {
  std::unique_lock lock(mutex_);
  while (true) {
    wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping and drained
    auto task = std::move(queue_.front());
    queue_.pop_front();
    ++running_;
    lock.unlock();
    // A task that throws must not end the process (std::terminate) nor leave running_ counted: the callers
    // catch what they can attribute to a blog; this is the last line.
    try {
      task();
    } catch (const std::exception& e) {
      spdlog::error("crawl: a task failed: {}", e.what());
    } catch (...) {
      spdlog::error("crawl: a task failed");
    }
    lock.lock();
    --running_;
    if (queue_.empty() && running_ == 0) idle_.notify_all();
  }
}

}  // namespace longread::pipeline
