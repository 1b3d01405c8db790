#pragma once
// Tiny games behind the GameState seam, for testing the search without the chaturanga rules:
// tic-tac-toe (wins, losses and draws) and Nim (take 1..max_take stones; who takes the last
// stone wins), whose wins one move deep make the Gumbel tests exact.
#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "game/game_state.h"

namespace sz::search::test {

class TicTacToe final : public game::GameState {
 public:
  const game::GameSpec& spec() const override {
    static const game::GameSpec kSpec{"tictactoe", 0, 0, 9, 1, 1, 0, {}};
    return kSpec;
  }
  std::string_view profile() const override { return "tictactoe"; }
  void copy_from(const game::GameState& other) override { *this = static_cast<const TicTacToe&>(other); }
  std::unique_ptr<game::GameState> clone() const override { return std::make_unique<TicTacToe>(*this); }

  game::Player to_move() const override { return ply_ % 2 ? game::Player::Second : game::Player::First; }
  game::Phase phase() const override { return game::Phase::Play; }
  int ply() const override { return ply_; }
  uint64_t hash() const override {
    uint64_t h = 0;
    for (int8_t c : board_) h = h * 3 + uint64_t(c);
    return h;
  }
  int legal_actions(std::span<game::ActionId> out) const override {
    int n = 0;
    for (int i = 0; i < 9; ++i)
      if (board_[size_t(i)] == 0) out[size_t(n++)] = i;
    return n;
  }
  void apply(game::ActionId action) override {
    board_[size_t(action)] = int8_t(ply_ % 2 + 1);
    ++ply_;
  }
  game::Outcome outcome() const override {
    static constexpr int kLines[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                         {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};
    for (const auto& l : kLines) {
      const int8_t c = board_[size_t(l[0])];
      if (c != 0 && c == board_[size_t(l[1])] && c == board_[size_t(l[2])])
        return {c == 1 ? game::GameResult::FirstWins : game::GameResult::SecondWins, "line"};
    }
    if (ply_ == 9) return {game::GameResult::Draw, "full"};
    return {};
  }
  void encode(game::EncodedView) const override {}
  std::string action_to_string(game::ActionId action) const override { return std::to_string(action); }
  std::string action_to_san(game::ActionId action) const override { return action_to_string(action); }
  sz::Result<game::ActionId> parse_action(std::string_view text) const override {
    if (text.size() != 1 || text[0] < '0' || text[0] > '8') return fail("bad square");
    return game::ActionId(text[0] - '0');
  }
  std::string to_string() const override {
    std::string s;
    for (int8_t c : board_) s += ".XO"[c];
    return s;
  }

 private:
  std::array<int8_t, 9> board_{};
  int ply_ = 0;
};

class Nim final : public game::GameState {
 public:
  Nim(int stones, int max_take) : stones_(stones), max_take_(max_take) {}
  const game::GameSpec& spec() const override {
    static const game::GameSpec kSpec{"nim", 0, 0, 64, 1, 1, 0, {}};
    return kSpec;
  }
  std::string_view profile() const override { return "nim"; }
  void copy_from(const game::GameState& other) override { *this = static_cast<const Nim&>(other); }
  std::unique_ptr<game::GameState> clone() const override { return std::make_unique<Nim>(*this); }

  game::Player to_move() const override { return ply_ % 2 ? game::Player::Second : game::Player::First; }
  game::Phase phase() const override { return game::Phase::Play; }
  int ply() const override { return ply_; }
  uint64_t hash() const override { return uint64_t(stones_) * 2 + uint64_t(ply_ % 2); }
  // Action a takes a + 1 stones.
  int legal_actions(std::span<game::ActionId> out) const override {
    int n = 0;
    for (int take = 1; take <= std::min(max_take_, stones_); ++take) out[size_t(n++)] = take - 1;
    return n;
  }
  void apply(game::ActionId action) override {
    stones_ -= action + 1;
    ++ply_;
  }
  game::Outcome outcome() const override {
    if (stones_ > 0) return {};
    // The player who took the last stone (not the one to move) wins.
    return {to_move() == game::Player::First ? game::GameResult::SecondWins : game::GameResult::FirstWins, "empty"};
  }
  void encode(game::EncodedView) const override {}
  std::string action_to_string(game::ActionId action) const override { return std::to_string(action + 1); }
  std::string action_to_san(game::ActionId action) const override { return action_to_string(action); }
  sz::Result<game::ActionId> parse_action(std::string_view) const override { return fail("unused"); }
  std::string to_string() const override { return std::to_string(stones_); }

 private:
  int stones_;
  int max_take_;
  int ply_ = 0;
};

}  // namespace sz::search::test
