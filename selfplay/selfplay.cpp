#include "selfplay/selfplay.h"

#include <tbb/global_control.h>
#include <tbb/task_group.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <utility>

#include "core/error.h"
#include "data/shard_files.h"
#include "data/shard_reader.h"
#include "data/shard_writer.h"
#include "search/leaf_blend.h"
#include "search/search_batcher.h"
#include "selfplay/game_slot.h"

namespace sz::selfplay {

namespace {

using Clock = std::chrono::steady_clock;

std::string shard_prefix(const SelfplayConfig& config, const std::string& worker_id, int thread) {
  return writer_base(config, worker_id) + "-w" + std::to_string(thread);
}

// The games in the directory's completed shards, counted again as shards appear: a shard is
// read once (they never change), so a count costs a directory listing and the new shards.
class DiskTally {
 public:
  DiskTally(const std::string& dir, const GamesOnDisk& disk, WarningSink warn)
      : dir_(dir), known_(disk.shards.begin(), disk.shards.end()), games_(disk.distinct()), warn_(std::move(warn)) {}
  int64_t count() {
    std::lock_guard lock(mutex_);
    for (const std::string& path : data::list_shards(dir_)) {
      if (!known_.insert(path).second) continue;
      if (const auto reader = data::open_or_skip(path, warn_)) games_ += reader->info().num_games;
    }
    return games_;
  }

 private:
  std::mutex mutex_;
  const std::string dir_;
  std::set<std::string> known_;
  int64_t games_;
  const WarningSink warn_;
};

// Hands out game numbers to the workers, lowest first, skipping those already written (sorted):
// a resumed run plays exactly the games a killed one did not finish. With a target, only while
// the directory's games and those this job has in progress fall short of it. Thread-safe; a
// worker takes one number per game, so a mutex costs nothing next to a game.
class GameCounter {
 public:
  // `target` < 0: no limit. `on_disk`: the directory's games now.
  GameCounter(std::vector<uint64_t> written, int64_t target, int64_t on_disk)
      : written_(std::move(written)), target_(target), on_disk_(on_disk) {}
  int64_t take() {
    std::lock_guard lock(mutex_);
    if (target_ >= 0 && on_disk_ + in_progress_ >= target_) return -1;
    while (skip_ < written_.size() && written_[skip_] <= next_) next_ = std::max(next_, written_[skip_++] + 1);
    ++in_progress_;
    return int64_t(next_++);
  }
  // This job finished a shard of `games` games, after which the directory holds `on_disk`.
  void shard_finished(int64_t games, int64_t on_disk) {
    std::lock_guard lock(mutex_);
    in_progress_ -= games;
    on_disk_ = std::max(on_disk_, on_disk);
  }
  bool limited() const { return target_ >= 0; }

 private:
  std::mutex mutex_;
  const std::vector<uint64_t> written_;
  size_t skip_ = 0;  // written_[skip_] is the next written number at or after next_
  uint64_t next_ = 0;
  const int64_t target_;
  int64_t on_disk_;
  int64_t in_progress_ = 0;  // games taken and not yet in a finished shard
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
  const SelfplayConfig& config;  // the job's, seeded for its worker id
  int index;
  GameCounter& counter;
  DiskTally& tally;
  SelfplayStats& stats;
  std::mutex& error_mutex;
  std::string& error;
  std::atomic<bool>& failed;                     // a worker failed (a full disk, a broken network): all stop
  std::string model = job.model_id;              // the model this worker plays with now
  std::string newer_model{};                     // following: adopted since, played once the slots are idle
  Clock::time_point polled{};                    // when the worker last asked for the current model
  std::optional<Clock::time_point> stop_seen{};  // when it saw *job.stop

