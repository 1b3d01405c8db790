#include "selfplay/selfplay.h"

#include <tbb/global_control.h>
#include <tbb/task_group.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <thread>

#include "core/error.h"
#include "data/shard_files.h"
#include "data/shard_reader.h"
#include "data/shard_writer.h"
#include "search/search_batcher.h"
#include "selfplay/game_slot.h"

namespace sz::selfplay {

namespace {

std::string shard_prefix(const SelfplayConfig& config, int worker) {
  std::string base = config.shard_prefix;
  if (base.empty()) {
    char host[256] = "host";
    gethostname(host, sizeof host - 1);
    base = host;
  }
  return base + "-w" + std::to_string(worker);
}

// Hands out `count` game numbers to the workers, lowest first, skipping those already written
// (sorted): a resumed run plays exactly the games a killed one did not finish. Thread-safe; a
// worker takes one number per game, so a mutex costs nothing next to a game.
class GameCounter {
 public:
  GameCounter(std::vector<uint64_t> written, int64_t count) : written_(std::move(written)), left_(count) {}
  int64_t take() {
    std::lock_guard lock(mutex_);
    if (left_ <= 0) return -1;
    while (skip_ < written_.size() && written_[skip_] <= next_) next_ = std::max(next_, written_[skip_++] + 1);
    --left_;
    return int64_t(next_++);
  }

 private:
  std::mutex mutex_;
  const std::vector<uint64_t> written_;
  size_t skip_ = 0;  // written_[skip_] is the next written number at or after next_
  uint64_t next_ = 0;
  int64_t left_;
};

void print_warning(const std::string& line) { std::fprintf(stderr, "warning: %s\n", line.c_str()); }

struct Worker;

// A slot as the search batcher's leaf source: between two leaves it plays its game on, and when
// the game ends it writes the game and begins the worker's next (or goes idle when none is left).
class SlotFeed {
 public:
  SlotFeed(GameSlot& slot, Worker& worker, data::ShardWriter& writer, const game::GameState& start)
      : slot_(slot), worker_(worker), writer_(writer), start_(start) {}
  bool select_leaf(search::EvalQuery& query, search::EvalReply& reply);
  void deliver(const search::EvalReply& reply) { slot_.deliver(reply); }

 private:
  GameSlot& slot_;
  Worker& worker_;
  data::ShardWriter& writer_;
  const game::GameState& start_;
};

struct Worker {
  const SelfplayJob& job;
  int index;
  GameCounter& counter;
  SelfplayStats& stats;
  std::mutex& error_mutex;
  std::string& error;
  std::atomic<bool>& failed;  // a worker failed (a full disk, a broken network): all stop

  void run();
  void play(search::Evaluator& evaluator, data::ShardWriter& writer);
  bool stopping() const { return failed.load() || (job.stop && job.stop->load()); }
};

void Worker::run() {
  try {
    auto evaluator = job.make_evaluator(index);
    data::ShardWriter writer(job.out_dir, shard_prefix(job.config, index), job.start->spec(),
                             {.games_per_shard = job.config.games_per_shard,
                              .seconds_per_shard = job.config.seconds_per_shard,
                              .generation = job.generation});
    play(*evaluator, writer);
    writer.close();
  } catch (const std::exception& e) {
    failed = true;
    std::lock_guard lock(error_mutex);
    if (error.empty()) error = e.what();
  }
}

bool SlotFeed::select_leaf(search::EvalQuery& query, search::EvalReply& reply) {
  while (slot_.active()) {
    if (slot_.next_leaf(query, reply, worker_.stats)) return true;
    writer_.add_game(slot_.record());
    const int64_t game = worker_.counter.take();
    if (game < 0)
      slot_.release();
    else
      slot_.begin(game, start_, worker_.job.model_id);
  }
  return false;
}

// The worker's games_per_thread slots, their leaves evaluated together, round after round.
void Worker::play(search::Evaluator& evaluator, data::ShardWriter& writer) {
  const std::unique_ptr<game::GameState> start = job.start->clone();  // this worker's own
  search::Tree scratch;
  std::vector<std::unique_ptr<GameSlot>> slots;
  std::vector<SlotFeed> feeds;
  feeds.reserve(size_t(job.config.games_per_thread));
  for (int i = 0; i < job.config.games_per_thread; ++i) {
    const int64_t game = counter.take();
    if (game < 0) break;
    slots.push_back(std::make_unique<GameSlot>(job.config, *start, &scratch, &job.placement));
    slots.back()->begin(game, *start, job.model_id);
    feeds.emplace_back(*slots.back(), *this, writer, *start);
  }
  std::vector<SlotFeed*> sources;
  for (SlotFeed& feed : feeds) sources.push_back(&feed);
  search::SearchBatcher<SlotFeed> batcher(evaluator, sources.size());
  while (!stopping()) {
    const int leaves = batcher.step(sources);
    if (leaves == 0) break;
    stats.add_batch(leaves);
  }
}

}  // namespace

GamesOnDisk scan_games(const std::string& dir, uint64_t run_seed, const WarningSink& on_warning) {
  GamesOnDisk disk;
  const WarningSink warn = on_warning ? on_warning : print_warning;
  for (const std::string& path : data::list_shards(dir)) {
    const auto reader = data::open_or_skip(path, warn);
    if (!reader) continue;
    std::vector<uint64_t> seeds;
    try {
      seeds = reader->read_seeds();
    } catch (const Error& e) {  // a damaged games table (its checksum)
      warn(data::skip_shard(path, e.what()));
      continue;
    }
    for (const uint64_t seed : seeds) disk.indices.push_back(game_index_of(run_seed, seed));
  }
  std::sort(disk.indices.begin(), disk.indices.end());
  const auto unique_end = std::unique(disk.indices.begin(), disk.indices.end());
  disk.duplicates = disk.indices.end() - unique_end;
  disk.indices.erase(unique_end, disk.indices.end());
  return disk;
}

int64_t count_games(const std::string& dir, const WarningSink& on_warning) {
  int64_t games = 0;
  const WarningSink warn = on_warning ? on_warning : print_warning;
  for (const std::string& path : data::list_shards(dir))
    if (const auto reader = data::open_or_skip(path, warn)) games += reader->info().num_games;
  return games;
}

std::unique_ptr<SelfplayStats> run_selfplay(const SelfplayJob& job) {
  if (!job.start) throw Error("selfplay: the job has no start position");
  const int threads = std::max(1, job.config.threads);
  auto stats = std::make_unique<SelfplayStats>();
  GamesOnDisk disk = scan_games(job.out_dir, job.config.seed, job.on_warning);
  const int64_t to_play = std::max<int64_t>(0, job.games - disk.distinct());
  GameCounter counter(std::move(disk.indices), to_play);
  std::mutex error_mutex;
  std::string error;
  std::atomic<bool> failed{false};
  std::atomic<bool> done{false};
  std::thread reporter([&] {
    while (!done && job.on_progress) {
      for (int i = 0; i < int(job.progress_seconds * 10) && !done; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      if (!done) job.on_progress(*stats);
    }
  });
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, size_t(threads));
    tbb::task_group workers;
    for (int w = 0; w < threads; ++w)
      workers.run([&, w] { Worker{job, w, counter, *stats, error_mutex, error, failed}.run(); });
    workers.wait();
  }
  done = true;
  reporter.join();
  if (!error.empty()) throw Error(error);
  return stats;
}

}  // namespace sz::selfplay
