#include "data/shard_writer.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <filesystem>
#include <system_error>
#include <vector>

#include "core/error.h"
#include "data/hdf5_util.h"
#include "data/schema.h"
#include "data/shard_files.h"

#ifndef SZ_VERSION
#define SZ_VERSION "unknown"
#endif

namespace sz::data {

namespace fs = std::filesystem;
using schema::Col;
using schema::kColumns;

namespace {

// Positions buffered in memory before they are appended to the file: whole chunks' worth, so
// that HDF5 writes few, large hyperslabs.
constexpr int64_t kFlushRows = 8192;

}  // namespace

void validate_game(const GameRecord& game, const game::GameSpec& spec) {
  const std::string where =
      "game record (profile '" + game.meta.profile + "', seed " + std::to_string(game.meta.seed) + ")";
  const PositionColumns& p = game.positions;
  if (p.binary_planes != spec.binary_planes || p.scalar_features != spec.scalar_features) {
    throw Error(where + ": positions have " + std::to_string(p.binary_planes) + " planes and " +
                std::to_string(p.scalar_features) + " scalars; the shard's " + spec.game + " encoding has " +
                std::to_string(spec.binary_planes) + " and " + std::to_string(spec.scalar_features));
  }
  if (game.meta.profile.empty()) throw Error(where + ": empty rule profile name");
  result_text(game.meta.result);  // throws on a result outside {-1, 0, 1}
  p.check_consistent(where);
  check_position_values(p, spec, where);
}

std::string writer_version() { return std::string("sittuyin-zero ") + SZ_VERSION; }

struct ShardWriter::Impl {
  std::string dir;
  std::string prefix;
  game::GameSpec spec;
  ShardWriterOptions options;
  int64_t next_seq = 0;

  // The shard in progress; `file` is closed when there is none.
  std::string tmp_path;
  std::string final_path;
  h5::Handle file;
  std::array<h5::Handle, schema::kNumColumns> datasets;
  std::chrono::steady_clock::time_point opened_at;
  int64_t games = 0;
  int64_t positions = 0;       // written and buffered
  int64_t policy_written = 0;  // policy entries already in the file
  std::vector<std::string> profiles;

  // Positions not yet in the file, and the shard's games: the games table is written whole
  // when the shard is finished, once its strings' longest lengths are known.
  PositionColumns buf;
  std::vector<GameMeta> shard_games;
  std::vector<int64_t> game_first;
  std::vector<int64_t> game_count;