  void run();
  void play(search::Evaluator& evaluator, data::ShardWriter& writer);
  void write(data::ShardWriter& writer, const data::GameRecord& game);
  void close(data::ShardWriter& writer);
  void finished(const std::string& shard, int64_t games);
  bool newer_model_adopted();
  // No new games (stopping, or a newer model to switch to): the slots finish theirs and go idle.
  bool draining() { return asked_to_stop() || newer_model_adopted(); }
  // Stop now, abandoning the games in flight: a worker failed, or finish_seconds have passed.
  bool halting();
  bool asked_to_stop() const { return failed.load() || (job.stop && job.stop->load()); }
};

void Worker::run() {
  try {
    data::ShardWriter writer(job.out_dir, shard_prefix(config, job.worker_id, index), job.start->spec(),
                             {.games_per_shard = config.games_per_shard,
                              .seconds_per_shard = config.seconds_per_shard,
                              .generation = job.generation,
                              .worker = job.worker_id});
    if (job.current_model) model = job.current_model();
    for (;;) {
      auto evaluator = job.current_model ? job.evaluators_for(model)(index) : job.make_evaluator(index);
      play(*evaluator, writer);
      if (newer_model.empty() || asked_to_stop()) break;
      if (job.on_model) job.on_model(index, newer_model);
      model = std::exchange(newer_model, "");
    }
    close(writer);
  } catch (const std::exception& e) {
    failed = true;
    std::lock_guard lock(error_mutex);
    if (error.empty()) error = e.what();
  }
}

bool Worker::newer_model_adopted() {
  if (!newer_model.empty()) return true;
  if (!job.current_model) return false;
  const Clock::time_point now = Clock::now();
  if (std::chrono::duration<double>(now - polled).count() < job.model_poll_seconds) return false;
  polled = now;
  try {
    std::string current = job.current_model();
    if (current != model) newer_model = std::move(current);
  } catch (const std::exception& e) {  // e.g. adopted.txt names a checkpoint not there (yet)
    (job.on_warning ? job.on_warning : print_warning)("keeping model '" + model + "': " + e.what());
  }
  return !newer_model.empty();
}

bool Worker::halting() {
  if (failed.load()) return true;
  if (!job.stop || !job.stop->load()) return false;
  if (!stop_seen) stop_seen = Clock::now();
  return std::chrono::duration<double>(Clock::now() - *stop_seen).count() >= job.finish_seconds;
}

void Worker::finished(const std::string& shard, int64_t games) {
  if (!shard.empty() && counter.limited()) counter.shard_finished(games, tally.count());
}

void Worker::write(data::ShardWriter& writer, const data::GameRecord& game) {
  const int64_t games = writer.games_in_shard() + 1;
  finished(writer.add_game(game), games);
}

void Worker::close(data::ShardWriter& writer) {
  const int64_t games = writer.games_in_shard();
  finished(writer.close(), games);
}

bool SlotFeed::select_leaf(search::EvalQuery& query, search::EvalReply& reply) {
  while (slot_.active()) {
    if (slot_.next_leaf(query, reply, worker_.stats)) return true;
    worker_.write(writer_, slot_.record());
    const int64_t game = worker_.draining() ? -1 : worker_.counter.take();
    if (game < 0)
      slot_.release();
    else
      slot_.begin(game, start_, worker_.model);
  }
  return false;
}

// The worker's games_per_thread slots, their leaves evaluated together, round after round, until
// no game is left, the worker halts, or the slots went idle for a newer model.
void Worker::play(search::Evaluator& evaluator, data::ShardWriter& writer) {
  const std::unique_ptr<game::GameState> start = job.start->clone();  // this worker's own
  search::Tree scratch;
  std::vector<std::unique_ptr<GameSlot>> slots;
  std::vector<SlotFeed> feeds;
  feeds.reserve(size_t(config.games_per_thread));
  for (int i = 0; i < config.games_per_thread && !draining(); ++i) {
    const int64_t game = counter.take();
    if (game < 0) break;
    slots.push_back(std::make_unique<GameSlot>(config, *start, &scratch, &job.placement, evaluator.knowledge(),
                                               job.tables.get(), job.heuristics));
    slots.back()->begin(game, *start, model);
    feeds.emplace_back(*slots.back(), *this, writer, *start);
  }
  std::vector<SlotFeed*> sources;
  for (SlotFeed& feed : feeds) sources.push_back(&feed);
  search::LeafBlend blended(evaluator, config.search_for(evaluator.knowledge()).leaf, job.heuristics);
  search::SearchBatcher<SlotFeed> batcher(blended, sources.size());
  while (!halting()) {
    const int leaves = batcher.step(sources);
    if (leaves == 0) break;
    stats.add_batch(leaves);
  }
}

}  // namespace

std::string writer_base(const SelfplayConfig& config, const std::string& worker_id) {
  std::string base = config.shard_prefix;
  if (!worker_id.empty()) {
    base = base.empty() ? worker_id : base + "-" + worker_id;
  } else if (base.empty()) {
    char host[256] = "host";
    gethostname(host, sizeof host - 1);
    base = host;
  }
  return base;
}

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
    disk.shards.push_back(path);
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
  SelfplayConfig config = job.config;
  config.seed = worker_seed(job.config.seed, job.worker_id);
  const WarningSink warn = job.on_warning ? job.on_warning : print_warning;
  GamesOnDisk disk = scan_games(job.out_dir, config.seed, warn);
  DiskTally tally(job.out_dir, disk, warn);
  GameCounter counter(std::move(disk.indices), job.games, tally.count());
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
      workers.run([&, w] { Worker{job, config, w, counter, tally, *stats, error_mutex, error, failed}.run(); });
    workers.wait();
  }
  done = true;
  reporter.join();
  if (!error.empty()) throw Error(error);
  return stats;
}

}  // namespace sz::selfplay
