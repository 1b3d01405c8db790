// The in-process players: a seeded random mover and MCTS over an Evaluator.
#include <algorithm>
#include <array>
#include <optional>

#include "core/rng.h"
#include "eval/player.h"
#include "heuristics/heuristics.h"
#include "search/game_search.h"
#include "search/leaf_blend.h"

namespace sz::eval {

namespace {

class RandomPlayer final : public Player {
 public:
  void new_game(const game::GameState& /*start*/, uint64_t seed) override { rng_ = Rng(seed); }

  Result<game::ActionId> choose_move(const GameView& view) override {
    std::array<game::ActionId, game::kMaxActions> actions{};
    const int n = view.current.legal_actions(actions);
    if (n <= 0) return fail("random: no legal move in " + view.current.to_string());
    return actions[rng_.below(uint32_t(n))];
  }

 private:
  Rng rng_{0};
};

// Keeps one GameSearch per game and replays the moves it has not seen into it, so that the tree
// of its previous move is reused (GameSearch::play re-roots on the played child).
class MctsPlayer final : public Player {
 public:
  MctsPlayer(const MctsPlayerOptions& options, std::unique_ptr<search::Evaluator> evaluator)
      : options_(options), own_evaluator_(std::move(evaluator)) {
    // The move choice temperature holds on every ply: placement and play alike.
    search::SearchConfig& c = options_.search;
    c.placement_temperature = c.play_temperature = c.play_temperature_floor = options_.temperature;
  }

  void new_game(const game::GameState& start, uint64_t seed) override {
    if (!search_) {
      search_.emplace(options_.search, start, seed);
      search_->set_tables(options_.tables.get());
      const game::Heuristics* heuristics = heuristics::of_game(start.spec().game);
      search_->set_heuristics(heuristics);
      evaluator_.emplace(*own_evaluator_, options_.search.leaf, heuristics);
    } else {
      search_->reset(start, seed);
    }
    synced_ = 0;
  }

  Result<game::ActionId> choose_move(const GameView& view) override {
    if (!search_) return fail("mcts: choose_move before new_game");
    for (; synced_ < view.moves.size(); ++synced_) search_->play(view.moves[synced_]);
    // A caller that changed the game behind our back gets a fresh tree rather than a wrong one.
    if (search_->state().hash() != view.current.hash()) {
      search_->reset(view.current, uint64_t(view.moves.size()) * 0x9E3779B97F4A7C15ull);
    }
    last_value_.reset();
    if (options_.tables) {  // the tables' best move: perfect play where they reach
      std::array<game::ActionId, game::kMaxActions> best{};
      if (options_.tables->best_actions(view.current, best) > 0) return best[0];
    }
    const int visits = std::max(options_.simulations, 1);
    const search::SearchResult& r = search_->run(*evaluator_, search::SearchKind::Cheap, visits);
    last_value_ = r.wdl[0] - r.wdl[2];
    return r.action;
  }

  std::optional<float> last_value() const override { return last_value_; }

 private:
  MctsPlayerOptions options_;
  std::unique_ptr<search::Evaluator> own_evaluator_;
  std::optional<search::LeafBlend> evaluator_;  // own_evaluator_ with the leaf search's blend
  std::optional<search::GameSearch> search_;    // made at the first game: it needs a start state
  size_t synced_ = 0;                           // moves of the game already played in search_
  std::optional<float> last_value_;
};

}  // namespace

PlayerFactory mcts_player_factory(const MctsPlayerOptions& options, search::EvaluatorFactory evaluators) {
  return [options, evaluators = std::move(evaluators)](int slot) -> std::unique_ptr<Player> {
    return std::make_unique<MctsPlayer>(options, evaluators(slot));
  };
}

PlayerFactory random_player_factory() {
  return [](int) -> std::unique_ptr<Player> { return std::make_unique<RandomPlayer>(); };
}

}  // namespace sz::eval
