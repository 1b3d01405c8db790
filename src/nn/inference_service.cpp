#include "nn/inference_service.h"

#include <algorithm>
#include <chrono>
#include <cstring>

#include "core/error.h"
#include "net/net_rows.h"

namespace sz::nn {

using Clock = std::chrono::steady_clock;

// One submit(). The caller fills everything up to `arrival` before queueing; the device thread
// then owns `next` (under the queue mutex), `chunks` and `error`, and publishes them by
// counting `remaining` down to zero (release), which the caller waits for (acquire).
struct InferenceService::Request {
  struct Chunk {
    OutputRows rows;
    int first_row, first_miss, count;
  };
  std::span<const search::EvalQuery> queries;
  std::span<search::EvalReply> replies;
  std::vector<uint32_t> misses;  // queries the cache did not answer, in order
  std::vector<uint64_t> keys;    // their cache keys
  std::vector<uint64_t> planes;  // their encoded rows
  std::vector<float> scalars;
  Clock::time_point arrival;
  size_t next = 0;  // the first miss not yet in a batch
  std::vector<Chunk> chunks;
  std::exception_ptr error;
  std::atomic<int> remaining{0};  // misses without output yet
  bool finished = false;          // the caller has written the replies
};

// A run of one request's misses inside one batch.
struct InferenceService::Piece {
  std::shared_ptr<Request> request;
  int first_miss, count, row;
};

InferenceService::InferenceService(std::unique_ptr<NetRunner> runner, const InferenceConfig& config)
    : runner_(std::move(runner)),
      cache_(config.cache_entries, config.cache_shards),
      max_wait_us_(config.max_wait_us),
      device_thread_([this] { device_loop(); }) {}

InferenceService::~InferenceService() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  device_thread_.join();
}

InferenceService::Pending InferenceService::submit(std::span<const search::EvalQuery> queries,
                                                   std::span<search::EvalReply> replies) {
  const game::GameSpec& spec = runner_->architecture().spec;
  const size_t planes = size_t(spec.binary_planes), scalars = size_t(spec.scalar_features);
  auto r = std::make_shared<Request>();
  r->queries = queries;
  r->replies = replies;
  r->planes.resize(queries.size() * planes);
  r->scalars.resize(queries.size() * scalars);
  for (size_t i = 0; i < queries.size(); ++i) {
    const int row = int(r->misses.size());  // encode into the next free row; a hit frees it again
    net::encode_row(*queries[i].state, spec, r->planes.data(), r->scalars.data(), row);
    const uint64_t key = cache_key(queries[i].state->hash(), {r->scalars.data() + size_t(row) * scalars, scalars});
    if (cache_.lookup(key, queries[i].actions, replies[i])) continue;
    r->misses.push_back(uint32_t(i));
    r->keys.push_back(key);
  }
  Pending pending;
  pending.service_ = this;
  pending.request_ = r;
  if (r->misses.empty()) return pending;
  r->remaining.store(int(r->misses.size()), std::memory_order_relaxed);
  r->arrival = Clock::now();
  {
    std::lock_guard lock(mutex_);
    if (stop_) throw Error("the inference service has stopped");
    queued_rows_ += int64_t(r->misses.size());
    queue_.push_back(std::move(r));
  }
  wake_.notify_one();
  return pending;
}

void InferenceService::evaluate(std::span<const search::EvalQuery> queries, std::span<search::EvalReply> replies) {
  submit(queries, replies).wait();
}

ServiceStats InferenceService::stats() const {
  return {batches_.load(std::memory_order_relaxed), positions_.load(std::memory_order_relaxed), cache_.hits(),
          cache_.misses()};
}

void InferenceService::device_loop() {
  set_torch_threads(runner_->threads());  // OpenMP's count is per thread: this one runs the network
  std::vector<Piece> pieces;
  while (take_batch(pieces)) run_batch(pieces);
  fail_queued();
}

