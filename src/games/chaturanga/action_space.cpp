#include "games/chaturanga/action_space.h"

#include <algorithm>
#include <array>
#include <vector>

#include "games/chaturanga/notation.h"

namespace sz::chaturanga {

using namespace board8;

namespace {

constexpr PieceType kDropOrder[kDropTypes] = {King, Fers, Khon, Knight, Rook};
constexpr int kDropBase = kBoardMoves;
constexpr int kPromotionBase = kDropBase + kDropTypes * 64;
// Square offsets of the promotion forms, in the mover's frame: in place, NE, NW, SE, SW.
constexpr int kPromotionDelta[5] = {0, 9, 7, -7, -9};

struct BoardMoveTables {
  std::array<std::array<int16_t, 64>, 64> id;  // -1 where no man moves from -> to
  std::array<std::pair<int8_t, int8_t>, kBoardMoves> squares;
};

BoardMoveTables make_board_move_tables() {
  BoardMoveTables t{};
  const AttackTables& a = attack_tables;
  int next = 0;
  for (int from = 0; from < 64; ++from) {
    const Bitboard reach = a.rook_empty[from] | a.king[from] | a.knight[from] | a.alfil[from];
    for (int to = 0; to < 64; ++to) {
      t.id[from][to] = -1;
      if (!(reach & bit(to))) continue;
      t.squares[next] = {int8_t(from), int8_t(to)};
      t.id[from][to] = int16_t(next++);
    }
  }
  if (next != kBoardMoves) std::abort();  // kBoardMoves must match the geometry
  return t;
}

const BoardMoveTables& tables() {
  static const BoardMoveTables t = make_board_move_tables();
  return t;
}

// Displacements (rank step, file step) of the board moves, sorted: one policy plane each.
std::vector<std::pair<int, int>> board_displacements() {
  std::vector<std::pair<int, int>> d;
  for (const auto& [from, to] : tables().squares)
    d.emplace_back(rank_of(to) - rank_of(from), file_of(to) - file_of(from));
  std::sort(d.begin(), d.end());
  d.erase(std::unique(d.begin(), d.end()), d.end());
  return d;
}

struct PolicyMap {
  int planes = 0;
  std::vector<int32_t> index;  // by action id
};

PolicyMap make_policy_map(Game game) {
  const std::vector<std::pair<int, int>> steps = board_displacements();
  PolicyMap m;
  m.index.resize(size_t(action_space_size(game)));
  for (int a = 0; a < kBoardMoves; ++a) {
    const auto [from, to] = tables().squares[size_t(a)];
    const std::pair<int, int> step{rank_of(to) - rank_of(from), file_of(to) - file_of(from)};
    const int plane = int(std::lower_bound(steps.begin(), steps.end(), step) - steps.begin());
    m.index[size_t(a)] = plane * 64 + from;
  }
  m.planes = int(steps.size());
  if (game == Game::Sittuyin) {
    for (int t = 0; t < kDropTypes; ++t)
      for (int sq = 0; sq < 64; ++sq) m.index[size_t(kDropBase + t * 64 + sq)] = (m.planes + t) * 64 + sq;
    m.planes += kDropTypes;
    for (int from = 0; from < 64; ++from)
      for (int form = 0; form < 5; ++form)
        m.index[size_t(kPromotionBase + from * 5 + form)] = (m.planes + form) * 64 + from;
    m.planes += 5;
  }
  return m;
}

const PolicyMap& policy_map_of(Game game) {
  static const PolicyMap sittuyin = make_policy_map(Game::Sittuyin), shatranj = make_policy_map(Game::Shatranj);
  return game == Game::Sittuyin ? sittuyin : shatranj;
}

std::vector<int32_t> make_mirror_actions(Game game) {
  // The promotion forms' twins: in place stays, NE <-> NW, SE <-> SW (kPromotionDelta's order).
  constexpr int kMirrorForm[5] = {0, 2, 1, 4, 3};
  std::vector<int32_t> twin(size_t(action_space_size(game)));
  for (int a = 0; a < kBoardMoves; ++a) {
    const auto [from, to] = tables().squares[size_t(a)];
    twin[size_t(a)] = tables().id[mirror_files(from)][mirror_files(to)];
  }
  if (game == Game::Sittuyin) {
    for (int t = 0; t < kDropTypes; ++t)
      for (int sq = 0; sq < 64; ++sq) twin[size_t(kDropBase + t * 64 + sq)] = kDropBase + t * 64 + mirror_files(sq);
    for (int from = 0; from < 64; ++from)
      for (int form = 0; form < 5; ++form)
        twin[size_t(kPromotionBase + from * 5 + form)] = kPromotionBase + mirror_files(from) * 5 + kMirrorForm[form];
  }
  return twin;
}

}  // namespace

std::span<const int32_t> mirror_actions(Game game) {
  static const std::vector<int32_t> sittuyin = make_mirror_actions(Game::Sittuyin),
                                    shatranj = make_mirror_actions(Game::Shatranj);
  return game == Game::Sittuyin ? sittuyin : shatranj;
}

int policy_planes(Game game) { return policy_map_of(game).planes; }

std::span<const int32_t> policy_map(Game game) { return policy_map_of(game).index; }

int action_space_size(Game game) { return game == Game::Sittuyin ? kSittuyinActions : kShatranjActions; }

int32_t action_of(const Position& pos, Move m) {
  const Game game = pos.rules().game;
  const Color us = pos.side_to_move();
  const int to = view_square(game, us, m.to());
  if (m.is_drop()) {
    for (int i = 0; i < kDropTypes; ++i)
      if (kDropOrder[i] == m.dropped()) return kDropBase + i * 64 + to;
  }
  const int from = view_square(game, us, m.from());
  if (m.is_promotion() && game == Game::Sittuyin) {
    for (int form = 0; form < 5; ++form)
      if (to - from == kPromotionDelta[form]) return kPromotionBase + from * 5 + form;
  }
  return tables().id[from][to];
}

Move move_of(const Position& pos, int32_t action) {
  const Game game = pos.rules().game;
  const Color us = pos.side_to_move();
  if (action < 0 || action >= action_space_size(game)) return Move{};
  if (action < kBoardMoves) {
    const auto [from_view, to_view] = tables().squares[action];
    const int from = view_square(game, us, from_view), to = view_square(game, us, to_view);
    const bool promotes =
        game == Game::Shatranj && type_of(pos.piece_on(from)) == Pawn && rank_of(to) == (us == White ? 7 : 0);
    return promotes ? Move::promotion(from, to) : Move::normal(from, to);
  }
  if (action < kPromotionBase) {
    const int i = (action - kDropBase) / 64, to = view_square(game, us, (action - kDropBase) % 64);
    return Move::drop(kDropOrder[i], to);
  }
  const int from_view = (action - kPromotionBase) / 5, form = (action - kPromotionBase) % 5;
  const int to_view = from_view + kPromotionDelta[form];
  if (to_view < 0 || to_view > 63 || std::abs(file_of(to_view) - file_of(from_view)) > 1) return Move{};
  return Move::promotion(view_square(game, us, from_view), view_square(game, us, to_view));
}

std::string action_text(Game game, int32_t action) {
  if (action < 0 || action >= action_space_size(game)) return "";
  if (action < kBoardMoves) {
    const auto [from, to] = tables().squares[size_t(action)];
    return to_uci(Move::normal(from, to), game);
  }
  if (action < kPromotionBase)
    return to_uci(Move::drop(kDropOrder[(action - kDropBase) / 64], (action - kDropBase) % 64), game);
  const int from = (action - kPromotionBase) / 5, to = from + kPromotionDelta[(action - kPromotionBase) % 5];
  if (to < 0 || to > 63 || std::abs(file_of(to) - file_of(from)) > 1) return "";
  return to_uci(Move::promotion(from, to), game);
}

}  // namespace sz::chaturanga