  void scan_directory();
  void open_shard();
  void create_dataset(int col, size_t string_size = 0);
  void write_header();
  void write_buffer();
  void write_games_table();
  std::string finish_shard();
  void abandon_shard() noexcept;
  bool shard_due() const;
};

void ShardWriter::Impl::scan_directory() {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw Error(dir + ": cannot create the shard directory: " + ec.message());
  int64_t highest = -1;
  fs::directory_iterator it(dir, ec);
  if (ec) throw Error(dir + ": cannot list the shard directory: " + ec.message());
  for (const fs::directory_entry& entry : it) {
    const std::string name = entry.path().filename().string();
    highest = std::max(highest, shard_sequence(name, prefix));
    if (shard_sequence(name, prefix, /*temporary=*/true) >= 0) {
      // Left by a writer of this prefix that was killed: its games are lost either way.
      fs::remove(entry.path(), ec);
      if (ec) throw Error(entry.path().string() + ": cannot delete a stale temporary: " + ec.message());
    }
  }
  next_seq = highest + 1;
}

// `string_size`: the slot size of a string column (its longest value).
void ShardWriter::Impl::create_dataset(int col, size_t string_size) {
  const schema::Column& c = kColumns[size_t(col)];
  const std::string where = tmp_path + ": " + c.path;
  const hsize_t width = hsize_t(schema::width_of(c, spec));
  const bool one = c.width == schema::Width::One;
  // A [N, 0] dataset still needs a chunk of at least one column, hence the max dimension of 1.
  const h5::Handle space = h5::simple_space(
      one ? std::vector<hsize_t>{0} : std::vector<hsize_t>{0, width},
      one ? std::vector<hsize_t>{H5S_UNLIMITED} : std::vector<hsize_t>{H5S_UNLIMITED, std::max<hsize_t>(width, 1)},
      where);
  const h5::Handle dcpl = h5::plist(H5P_DATASET_CREATE, where);
  const bool text = c.kind == schema::Kind::Str;
  const hsize_t rows = text ? hsize_t(std::clamp<int64_t>(schema::kChunkBytes / int64_t(string_size), 1, 256))
                            : hsize_t(schema::chunk_rows(c, spec));
  const hsize_t chunk[2] = {rows, std::max<hsize_t>(width, 1)};
  h5::check_ok(H5Pset_chunk(dcpl.get(), one ? 1 : 2, chunk), where, "cannot set the chunk size");
  // Shuffle groups the bytes of each number, which lets gzip level 1 find the zeros in them;
  // Fletcher32 lets the reader detect a corrupt chunk instead of returning garbage.
  if (!text) h5::check_ok(H5Pset_shuffle(dcpl.get()), where, "cannot set shuffle");
  h5::check_ok(H5Pset_deflate(dcpl.get(), 1), where, "cannot set gzip");
  h5::check_ok(H5Pset_fletcher32(dcpl.get()), where, "cannot set fletcher32");
  const h5::Handle type = text ? h5::fixed_string_type(string_size, where) : h5::Handle();
  const hid_t id = H5Dcreate2(file.get(), c.path, text ? type.get() : schema::file_type(c.kind), space.get(),
                              H5P_DEFAULT, dcpl.get(), H5P_DEFAULT);
  datasets[size_t(col)] = h5::Handle(h5::check_id(id, where, "cannot create dataset"), H5Dclose);
}

void ShardWriter::Impl::write_header() {
  const hid_t f = file.get();
  h5::write_int_attr(f, schema::kAttrFormatVersion, kSampleFormatVersion, tmp_path);
  h5::write_string_attr(f, schema::kAttrGame, spec.game, tmp_path);
  h5::write_int_attr(f, schema::kAttrEncoderVersion, spec.encoder_version, tmp_path);
  h5::write_int_attr(f, schema::kAttrActionSpaceVersion, spec.action_space_version, tmp_path);
  h5::write_int_attr(f, schema::kAttrBinaryPlanes, spec.binary_planes, tmp_path);
  h5::write_int_attr(f, schema::kAttrScalarFeatures, spec.scalar_features, tmp_path);
  h5::write_int_attr(f, schema::kAttrActionSpace, spec.action_space, tmp_path);
  h5::write_string_attr(f, schema::kAttrWriter, writer_version(), tmp_path);
  if (!options.worker.empty()) h5::write_string_attr(f, schema::kAttrWorker, options.worker, tmp_path);
}

// The shard is built in memory (HDF5's core driver, no backing store) and written out whole by
// finish_shard: HDF5 never writes to the disk itself. On a full disk, HDF5 1.10 fails to close a
// file it cannot flush and leaves a dangling id behind, on which its clean-up at exit crashes;
// our own writes report the failure and leave nothing behind.
void ShardWriter::Impl::open_shard() {
  tmp_path = (fs::path(dir) / temporary_file_name(prefix, next_seq)).string();
  final_path = (fs::path(dir) / shard_file_name(prefix, next_seq)).string();
  const h5::Handle fapl = h5::file_access(tmp_path);
  h5::check_ok(H5Pset_fapl_core(fapl.get(), /*increment=*/size_t(4) << 20, /*backing_store=*/false), tmp_path,
               "cannot select the in-memory file driver");
  // The 1.10 file format checksums all metadata (superblock, object headers, chunk indexes),
  // so that a damaged shard is refused instead of sending HDF5 into a crash. Pinned to 1.10
  // (not "latest") so that every reader with HDF5 >= 1.10, h5py included, can open it.
  h5::check_ok(H5Pset_libver_bounds(fapl.get(), H5F_LIBVER_V110, H5F_LIBVER_V110), tmp_path,
               "cannot select the HDF5 1.10 file format");
  const hid_t id = H5Fcreate(tmp_path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get());
  file = h5::Handle(h5::check_id(id, tmp_path, "cannot create the shard"), H5Fclose);
  for (const char* group : schema::kGroups) {
    const hid_t g = H5Gcreate2(file.get(), group, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Gclose(h5::check_id(g, tmp_path, "cannot create a group"));
  }
  for (int col = 0; col < schema::kNumColumns; ++col) {
    if (kColumns[size_t(col)].table != schema::Table::Games) create_dataset(col);
  }
  write_header();
  opened_at = std::chrono::steady_clock::now();
  games = positions = policy_written = 0;
  profiles.clear();
  shard_games.clear();
  game_first.clear();
  game_count.clear();
}

void ShardWriter::Impl::write_buffer() {
  auto put = [&](Col col, hid_t mem, const void* data, int64_t rows) {
    const schema::Column& c = kColumns[size_t(col)];
    h5::append_rows(datasets[size_t(col)].get(), mem, data, hsize_t(rows), hsize_t(schema::width_of(c, spec)),
                    tmp_path + ": " + c.path);
  };
  const int64_t n = buf.size();
  std::vector<int64_t> start(buf.policy_start);
  for (int64_t& s : start) s += policy_written;  // the buffer's starts are relative to itself
  put(schema::kPlanes, H5T_NATIVE_UINT64, buf.planes.data(), n);
  put(schema::kScalars, H5T_NATIVE_FLOAT, buf.scalars.data(), n);
  put(schema::kPolicyStart, H5T_NATIVE_INT64, start.data(), n);
  put(schema::kPolicyCount, H5T_NATIVE_INT32, buf.policy_count.data(), n);
  put(schema::kResult, H5T_NATIVE_INT8, buf.result.data(), n);
  put(schema::kAction, H5T_NATIVE_INT32, buf.action.data(), n);
  put(schema::kPhase, H5T_NATIVE_UINT8, buf.phase.data(), n);
  put(schema::kPly, H5T_NATIVE_INT32, buf.ply.data(), n);
  put(schema::kFullSearch, H5T_NATIVE_UINT8, buf.full_search.data(), n);
  put(schema::kPliesToEnd, H5T_NATIVE_INT32, buf.plies_to_end.data(), n);
  put(schema::kSearchWdl, H5T_NATIVE_FLOAT, buf.search_wdl.data(), n);
  put(schema::kHasSearchValue, H5T_NATIVE_UINT8, buf.has_search_value.data(), n);
  put(schema::kPolicyTarget, H5T_NATIVE_UINT8, buf.policy_target.data(), n);
  put(schema::kLegalCount, H5T_NATIVE_INT32, buf.legal_count.data(), n);
  put(schema::kMaterial, H5T_NATIVE_FLOAT, buf.material.data(), n);
  const int64_t m = int64_t(buf.policy_action.size());
  put(schema::kPolicyAction, H5T_NATIVE_INT32, buf.policy_action.data(), m);
  put(schema::kPolicyProb, H5T_NATIVE_FLOAT, buf.policy_prob.data(), m);
  policy_written += m;
  buf.clear();
}

void ShardWriter::Impl::write_games_table() {
  const size_t g = shard_games.size();
  std::vector<int8_t> result(g);
  std::vector<uint64_t> seed(g);
  std::vector<std::string> profile(g), text(g), reason(g), fen(g), moves(g), model(g);
  for (size_t i = 0; i < g; ++i) {
    const GameMeta& m = shard_games[i];
    result[i] = m.result;
    seed[i] = m.seed;
    profile[i] = m.profile;
    text[i] = result_text(m.result);
    reason[i] = m.end_reason;
    fen[i] = m.start_fen;
    moves[i] = m.moves;
    model[i] = m.model_id;
  }
  auto put_strings = [&](Col col, const std::vector<std::string>& values) {
    size_t size = 0;
    const std::vector<char> packed = h5::pack_strings(values, &size);
    create_dataset(col, size);
    const h5::Handle type = h5::fixed_string_type(size, tmp_path);
    h5::append_rows(datasets[size_t(col)].get(), type.get(), packed.data(), g, 1,
                    tmp_path + ": " + kColumns[size_t(col)].path);
  };
  auto put = [&](Col col, hid_t mem, const void* data) {
    create_dataset(col);
    h5::append_rows(datasets[size_t(col)].get(), mem, data, g, 1, tmp_path + ": " + kColumns[size_t(col)].path);
  };
  put_strings(schema::kGameProfile, profile);
  put(schema::kGameResult, H5T_NATIVE_INT8, result.data());
  put_strings(schema::kGameResultText, text);
  put_strings(schema::kGameEndReason, reason);
  put_strings(schema::kGameStartFen, fen);
  put_strings(schema::kGameMoves, moves);
  put_strings(schema::kGameModelId, model);
  put(schema::kGameSeed, H5T_NATIVE_UINT64, seed.data());
  put(schema::kGameFirstPosition, H5T_NATIVE_INT64, game_first.data());
  put(schema::kGameNumPositions, H5T_NATIVE_INT64, game_count.data());
}

std::string ShardWriter::Impl::finish_shard() {
  write_buffer();
  write_games_table();
  std::vector<std::string> sorted(profiles);
  std::sort(sorted.begin(), sorted.end());
  h5::write_string_array_attr(file.get(), schema::kAttrProfiles, sorted, tmp_path);
  h5::write_int_attr(file.get(), schema::kAttrNumGames, games, tmp_path);
  h5::write_int_attr(file.get(), schema::kAttrNumPositions, positions, tmp_path);
  h5::write_int_attr(file.get(), schema::kAttrGeneration, options.generation, tmp_path);
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  h5::write_int_attr(file.get(), schema::kAttrFinishedUnixMs,
                     std::chrono::duration_cast<std::chrono::milliseconds>(now).count(), tmp_path);
  for (h5::Handle& d : datasets) {
    if (d.reset() < 0) h5::fail(tmp_path, "cannot close a dataset");
  }
  h5::check_ok(H5Fflush(file.get(), H5F_SCOPE_GLOBAL), tmp_path, "cannot flush the shard");
  const ssize_t size = H5Fget_file_image(file.get(), nullptr, 0);
  if (size < 0) h5::fail(tmp_path, "cannot size the shard's image");
  std::vector<char> image(static_cast<size_t>(size));
  if (H5Fget_file_image(file.get(), image.data(), image.size()) != size)
    h5::fail(tmp_path, "cannot copy the shard's image");
  if (file.reset() < 0) h5::fail(tmp_path, "cannot close the shard");
  h5::fix_superblock_checksum(image, tmp_path);
  write_new_file(tmp_path, image);
  commit_file(tmp_path, final_path);
  ++next_seq;
  std::string done = final_path;
  tmp_path.clear();
  final_path.clear();
  games = 0;
  return done;
}

void ShardWriter::Impl::abandon_shard() noexcept {
  for (h5::Handle& d : datasets) d.reset();
  file.reset();
  {
    auto guard = h5::lock();
    h5::take_error_message();
  }
  if (!tmp_path.empty()) {
    std::error_code ec;
    fs::remove(tmp_path, ec);
  }
  tmp_path.clear();
  final_path.clear();
  games = positions = policy_written = 0;
  buf.clear();
  shard_games.clear();
  game_first.clear();
  game_count.clear();
}

bool ShardWriter::Impl::shard_due() const {
  if (games >= options.games_per_shard) return true;
  if (options.seconds_per_shard <= 0) return false;
  const std::chrono::duration<double> age = std::chrono::steady_clock::now() - opened_at;
  return age.count() >= options.seconds_per_shard;
}

ShardWriter::ShardWriter(std::string directory, std::string prefix, game::GameSpec spec, ShardWriterOptions options)
    : impl_(std::make_unique<Impl>()) {
  if (prefix.empty() || prefix.front() == '.' || prefix.find('/') != std::string::npos) {
    throw Error("shard writer: bad file-name prefix '" + prefix + "' (empty, starts with '.' or contains '/')");
  }
  if (spec.game.empty() || spec.binary_planes < 0 || spec.scalar_features < 0 || spec.action_space <= 0) {
    throw Error("shard writer: incomplete game spec for '" + spec.game + "'");
  }
  if (options.games_per_shard < 1 || options.seconds_per_shard < 0) {
    throw Error("shard writer: games_per_shard must be >= 1 and seconds_per_shard >= 0");
  }
  impl_->dir = std::move(directory);
  impl_->prefix = std::move(prefix);
  impl_->options = options;
  impl_->buf = PositionColumns(spec.binary_planes, spec.scalar_features);
  impl_->spec = std::move(spec);
  impl_->scan_directory();
}

ShardWriter::~ShardWriter() {
  if (!impl_) return;
  try {
    close();
  } catch (...) {
    impl_->abandon_shard();  // a destructor cannot report; the temporary must not linger
  }
}

ShardWriter::ShardWriter(ShardWriter&&) noexcept = default;
ShardWriter& ShardWriter::operator=(ShardWriter&&) noexcept = default;

std::string ShardWriter::add_game(const GameRecord& game) {
  Impl& w = *impl_;
  validate_game(game, w.spec);
  auto guard = h5::lock();
  try {
    if (!w.file) w.open_shard();
    w.game_first.push_back(w.positions);
    w.game_count.push_back(game.positions.size());
    w.shard_games.push_back(game.meta);
    w.buf.append(game.positions);
    w.positions += game.positions.size();
    ++w.games;
    if (std::find(w.profiles.begin(), w.profiles.end(), game.meta.profile) == w.profiles.end()) {
      w.profiles.push_back(game.meta.profile);
    }
    if (w.buf.size() >= kFlushRows) w.write_buffer();
    return w.shard_due() ? w.finish_shard() : std::string();
  } catch (...) {
    w.abandon_shard();
    throw;
  }
}

std::string ShardWriter::close() {
  Impl& w = *impl_;
  if (!w.file) return {};
  auto guard = h5::lock();
  try {
    return w.finish_shard();
  } catch (...) {
    w.abandon_shard();
    throw;
  }
}

const std::string& ShardWriter::directory() const { return impl_->dir; }
int64_t ShardWriter::next_sequence() const { return impl_->next_seq; }
int64_t ShardWriter::games_in_shard() const { return impl_->file ? impl_->games : 0; }

}  // namespace sz::data
