#pragma once
// THE seam between the games and everything that learns or searches (docs/ARCHITECTURE.md):
// search, nn, data, train and selfplay see a game only through GameState and GameSpec, handed to
// them by whoever chose the game by name (games/registry.h). Interfaces only: nothing here
// constructs a game. GameState is the one virtual boundary; it is crossed once per tree node,
// where a network evaluation dwarfs the cost of the call.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "core/error.h"

namespace sz::game {

using ActionId = int32_t;  // dense, in [0, GameSpec::action_space), from the mover's view

// One entry of a sparse policy (a search's target, a record on disk): an action and its
// probability.
struct PolicyEntry {
  ActionId action = 0;
  float prob = 0;
};

// Room for every legal action of any position (Sittuyin placement has at most 5 x 24 drops).
inline constexpr int kMaxActions = 256;

enum class Player : uint8_t { First, Second };  // White (Sittuyin: also called Red), Black
enum class Phase : uint8_t { Placement, Play };

// Game results from the first player's view, with the reason the rules give.
enum class GameResult : uint8_t { Ongoing, FirstWins, SecondWins, Draw };

// The result as PGN writes it: "1-0", "0-1", "1/2-1/2", or "*" while the game goes on.
constexpr const char* pgn_result(GameResult result) {
  switch (result) {
    case GameResult::FirstWins:
      return "1-0";
    case GameResult::SecondWins:
      return "0-1";
    case GameResult::Draw:
      return "1/2-1/2";
    case GameResult::Ongoing:
      break;
  }
  return "*";
}

struct Outcome {
  GameResult result = GameResult::Ongoing;
  std::string_view reason = "none";  // checkmate, stalemate, n-move, repetition, ...
  bool over() const { return result != GameResult::Ongoing; }
};

// What a learner must know about a game's encoding. Stored with every network and data file.
struct GameSpec {
  std::string game;         // "sittuyin" or "shatranj"
  int binary_planes = 0;    // 8x8 bit planes, one uint64_t each (bit = square)
  int scalar_features = 0;  // floats: hands, counters, rule-profile features, ...
  int action_space = 0;     // number of dense action ids
  int encoder_version = 0;
  int action_space_version = 0;
  // Each action's place in a spatial policy of policy_planes 8x8 planes (AlphaZero's move
  // planes: a move type per plane, its square on the board): policy_map[a] = plane * 64 + square,
  // square = rank * 8 + file in the mover's frame. Fixed by action_space_version, so not stored
  // in files; empty for a game without such a map. Points into the game's static tables.
  int policy_planes = 0;
  std::span<const int32_t> policy_map;
  // The board mirrored a <-> h, where it is a symmetry of the game's rules: mirror_actions[a] is
  // the id of action a's twin, and the twin position encodes to the same scalars and to planes
  // with each rank's bits reversed. The trainer mirrors rows with it (TrainConfig::mirror).
  // Fixed by the versions above like policy_map; empty for a game without the symmetry.
  std::span<const int32_t> mirror_actions{};
};

// The encoded input of one position from the side to move's view: `binary_planes` bitboards
// followed by `scalar_features` floats (see docs/ENCODING.md).
struct EncodedView {
  std::span<uint64_t> planes;
  std::span<float> scalars;
};

// A game in progress, with its history (for repetition). Not thread-safe: one per game.
class GameState {
 public:
  virtual ~GameState() = default;

  virtual const GameSpec& spec() const = 0;
  virtual std::string_view profile() const = 0;

  // Copies `other` (of the same game) into this state without allocating once this state's
  // history has grown to the other's length: search reuses one scratch state per game.
  virtual void copy_from(const GameState& other) = 0;
  virtual std::unique_ptr<GameState> clone() const = 0;

  virtual Player to_move() const = 0;
  virtual Phase phase() const = 0;
  virtual int ply() const = 0;
  virtual uint64_t hash() const = 0;  // includes the profile and the men in hand

  // Writes the legal actions into `out` (at least kMaxActions long); returns their number.
  virtual int legal_actions(std::span<ActionId> out) const = 0;
  virtual void apply(ActionId action) = 0;  // a legal action
  virtual Outcome outcome() const = 0;      // claimable draws count as ends
  virtual void encode(EncodedView out) const = 0;

  // How far the move-count draw rules have run, in [0, 1]: 1 where the next quiet move may end
  // the game drawn (chaturanga: the larger of the n-move clock and the counting ply, each over
  // its limit); 0 for a game without such rules.
  virtual float draw_rule_progress() const { return 0; }

  virtual std::string action_to_string(ActionId action) const = 0;  // UCI, e.g. "R@a1"
  virtual std::string action_to_san(ActionId action) const = 0;     // for PGN, e.g. "Nf3+"
  virtual sz::Result<ActionId> parse_action(std::string_view text) const = 0;
  virtual std::string to_string() const = 0;  // the FEN
  // The position drawn for a person at a terminal (a board), the FEN included.
  virtual std::string board_text() const { return to_string(); }
};

}  // namespace sz::game
