#include "data/shard_reader.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <limits>
#include <system_error>

#include "core/error.h"
#include "data/hdf5_util.h"
#include "data/schema.h"

namespace sz::data {

namespace fs = std::filesystem;
using schema::Col;
using schema::kColumns;

namespace {

// The schema versions this reader can read: 1 to 3. What an older version lacks is filled in
// in memory (upgrade_positions: 1 -> 2, later 2 -> 3, ...), so that every reader function
// returns the latest form.
void check_format_version(int64_t version, const std::string& path) {
  if (version >= 1 && version <= kSampleFormatVersion) return;
  std::string why = version > kSampleFormatVersion ? "written by a newer program; update this reader"
                                                   : "no upgrade step exists for it";
  throw ShardVersionError(path + ": schema version (sample_format_version) " + std::to_string(version) +
                          " is unknown; this reader knows versions 1 to " + std::to_string(kSampleFormatVersion) +
                          " (" + why + ")");
}

bool kind_is_signed(schema::Kind kind) {
  return kind == schema::Kind::I8 || kind == schema::Kind::I32 || kind == schema::Kind::I64;
}

void check_type(hid_t dataset, schema::Kind kind, const std::string& where) {
  const h5::Handle type(h5::check_id(H5Dget_type(dataset), where, "cannot get the type"), H5Tclose);
  const H5T_class_t cls = H5Tget_class(type.get());
  const size_t size = H5Tget_size(type.get());
  bool ok = false;
  if (kind == schema::Kind::Str) {
    ok = cls == H5T_STRING && H5Tis_variable_str(type.get()) == 0;
  } else if (kind == schema::Kind::F32) {
    ok = cls == H5T_FLOAT && size == 4;
  } else {
    ok = cls == H5T_INTEGER && size == schema::kind_size(kind) &&
         (H5Tget_sign(type.get()) == H5T_SGN_2) == kind_is_signed(kind);
  }
  if (!ok) throw Error(where + ": wrong type; the schema says " + schema::kind_name(kind));
}

// Version 1 -> 2: no search value was recorded; the game's result stands in for it (a value
// target mixed from the two is then the result alone).
void upgrade_to_2(PositionColumns& p) {
  p.search_wdl.assign(3 * p.result.size(), 0.0f);
  for (size_t i = 0; i < p.result.size(); ++i) p.search_wdl[3 * i + size_t(1 - p.result[i])] = 1.0f;
}

// Version 2 -> 3: what the targets hold was not recorded. Rows of games played without a model
// (`modelless[i]`: the uniform bootstrap, whose search_wdl is a constant draw and whose visits
// followed no prior) had neither a search value nor a policy target; the others had a value,
// and a policy target where the search was full. Legal actions and material were not recorded
// (legal_count 0: no mask; material NaN). Version 1 rows had no search value at all.
void upgrade_to_3(int version, PositionColumns& p, const std::vector<uint8_t>& modelless) {
  const size_t n = p.result.size();
  p.has_search_value.resize(n);
  p.policy_target.resize(n);
  p.legal_count.assign(n, 0);
  p.material.assign(n, std::numeric_limits<float>::quiet_NaN());
  for (size_t i = 0; i < n; ++i) {
    p.has_search_value[i] = version >= 2 && !modelless[i];
    p.policy_target[i] = p.full_search[i] && !modelless[i];
  }
}

}  // namespace

struct ShardReader::Impl {
  ShardInfo info;
  h5::Handle file;
  std::array<h5::Handle, schema::kNumColumns> datasets;

  std::string where(int col) const { return info.path + ": " + kColumns[size_t(col)].path; }
  void read_attributes();
  void open_datasets();
  void check_games_table() const;
  int64_t table_length(schema::Table table) const;

