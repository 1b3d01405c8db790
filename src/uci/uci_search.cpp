// The UCI engine's search thread: runs GameSearch in chunks of simulations until a limit or
// `stop`, reports `info` lines, and answers `bestmove`.
//
// Chunks (at most kChunk simulations per GameSearch::start_search) keep every limit responsive:
// one select_leaf call may run many simulations that end in known terminal nodes without
// returning, so a single huge budget could not be interrupted.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include "search/leaf_blend.h"
#include "search/tree.h"
#include "search/tree_report.h"
#include "uci/uci_engine.h"

namespace sz::uci {

namespace {

constexpr int64_t kChunk = 256;
constexpr double kInfoInterval_s = 1.0;

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// The most visited line from the root, in UCI spelling.
std::string principal_variation(const search::Tree& tree, const game::GameState& root) {
  std::unique_ptr<game::GameState> state = root.clone();
  std::string pv;
  for (const game::ActionId action : search::principal_variation(tree)) {
    pv += " " + state->action_to_string(action);
    state->apply(action);
  }
  return pv;
}

}  // namespace

// An evaluator that fails (a network whose output is NaN, a model of another game) ends the
// search with an error line and `bestmove (none)`: the GUI learns of it, and nothing of the
// failed search is kept.
void UciEngine::search_main(SearchPlan plan) {
  try {
    run_search(plan);
  } catch (const std::exception& e) {
    search_.reset();
    busy_ = false;
    error(std::string("go: ") + e.what());
    emit("bestmove (none)");
  }
}

void UciEngine::run_search(const SearchPlan& plan) {
  const Clock::time_point t0 = Clock::now();
  search::GameSearch& s = *search_;
  const search::Tree& tree = s.tree();
  // Visits kept from the previous move by tree reuse; the root's own evaluation is not a
  // simulation, so `go nodes N` on a fresh tree also runs N simulations below the root.
  const uint32_t base = std::max<uint32_t>(tree.node(0).visits, 1);
  double next_info = kInfoInterval_s;
  search::LeafBlend evaluator(*evaluator_, search_config_.leaf, heuristics_);
  search::EvalQuery query{};
  search::EvalReply reply{};
  bool limited = false;
  // `stop` is honoured only once the root is expanded: without it there is no move to answer.
  const auto stopped = [&] { return stop_ && tree.node(0).status == search::NodeStatus::Expanded; };
  while (!stopped() && !limited) {
    const int64_t done = std::max<int64_t>(int64_t(tree.node(0).visits) - base, 0);
    const int64_t chunk = plan.visits > 0 ? std::min(kChunk, plan.visits - done) : kChunk;
    s.start_search(search::SearchKind::Cheap, int(std::max<int64_t>(tree.node(0).visits, 1) - 1 + chunk));
    while (s.select_leaf(query, reply)) {
      evaluator.evaluate(std::span(&query, 1), std::span(&reply, 1));
      s.deliver(reply);
      const double elapsed = seconds_since(t0);
      limited = out_of_budget(plan, base, elapsed);
      if (stopped() || limited) break;
      if (elapsed >= next_info) {
        emit(info_line(base, elapsed));
        next_info = elapsed + kInfoInterval_s;
      }
    }
    limited = limited || out_of_budget(plan, base, seconds_since(t0));
  }
  if (plan.infinite) {  // UCI: no bestmove before `stop`, even when the tree is full
    std::unique_lock lock(stop_mutex_);
    stop_cv_.wait(lock, [this] { return stop_.load(); });
  }
  const std::string info = info_line(base, seconds_since(t0));
  const std::string best = "bestmove " + s.state().action_to_string(choose_move(plan.temperature));
  busy_ = false;  // before bestmove: a GUI answers it at once with the next position and go
  emit(info);
  emit(best);
}

// A limit other than `stop` is reached (never before the root is expanded: no move without it).
bool UciEngine::out_of_budget(const SearchPlan& plan, uint32_t base_visits, double elapsed_s) const {
  const search::Tree& tree = search_->tree();
  if (tree.node(0).status != search::NodeStatus::Expanded) return false;
  if (plan.visits > 0 && int64_t(tree.node(0).visits) - base_visits >= plan.visits) return true;
  if (plan.time_ms > 0 && elapsed_s * 1000.0 >= double(plan.time_ms)) return true;
  return search::tree_bytes(tree) >= size_t(hash_mb_) << 20;
}

std::string UciEngine::info_line(uint32_t base_visits, double elapsed_s) const {
  const search::GameSearch& s = *search_;
  const search::TreeDepth depth = search::tree_depth(s.tree());
  const int64_t nodes = std::max<int64_t>(int64_t(s.tree().node(0).visits) - base_visits, 0);
  const std::array<float, 3> wdl = s.root_wdl();
  const int w = int(std::lround(1000 * wdl[0])), l = int(std::lround(1000 * wdl[2]));
  const int d = std::max(0, 1000 - w - l);
  const int64_t ms = int64_t(elapsed_s * 1000);
  const int64_t nps = elapsed_s > 0 ? int64_t(double(nodes) / elapsed_s) : 0;
  return "info depth " + std::to_string(std::max(depth.mean, 1)) + " seldepth " +
         std::to_string(std::max(depth.max, 1)) + " time " + std::to_string(ms) + " nodes " + std::to_string(nodes) +
         " nps " + std::to_string(nps) + " score cp " + std::to_string(q_to_centipawns(wdl[0] - wdl[2])) + " wdl " +
         std::to_string(w) + " " + std::to_string(d) + " " + std::to_string(l) + " pv" +
         principal_variation(s.tree(), s.state());
}

// The one move choice (search/move_choice.h), as self-play and the arena make it, at the Strength
// temperature on every ply.
game::ActionId UciEngine::choose_move(float temperature) {
  search_->stop();
  return search_->conclude(temperature).action;
}

}  // namespace sz::uci
