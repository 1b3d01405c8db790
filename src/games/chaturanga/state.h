#pragma once
// The chaturanga family behind the game seam: a Position plus the game's history of hashes (for
// repetition). Sittuyin (every profile) and Shatranj share it; the profile says which is played.
#include <vector>

#include "game/game_state.h"
#include "games/chaturanga/position.h"

namespace sz::chaturanga {

game::GameSpec game_spec(Game game);

class State final : public game::GameState {
 public:
  explicit State(const Position& start);

  const game::GameSpec& spec() const override { return spec_; }
  std::string_view profile() const override { return pos_.rules().id; }
  void copy_from(const game::GameState& other) override;
  std::unique_ptr<game::GameState> clone() const override { return std::make_unique<State>(*this); }

  game::Player to_move() const override { return game::Player(pos_.side_to_move()); }
  game::Phase phase() const override;
  int ply() const override { return int(history_.size()); }
  uint64_t hash() const override { return pos_.key(); }

  int legal_actions(std::span<game::ActionId> out) const override;
  void apply(game::ActionId action) override;
  game::Outcome outcome() const override;
  void encode(game::EncodedView out) const override;
  float draw_rule_progress() const override;

  std::string action_to_string(game::ActionId action) const override;
  std::string action_to_san(game::ActionId action) const override;
  sz::Result<game::ActionId> parse_action(std::string_view text) const override;
  std::string to_string() const override { return pos_.fen(); }
  std::string board_text() const override { return pos_.pretty(); }

  const Position& position() const { return pos_; }
  // The keys of the game's earlier positions, oldest first, not the current one.
  std::span<const uint64_t> history() const { return history_; }
  int repetitions() const;  // earlier occurrences of the current position since the last irreversible move

 private:
  game::GameSpec spec_;
  Position pos_;
  std::vector<uint64_t> history_;  // hashes of the earlier positions, oldest first
};

}  // namespace sz::chaturanga
