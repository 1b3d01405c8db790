#include "search/game_search.h"

#include <algorithm>
#include <cmath>

#include "search/move_choice.h"
#include "search/noise.h"
#include "search/puct.h"

namespace sz::search {
namespace {

size_t node_reserve(const SearchConfig& c) {
  return size_t(c.reserve_nodes > 0 ? c.reserve_nodes : std::max(c.full_visits, c.cheap_visits) + 2);
}

}  // namespace

GameSearch::GameSearch(const SearchConfig& config, const game::GameState& start, uint64_t seed, Tree* scratch_tree)
    : config_(config),
      root_(start.clone()),
      scratch_(start.clone()),
      tree_(node_reserve(config), node_reserve(config) * size_t(std::max(config.reserve_edges_per_node, 1))),
      scratch_tree_(scratch_tree) {
  if (!scratch_tree_) {
    own_scratch_tree_ = std::make_unique<Tree>();  // copy_subtree sizes it like tree_
    scratch_tree_ = own_scratch_tree_.get();
  }
  path_.reserve(512);
  reset(start, seed);
}

void GameSearch::reset(const game::GameState& start, uint64_t seed) {
  assert(!pending_);
  if (root_->spec().game == start.spec().game) {
    root_->copy_from(start);
  } else {
    root_ = start.clone();
    scratch_ = start.clone();
  }
  rng_ = Rng(seed);
  tree_.reset(other(root_->to_move()));
  searching_ = noised_ = false;
  play_start_ply_ = root_->phase() == game::Phase::Play ? root_->ply() : -1;
}

void GameSearch::start_search(SearchKind kind, int visits) {
  assert(!pending_ && !root_->outcome().over());
  restore_root_priors();
  full_ = kind == SearchKind::Full || (kind == SearchKind::Auto && rng_.uniform() < config_.full_search_fraction);
  budget_ = visits > 0 ? visits : (full_ ? config_.full_visits : config_.cheap_visits);
  new_visits_ = 0;
  searching_ = true;
  if (tree_.node(0).status == NodeStatus::Expanded) prepare_root();
}

bool GameSearch::budget_reached() const {
  if (config_.root_selection == RootSelection::Gumbel) return new_visits_ >= budget_;
  return int64_t(tree_.node(0).visits) - 1 >= int64_t(budget_);
}

// Root noise or the Gumbel draw, once the root is expanded (now or by a previous search).
void GameSearch::prepare_root() {
  const std::span<Edge> edges = tree_.edges_of(0);
  if (config_.root_selection == RootSelection::Gumbel) {
    gumbel_.start(tree_, 0, budget_, config_, rng_);
  } else if (full_ && config_.dirichlet_weight > 0) {
    for (size_t i = 0; i < edges.size(); ++i) saved_priors_[i] = edges[i].prior;
    add_dirichlet_noise(rng_, config_.dirichlet_weight, config_.dirichlet_total_alpha, edges);
    noised_ = true;
  }
}

void GameSearch::restore_root_priors() {
  if (!noised_) return;
  const std::span<Edge> edges = tree_.edges_of(0);
  for (size_t i = 0; i < edges.size(); ++i) edges[i].prior = saved_priors_[i];
  noised_ = false;
}

bool GameSearch::select_leaf(EvalQuery& query, EvalReply& reply) {
  assert(!pending_);
  while (searching_) {
    if (tree_.node(0).status == NodeStatus::Expanded && budget_reached()) {
      searching_ = false;
      break;
    }
    if (descend()) {
      pending_ = true;
      query.state = scratch_.get();
      query.actions = std::span<const game::ActionId>(leaf_actions_.data(), size_t(leaf_count_));
      reply.priors = std::span<float>(leaf_priors_.data(), size_t(leaf_count_));
      return true;
    }
  }
  return false;
}

// One simulation down to a leaf. Returns true if the leaf needs the network; a terminal leaf is
// scored and backed up here (returns false).
bool GameSearch::descend() {
  scratch_->copy_from(*root_);
  path_.clear();
  uint32_t node = 0;
  path_.push_back(node);
  while (tree_.node(node).status == NodeStatus::Expanded) {
    const game::Player mover = scratch_->to_move();
    const uint32_t edge = tree_.node(node).first_edge + uint32_t(choose_edge(node, mover, node == 0));
    uint32_t child = tree_.edge(edge).child;
    if (child == kNoNode) {
      child = tree_.add_node(mover);
      tree_.edge(edge).child = child;
    }
    scratch_->apply(tree_.edge(edge).action);
    path_.push_back(child);
    node = child;
  }
  if (tree_.node(node).status == NodeStatus::Terminal) {
    const Node& t = tree_.node(node);
    backup(t.view, t.raw_q, t.d, t.decided_draws);
    return false;
  }
  const game::Outcome outcome = scratch_->outcome();
  if (outcome.over()) {
    score_terminal(node, outcome);
    return false;
  }
  // Not the root either: a search in a table position still needs its children to choose from.
  if (tables_ && node != 0) {
    if (const std::optional<game::TableResult> r = tables_->probe(*scratch_)) {
      score_terminal(node, table_outcome(*r, scratch_->to_move()));
      return false;
    }
  }
  // Not the root: a search must have a move to choose.
  if (heuristics_ && config_.leaf.win_moves > 0 && node != 0 &&
      heuristics_->forces_win(*scratch_, config_.leaf.win_moves)) {
    const bool first = scratch_->to_move() == game::Player::First;
    score_terminal(node, {first ? game::GameResult::FirstWins : game::GameResult::SecondWins, "forced win"});
    return false;
  }
  leaf_count_ = scratch_->legal_actions(leaf_actions_);
  assert(leaf_count_ > 0 && leaf_count_ <= game::kMaxActions);
  leaf_player_ = scratch_->to_move();
  return true;
}

int GameSearch::choose_edge(uint32_t node, game::Player mover, bool at_root) {
  if (at_root && config_.root_selection == RootSelection::Gumbel) return gumbel_.select(tree_, 0, mover, config_);
  PuctInputs in;
  in.draw_score = draw_score();
  in.parent_q = q_for(tree_.node(node), mover, in.draw_score);
  in.fpu_reduction = at_root ? config_.fpu_reduction_root : config_.fpu_reduction;
  in.forced_k = at_root && full_ && config_.forced_playouts ? config_.forced_playouts_k : 0.0f;
  in.settle_decided = at_root;
  return select_puct(tree_, node, config_, in);
}

void GameSearch::score_terminal(uint32_t node, const game::Outcome& outcome) {
  Node& n = tree_.node(node);
  float q = 0, d = 0;
  if (outcome.result == game::GameResult::Draw) {
    d = 1;
  } else {
    const game::Player winner =
        outcome.result == game::GameResult::FirstWins ? game::Player::First : game::Player::Second;
    q = winner == n.view ? 1.0f : -1.0f;
  }
  n.status = NodeStatus::Terminal;
  n.raw_q = q;
  // Only decided draws take contempt (DrawScore): the network's draw probability does not, else
  // a net that predicts draws everywhere would shift every move alike and a repetition would
  // cost nothing.
  backup(n.view, q, d, /*decided_draw=*/d);
}

void GameSearch::deliver(const EvalReply& reply) {
  assert(pending_ && reply.priors.size() == size_t(leaf_count_));
  pending_ = false;
  const uint32_t leaf = path_.back();
  expand(leaf, reply.priors);
  float q = reply.wdl[0] - reply.wdl[2], d = reply.wdl[1];
  if (!std::isfinite(q) || !std::isfinite(d)) q = d = 0;  // a broken evaluator must not poison the tree
  Node& n = tree_.node(leaf);
  n.raw_q = n.view == leaf_player_ ? q : -q;
  backup(leaf_player_, q, d, /*decided_draw=*/0);
  if (leaf == 0) prepare_root();
}

// Edges in a random order drawn from the search's seed (an inside-out Fisher-Yates shuffle), so
// that every tie between edges (equal scores, equal visits) goes to a random one: a uniform
// prior with a zero value is then a real uniform-prior search, not a first-legal-move player.
// Priors renormalised (uniform if unusable).
void GameSearch::expand(uint32_t node, std::span<const float> priors) {
  const uint32_t first = tree_.add_edges(leaf_count_);
  double sum = 0;
  for (float p : priors) sum += p > 0 ? p : 0.0f;
  const bool usable = sum > 0 && std::isfinite(sum);
  const std::span<Edge> edges(&tree_.edge(first), size_t(leaf_count_));
  for (int i = 0; i < leaf_count_; ++i) {
    const float p = priors[size_t(i)];
    const Edge e{leaf_actions_[size_t(i)], usable ? float((p > 0 ? p : 0.0f) / sum) : 1.0f / float(leaf_count_),
                 kNoNode};
    const uint32_t j = rng_.below(uint32_t(i + 1));
    edges[size_t(i)] = edges[j];
    edges[j] = e;
  }
  Node& n = tree_.node(node);
  n.first_edge = first;
  n.num_edges = uint16_t(leaf_count_);
  n.status = NodeStatus::Expanded;
}

// Adds one visit with value (q = W - L, d) from `player`'s view to every node on the path;
// `decided_draw` is 1 when the rules ended the simulation in a draw.
void GameSearch::backup(game::Player player, float q, float d, float decided_draw) {
  for (const uint32_t i : path_) {
    Node& n = tree_.node(i);
    const float v = n.view == player ? q : -q;
    const float inv = 1.0f / float(++n.visits);
    n.q += (v - n.q) * inv;
    n.d += (d - n.d) * inv;
    n.decided_draws += (decided_draw - n.decided_draws) * inv;
  }
  if (path_.size() > 1) ++new_visits_;
}

// weights_ for the move choice and the policy; returns the number of root edges.
int GameSearch::fill_move_weights() {
  const int n = root_child_count();
  const std::span<float> weights(weights_.data(), size_t(n));
  if (full_ && config_.forced_playouts && config_.policy_target_pruning) {
    pruned_visit_weights(tree_, 0, root_->to_move(), draw_score(), config_, weights);
  } else {
    visit_weights(tree_, 0, weights);
  }
  if (std::all_of(weights.begin(), weights.end(), [](float w) { return w <= 0; })) {
    const std::span<const Edge> edges = tree_.edges_of(0);  // no visits: fall back on the priors
    for (int i = 0; i < n; ++i) weights[size_t(i)] = edges[size_t(i)].prior;
  }
  return n;
}

// W/D/L for the side to move of the root's children weighted by `weights` (one per edge), over
// the visited children; the root's mean if none is visited or weighted.
std::array<float, 3> GameSearch::value_of(std::span<const float> weights) const {
  const std::span<const Edge> edges = tree_.edges_of(0);
  const game::Player mover = root_->to_move();
  double sum = 0, q = 0, d = 0;
  for (size_t i = 0; i < edges.size(); ++i) {
    if (edges[i].child == kNoNode || !(weights[i] > 0)) continue;
    const Node& child = tree_.node(edges[i].child);
    if (child.visits == 0) continue;
    sum += weights[i];
    q += weights[i] * q_for(child, mover);
    d += weights[i] * child.d;
  }
  if (!(sum > 0)) return root_wdl();
  const float mean_q = float(q / sum), mean_d = float(d / sum);
  return {std::clamp((1.0f + mean_q - mean_d) * 0.5f, 0.0f, 1.0f), mean_d,
          std::clamp((1.0f - mean_q - mean_d) * 0.5f, 0.0f, 1.0f)};
}

void GameSearch::stop() {
  assert(!pending_);
  searching_ = false;
}

const SearchResult& GameSearch::conclude(std::optional<float> temperature) {
  assert(!pending_ && !searching_ && tree_.node(0).status == NodeStatus::Expanded);
  const std::span<const Edge> edges = tree_.edges_of(0);
  const game::Player mover = root_->to_move();
  const MoveChoice choice{temperature ? *temperature : move_temperature(config_, root_->phase(), play_ply()),
                          config_.play_proven_wins, draw_score()};
  int chosen = 0, count = 0;
  const bool gumbel = config_.root_selection == RootSelection::Gumbel;
  result_.policy_target = full_ || gumbel;
  result_.temperature = gumbel ? 0.0f : choice.temperature;
  if (gumbel) {
    count = gumbel_.improved_policy(tree_, 0, mover, config_, policy_);
    for (int i = 0; i < count; ++i) weights_[size_t(i)] = policy_[size_t(i)].prob;
    result_.target_wdl = value_of(std::span<const float>(weights_.data(), size_t(count)));
    result_.spread = {};
    chosen = with_proven_win(tree_, mover, gumbel_.final_edge(tree_, 0, mover, config_), choice);
  } else {
    const int n = fill_move_weights();
    const std::span<float> weights(weights_.data(), size_t(n));
    count = to_policy(edges, weights, policy_, /*every_edge=*/full_);
    result_.target_wdl = value_of(weights);
    result_.spread = root_spread(tree_, weights);
    chosen = choose_root_edge(tree_, mover, weights, choice, rng_);
  }
  result_.action = edges[size_t(chosen)].action;
  result_.full_search = full_;
  result_.policy = std::span<const PolicyEntry>(policy_.data(), size_t(count));
  result_.wdl = root_wdl();
  result_.root_visits = tree_.node(0).visits;
  result_.new_visits = new_visits_;
  return result_;
}

void GameSearch::play(game::ActionId action) {
  assert(!pending_);
  uint32_t child = kNoNode;
  for (const Edge& e : tree_.edges_of(0))
    if (e.action == action) child = e.child;
  root_->apply(action);
  if (play_start_ply_ < 0 && root_->phase() == game::Phase::Play) play_start_ply_ = root_->ply();
  searching_ = noised_ = false;
  if (config_.tree_reuse && child != kNoNode && tree_.node(child).status == NodeStatus::Expanded) {
    scratch_tree_->copy_subtree(tree_, child);
    std::swap(tree_, *scratch_tree_);
  } else {
    tree_.reset(other(root_->to_move()));
  }
}

const SearchResult& GameSearch::run(Evaluator& evaluator, SearchKind kind, int visits,
                                    std::optional<float> temperature) {
  start_search(kind, visits);
  EvalQuery query{};
  EvalReply reply{};
  while (select_leaf(query, reply)) {
    evaluator.evaluate(std::span<const EvalQuery>(&query, 1), std::span<EvalReply>(&reply, 1));
    deliver(reply);
  }
  return conclude(temperature);
}

std::array<float, 3> GameSearch::root_wdl() const {
  const Node& r = tree_.node(0);
  const float q = q_for(r, root_->to_move()), d = r.d;
  return {std::clamp((1.0f + q - d) * 0.5f, 0.0f, 1.0f), d, std::clamp((1.0f - q - d) * 0.5f, 0.0f, 1.0f)};
}

ChildStats GameSearch::root_child(int i) const {
  const Edge& e = tree_.edges_of(0)[size_t(i)];
  ChildStats s{e.action, e.prior, 0, 0, 0};
  if (e.child == kNoNode) return s;
  const Node& c = tree_.node(e.child);
  s.visits = c.visits;
  s.q = q_for(c, root_->to_move(), draw_score());
  s.d = c.d;
  return s;
}

int GameSearch::play_ply() const { return play_start_ply_ < 0 ? 0 : root_->ply() - play_start_ply_; }

}  // namespace sz::search
