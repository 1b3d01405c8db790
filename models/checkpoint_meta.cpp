#include "models/checkpoint_meta.h"

#include <set>

#include "core/key_value_lines.h"
#include "core/parse_number.h"
#include "core/split.h"

namespace sz::models {

namespace {

// Each key of the text once, with where it lives in CheckpointMeta.
using IntRef = int& (*)(CheckpointMeta&);
constexpr std::pair<const char*, IntRef> kIntKeys[] = {
    {"format", [](CheckpointMeta& m) -> int& { return m.format_version; }},
    {"binary_planes", [](CheckpointMeta& m) -> int& { return m.arch.spec.binary_planes; }},
    {"scalar_features", [](CheckpointMeta& m) -> int& { return m.arch.spec.scalar_features; }},
    {"action_space", [](CheckpointMeta& m) -> int& { return m.arch.spec.action_space; }},
    {"encoder_version", [](CheckpointMeta& m) -> int& { return m.arch.spec.encoder_version; }},
    {"action_space_version", [](CheckpointMeta& m) -> int& { return m.arch.spec.action_space_version; }},
    {"net.blocks", [](CheckpointMeta& m) -> int& { return m.arch.net.blocks; }},
    {"net.channels", [](CheckpointMeta& m) -> int& { return m.arch.net.channels; }},
    {"net.global_pool_every", [](CheckpointMeta& m) -> int& { return m.arch.net.global_pool_every; }},
    {"net.global_pool_channels", [](CheckpointMeta& m) -> int& { return m.arch.net.global_pool_channels; }},
    {"net.policy_channels", [](CheckpointMeta& m) -> int& { return m.arch.net.policy_channels; }},
    {"net.value_channels", [](CheckpointMeta& m) -> int& { return m.arch.net.value_channels; }},
    {"net.value_hidden", [](CheckpointMeta& m) -> int& { return m.arch.net.value_hidden; }},
    {"net.moves_left_channels", [](CheckpointMeta& m) -> int& { return m.arch.net.moves_left_channels; }},
};

using StringRef = std::string& (*)(CheckpointMeta&);
constexpr std::pair<const char*, StringRef> kStringKeys[] = {
    {"game", [](CheckpointMeta& m) -> std::string& { return m.arch.spec.game; }},
    {"net.name", [](CheckpointMeta& m) -> std::string& { return m.arch.net.name; }},
    {"optimizer", [](CheckpointMeta& m) -> std::string& { return m.optimizer; }},
};

constexpr int kFirstChecksumFormat = 2;

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

// Sets `key` from `value`; false when the key is unknown or the value malformed.
bool set_field(CheckpointMeta& m, std::string_view key, std::string_view value) {
  for (const auto& [k, ref] : kIntKeys)
    if (key == k) return parse_number(value, ref(m));
  for (const auto& [k, ref] : kStringKeys)
    if (key == k) return ref(m) = std::string(value), true;
  if (key == "net.moves_left" || key == "net.spatial_policy") {  // absent in older checkpoints: false
    (key == "net.moves_left" ? m.arch.net.moves_left : m.arch.net.spatial_policy) = value == "true";
    return value == "true" || value == "false";
  }
  if (key == "step") return parse_number(value, m.step);
  if (key == "profiles") return m.profiles = split_items(value), true;
  if (key == "checksum") return m.checksum = std::string(value), !m.checksum.empty();
  return false;
}

}  // namespace

std::string meta_to_text(const CheckpointMeta& meta) {
  CheckpointMeta m = meta;  // the accessors take a mutable reference
  std::string text;
  for (const auto& [k, ref] : kIntKeys) text += std::string(k) + ": " + std::to_string(ref(m)) + "\n";
  for (const auto& [k, ref] : kStringKeys) text += std::string(k) + ": " + ref(m) + "\n";
  text += std::string("net.moves_left: ") + (m.arch.net.moves_left ? "true" : "false") + "\n";
  text += std::string("net.spatial_policy: ") + (m.arch.net.spatial_policy ? "true" : "false") + "\n";
  text += "step: " + std::to_string(m.step) + "\n";
  text += "profiles: " + join(m.profiles) + "\n";
  if (!m.checksum.empty()) text += "checksum: " + m.checksum + "\n";
  return text;
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
  for (const auto& [k, ref] : kIntKeys)
    if (!seen.count(k)) return fail(std::string(source) + ": checkpoint metadata lacks '" + k + "'");
  if (m.format_version >= kFirstChecksumFormat && m.checksum.empty())
    return fail(std::string(source) + ": checkpoint metadata lacks 'checksum' (format " +
                std::to_string(m.format_version) + " has one): the file is damaged");
  if (m.format_version < kFirstChecksumFormat && !m.checksum.empty())
    return fail(std::string(source) + ": a format-" + std::to_string(m.format_version) +
                " checkpoint with a checksum: the file is damaged");
  return m;
}

void check_compatible(const Architecture& want, const CheckpointMeta& found, std::string_view path) {
  const auto diffs = architecture_differences(want, found.arch);
  if (!diffs.empty())
    throw Error(std::string(path) + ": the checkpoint (" + describe(found.arch) + ") does not fit the network (" +
                describe(want) + "): " + join_differences(diffs));
}

void check_encoding(const game::GameSpec& spec, const CheckpointMeta& found, std::string_view path) {
  const auto diffs = architecture_differences(Architecture{found.arch.net, spec}, found.arch);
  if (!diffs.empty())
    throw Error(std::string(path) + ": the checkpoint's encoding is not the one " + spec.game +
                " uses now (expected: this build's): " + join_differences(diffs));
}

}  // namespace sz::models
