#pragma once
// A self-play worker's name in a games directory. Every process writing into one directory, on
// one host or many sharing it, has an id of its own: its shards are named after it (so no two
// writers share a file, and a worker's clean-up of stale temporaries touches only its own) and
// its games are seeded from it (worker_seed, so no two workers play the same game). A worker
// holds a lock on its id (flock on `<dir>/.worker-<id>.lock`, released when the process dies,
// also by SIGKILL), so a second live process cannot take the same id, and a restarted worker
// takes its id back: it deletes its own stale temporary and plays only its games still missing.
#include <memory>
#include <string>

#include "core/file_lock.h"

namespace sz::selfplay {

struct WorkerClaim {
  std::string id;
  std::unique_ptr<FileLock> lock;  // held while the worker runs
};

// `requested` non-empty: that id, locked; throws sz::Error when it is malformed (only letters,
// digits, '.', '_' and '-', not starting with '.') or another live process holds it. Empty:
// "<host>-<n>" (the short host name) for the lowest n from 0 whose lock is free. Creates `dir`
// if needed; throws sz::Error naming it when it cannot.
WorkerClaim claim_worker_id(const std::string& dir, const std::string& requested);

// The lock file of worker `id` in `dir`: hidden, so no shard reader or writer looks at it.
std::string worker_lock_path(const std::string& dir, const std::string& id);

}  // namespace sz::selfplay