  template <typename T>
  std::vector<T> read(Col col, int64_t first, int64_t rows) const {
    const schema::Column& c = kColumns[size_t(col)];
    const int64_t width = schema::width_of(c, info.spec);
    std::vector<T> out(size_t(rows * width));
    h5::read_rows(datasets[size_t(col)].get(), schema::mem_type(c.kind), out.data(), hsize_t(first), hsize_t(rows),
                  hsize_t(width), where(col));
    return out;
  }
  std::vector<std::string> strings(Col col) const {
    return h5::read_strings(datasets[size_t(col)].get(), 0, hsize_t(info.num_games), where(col));
  }
  std::vector<uint8_t> modelless_rows(int64_t first, int64_t count) const;
};

// For rows [first, first + count): 1 where the row's game names no model (games/model_id "").
std::vector<uint8_t> ShardReader::Impl::modelless_rows(int64_t first, int64_t count) const {
  const auto model = strings(schema::kGameModelId);
  const auto start = read<int64_t>(schema::kGameFirstPosition, 0, info.num_games);
  const auto length = read<int64_t>(schema::kGameNumPositions, 0, info.num_games);
  std::vector<uint8_t> out(size_t(count), 0);
  for (size_t g = 0; g < model.size(); ++g) {
    if (!model[g].empty()) continue;
    const int64_t lo = std::max(start[g], first), hi = std::min(start[g] + length[g], first + count);
    for (int64_t r = lo; r < hi; ++r) out[size_t(r - first)] = 1;
  }
  return out;
}

void ShardReader::Impl::read_attributes() {
  const hid_t f = file.get();
  const std::string& path = info.path;
  if (H5Aexists(f, schema::kAttrFormatVersion) <= 0) {
    h5::take_error_message();
    throw Error(path + ": missing attribute '" + schema::kAttrFormatVersion + "' (not a sittuyin-zero shard?)");
  }
  const int64_t version = h5::read_int_attr(f, schema::kAttrFormatVersion, path);
  check_format_version(version, path);
  info.format_version = int(version);
  game::GameSpec& s = info.spec;
  s.game = h5::read_string_attr(f, schema::kAttrGame, path);
  s.encoder_version = int(h5::read_int_attr(f, schema::kAttrEncoderVersion, path));
  s.action_space_version = int(h5::read_int_attr(f, schema::kAttrActionSpaceVersion, path));
  s.binary_planes = int(h5::read_int_attr(f, schema::kAttrBinaryPlanes, path));
  s.scalar_features = int(h5::read_int_attr(f, schema::kAttrScalarFeatures, path));
  s.action_space = int(h5::read_int_attr(f, schema::kAttrActionSpace, path));
  info.profiles = h5::read_string_array_attr(f, schema::kAttrProfiles, path);
  info.writer = h5::read_string_attr(f, schema::kAttrWriter, path);
  info.num_games = h5::read_int_attr(f, schema::kAttrNumGames, path);
  info.num_positions = h5::read_int_attr(f, schema::kAttrNumPositions, path);
  if (H5Aexists(f, schema::kAttrGeneration) > 0) info.generation = h5::read_int_attr(f, schema::kAttrGeneration, path);
  if (H5Aexists(f, schema::kAttrFinishedUnixMs) > 0)
    info.finished_unix_ms = h5::read_int_attr(f, schema::kAttrFinishedUnixMs, path);
  if (H5Aexists(f, schema::kAttrWorker) > 0) info.worker = h5::read_string_attr(f, schema::kAttrWorker, path);
  h5::take_error_message();  // a failed H5Aexists (negative) leaves its error on the stack
  if (s.game.empty() || s.binary_planes < 0 || s.scalar_features < 0 || s.action_space <= 0 || info.num_games < 0 ||
      info.num_positions < 0) {
    throw Error(path + ": implausible file attributes (game, sizes or counts)");
  }
}

int64_t ShardReader::Impl::table_length(schema::Table table) const {
  switch (table) {
    case schema::Table::Positions:
      return info.num_positions;
    case schema::Table::Games:
      return info.num_games;
    case schema::Table::Policy:
      return info.num_policy_entries;
  }
  return 0;
}

void ShardReader::Impl::open_datasets() {
  info.num_policy_entries = -1;  // taken from the first policy dataset, then checked against
  for (int col = 0; col < schema::kNumColumns; ++col) {
    const schema::Column& c = kColumns[size_t(col)];
    if (c.since > info.format_version) continue;  // the upgrade steps fill it in
    if (!h5::exists(file.get(), c.path)) throw Error(info.path + ": missing dataset '" + c.path + "'");
    datasets[size_t(col)] = h5::open_dataset(file.get(), c.path, where(col));
    const hid_t d = datasets[size_t(col)].get();
    check_type(d, c.kind, where(col));
    const std::vector<hsize_t> dims = h5::extent(d, where(col));
    const bool one = c.width == schema::Width::One;
    const int64_t width = schema::width_of(c, info.spec);
    if (dims.size() != (one ? 1u : 2u) || (!one && int64_t(dims[1]) != width)) {
      throw Error(where(col) + ": wrong shape; expected " + (one ? "(N,)" : "(N, " + std::to_string(width) + ")"));
    }
    if (c.table == schema::Table::Policy && info.num_policy_entries < 0) info.num_policy_entries = int64_t(dims[0]);
    if (int64_t(dims[0]) != table_length(c.table)) {
      throw Error(where(col) + ": has " + std::to_string(dims[0]) + " rows; expected " +
                  std::to_string(table_length(c.table)));
    }
  }
}

void ShardReader::Impl::check_games_table() const {
  const auto first = read<int64_t>(schema::kGameFirstPosition, 0, info.num_games);
  const auto count = read<int64_t>(schema::kGameNumPositions, 0, info.num_games);
  int64_t next = 0;
  for (size_t g = 0; g < first.size(); ++g) {
    if (first[g] != next || count[g] < 0) {
      throw Error(info.path + ": games/first_position: game " + std::to_string(g) +
                  " does not start where the previous one ends");
    }
    next += count[g];
  }
  if (next != info.num_positions) throw Error(info.path + ": the games do not cover the positions");
}

ShardReader::ShardReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ShardReader::~ShardReader() = default;
ShardReader::ShardReader(ShardReader&&) noexcept = default;
ShardReader& ShardReader::operator=(ShardReader&&) noexcept = default;

ShardReader ShardReader::open(const std::string& path) {
  auto guard = h5::lock();
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) throw Error(path + ": no such shard file");
  auto impl = std::make_unique<Impl>();
  impl->info.path = path;
  const h5::Handle fapl = h5::file_access(path);
  const hid_t id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl.get());
  impl->file =
      h5::Handle(h5::check_id(id, path, "cannot open as HDF5: truncated, corrupt or not an HDF5 file"), H5Fclose);
  impl->read_attributes();
  impl->open_datasets();
  impl->check_games_table();
  return ShardReader(std::move(impl));
}

