#pragma once
// Shares one network among many search threads. Callers submit their queries (any number);
// one device thread gathers the queued positions into batches of up to max_batch, or runs a
// partial batch once the oldest queued position has waited max_wait_us, and hands each caller
// its own rows of the output. Torch-free header.
//
// The work is split so that the device thread does as little as possible: callers encode their
// positions (and consult the cache) before queueing, the device thread only copies the encoded
// rows into the staging buffer and runs the network, and each caller softmaxes its own rows when
// it waits. With the device kept busy, throughput through the service matches a single
// evaluator at the same batch size (bench nn, docs/BENCHMARKS.md).
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "nn/eval_cache.h"
#include "nn/inference_config.h"
#include "nn/net_runner.h"
#include "search/evaluator.h"

namespace sz::nn {

struct ServiceStats {
  uint64_t batches = 0;    // forward passes
  uint64_t positions = 0;  // positions through the network
  uint64_t cache_hits = 0;
  uint64_t cache_misses = 0;
  double mean_batch() const { return batches ? double(positions) / double(batches) : 0.0; }
};

// Thread-safe: submit() and evaluate() may be called from any number of threads at once.
class InferenceService final : public search::Evaluator {
  struct Request;

 public:
  // Takes the runner (its max_batch is the batch size); reads max_wait_us, cache_entries and
  // cache_shards from `config`. Starts the device thread.
  InferenceService(std::unique_ptr<NetRunner> runner, const InferenceConfig& config);
  ~InferenceService() override;  // stops the device thread; queued requests fail
  InferenceService(const InferenceService&) = delete;
  InferenceService& operator=(const InferenceService&) = delete;

  // The results of one submit(); wait() fills the replies. Movable; waits when destroyed.
  class Pending {
   public:
    Pending() = default;
    Pending(Pending&&) noexcept = default;
    Pending& operator=(Pending&& other) noexcept;
    ~Pending();
    // Blocks until the network has run, then writes the replies; rethrows a device failure as
    // sz::Error. Idempotent.
    void wait();
    bool ready() const;  // wait() would not block

   private:
    friend class InferenceService;
    InferenceService* service_ = nullptr;
    std::shared_ptr<Request> request_;
  };

  // Encodes the queries now (throws sz::Error for a position of another game or encoding) and
  // queues those the cache cannot answer. The states, their action spans and the replies must
  // stay alive and untouched until wait() returns.
  [[nodiscard]] Pending submit(std::span<const search::EvalQuery> queries, std::span<search::EvalReply> replies);

  // submit() then wait().
  void evaluate(std::span<const search::EvalQuery> queries, std::span<search::EvalReply> replies) override;

  const net::Architecture& architecture() const { return runner_->architecture(); }
  const std::string& device() const { return runner_->device(); }
  int max_batch() const { return runner_->max_batch(); }
  ServiceStats stats() const;

 private:
  struct Piece;
  void device_loop();
  bool take_batch(std::vector<Piece>& pieces);  // false when stopping
  void run_batch(std::vector<Piece>& pieces);
  void fail_queued();
  void finish(Request& request);  // on the caller's thread: decode, fill the cache

  std::unique_ptr<NetRunner> runner_;
  EvalCache cache_;
  const int max_wait_us_;

  std::mutex mutex_;  // guards queue_, queued_rows_, stop_
  std::condition_variable wake_;
  std::deque<std::shared_ptr<Request>> queue_;
  int64_t queued_rows_ = 0;
  bool stop_ = false;

  std::atomic<uint64_t> batches_{0}, positions_{0};
  std::thread device_thread_;
};

}  // namespace sz::nn
