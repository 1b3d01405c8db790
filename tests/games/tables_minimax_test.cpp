// The tables against a plain minimax over the rules core (slow): no retrograde step, no index, no
// symmetry, no clock model of the tables' own. Positions are the rules core's Positions, moves its
// legal moves, ends its adjudication, clocks its own do_move (the count, the n-move clock).
//   K+R vs K and K+F vs K (K+Q vs K in Shatranj), under the four sets of ending rules: a memoised
//   negamax over (position, clocks) from every position, with clocks a game can have.
//   K+N vs K+F (Sittuyin): a minimax by clock budget over every position, layer by layer
//   (V_d from V_{d-1}), until a layer repeats the one before; from then on every budget gives the
//   same values (the step from one layer to the next is the same function), so the last layer
//   is the value at the full 100 plies of a fresh n-move clock.
#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <unordered_map>

#include "games/chaturanga/adjudicate.h"
#include "games/chaturanga/movegen.h"
#include "games/chaturanga/tables/probe.h"
#include "tables_fixture.h"

namespace sz::chaturanga::tables {
namespace {

// A value for the side to move: 0 a draw, k > 0 a win in k - 1 plies, k < 0 a loss in -k - 1.
using Value = int16_t;
Value win_in(int plies) { return Value(plies + 1); }
Value loss_in(int plies) { return Value(-plies - 1); }

Value terminal_value(const Position& pos, const GameEnd& end) {
  if (end.outcome == Outcome::Draw) return 0;
  return (end.outcome == Outcome::WhiteWins) == (pos.side_to_move() == White) ? win_in(0) : loss_in(0);
}

// Negamax by distance over one position's successors' values.
template <typename ChildValue>
Value negamax(const Position& pos, const MoveList& moves, ChildValue child_value) {
  int best_win = -1, worst_loss = -1;
  bool all_lose = true;
  for (const Move m : moves) {
    Position next = pos;
    next.do_move(m);
    const Value v = child_value(next);
    if (v < 0 && (best_win < 0 || -v - 1 < best_win)) best_win = -v - 1;
    if (v > 0) worst_loss = std::max(worst_loss, v - 1);
    if (v <= 0) all_lose = false;
  }
  if (best_win >= 0) return win_in(best_win + 1);
  if (all_lose) return loss_in(worst_loss + 1);
  return 0;
}

struct StateKey {
  uint64_t key;
  uint32_t clocks;
  bool operator==(const StateKey&) const = default;
};
struct StateHash {
  size_t operator()(const StateKey& k) const { return k.key ^ (uint64_t(k.clocks) * 0x9E3779B97F4A7C15ull); }
};

// The memoised negamax over the rules core, clocks included.
class Minimax {
 public:
  Value operator()(const Position& pos) {
    const StateKey k{
        pos.key(), uint32_t(pos.rule50()) | uint32_t(pos.counting_limit()) << 10 | uint32_t(pos.counting_ply()) << 20};
    if (const auto it = memo_.find(k); it != memo_.end()) return it->second;
    const GameEnd end = adjudicate(pos, {});
    Value v = 0;
    if (end.over()) {
      v = terminal_value(pos, end);
    } else {
      MoveList moves;
      generate_legal(pos, moves);
      v = negamax(pos, moves, [this](const Position& next) { return (*this)(next); });
    }
    memo_.emplace(k, v);
    return v;
  }