const ShardInfo& ShardReader::info() const { return impl_->info; }

void ShardReader::check_compatible(const game::GameSpec& spec) const {
  const game::GameSpec& mine = impl_->info.spec;
  auto differ = [&](const char* field, const std::string& file_value, const std::string& wanted) {
    throw Error(impl_->info.path + ": " + field + " is " + file_value + ", expected " + wanted);
  };
  if (mine.game != spec.game) differ("game", mine.game, spec.game);
  auto same = [&](const char* field, int a, int b) {
    if (a != b) differ(field, std::to_string(a), std::to_string(b));
  };
  same("binary_planes", mine.binary_planes, spec.binary_planes);
  same("scalar_features", mine.scalar_features, spec.scalar_features);
  same("action_space", mine.action_space, spec.action_space);
  same("encoder_version", mine.encoder_version, spec.encoder_version);
  same("action_space_version", mine.action_space_version, spec.action_space_version);
}

PositionColumns ShardReader::read_positions(int64_t first, int64_t count) const {
  const Impl& r = *impl_;
  const std::string& path = r.info.path;
  if (first < 0 || count < 0 || first + count > r.info.num_positions) {
    throw Error(path + ": positions [" + std::to_string(first) + ", " + std::to_string(first + count) +
                ") are outside the shard's " + std::to_string(r.info.num_positions));
  }
  auto guard = h5::lock();
  PositionColumns p(r.info.spec.binary_planes, r.info.spec.scalar_features);
  p.planes = r.read<uint64_t>(schema::kPlanes, first, count);
  p.scalars = r.read<float>(schema::kScalars, first, count);
  p.policy_start = r.read<int64_t>(schema::kPolicyStart, first, count);
  p.policy_count = r.read<int32_t>(schema::kPolicyCount, first, count);
  p.result = r.read<int8_t>(schema::kResult, first, count);
  p.action = r.read<int32_t>(schema::kAction, first, count);
  p.phase = r.read<uint8_t>(schema::kPhase, first, count);
  p.ply = r.read<int32_t>(schema::kPly, first, count);
  p.full_search = r.read<uint8_t>(schema::kFullSearch, first, count);
  p.plies_to_end = r.read<int32_t>(schema::kPliesToEnd, first, count);
  const int version = r.info.format_version;
  if (version >= 2)
    p.search_wdl = r.read<float>(schema::kSearchWdl, first, count);
  else
    upgrade_to_2(p);
  if (version >= 3) {
    p.has_search_value = r.read<uint8_t>(schema::kHasSearchValue, first, count);
    p.policy_target = r.read<uint8_t>(schema::kPolicyTarget, first, count);
    p.legal_count = r.read<int32_t>(schema::kLegalCount, first, count);
    p.material = r.read<float>(schema::kMaterial, first, count);
  } else {
    upgrade_to_3(version, p, r.modelless_rows(first, count));
  }
  // The policy entries of consecutive positions are consecutive: read them as one range.
  const int64_t begin = count > 0 ? p.policy_start[0] : 0;
  int64_t end = begin;
  for (size_t i = 0; i < p.policy_start.size(); ++i) {
    if (p.policy_start[i] != end || p.policy_count[i] < 0) {
      throw Error(path + ": positions/policy_start: position " + std::to_string(first + int64_t(i)) +
                  " does not start where the previous one ends");
    }
    end += p.policy_count[i];
    p.policy_start[i] -= begin;
  }
  if (begin < 0 || end > r.info.num_policy_entries) throw Error(path + ": policy ranges run past the policy table");
  p.policy_action = r.read<int32_t>(schema::kPolicyAction, begin, end - begin);
  p.policy_prob = r.read<float>(schema::kPolicyProb, begin, end - begin);
  p.check_consistent(path);
  check_position_values(p, r.info.spec, path, first);
  return p;
}

