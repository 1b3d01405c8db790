#include "train/batch_loader.h"

#include <chrono>

#include "core/error.h"

namespace sz::train {

BatchLoader::BatchLoader(LoaderOptions options) : options_(std::move(options)) {}

BatchLoader::~BatchLoader() { stop(); }

void BatchLoader::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  space_cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  std::lock_guard lock(mutex_);
  queue_.clear();
  stopping_ = false;
  error_ = nullptr;
  window_ = nullptr;
  next_step_ = -1;
}

void BatchLoader::start(std::shared_ptr<const Window> window, int64_t first_step) {
  stop();
  {
    std::lock_guard lock(mutex_);
    window_ = window.get();
    next_step_ = first_step;
  }
  thread_ = std::thread([this, window = std::move(window), first_step] { produce(window, first_step); });
}

bool BatchLoader::running_at(const Window* window, int64_t next_step) const {
  std::lock_guard lock(mutex_);
  return thread_.joinable() && window_ == window && next_step_ == next_step;
}

void BatchLoader::produce(std::shared_ptr<const Window> window, int64_t first_step) {
  const bool on_cpu = options_.device.is_cpu();
  try {
    for (int64_t step = first_step;; ++step) {
      Ready item;
      item.host = make_host_batch(*window, options_.batch, step, /*pinned=*/!on_cpu);
      if (on_cpu) item.loss = to_loss_batch(item.host, options_.device, options_.action_space, options_.moves_left);
      std::unique_lock lock(mutex_);
      space_cv_.wait(lock, [&] { return stopping_ || int(queue_.size()) < options_.capacity; });
      if (stopping_) return;
      queue_.push_back(std::move(item));
      ready_cv_.notify_one();
    }
  } catch (...) {
    std::lock_guard lock(mutex_);
    error_ = std::current_exception();
    ready_cv_.notify_all();
  }
}

models::LossBatch BatchLoader::next(int64_t step) {
  Ready item;
  {
    std::unique_lock lock(mutex_);
    if (!thread_.joinable() || step != next_step_)
      throw Error("batch loader: asked for batch " + std::to_string(step) + ", next is " + std::to_string(next_step_));
    const auto t0 = std::chrono::steady_clock::now();
    ready_cv_.wait(lock, [&] { return !queue_.empty() || error_; });
    wait_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (queue_.empty()) std::rethrow_exception(error_);
    item = std::move(queue_.front());
    queue_.pop_front();
    ++next_step_;
  }
  space_cv_.notify_one();
  if (item.host.step != step)
    throw Error("batch loader: got batch " + std::to_string(item.host.step) + " for " + std::to_string(step));
  if (item.loss.input.defined()) return item.loss;
  return to_loss_batch(item.host, options_.device, options_.action_space, options_.moves_left);
}

}  // namespace sz::train
