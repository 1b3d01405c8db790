#pragma once
// A bounded cache of network evaluations, sharded so that many search threads rarely meet on a
// lock. Each shard is a direct-mapped table (the newest entry wins a slot, as in a chess
// transposition table): memory is fixed, no eviction bookkeeping. Torch-free.
//
// Key: GameState::hash() (men, hands, side to move, profile) mixed with the encoded scalar
// features, because the network also sees what the hash leaves out (repetitions, the n-move
// clock, the count): two positions with one hash but other counters must not share a value.
// Entries remember which actions their priors belong to, so a lookup with other actions (a hash
// collision, or a search that orders moves differently) is a miss, never a wrong answer.
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "game/game_state.h"
#include "search/evaluator.h"

namespace sz::nn {

uint64_t cache_key(uint64_t position_hash, std::span<const float> scalars);

// Thread-safe.
class EvalCache {
 public:
  // `entries` 0 makes a cache that never hits.
  EvalCache(int entries, int shards);
  ~EvalCache();

  // On a hit, fills reply (priors in the order of `actions`, wdl, moves_left) and returns true.
  bool lookup(uint64_t key, std::span<const game::ActionId> actions, search::EvalReply& reply);
  void insert(uint64_t key, std::span<const game::ActionId> actions, const search::EvalReply& reply);

  uint64_t hits() const { return hits_.load(std::memory_order_relaxed); }
  uint64_t misses() const { return misses_.load(std::memory_order_relaxed); }
  bool enabled() const { return slots_per_shard_ > 0; }

 private:
  struct Entry {
    uint64_t key = 0;
    uint64_t actions = 0;  // hash of the action ids in order
    bool used = false;
    float wdl[3] = {};
    float moves_left = 0;
    std::vector<float> priors;  // capacity is kept when a slot is overwritten
  };
  struct Shard {
    std::mutex mutex;
    std::vector<Entry> slots;
  };
  Entry& slot(uint64_t key, Shard*& shard);

  std::vector<std::unique_ptr<Shard>> shards_;
  size_t slots_per_shard_ = 0;
  std::atomic<uint64_t> hits_{0}, misses_{0};
};

}  // namespace sz::nn
