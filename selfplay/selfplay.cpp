#include "selfplay/selfplay.h"

#include <tbb/global_control.h>
#include <tbb/task_group.h>
#include <unistd.h>

#include <mutex>
#include <thread>

#include "core/error.h"
#include "data/shard_files.h"
#include "data/shard_reader.h"
#include "data/shard_writer.h"
#include "game/registry.h"
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

// Hands out game numbers to the workers; numbers start after the games already on disk.
class GameCounter {
 public:
  GameCounter(int64_t first, int64_t end) : next_(first), end_(end) {}
  int64_t take() {
    const int64_t i = next_++;
    return i < end_ ? i : -1;
  }

 private:
  std::atomic<int64_t> next_;
  const int64_t end_;
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
    const auto start = game::new_game(job.config.profile).take_or_throw("selfplay profile");
    data::ShardWriter writer(job.out_dir, shard_prefix(job.config, index), start->spec(),
                             {job.config.games_per_shard, job.config.seconds_per_shard});
    play(*evaluator, writer);
    writer.close();
  } catch (const std::exception& e) {
    failed = true;
    std::lock_guard lock(error_mutex);
    if (error.empty()) error = e.what();
  }
}

void Worker::play(search::Evaluator& evaluator, data::ShardWriter& writer) {
  const auto start = game::new_game(job.config.profile).take_or_throw("selfplay profile");
  search::Tree scratch;
  std::vector<std::unique_ptr<GameSlot>> slots;
  for (int i = 0; i < job.config.games_per_thread; ++i) {
    const int64_t game = counter.take();
    if (game < 0) break;
    slots.push_back(std::make_unique<GameSlot>(job.config, *start, &scratch));
    slots.back()->begin(game, *start, job.model_id);
  }
  std::vector<search::EvalQuery> queries(slots.size());
  std::vector<search::EvalReply> replies(slots.size());
  std::vector<GameSlot*> owners(slots.size());
  while (!stopping()) {
    size_t n = 0;
    for (auto& slot : slots) {
      while (slot->active()) {
        if (slot->next_leaf(queries[n], replies[n], stats)) {
          owners[n++] = slot.get();
          break;
        }
        writer.add_game(slot->record());
        const int64_t game = counter.take();
        if (game < 0) slot->release();
        else slot->begin(game, *start, job.model_id);
      }
    }
    if (n == 0) break;
    evaluator.evaluate(std::span(queries.data(), n), std::span(replies.data(), n));
    stats.add_batch(int(n));
    for (size_t i = 0; i < n; ++i) owners[i]->deliver(replies[i]);
  }
}

}  // namespace

int64_t count_games(const std::string& dir) {
  int64_t games = 0;
  for (const std::string& path : data::list_shards(dir)) games += data::ShardReader::open(path).info().num_games;
  return games;
}

std::unique_ptr<SelfplayStats> run_selfplay(const SelfplayJob& job) {
  const int threads = std::max(1, job.config.threads);
  auto stats = std::make_unique<SelfplayStats>();
  GameCounter counter(count_games(job.out_dir), job.games);
  std::mutex error_mutex;
  std::string error;
  std::atomic<bool> failed{false};
  std::atomic<bool> done{false};
  std::thread reporter([&] {
    while (!done && job.on_progress) {
      for (int i = 0; i < int(job.progress_seconds * 10) && !done; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
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
