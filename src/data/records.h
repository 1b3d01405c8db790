#pragma once
// Game records in memory: what self-play hands to ShardWriter and what ShardReader gives back.
// Positions are kept in columns (structure of arrays), the layout of the HDF5 file
// (docs/DATA.md), so that the trainer can load a whole shard and sample rows without copying
// each position into an object of its own.
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "game/game_state.h"

namespace sz::data {

// The on-disk schema version. Bump => add an upgrade step in shard_reader.cpp, and update
// docs/DATA.md. Writers write only this version; readers upgrade step by step or refuse.
inline constexpr int kSampleFormatVersion = 3;  // 2: positions/search_wdl; 3: what the row's targets hold

using PolicyEntry = game::PolicyEntry;

// One position, as self-play appends it. The spans need only live for the call to append().
struct PositionRow {
  std::span<const uint64_t> planes;     // GameSpec::binary_planes bitboards (bit = square)
  std::span<const float> scalars;       // GameSpec::scalar_features
  std::span<const PolicyEntry> policy;  // the search's visit distribution, sparse
  int8_t result = 0;                    // from the side to move's view: +1 win, 0 draw, -1 loss
  game::ActionId action = 0;            // the move played
  game::Phase phase = game::Phase::Play;
  int32_t ply = 0;
  bool full_search = true;   // playout-cap randomisation: only these are policy targets
  int32_t plies_to_end = 0;  // plies from this position to the end of the game
  // The search's value of the position: win/draw/loss for the side to move, the value of the
  // policy target (its children's values weighted by it: forced and exploratory visits left out)
  // with decided draws worth 0 (no contempt). A value target besides the result.
  std::array<float, 3> search_wdl{0, 1, 0};
  // Whether search_wdl says anything: false where the search had no value (the uniform
  // bootstrap) or there was no search (an imposed drop); the trainer then takes the result alone.
  bool has_search_value = true;
  // Whether `policy` is a training target: a full search (or any Gumbel search) by a player with
  // a prior or a value. A target lists every legal action, those the search gave nothing with
  // probability 0, so that the trainer knows which actions were legal (legal_count).
  bool policy_target = false;
  int32_t legal_count = 0;  // legal actions at the position; 0: not recorded
  // The mover's material edge in the game's units (game::Heuristics::material), for the value's
  // calibration by material; NaN where unknown (shards before version 3).
  float material = 0;
};

// Positions in columns. Row i owns planes[i*binary_planes ...], scalars[i*scalar_features ...]
// and the policy entries [policy_start[i], policy_start[i] + policy_count[i]) of
// policy_action/policy_prob; policy_start is relative to this object's policy arrays.
struct PositionColumns {
  int binary_planes = 0;
  int scalar_features = 0;

  std::vector<uint64_t> planes;
  std::vector<float> scalars;
  std::vector<int64_t> policy_start;
  std::vector<int32_t> policy_count;
  std::vector<int32_t> policy_action;
  std::vector<float> policy_prob;
  std::vector<int8_t> result;
  std::vector<int32_t> action;
  std::vector<uint8_t> phase;  // 0 placement, 1 play (game::Phase)
  std::vector<int32_t> ply;
  std::vector<uint8_t> full_search;  // 0 or 1
  std::vector<int32_t> plies_to_end;
  std::vector<float> search_wdl;          // 3 per row: win, draw, loss (PositionRow::search_wdl)
  std::vector<uint8_t> has_search_value;  // 0 or 1
  std::vector<uint8_t> policy_target;     // 0 or 1
  std::vector<int32_t> legal_count;
  std::vector<float> material;

  // Whether row i's policy lists every legal action (a version-3 target), so that the policy's
  // actions are the legal ones.
  bool policy_lists_legal(int64_t i) const {
    return legal_count[size_t(i)] > 0 && policy_count[size_t(i)] == legal_count[size_t(i)];
  }

  PositionColumns() = default;
  PositionColumns(int binary_planes_, int scalar_features_)
      : binary_planes(binary_planes_), scalar_features(scalar_features_) {}

  int64_t size() const { return int64_t(result.size()); }
  bool empty() const { return result.empty(); }
  void clear();  // keeps the widths and the capacity

  // Throws sz::Error if the row's plane or scalar count differs from this object's widths.
  void append(const PositionRow& row);
  // Appends every row of `other` (same widths), rebasing its policy starts.
  void append(const PositionColumns& other);

  std::span<const uint64_t> planes_of(int64_t i) const;
  std::span<const float> scalars_of(int64_t i) const;
  std::span<const int32_t> policy_actions_of(int64_t i) const;
  std::span<const float> policy_probs_of(int64_t i) const;

  // Throws sz::Error, prefixed by `context`, if the columns disagree in length or the policy
  // ranges are not consecutive and inside the policy arrays.
  void check_consistent(std::string_view context) const;
};

// What a game table row says about a game, besides where its positions are.
struct GameMeta {
  std::string profile;     // rule profile name, e.g. "sittuyin-plyyard"
  int8_t result = 0;       // from White's (the first player's) view: +1, 0, -1
  std::string end_reason;  // as the rules give it: "checkmate", "stalemate", ...
  std::string start_fen;
  std::string moves;     // placements and moves in UCI notation, space separated
  std::string model_id;  // the network that played (empty for the bootstrap evaluator)
  uint64_t seed = 0;
};

// One finished game, as self-play hands it to ShardWriter::add_game.
struct GameRecord {
  GameMeta meta;
  PositionColumns positions;
};

// A row of a shard's games table.
struct GameInfo : GameMeta {
  int64_t first_position = 0;  // index of the game's first row in the shard's positions
  int64_t num_positions = 0;
};

// Throws sz::Error, prefixed by `where`, naming the first position whose values are out of
// range for `spec`: result not in {-1, 0, 1}, action or policy action outside
// [0, action_space), phase or full_search not 0/1, negative ply. Positions are numbered from
// `first_row` in the message.
void check_position_values(const PositionColumns& positions, const game::GameSpec& spec, const std::string& where,
                           int64_t first_row = 0);

// "1-0", "0-1" or "1/2-1/2" for a result from White's view; throws sz::Error otherwise.
std::string result_text(int result);

}  // namespace sz::data
