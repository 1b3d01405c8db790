#pragma once
// Internal to src/data: the datasets of schema version 3 (kSampleFormatVersion), shared by the
// writer (which creates them) and the reader (which checks them). docs/DATA.md describes the
// same table for people; change both together.
#include <hdf5.h>

#include <array>
#include <cstdint>
#include <string>

#include "game/game_state.h"

namespace sz::data::schema {

// Which count a dataset's first dimension runs over.
enum class Table { Positions, Policy, Games };
// The second dimension: none (a 1-D dataset), binary planes, scalar features or win/draw/loss.
enum class Width { One, Planes, Scalars, Wdl };
enum class Kind { I8, U8, I32, I64, U64, F32, Str };

struct Column {
  const char* path;
  Table table;
  Width width;
  Kind kind;
  int since = 1;  // the schema version that added it; older shards lack it (the reader fills it in)
};

enum Col : int {
  kPlanes,
  kScalars,
  kPolicyStart,
  kPolicyCount,
  kResult,
  kAction,
  kPhase,
  kPly,
  kFullSearch,
  kPliesToEnd,
  kSearchWdl,
  kHasSearchValue,
  kPolicyTarget,
  kLegalCount,
  kMaterial,
  kPolicyAction,
  kPolicyProb,
  kGameProfile,
  kGameResult,
  kGameResultText,
  kGameEndReason,
  kGameStartFen,
  kGameMoves,
  kGameModelId,
  kGameSeed,
  kGameFirstPosition,
  kGameNumPositions,
  kNumColumns
};

inline constexpr std::array<Column, kNumColumns> kColumns = {{
    {"positions/planes", Table::Positions, Width::Planes, Kind::U64},
    {"positions/scalars", Table::Positions, Width::Scalars, Kind::F32},
    {"positions/policy_start", Table::Positions, Width::One, Kind::I64},
    {"positions/policy_count", Table::Positions, Width::One, Kind::I32},
    {"positions/result", Table::Positions, Width::One, Kind::I8},
    {"positions/action", Table::Positions, Width::One, Kind::I32},
    {"positions/phase", Table::Positions, Width::One, Kind::U8},
    {"positions/ply", Table::Positions, Width::One, Kind::I32},
    {"positions/full_search", Table::Positions, Width::One, Kind::U8},
    {"positions/plies_to_end", Table::Positions, Width::One, Kind::I32},
    {"positions/search_wdl", Table::Positions, Width::Wdl, Kind::F32, 2},
    {"positions/has_search_value", Table::Positions, Width::One, Kind::U8, 3},
    {"positions/policy_target", Table::Positions, Width::One, Kind::U8, 3},
    {"positions/legal_count", Table::Positions, Width::One, Kind::I32, 3},
    {"positions/material", Table::Positions, Width::One, Kind::F32, 3},
    {"policy/action", Table::Policy, Width::One, Kind::I32},
    {"policy/prob", Table::Policy, Width::One, Kind::F32},
    {"games/profile", Table::Games, Width::One, Kind::Str},
    {"games/result", Table::Games, Width::One, Kind::I8},
    {"games/result_text", Table::Games, Width::One, Kind::Str},
    {"games/end_reason", Table::Games, Width::One, Kind::Str},
    {"games/start_fen", Table::Games, Width::One, Kind::Str},
    {"games/moves", Table::Games, Width::One, Kind::Str},
    {"games/model_id", Table::Games, Width::One, Kind::Str},
    {"games/seed", Table::Games, Width::One, Kind::U64},
    {"games/first_position", Table::Games, Width::One, Kind::I64},
    {"games/num_positions", Table::Games, Width::One, Kind::I64},
}};

inline constexpr std::array<const char*, 3> kGroups = {"positions", "policy", "games"};

// File (root group) attributes.
inline constexpr const char* kAttrFormatVersion = "sample_format_version";
inline constexpr const char* kAttrGame = "game";
inline constexpr const char* kAttrProfiles = "profiles";
inline constexpr const char* kAttrEncoderVersion = "encoder_version";
inline constexpr const char* kAttrActionSpaceVersion = "action_space_version";
inline constexpr const char* kAttrBinaryPlanes = "binary_planes";
inline constexpr const char* kAttrScalarFeatures = "scalar_features";
inline constexpr const char* kAttrActionSpace = "action_space";
inline constexpr const char* kAttrWriter = "writer";
inline constexpr const char* kAttrNumGames = "num_games";
inline constexpr const char* kAttrNumPositions = "num_positions";
// Where a shard stands in its run: the loop's generation of its games (0 outside a loop) and
// when it was finished (Unix milliseconds), by which the trainer's window orders shards. Written
// into the file, so copying a run directory, which resets modification times, keeps the order.
// Shards written before these attributes have neither; the catalog reads their modification
// time.
inline constexpr const char* kAttrGeneration = "generation";
inline constexpr const char* kAttrFinishedUnixMs = "finished_unix_ms";
// The self-play worker that wrote the shard (its id seeds its games, selfplay::worker_seed);
// written only when the writer names one.
inline constexpr const char* kAttrWorker = "worker";

// The type stored in the file (little-endian, fixed size) and the one used in memory.
hid_t file_type(Kind kind);
hid_t mem_type(Kind kind);  // Kind::Str: strings are sized per shard, see h5::fixed_string_type
size_t kind_size(Kind kind);
std::string kind_name(Kind kind);  // "int8", "float32", "string", ... for messages and docs

// Columns of the second dimension (1 for 1-D datasets).
int64_t width_of(const Column& column, const game::GameSpec& spec);

// Rows per chunk of a numeric column: about kChunkBytes of raw data, so that a chunk fits the
// default chunk cache.
inline constexpr int64_t kChunkBytes = 256 * 1024;
int64_t chunk_rows(const Column& column, const game::GameSpec& spec);

}  // namespace sz::data::schema
