#include "eval/arena.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <exception>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include "core/error.h"
#include "core/rng.h"
#include "eval/pgn.h"
#include "games/registry.h"

namespace sz::eval {

namespace {

struct Scheduled {
  int white = 0, black = 0;
  int start = 0;  // index into the starts
};

// Round, start, pairing, colour: a match cut short (SPRT, stop) has played every pairing and both
// colours of each start about equally.
std::vector<Scheduled> make_schedule(int players, int starts, int rounds) {
  std::vector<Scheduled> out;
  for (int r = 0; r < rounds; ++r)
    for (int s = 0; s < starts; ++s)
      for (int a = 0; a < players; ++a)
        for (int b = a + 1; b < players; ++b) {
          out.push_back({a, b, s});
          out.push_back({b, a, s});
        }
  return out;
}

uint64_t game_seed(uint64_t match_seed, int index, int side) {
  uint64_t state = match_seed ^ (uint64_t(index) * 2 + uint64_t(side)) * 0xD1B54A32D192ED03ull;
  return splitmix64(state);
}

bool is_legal(const game::GameState& state, game::ActionId action) {
  std::array<game::ActionId, game::kMaxActions> actions{};
  const int n = state.legal_actions(actions);
  return std::find(actions.begin(), actions.begin() + n, action) != actions.begin() + n;
}

PgnGame to_pgn_game(const GameRecord& g, const MatchResult& m, const std::string& variant) {
  PgnGame p;
  p.event = "sittuyin-zero arena";
  p.round = std::to_string(g.index + 1);
  p.white = m.names[size_t(g.white)];
  p.black = m.names[size_t(g.black)];
  p.result = game::pgn_result(g.result);
  p.variant = variant;
  p.profile = m.profile;
  p.start_fen = g.start_fen;
  p.end_reason = g.error.empty() ? g.reason : g.reason + ": " + g.error;
  p.san_moves = g.san_moves;
  std::istringstream fields(g.start_fen);
  std::string board, side, castling, ep, halfmove;
  int fullmove = 1;
  fields >> board >> side >> castling >> ep >> halfmove >> fullmove;
  p.black_moves_first = side == "b";
  p.first_move_number = std::max(fullmove, 1);
  return p;
}

// The state shared by the worker threads of one match.
class Match {
 public:
  explicit Match(const MatchSpec& spec);
  MatchResult run();

 private:
  void worker(int slot);
  Player& instance(std::vector<std::unique_ptr<Player>>& mine, int player, int slot);
  std::optional<GameRecord> play_game(int index, Player& white, Player& black);
  void record(const GameRecord& game);
  bool stopping() const { return halt_ || (spec_.stop && spec_.stop->load()); }

