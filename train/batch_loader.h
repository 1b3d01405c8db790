#pragma once
// The background thread that prepares batches (internal to train/; includes torch): it draws
// batch k, k+1, ... from a window and keeps up to `capacity` of them ready in a bounded queue, so
// that the optimiser does not wait for data. Batch k depends only on (seed, k, window): restarting
// at any step gives the same batches.
#include <torch/torch.h>

#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

#include "train/batch.h"

namespace sz::train {

struct LoaderOptions {
  BatchSpec batch;
  int capacity = 4;           // ready batches kept queued
  int action_space = 0;
  bool moves_left = false;    // fill LossBatch::moves_left
  torch::Device device = torch::kCPU;
};

// Thread-safe between its one producer thread and one consumer (the trainer).
class BatchLoader {
 public:
  explicit BatchLoader(LoaderOptions options);
  ~BatchLoader();
  BatchLoader(const BatchLoader&) = delete;
  BatchLoader& operator=(const BatchLoader&) = delete;

  // Drops the queued batches and starts drawing batches first_step, first_step + 1, ... from
  // `window` (which stays alive as long as the loader uses it).
  void start(std::shared_ptr<const Window> window, int64_t first_step);
  void stop();
  bool running_at(const Window* window, int64_t next_step) const;  // would next(next_step) continue?

  // Batch `step` (the one after the previous call's, or start's first_step), on the device.
  // Blocks until it is ready; rethrows what the producer threw.
  models::LossBatch next(int64_t step);

  double wait_seconds() const { return wait_seconds_; }  // time next() has spent blocked

 private:
  struct Ready {
    HostBatch host;
    models::LossBatch loss;  // defined on the CPU; built by next() on CUDA
  };
  void produce(std::shared_ptr<const Window> window, int64_t first_step);

  LoaderOptions options_;
  std::thread thread_;
  mutable std::mutex mutex_;
  std::condition_variable ready_cv_, space_cv_;
  std::deque<Ready> queue_;
  bool stopping_ = false;
  std::exception_ptr error_;
  const Window* window_ = nullptr;
  int64_t next_step_ = -1;  // the step next() hands out next
  double wait_seconds_ = 0;
};

}  // namespace sz::train