 private:
  std::unordered_map<StateKey, Value, StateHash> memo_;
};

Value table_value(const TableSet& set, const Position& pos) {
  const auto r = probe(set, pos);
  EXPECT_TRUE(r) << pos.fen();
  if (!r || r->verdict == game::TableVerdict::Draw) return 0;
  return r->verdict == game::TableVerdict::Win ? win_in(r->plies_to_end) : loss_in(r->plies_to_end);
}

// Every legal placement of `men` (white king, black king, one more man) with either side to move.
template <typename Visit>
void for_each_three_men(const RuleProfile& rules, Piece man, Visit visit) {
  const Piece pieces[3] = {make_piece(White, King), make_piece(Black, King), man};
  for (int wk = 0; wk < 64; ++wk)
    for (int bk = 0; bk < 64; ++bk)
      for (int x = 0; x < 64; ++x)
        for (Color stm : {White, Black}) {
          if (wk == bk || x == wk || x == bk) continue;
          const Square sq[3] = {Square(wk), Square(bk), Square(x)};
          const Position pos = Position::from_men(rules, stm, pieces, sq, 3);
          if (pos.pos_is_ok() && !(board8::attack_tables.king[wk] & board8::bit(bk))) visit(pos);
        }
}

// Clocks a game can have, as a FEN gives them: a count running (where the rules count), or the
// n-move clock alone; fewer under Ply Yard's rules, whose legal moves cost a search each.
std::vector<std::string> clock_fields(const RuleProfile& rules, const Position& pos) {
  const bool counts = rules.counting == CountingRule::Asean && pos.count_limit(White) > 0;
  if (rules.stalemate == StalemateRule::IllegalToCause) return {counts ? " - 32 20 30" : " - - 88 30"};
  if (counts) return {" - 32 0 30", " - 32 9 30"};
  return {" - - 70 30", " - - 93 30"};
}

void expect_three_men_agree(const std::string& profile, Piece man) {
  const RuleProfile& rules = *rule_profile(profile).take_or_throw(profile);
  const auto set = testing::shared_set(profile);
  Minimax minimax;
  uint64_t checked = 0, decisive = 0, differ = 0;
  for_each_three_men(rules, man, [&](const Position& placed) {
    const std::string board = placed.fen();
    const std::string base = board.substr(0, board.find(' ')) + (placed.side_to_move() == White ? " w" : " b");
    for (const std::string& clocks : clock_fields(rules, placed)) {
      const Position pos = Position::from_fen(base + clocks, rules).take_or_throw(base + clocks);
      const Value expected = minimax(pos), got = table_value(*set, pos);
      ++checked;
      decisive += expected != 0;
      if (expected != got && ++differ <= 5)
        ADD_FAILURE() << profile << " " << pos.fen() << ": minimax " << expected << ", tables " << got;
    }
  });
  EXPECT_EQ(differ, 0u) << profile;
  EXPECT_GT(checked, 100000u) << profile;
  std::printf("%s %s: %llu positions agree (%llu decisive)\n", profile.c_str(),
              std::string(1, man_letter(rules.game, type_of(man))).c_str(), static_cast<unsigned long long>(checked),
              static_cast<unsigned long long>(decisive));
}

TEST(TablesMinimax, RookAgainstTheBareKing) {
  for (const std::string& profile : testing::test_profiles()) expect_three_men_agree(profile, make_piece(White, Rook));
}

TEST(TablesMinimax, MetAgainstTheBareKing) {
  for (const std::string& profile : testing::test_profiles()) expect_three_men_agree(profile, make_piece(White, Fers));
}

// K+N vs K+F by clock budget: every placement of the four men with either side to move, by a raw
// number of its own (no symmetry), the rules core's moves and adjudication at each layer.
class BudgetMinimax {
 public:
  explicit BudgetMinimax(const RuleProfile& rules) : rules_(rules), terminal_(kSize, kNotTerminal) {
    for (uint32_t i = 0; i < kSize; ++i) {
      const std::optional<Position> pos = position(i);
      if (!pos) {
        terminal_[i] = kInvalid;
        continue;
      }
      const GameEnd end = adjudicate(*pos, {});
      if (end.over()) terminal_[i] = terminal_value(*pos, end);
    }
  }

  // Layers V_0 (budget 0), V_1, ... until one repeats the one before, which is the last.
  std::vector<std::vector<Value>> solve() {
    std::vector<std::vector<Value>> layers;
    for (int budget = 0;; ++budget) {
      std::vector<Value> now(kSize, 0);
      for (uint32_t i = 0; i < kSize; ++i) now[i] = value(i, budget, budget ? layers.back() : now);
      if (budget > 0 && now == layers.back()) return layers;
      layers.push_back(std::move(now));
    }
  }

