#include "train/trainer_state.h"

#include <cstdio>
#include <set>

#include "core/key_value_lines.h"
#include "core/parse_number.h"

namespace sz::train {

namespace {

// Each key of the text with where it lives in TrainerState; one list for writing and reading.
template <typename V>
void state_fields(V& v, TrainerState& s) {
  v("format", s.format);
  v("step", s.step);
  v("seed", s.seed);
  v("samples", s.samples);
  v("network_samples", s.network_samples);
  v("positions_seen", s.positions_seen);
  v("window_positions", s.window_positions);
  v("window_shards", s.window_shards);
  v("newest_shard", s.newest_shard);
  v("loss_scale", s.loss_scale);
  v("loss_scale_good_steps", s.loss_scale_good_steps);
}

struct TextWriter {
  std::string text;
  void operator()(const char* key, const std::string& value) { text += std::string(key) + ": " + value + "\n"; }
  void operator()(const char* key, double value) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", value);  // round-trips exactly
    (*this)(key, std::string(buf));
  }
  template <typename T>
  void operator()(const char* key, T value) {
    (*this)(key, std::to_string(value));
  }
};

struct TextSetter {
  std::string_view key, value;
  bool found = false, ok = false;
  void operator()(const char* k, std::string& field) {
    if (!match(k)) return;
    field = std::string(value);
    ok = true;
  }
  template <typename T>
  void operator()(const char* k, T& field) {
    if (match(k)) ok = parse_number(value, field);
  }
  bool match(const char* k) {
    if (key != k) return false;
    found = true;
    return true;
  }
};

}  // namespace

std::string state_to_text(const TrainerState& state) {
  TrainerState s = state;  // the field list takes mutable references
  TextWriter w;
  state_fields(w, s);
  return w.text;
}

Result<TrainerState> state_from_text(std::string_view text, std::string_view source) {
  TrainerState s;
  s.format = -1;
  std::set<std::string, std::less<>> seen;
  for (const KeyValueLine& kv : key_value_lines(text)) {
    TextSetter set{kv.key, kv.value};
    if (kv.has_separator) state_fields(set, s);
    if (!set.found) return fail(std::string(source) + ": unknown key in line '" + std::string(kv.line) + "'");
    if (!set.ok) return fail(std::string(source) + ": bad value in line '" + std::string(kv.line) + "'");
    seen.insert(std::string(set.key));
  }
  if (s.format < 1 || s.format > kTrainerStateVersion)
    return fail(std::string(source) + ": trainer state format " + std::to_string(s.format) +
                ", this program reads 1 to " + std::to_string(kTrainerStateVersion));
  if (s.format == 1) seen.insert("network_samples");  // added in format 2; 0 before
  s.format = kTrainerStateVersion;
  std::string missing;
  TextWriter names;  // lists the keys
  state_fields(names, s);
  for (const KeyValueLine& kv : key_value_lines(names.text))
    if (!seen.count(kv.key)) missing += (missing.empty() ? "" : ", ") + std::string(kv.key);
  if (!missing.empty()) return fail(std::string(source) + ": trainer state lacks " + missing);
  return s;
}

}  // namespace sz::train
