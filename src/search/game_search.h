#pragma once
// One game's Monte Carlo tree search, driven one leaf at a time so that one thread can advance
// many games and send all their leaves to the network in one batch (see SearchBatcher). The
// search of a game is single-threaded; parallelism is across games (KataGo, MiniZero; in-tree
// batching with virtual loss costs strength, leela-zero#2253).
//
// A simulation replays from the root into a scratch state (GameState::copy_from, no clone),
// descends by PUCT (puct.h; at the root optionally Gumbel, gumbel.h) to a node not yet
// evaluated, scores it from the rules if the game is over there (no network), else hands it to
// the caller (select_leaf) and, with the evaluation (deliver), expands it and backs the WDL value
// up the path, each node's mean from the view of the player who moved into it.
//
// Lifecycle of one move:
//   start_search(kind) -> { select_leaf -> evaluate -> deliver }* until select_leaf is false
//   -> conclude() -> play(action) (keeps the played child's subtree) -> start_search ...
#include <array>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "core/rng.h"
#include "game/endgame_tables.h"
#include "game/game_state.h"
#include "game/heuristics.h"
#include "search/evaluator.h"
#include "search/gumbel.h"
#include "search/policy_target.h"
#include "search/search_config.h"
#include "search/tree.h"
#include "search/tree_report.h"

namespace sz::search {

struct SearchResult {
  game::ActionId action = 0;  // the move to play
  bool full_search = false;   // playout-cap randomisation: only full searches are policy targets
  // Full PUCT searches: visits after policy-target pruning, every legal action listed (0 for
  // those pruned or never visited); cheap ones: raw visits, visited actions only; Gumbel: the
  // improved policy over every legal action. Sums to 1. Valid until the next start_search, play
  // or reset.
  std::span<const PolicyEntry> policy;
  bool policy_target = false;  // a full search or a Gumbel one: `policy` improves on the prior
  std::array<float, 3> wdl{};  // root value: win/draw/loss for the side to move (mean over N)
  // The value of `policy`: its children's W/D/L weighted by it (visited children only), decided
  // draws worth 0. Leaves out what exploration spent on moves the search rejects (forced
  // playouts, noise), which the root mean `wdl` counts: the recorded value target.
  std::array<float, 3> target_wdl{};
  float temperature = 0;     // used for the move choice (0 for Gumbel)
  uint32_t root_visits = 0;  // N of the root, visits kept from the previous move included
  int new_visits = 0;        // simulations this search ran
  RootSpread spread;         // PUCT searches: how the root's visits spread (self-play's report); Gumbel: zeros
};

// One root child, for reports, UCI output and tests. q and d from the root mover's view.
struct ChildStats {
  game::ActionId action = 0;
  float prior = 0;  // after root noise if this search added some
  uint32_t visits = 0;
  float q = 0;  // decided draws worth -contempt, as the search decides
  float d = 0;
};

// Not thread-safe: one per game; a thread may drive many. Movable (e.g. into a vector) while no
// search result is held: SearchResult::policy points into the object.
class GameSearch {
 public:
  // `start` is cloned twice (the root and the scratch state). `scratch_tree`, if given, is
  // borrowed for re-rooting and may be shared by every GameSearch driven by the same thread
  // (halves tree memory); otherwise this search owns one. `seed` seeds every random choice.
  GameSearch(const SearchConfig& config, const game::GameState& start, uint64_t seed, Tree* scratch_tree = nullptr);

  // A new game from `start` (the same game, any profile of it); drops the tree, reseeds.
  void reset(const game::GameState& start, uint64_t seed);

  // Endgame tables (game/endgame_tables.h; null: none): a leaf in them is scored by its exact
  // value, a terminal like a mate, without the network. Kept by reset; must outlive the search.
  void set_tables(const game::EndgameTables* tables) { tables_ = tables; }
  // The game's heuristics (game/heuristics.h; null: none), for LeafSearchConfig::win_moves: a leaf
  // whose mover forces a win is scored as that win. Kept by reset; must outlive the search. (The
  // leaf's value blend is the evaluator's: search/leaf_blend.h.)
  void set_heuristics(const game::Heuristics* heuristics) { heuristics_ = heuristics; }

