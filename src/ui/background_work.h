// Work a request hands off so that its answer does not wait for it, nor take longer for some inputs than
// for others: "Forgot your password?" queues the account lookup and the mail here, so the page costs the
// same whether or not the address has an account (docs/readers.md, "Password reset timing").
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace longread::ui {

// One thread running jobs in the order they were posted. Bounded: past `max_pending` queued jobs, post()
// drops the job and returns false (a flood of requests cannot grow memory without bound). finish() runs
// what is queued, then stops the thread; the destructor calls it.
class BackgroundWork {
 public:
  explicit BackgroundWork(std::size_t max_pending = 1000);
  ~BackgroundWork();
  BackgroundWork(const BackgroundWork&) = delete;
  BackgroundWork& operator=(const BackgroundWork&) = delete;

  bool post(std::function<void()> job);
  void finish();

 private:
  void run();

  std::size_t max_pending_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> jobs_;
  bool finishing_ = false;
  std::thread thread_;
};

}  // namespace longread::ui