bool InferenceService::take_batch(std::vector<Piece>& pieces) {
  const int max_batch = runner_->max_batch();
  std::unique_lock lock(mutex_);
  wake_.wait(lock, [&] { return stop_ || queued_rows_ > 0; });
  if (stop_) return false;
  // A full batch runs at once; a partial one once its oldest position has waited long enough.
  const auto deadline = queue_.front()->arrival + std::chrono::microseconds(max_wait_us_);
  wake_.wait_until(lock, deadline, [&] { return stop_ || queued_rows_ >= max_batch; });
  if (stop_) return false;
  int n = 0;
  while (n < max_batch && !queue_.empty()) {
    Request& r = *queue_.front();
    const int take = std::min(max_batch - n, int(r.misses.size() - r.next));
    pieces.push_back({queue_.front(), int(r.next), take, n});
    r.next += size_t(take);
    n += take;
    if (r.next == r.misses.size()) queue_.pop_front();
  }
  queued_rows_ -= n;
  return true;
}

void InferenceService::run_batch(std::vector<Piece>& pieces) {
  const game::GameSpec& spec = runner_->architecture().spec;
  const size_t planes = size_t(spec.binary_planes), scalars = size_t(spec.scalar_features);
  int n = 0;
  for (const Piece& p : pieces) {
    const Request& r = *p.request;
    std::memcpy(runner_->input_planes() + size_t(p.row) * planes, r.planes.data() + size_t(p.first_miss) * planes,
                size_t(p.count) * planes * sizeof(uint64_t));
    std::memcpy(runner_->input_scalars() + size_t(p.row) * scalars, r.scalars.data() + size_t(p.first_miss) * scalars,
                size_t(p.count) * scalars * sizeof(float));
    n += p.count;
  }
  OutputRows out;
  std::exception_ptr error;
  try {
    out = runner_->run(n);
  } catch (...) {
    error = std::current_exception();
  }
  batches_.fetch_add(1, std::memory_order_relaxed);
  positions_.fetch_add(uint64_t(n), std::memory_order_relaxed);
  for (const Piece& p : pieces) {
    Request& r = *p.request;
    if (error && !r.error) r.error = error;
    if (!error) r.chunks.push_back({out, p.row, p.first_miss, p.count});
    if (r.remaining.fetch_sub(p.count, std::memory_order_acq_rel) == p.count) r.remaining.notify_all();
  }
  pieces.clear();  // the requests stay alive in `pieces` until after their notification
}

void InferenceService::fail_queued() {
  std::deque<std::shared_ptr<Request>> queued;
  {
    std::lock_guard lock(mutex_);
    queued.swap(queue_);
    queued_rows_ = 0;
  }
  const auto error = std::make_exception_ptr(Error("the inference service stopped before evaluating the position"));
  for (const auto& r : queued) {
    if (!r->error) r->error = error;
    const int left = int(r->misses.size() - r->next);
    if (r->remaining.fetch_sub(left, std::memory_order_acq_rel) == left) r->remaining.notify_all();
  }
}

void InferenceService::finish(Request& r) {
  const int action_space = runner_->architecture().spec.action_space;
  for (const auto& c : r.chunks)
    for (int j = 0; j < c.count; ++j) {
      const size_t miss = size_t(c.first_miss + j);
      const uint32_t i = r.misses[miss];
      net::decode_row(c.rows.row(c.first_row + j), action_space, r.queries[i], r.replies[i]);
      cache_.insert(r.keys[miss], r.queries[i].actions, r.replies[i]);
    }
  r.chunks.clear();  // lets the batch outputs go
}

void InferenceService::Pending::wait() {
  if (!request_ || request_->finished) return;
  Request& r = *request_;
  for (int left = r.remaining.load(std::memory_order_acquire); left != 0;
       left = r.remaining.load(std::memory_order_acquire))
    r.remaining.wait(left, std::memory_order_acquire);
  r.finished = true;
  if (r.error) std::rethrow_exception(r.error);
  service_->finish(r);
}

bool InferenceService::Pending::ready() const {
  return !request_ || request_->remaining.load(std::memory_order_acquire) == 0;
}

InferenceService::Pending& InferenceService::Pending::operator=(Pending&& other) noexcept {
  if (this != &other) {
    try {
      wait();
    } catch (...) {
      // The replies of an abandoned submission are not wanted; its error goes with it.
    }
    service_ = other.service_;
    request_ = std::move(other.request_);
  }
  return *this;
}

InferenceService::Pending::~Pending() {
  try {
    wait();  // the device thread may still write into this request's replies' sources
  } catch (...) {
    // As above: nobody asked for these replies.
  }
}

}  // namespace sz::nn
