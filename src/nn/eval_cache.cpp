#include "nn/eval_cache.h"

#include <algorithm>
#include <cstring>

namespace sz::nn {

namespace {

// A 64-bit finaliser (Stafford's Mix13, as in SplitMix64): every input bit moves every output bit.
uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

uint64_t actions_hash(std::span<const game::ActionId> actions) {
  uint64_t h = actions.size();
  for (const game::ActionId a : actions) h = mix(h ^ uint64_t(uint32_t(a)));
  return h;
}

}  // namespace

uint64_t cache_key(uint64_t position_hash, std::span<const float> scalars) {
  uint64_t h = position_hash;
  for (const float f : scalars) {
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    h = mix(h ^ bits);
  }
  return h;
}

EvalCache::EvalCache(int entries, int shards) {
  if (entries <= 0) return;
  const int n = std::clamp(shards, 1, entries);
  slots_per_shard_ = size_t((entries + n - 1) / n);
  for (int i = 0; i < n; ++i) {
    shards_.push_back(std::make_unique<Shard>());
    shards_.back()->slots.resize(slots_per_shard_);
  }
}

EvalCache::~EvalCache() = default;

EvalCache::Entry& EvalCache::slot(uint64_t key, Shard*& shard) {
  shard = shards_[(key >> 32) % shards_.size()].get();  // high bits pick the shard, low bits the slot
  return shard->slots[size_t(key & 0xFFFFFFFFu) % slots_per_shard_];
}

bool EvalCache::lookup(uint64_t key, std::span<const game::ActionId> actions, search::EvalReply& reply) {
  if (!enabled()) return false;
  const uint64_t want = actions_hash(actions);
  Shard* shard = nullptr;
  Entry& e = slot(key, shard);
  std::lock_guard lock(shard->mutex);
  if (!e.used || e.key != key || e.actions != want || e.priors.size() != actions.size()) {
    misses_.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  std::copy(e.priors.begin(), e.priors.end(), reply.priors.begin());
  std::copy(e.wdl, e.wdl + 3, reply.wdl);
  reply.moves_left = e.moves_left;
  hits_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

void EvalCache::insert(uint64_t key, std::span<const game::ActionId> actions, const search::EvalReply& reply) {
  if (!enabled()) return;
  Shard* shard = nullptr;
  Entry& e = slot(key, shard);
  std::lock_guard lock(shard->mutex);
  e.used = true;
  e.key = key;
  e.actions = actions_hash(actions);
  e.priors.assign(reply.priors.begin(), reply.priors.begin() + ptrdiff_t(actions.size()));
  std::copy(reply.wdl, reply.wdl + 3, e.wdl);
  e.moves_left = reply.moves_left;
}

}  // namespace sz::nn