std::vector<GameInfo> ShardReader::read_games() const {
  const Impl& r = *impl_;
  auto guard = h5::lock();
  const int64_t g = r.info.num_games;
  const auto profile = r.strings(schema::kGameProfile);
  const auto result = r.read<int8_t>(schema::kGameResult, 0, g);
  const auto text = r.strings(schema::kGameResultText);
  const auto reason = r.strings(schema::kGameEndReason);
  const auto fen = r.strings(schema::kGameStartFen);
  const auto moves = r.strings(schema::kGameMoves);
  const auto model = r.strings(schema::kGameModelId);
  const auto seed = r.read<uint64_t>(schema::kGameSeed, 0, g);
  const auto first = r.read<int64_t>(schema::kGameFirstPosition, 0, g);
  const auto count = r.read<int64_t>(schema::kGameNumPositions, 0, g);
  std::vector<GameInfo> games(static_cast<size_t>(g));
  for (size_t i = 0; i < games.size(); ++i) {
    GameInfo& info = games[i];
    if (result[i] < -1 || result[i] > 1 || text[i] != result_text(result[i])) {
      throw Error(r.info.path + ": games/result: game " + std::to_string(i) + " has result " +
                  std::to_string(result[i]) + " and result_text '" + text[i] + "'");
    }
    info.profile = profile[i];
    info.result = result[i];
    info.end_reason = reason[i];
    info.start_fen = fen[i];
    info.moves = moves[i];
    info.model_id = model[i];
    info.seed = seed[i];
    info.first_position = first[i];
    info.num_positions = count[i];
  }
  return games;
}

std::vector<uint64_t> ShardReader::read_seeds() const {
  auto guard = h5::lock();
  return impl_->read<uint64_t>(schema::kGameSeed, 0, impl_->info.num_games);
}

std::vector<std::string> ShardReader::read_model_ids() const {
  auto guard = h5::lock();
  return impl_->strings(schema::kGameModelId);
}

std::string skip_shard(const std::string& path, const std::string& why, bool damaged) {
  std::string message = "skipping shard " + (why.rfind(path, 0) == 0 ? why : path + ": " + why) + " (";
  if (!damaged) return message + "left in place for a program that reads it; the run goes on without it)";
  std::string why_not;
  const std::string moved = move_to_damaged(path, &why_not);
  message += moved.empty() ? "could not move it into damaged/: " + why_not : "moved to " + moved;
  return message + "; the run goes on without it)";
}

std::optional<ShardReader> open_or_skip(const std::string& path,
                                        const std::function<void(const std::string&)>& on_skip) {
  try {
    return ShardReader::open(path);
  } catch (const ShardVersionError& e) {
    if (on_skip) on_skip(skip_shard(path, e.what(), /*damaged=*/false));
  } catch (const Error& e) {
    std::error_code ec;
    if (!fs::exists(path, ec)) return std::nullopt;  // moved or deleted by another process meanwhile
    if (on_skip) on_skip(skip_shard(path, e.what()));
  }
  return std::nullopt;
}

}  // namespace sz::data