  // Position number i, when it is one (the kings apart, the side not to move not in check).
  std::optional<Position> position(uint32_t i) const {
    const Square sq[4] = {Square(i >> 18 & 63), Square(i >> 12 & 63), Square(i >> 6 & 63), Square(i & 63)};
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b)
        if (sq[a] == sq[b]) return std::nullopt;
    if (board8::attack_tables.king[sq[0]] & board8::bit(sq[1])) return std::nullopt;
    const Position pos = Position::from_men(rules_, Color(i >> 24), kPieces, sq, 4);
    return pos.pos_is_ok() ? std::optional<Position>(pos) : std::nullopt;
  }

  static constexpr uint32_t kSize = 2u << 24;
  static constexpr Value kInvalid = 0x7FFF, kNotTerminal = 0x7FFE;

 private:
  static uint32_t number(const Position& pos) {
    uint32_t n = uint32_t(pos.side_to_move()) << 24;
    const Piece order[4] = {kPieces[0], kPieces[1], kPieces[2], kPieces[3]};
    for (int k = 0; k < 4; ++k)
      n |= uint32_t(board8::lsb(pos.pieces(color_of(order[k]), type_of(order[k])))) << (18 - 6 * k);
    return n;
  }

  Value value(uint32_t i, int budget, const std::vector<Value>& before) const {
    if (terminal_[i] != kNotTerminal) return terminal_[i] == kInvalid ? 0 : terminal_[i];
    if (budget <= 0) return 0;  // the n-move rule: a quiet position is drawn
    const Position pos = *position(i);
    MoveList moves;
    generate_legal(pos, moves);
    return negamax(pos, moves, [&](const Position& next) -> Value {
      if (board8::popcount(next.pieces()) < 4) {  // a capture: K+N vs K and K+F vs K end at once
        const GameEnd end = adjudicate(next, {});
        EXPECT_TRUE(end.over()) << next.fen();
        return terminal_value(next, end);
      }
      return before[number(next)];
    });
  }

  static constexpr Piece kPieces[4] = {make_piece(White, King), make_piece(Black, King), make_piece(White, Knight),
                                       make_piece(Black, Fers)};
  const RuleProfile& rules_;
  std::vector<Value> terminal_;
};

TEST(TablesMinimax, KnightAgainstMet) {
  const RuleProfile& rules = *rule_profile("sittuyin").take_or_throw();
  testing::TempDir dir("sz-tables-minimax");
  testing::build_test_tables(dir.path(), {"sittuyin"}, {"KNvKF"});
  const auto set = load_table_set(dir.path(), ending_rules(rules));
  BudgetMinimax minimax(rules);
  const std::vector<std::vector<Value>> layers = minimax.solve();
  uint64_t checked = 0, decisive = 0, differ = 0;
  std::mt19937_64 rng(3);
  for (uint32_t i = 0; i < BudgetMinimax::kSize; ++i) {
    const std::optional<Position> pos = minimax.position(i);
    if (!pos) continue;
    // Fresh clocks (100 plies: the last layer), and now and then a budget of each layer.
    std::vector<std::pair<int, Position>> probes = {{int(layers.size()) - 1, *pos}};
    if (rng() % 64 == 0 || layers.back()[i] != 0)
      for (int budget = 0; budget < int(layers.size()); ++budget) {
        const std::string fen = pos->fen();
        const size_t clock = fen.find(" - - ") + 5;
        const std::string with_clock = fen.substr(0, clock) + std::to_string(100 - budget) + " 60";
        probes.emplace_back(budget, Position::from_fen(with_clock, rules).take_or_throw(with_clock));
      }
    for (const auto& [budget, p] : probes) {
      const Value expected = layers[size_t(budget)][i], got = table_value(*set, p);
      ++checked;
      decisive += expected != 0;
      if (got != expected && ++differ <= 5) ADD_FAILURE() << p.fen() << ": minimax " << expected << ", tables " << got;
    }
  }
  EXPECT_EQ(differ, 0u);
  std::printf("sittuyin KNvKF: %llu positions and clocks agree (%llu decisive), budgets 0..%zu\n",
              static_cast<unsigned long long>(checked), static_cast<unsigned long long>(decisive), layers.size() - 1);
}

}  // namespace
}  // namespace sz::chaturanga::tables
