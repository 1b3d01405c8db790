#include "models/checkpoint_meta.h"

#include <cstdint>
#include <set>

#include "core/key_value_lines.h"
#include "core/parse_number.h"
#include "core/split.h"

namespace sz::models {

namespace {

constexpr int kFirstChecksumFormat = 2;

// The keys of the text that a visitor walks: the format, the encoding and the network (their
// field lists, architecture.h and net_config.h; the network's under "net."), and the step and
// optimiser. `profiles` and `checksum` are written and read beside them.
template <typename V>
void meta_fields(V& v, CheckpointMeta& m) {
  v.num("format", m.format_version, 1, kCheckpointFormatVersion);
  net::fields(v, m.arch.spec);
  v.prefix = "net.";
  net::fields(v, m.arch.net);
  v.prefix.clear();
  v.num("step", m.step, int64_t{0}, INT64_MAX);
  v.text("optimizer", m.optimizer);
}

// Writes each field as a "key: value" line.
struct MetaWriter {
  std::string prefix, out;
  template <typename T>
  void num(const char* key, const T& value, T, T) {
    line(key, std::to_string(value));
  }
  void flag(const char* key, const bool& value) { line(key, value ? "true" : "false"); }
  void text(const char* key, const std::string& value) { line(key, value); }
  void check(bool, const char*, const std::string&) {}
  std::string path(const char* key) const { return key; }
  void line(const char* key, const std::string& value) { out += prefix + key + ": " + value + "\n"; }
};

// Sets the field of one line, if it is this list's: `found` says whether the key is one, `ok`
// whether its value reads. Numbers are required (`required` lists them); flags and texts are
// not (net.moves_left and net.spatial_policy are absent in older checkpoints: false).
struct MetaSetter {
  std::string_view key, value;
  std::string prefix;
  bool found = false, ok = false;
  std::vector<std::string> required;
  template <typename T>
  void num(const char* k, T& field, T, T) {
    required.push_back(prefix + k);
    if (match(k)) ok = parse_number(value, field);
  }
  void flag(const char* k, bool& field) {
    if (!match(k)) return;
    ok = value == "true" || value == "false";
    field = value == "true";
  }
  void text(const char* k, std::string& field) {
    if (!match(k)) return;
    field = std::string(value);
    ok = true;
  }
  void check(bool, const char*, const std::string&) {}
  std::string path(const char* k) const { return k; }
  bool match(const char* k) {
    if (key != prefix + k) return false;
    found = true;
    return true;
  }
};

std::string join(const std::vector<std::string>& items) {
  std::string text;
  for (const auto& s : items) text += (text.empty() ? "" : ",") + s;
  return text;
}

// The comma-separated items of `text`, empty ones left out ("" has none).
std::vector<std::string> split_items(std::string_view text) {
  std::vector<std::string> items;
  for (const std::string_view item : split(text, ','))
    if (!item.empty()) items.emplace_back(item);
  return items;
}

// Sets the field of `key` from `value`; false when the key is unknown or the value malformed.
bool set_field(CheckpointMeta& m, std::string_view key, std::string_view value) {
  if (key == "profiles") return m.profiles = split_items(value), true;
  if (key == "checksum") return m.checksum = std::string(value), !m.checksum.empty();
  MetaSetter setter;
  setter.key = key;
  setter.value = value;
  meta_fields(setter, m);
  return setter.found && setter.ok;
}

}  // namespace

std::string meta_to_text(const CheckpointMeta& meta) {
  CheckpointMeta m = meta;  // the field lists take mutable references
  MetaWriter w;
  meta_fields(w, m);
  w.line("profiles", join(m.profiles));
  if (!m.checksum.empty()) w.line("checksum", m.checksum);
  return w.out;
}

Result<CheckpointMeta> meta_from_text(std::string_view text, std::string_view source) {
  CheckpointMeta m;
  std::set<std::string, std::less<>> seen;
  for (const KeyValueLine& kv : key_value_lines(text)) {
    if (!kv.has_separator || !set_field(m, kv.key, kv.value))
      return fail(std::string(source) + ": bad checkpoint metadata line '" + std::string(kv.line) + "'");
    seen.insert(std::string(kv.key));
  }
  if (m.format_version < 1 || m.format_version > kCheckpointFormatVersion)
    return fail(std::string(source) + ": checkpoint format " + std::to_string(m.format_version) +
                ", this program reads formats 1.." + std::to_string(kCheckpointFormatVersion));
  MetaSetter keys;  // lists the required keys
  meta_fields(keys, m);
  for (const std::string& k : keys.required)
    if (!seen.count(k)) return fail(std::string(source) + ": checkpoint metadata lacks '" + k + "'");
  if (m.format_version >= kFirstChecksumFormat && m.checksum.empty())
    return fail(std::string(source) + ": checkpoint metadata lacks 'checksum' (format " +
                std::to_string(m.format_version) + " has one): the file is damaged");
  if (m.format_version < kFirstChecksumFormat && !m.checksum.empty())
    return fail(std::string(source) + ": a format-" + std::to_string(m.format_version) +
                " checkpoint with a checksum: the file is damaged");
  return m;
}

void check_compatible(const net::Architecture& want, const CheckpointMeta& found, std::string_view path) {
  const auto diffs = net::architecture_differences(want, found.arch);
  if (!diffs.empty())
    throw Error(std::string(path) + ": the checkpoint (" + net::describe(found.arch) + ") does not fit the network (" +
                net::describe(want) + "): " + net::join_differences(diffs));
}

void check_encoding(const game::GameSpec& spec, const CheckpointMeta& found, std::string_view path) {
  const auto diffs = net::architecture_differences(net::Architecture{found.arch.net, spec}, found.arch);
  if (!diffs.empty())
    throw Error(std::string(path) + ": the checkpoint's encoding is not the one " + spec.game +
                " uses now (expected: this build's): " + net::join_differences(diffs));
}

}  // namespace sz::models