  // Starts a search of the current position, which must not be over. Auto draws full or cheap
  // (playout-cap randomisation). A full PUCT search gets root noise and forced playouts.
  // `visits` > 0 replaces the kind's budget (full_visits / cheap_visits), e.g. for UCI `go nodes`.
  void start_search(SearchKind kind = SearchKind::Auto, int visits = 0);
  // Runs simulations until one reaches a position that needs the network: fills `query` (the
  // leaf state stays valid until deliver) and points `reply.priors` at this search's buffer;
  // returns true. Returns false once the budget is spent (then call conclude()).
  bool select_leaf(EvalQuery& query, EvalReply& reply);
  // The evaluation of the leaf of the last select_leaf: expands it and backs the value up.
  void deliver(const EvalReply& reply);
  bool searching() const { return searching_; }
  bool pending() const { return pending_; }

  // Ends the search in progress before its budget (the UCI engine's stop and time limits).
  void stop();
  // After the search: the move (search/move_choice.h, the one move choice: at `temperature` on
  // every ply if given, else the config's schedule), the policy target, the value.
  const SearchResult& conclude(std::optional<float> temperature = std::nullopt);
  // Plays `action` (legal) on the root and re-roots the tree on its child (tree reuse).
  void play(game::ActionId action);

  // Single-game convenience: start_search(kind, visits), evaluate leaves one by one, conclude.
  const SearchResult& run(Evaluator& evaluator, SearchKind kind = SearchKind::Auto, int visits = 0,
                          std::optional<float> temperature = std::nullopt);

  const game::GameState& state() const { return *root_; }
  // Root value for resignation: W/D/L for the side to move, mean over the root's visits.
  std::array<float, 3> root_wdl() const;
  int root_child_count() const { return tree_.node(0).num_edges; }
  ChildStats root_child(int i) const;
  const Tree& tree() const { return tree_; }
  const SearchConfig& config() const { return config_; }
  int play_ply() const;  // plies since the play phase began, 0 during placement

 private:
  bool budget_reached() const;
  void prepare_root();
  bool descend();
  int choose_edge(uint32_t node, game::Player mover, bool at_root);
  void expand(uint32_t node, std::span<const float> priors);
  void score_terminal(uint32_t node, const game::Outcome& outcome);
  DrawScore draw_score() const { return {root_->to_move(), config_.contempt}; }
  void backup(game::Player player, float q, float d, float decided_draw);
  void restore_root_priors();
  int fill_move_weights();
  std::array<float, 3> value_of(std::span<const float> weights) const;

  SearchConfig config_;
  const game::EndgameTables* tables_ = nullptr;
  const game::Heuristics* heuristics_ = nullptr;
  Rng rng_;
  std::unique_ptr<game::GameState> root_;
  std::unique_ptr<game::GameState> scratch_;
  Tree tree_;
  std::unique_ptr<Tree> own_scratch_tree_;
  Tree* scratch_tree_ = nullptr;
  GumbelRoot gumbel_;
  std::vector<uint32_t> path_;  // node indices from the root to the current leaf

  std::array<game::ActionId, game::kMaxActions> leaf_actions_{};
  std::array<float, game::kMaxActions> leaf_priors_{};
  int leaf_count_ = 0;
  game::Player leaf_player_ = game::Player::First;

  bool searching_ = false;
  bool pending_ = false;
  bool full_ = false;
  bool noised_ = false;  // the root's priors carry noise; saved_priors_ holds the clean ones
  int budget_ = 0;
  int new_visits_ = 0;
  int play_start_ply_ = -1;  // the root ply at which play began, -1 while placing

  std::array<float, game::kMaxActions> saved_priors_{};
  std::array<float, game::kMaxActions> weights_{};
  std::array<PolicyEntry, game::kMaxActions> policy_{};
  SearchResult result_;
};

}  // namespace sz::search
