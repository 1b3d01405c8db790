// Property tests: random playouts under every rule profile, checking at every ply that
// - the position's redundant fields agree (incremental hash = recomputed hash, checkers, ...);
// - the FEN round-trips;
// - the fast generator's legal moves equal those of an independent slow generator;
// - the game ends, with a reason, and adjudicate() agrees with an empty move list;
// - forces_win(1) is true exactly when a legal move ends the game in the mover's favour, and
//   forces_win(2) only when the mover has a move after which every reply allows such a move.
// SZ_PROPERTY_PLAYOUTS overrides the number of playouts per profile (default 1000).
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>

#include "core/rng.h"
#include "games/chaturanga/adjudicate.h"
#include "games/chaturanga/movegen.h"
#include "games/chaturanga/notation.h"
#include "games/chaturanga/rule_profiles.h"
#include "games/slow_movegen.h"
#include "heuristics/forced_win.h"

namespace sz::chaturanga {
namespace {

int playouts_per_profile() {
  const char* env = std::getenv("SZ_PROPERTY_PLAYOUTS");
  return env ? std::max(1, std::atoi(env)) : 1000;
}

std::vector<std::string> fast_moves(const Position& pos) {
  MoveList list;
  generate_legal(pos, list);
  std::vector<std::string> names;
  for (Move m : list) names.push_back(to_uci(m, pos.rules().game));
  std::sort(names.begin(), names.end());
  return names;
}

void check_invariants(const Position& pos, const std::string& where) {
  std::string why;
  ASSERT_TRUE(pos.pos_is_ok(&why)) << where << ": " << why;
  const auto again = Position::from_fen(pos.fen(), pos.rules());
  ASSERT_TRUE(again.ok()) << where << ": " << again.error();
  EXPECT_EQ(again->fen(), pos.fen()) << where;
  EXPECT_EQ(again->key(), pos.key()) << where;
  const Square ksq = pos.king_square(pos.side_to_move());
  EXPECT_EQ(pos.in_check(), ksq != board8::kNoSquare && test::slow_attacked(pos, ksq, ~pos.side_to_move())) << where;
}

// A forced win within `moves` of the mover's moves by its definition, every move tried, every
// position adjudicated with the whole history: the yardstick of forces_win.
bool forced_win_by_brute_force(const Position& pos, std::vector<uint64_t> history, int moves) {
  const Outcome win = pos.side_to_move() == White ? Outcome::WhiteWins : Outcome::BlackWins;
  history.push_back(pos.key());
  MoveList list;
  generate_legal(pos, list);
  for (const Move m : list) {
    Position next = pos;
    next.do_move(m);
    const GameEnd end = adjudicate(next, history);
    if (end.outcome == win) return true;
    if (moves == 1 || end.over()) continue;
    std::vector<uint64_t> line = history;
    line.push_back(next.key());
    MoveList replies;
    generate_legal(next, replies);
    bool every_reply_loses = true;
    for (const Move r : replies) {
      Position after = next;
      after.do_move(r);
      if (adjudicate(after, line).over() || !forced_win_by_brute_force(after, line, moves - 1)) {
        every_reply_loses = false;
        break;
      }
    }
    if (every_reply_loses) return true;
  }
  return false;
}

class RandomPlayouts : public testing::TestWithParam<std::string> {};

TEST_P(RandomPlayouts, KeepInvariantsAndEndWithAReason) {
  const RuleProfile& rules = *chaturanga::rule_profile(GetParam()).value();
  Rng rng(/*seed=*/20261129);
  std::map<std::string, int> reasons;
  int wins = 0, wins_in_two = 0;    // positions checked with a forced win in one move, in two
  constexpr int kMaxPlies = 20000;  // the n-move rule ends any game long before this
  const int slow_check_every = rules.stalemate == StalemateRule::IllegalToCause ? 10 : 2;
  for (int game = 0; game < playouts_per_profile(); ++game) {
    Position pos = Position::start(rules);
    std::vector<uint64_t> history;
    GameEnd end;
    for (int ply = 0; ply < kMaxPlies; ++ply) {
      const std::string where =
          GetParam() + " game " + std::to_string(game) + " ply " + std::to_string(ply) + " " + pos.fen();
      check_invariants(pos, where);
      MoveList list;
      generate_legal(pos, list);
      // The slow generator dominates the cost (far more under the stalemate filter, which it
      // runs by brute force): compare it, and forces_win with its brute-force definition, in
      // every other game, or every tenth.
      if (game % slow_check_every == 0) {
        ASSERT_EQ(fast_moves(pos), test::slow_legal_moves(pos)) << where;
        const bool win = forced_win_by_brute_force(pos, history, 1);
        ASSERT_EQ(forces_win(pos, history, 1), win) << where;
        wins += win;
        if (!win && forces_win(pos, history, 2)) {
          ASSERT_TRUE(forced_win_by_brute_force(pos, history, 2)) << where;
          ++wins_in_two;
        }
      }
      end = adjudicate(pos, history);
      if (list.size == 0) {
        ASSERT_TRUE(end.over()) << where;
      }
      if (end.over()) break;
      history.push_back(pos.key());
      pos.do_move(list.moves[rng.below(uint32_t(list.size))]);
    }
    ASSERT_TRUE(end.over()) << GetParam() << " game " << game << " did not end";
    ASSERT_NE(end.reason, EndReason::None);
    ++reasons[std::string(to_string(end.reason))];
  }
  EXPECT_GT(wins, 0) << "no position with a win in one was checked";
  EXPECT_GT(wins_in_two, 0) << "no position with a forced win in two was checked";
  std::string summary;
  for (const auto& [reason, n] : reasons) summary += " " + reason + "=" + std::to_string(n);
  std::printf("%s end reasons:%s; positions with a forced win in one move: %d, in two: %d\n", GetParam().c_str(),
              summary.c_str(), wins, wins_in_two);
}

INSTANTIATE_TEST_SUITE_P(AllProfiles, RandomPlayouts, testing::ValuesIn(chaturanga::builtin_rule_profiles()),
                         [](const testing::TestParamInfo<std::string>& param) {
                           std::string name = param.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace sz::chaturanga