  const MatchSpec& spec_;
  std::vector<std::unique_ptr<game::GameState>> starts_;
  std::vector<Scheduled> schedule_;
  std::atomic<int> next_{0};
  std::atomic<bool> halt_{false};
  std::mutex mutex_;  // guards everything below
  MatchResult result_;
  std::ofstream pgn_;
  std::string variant_;
  std::exception_ptr error_;
};

Match::Match(const MatchSpec& spec) : spec_(spec) {
  if (spec.players.size() < 2) throw Error("a match needs at least two players");
  if (spec.sprt && spec.players.size() != 2) throw Error("--sprt needs exactly two players");
  if (spec.anchor < 0 || size_t(spec.anchor) >= spec.players.size()) throw Error("anchor is not a player");
  const std::vector<std::string> fens = spec.starts.empty() ? std::vector<std::string>{""} : spec.starts;
  for (size_t i = 0; i < fens.size(); ++i) {
    auto state = games::new_game(spec.profile, fens[i]).take_or_throw("start " + std::to_string(i + 1));
    if (state->outcome().over()) throw Error("start " + std::to_string(i + 1) + ": the game is over there");
    starts_.push_back(std::move(state));
  }
  variant_ = starts_[0]->spec().game;
  schedule_ = make_schedule(int(spec.players.size()), int(starts_.size()), std::max(spec.rounds, 1));
  result_.profile = std::string(starts_[0]->profile());
  for (const MatchPlayer& p : spec.players) result_.names.push_back(p.name);
  result_.think_seconds.assign(spec.players.size(), 0.0);
  result_.moves.assign(spec.players.size(), 0);
  for (int a = 0; a < int(spec.players.size()); ++a)
    for (int b = a + 1; b < int(spec.players.size()); ++b) result_.pairings.push_back({a, b, {}, {}});
  result_.anchor = spec.anchor;
  result_.sprt = spec.sprt;
  result_.games_scheduled = int(schedule_.size());
  if (!spec.pgn_path.empty()) {
    pgn_.open(spec.pgn_path, std::ios::trunc);
    if (!pgn_) throw Error("cannot write the PGN file '" + spec.pgn_path + "'");
  }
}

MatchResult Match::run() {
  const auto t0 = std::chrono::steady_clock::now();
  const int threads = std::clamp(spec_.concurrency, 1, int(schedule_.size()));
  std::vector<std::thread> pool;
  for (int slot = 0; slot < threads; ++slot) pool.emplace_back([this, slot] { worker(slot); });
  for (std::thread& t : pool) t.join();
  if (error_) std::rethrow_exception(error_);
  result_.stopped = result_.games_played < result_.games_scheduled;
  std::vector<PairResult> table;
  for (const PairingResult& p : result_.pairings) table.push_back({p.a, p.b, p.score});
  result_.ratings = fit_ratings(int(result_.names.size()), table, spec_.anchor);
  result_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return std::move(result_);
}

void Match::worker(int slot) {
  std::vector<std::unique_ptr<Player>> mine(spec_.players.size());
  try {
    while (!stopping()) {
      const int index = next_++;
      if (index >= int(schedule_.size())) return;
      const Scheduled& s = schedule_[size_t(index)];
      Player& white = instance(mine, s.white, slot);
      Player& black = instance(mine, s.black, slot);
      if (auto game = play_game(index, white, black)) record(*game);
    }
  } catch (...) {
    std::lock_guard lock(mutex_);
    if (!error_) error_ = std::current_exception();
    halt_ = true;
  }
}

Player& Match::instance(std::vector<std::unique_ptr<Player>>& mine, int player, int slot) {
  std::unique_ptr<Player>& p = mine[size_t(player)];
  if (!p || !p->usable()) {
    p.reset();  // a dead engine's process goes before its successor starts
    p = spec_.players[size_t(player)].make(slot);
    if (!p) throw Error("player '" + spec_.players[size_t(player)].name + "': its factory made nothing");
  }
  return *p;
}

// The game of schedule entry `index`; nullopt if the match was stopped while it ran.
std::optional<GameRecord> Match::play_game(int index, Player& white, Player& black) {
  const Scheduled& s = schedule_[size_t(index)];
  const game::GameState& start = *starts_[size_t(s.start)];
  GameRecord g;
  g.index = index;
  g.white = s.white;
  g.black = s.black;
  g.start_fen = start.to_string();
  white.new_game(start, game_seed(spec_.seed, index, 0));
  black.new_game(start, game_seed(spec_.seed, index, 1));
  std::unique_ptr<game::GameState> state = start.clone();
  std::vector<game::ActionId> actions;
  search::FlatPlies flat_plies;
  for (;;) {
    game::Outcome outcome = state->outcome();
    if (!outcome.over() && spec_.tables)
      if (const auto table = spec_.tables->probe(*state)) outcome = game::table_outcome(*table, state->to_move());
    if (outcome.over()) {
      g.result = outcome.result, g.reason = std::string(outcome.reason);
      return g;
    }
    if (int(actions.size()) >= spec_.max_plies) {
      g.result = game::GameResult::Draw, g.reason = "max-plies";
      return g;
    }
    if (stopping()) return std::nullopt;
    const bool white_moves = state->to_move() == game::Player::First;
    Player& mover = white_moves ? white : black;
    const size_t side = white_moves ? 0 : 1;  // GameRecord's per-side index
    const auto asked = std::chrono::steady_clock::now();
    auto action = mover.choose_move({start, actions, g.uci_moves, *state});
    g.think_seconds[side] += std::chrono::duration<double>(std::chrono::steady_clock::now() - asked).count();
    if (action && !is_legal(*state, *action)) action = fail("action id " + std::to_string(*action) + " is not legal");
    if (!action) {
      g.result = white_moves ? game::GameResult::SecondWins : game::GameResult::FirstWins;
      g.reason = "forfeit";
      g.error = result_.names[size_t(white_moves ? g.white : g.black)] + ": " + action.error();
      return g;
    }
    const std::optional<float> value = mover.last_value();
    const bool flat = spec_.adjudicate_draws && value && flat_plies.add(*spec_.adjudicate_draws, *state, *value);
    if (!value) flat_plies.reset();  // one side without a value: no adjudication
    ++g.moves[side];
    g.san_moves.push_back(state->action_to_san(*action));
    g.uci_moves.push_back(state->action_to_string(*action));
    state->apply(*action);
    actions.push_back(*action);
    if (flat && !state->outcome().over()) {
      g.result = game::GameResult::Draw, g.reason = "adjudicated-draw";
      return g;
    }
  }
}

void Match::record(const GameRecord& game) {
  std::lock_guard lock(mutex_);
  if (halt_) return;  // the SPRT was decided while this game ran
  const bool white_first = game.white < game.black;
  PairingResult& p = *std::find_if(result_.pairings.begin(), result_.pairings.end(), [&](const PairingResult& q) {
    return q.a == std::min(game.white, game.black) && q.b == std::max(game.white, game.black);
  });
  const bool a_won = game.result == (white_first ? game::GameResult::FirstWins : game::GameResult::SecondWins);
  if (game.result == game::GameResult::Draw)
    ++p.score.draws;
  else if (a_won)
    ++p.score.wins;
  else
    ++p.score.losses;
  p.elo = elo_estimate(p.score);
  ++result_.games_played;
  if (game.reason == "forfeit") ++result_.forfeits;
  for (const int side : {0, 1}) {
    const size_t player = size_t(side == 0 ? game.white : game.black);
    result_.think_seconds[player] += game.think_seconds[size_t(side)];
    result_.moves[player] += game.moves[size_t(side)];
  }
  if (pgn_.is_open()) {
    pgn_ << to_pgn(to_pgn_game(game, result_, variant_)) << std::flush;
    if (!pgn_) throw Error("writing the PGN file '" + spec_.pgn_path + "' failed");
  }
  if (spec_.sprt) {
    result_.llr = spec_.sprt->llr(p.score);
    result_.verdict = spec_.sprt->verdict(p.score);
    if (result_.verdict != Sprt::Verdict::Continue) halt_ = true;
  }
  if (spec_.on_game) spec_.on_game(game, result_);
}

}  // namespace

const PairingResult* MatchResult::pairing(int i, int j) const {
  for (const PairingResult& p : pairings)
    if ((p.a == i && p.b == j) || (p.a == j && p.b == i)) return &p;
  return nullptr;
}

MatchResult play_match(const MatchSpec& spec) {
  Match match(spec);
  return match.run();
}

int scheduled_games(const MatchSpec& spec) {
  const int n = int(spec.players.size());
  return n * (n - 1) * std::max<int>(int(spec.starts.size()), 1) * std::max(spec.rounds, 1);
}

}  // namespace sz::eval
