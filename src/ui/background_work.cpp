#include "ui/background_work.h"

#include <spdlog/spdlog.h>

#include <exception>

namespace longread::ui {

BackgroundWork::BackgroundWork(std::size_t max_pending) : max_pending_(max_pending) {
  thread_ = std::thread([this] { run(); });
}

BackgroundWork::~BackgroundWork() {
  finish();
}

bool BackgroundWork::post(std::function<void()> job) {
  {
    std::lock_guard lock(mutex_);
    if (finishing_ || jobs_.size() >= max_pending_) return false;
    jobs_.push_back(std::move(job));
  }
  wake_.notify_one();
  return true;
}

void BackgroundWork::finish() {
  {
    std::lock_guard lock(mutex_);
    finishing_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void BackgroundWork::run() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return finishing_ || !jobs_.empty(); });
      if (jobs_.empty()) return;  // finishing, and everything queued has run
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    try {
      job();
    } catch (const std::exception& e) {
      spdlog::error("ui: background job failed: {}", e.what());
    }
  }
}

}  // namespace longread::ui
