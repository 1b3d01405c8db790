#include "config/net_config.h"

#include <yaml-cpp/yaml.h>

#include <fstream>
#include <optional>
#include <sstream>
#include <utility>

#include "config/embedded.h"
#include "config/strict_map.h"

namespace sz::config {

namespace {

// One table of ranges, used by the YAML loader (which adds the line) and by validate().
template <typename Config>
struct IntRange {
  const char* key;
  int Config::*field;
  int lo, hi;
};

constexpr IntRange<NetConfig> kNetRanges[] = {
    {"blocks", &NetConfig::blocks, 1, 64},
    {"channels", &NetConfig::channels, 4, 1024},
    {"global_pool_every", &NetConfig::global_pool_every, 0, 64},
    {"global_pool_channels", &NetConfig::global_pool_channels, 1, 1024},
    {"policy_channels", &NetConfig::policy_channels, 1, 256},
    {"value_channels", &NetConfig::value_channels, 1, 256},
    {"value_hidden", &NetConfig::value_hidden, 1, 4096},
    {"moves_left_channels", &NetConfig::moves_left_channels, 1, 256},
};

constexpr IntRange<InferenceConfig> kInferenceRanges[] = {
    {"threads", &InferenceConfig::threads, 1, 256},
    {"max_batch", &InferenceConfig::max_batch, 1, 65536},
    {"max_wait_us", &InferenceConfig::max_wait_us, 0, 1'000'000},
    {"cache_entries", &InferenceConfig::cache_entries, 0, 1 << 28},
    {"cache_shards", &InferenceConfig::cache_shards, 1, 1024},
};

struct Violation {
  std::string key, message;
};

template <typename Config, size_t N>
std::optional<Violation> range_violation(const Config& c, const IntRange<Config> (&ranges)[N]) {
  for (const auto& r : ranges) {
    const int v = c.*r.field;
    if (v < r.lo || v > r.hi)
      return Violation{r.key, "'" + std::string(r.key) + "' must be in " + std::to_string(r.lo) + ".." +
                                  std::to_string(r.hi) + ", not " + std::to_string(v)};
  }
  return std::nullopt;
}

std::optional<Violation> net_violation(const NetConfig& n) {
  if (auto v = range_violation(n, kNetRanges)) return v;
  if (n.global_pool_every > n.blocks)
    return Violation{"global_pool_every", "'global_pool_every' must be at most 'blocks' (" + std::to_string(n.blocks) + ")"};
  if (n.global_pool_every > 0 && n.global_pool_channels > n.channels)
    return Violation{"global_pool_channels",
                     "'global_pool_channels' must be at most 'channels' (" + std::to_string(n.channels) + ")"};
  return std::nullopt;
}

bool valid_device(const std::string& d) {
  if (d == "auto" || d == "cpu" || d == "cuda") return true;
  if (!d.starts_with("cuda:") || d.size() == 5 || d.size() > 8) return false;
  for (size_t i = 5; i < d.size(); ++i)
    if (d[i] < '0' || d[i] > '9') return false;
  return true;
}

// Reports a violation at the line of its key (or of the mapping when the key is absent).
[[noreturn]] void throw_at(const StrictMap& m, const YAML::Node& root, const Violation& v) {
  const YAML::Node at = root[v.key];
  throw m.error(at ? at : root, v.message);
}

NetConfig parse_net_or_throw(std::string_view yaml, std::string_view source) {
  const YAML::Node root = load_yaml(yaml, source);
  StrictMap m(root, "", source);
  NetConfig n;
  m.read("name", n.name);
  for (const auto& r : kNetRanges) m.read(r.key, n.*r.field);
  m.read("moves_left", n.moves_left);
  m.read("spatial_policy", n.spatial_policy);
  m.check_no_unknown_keys();
  if (auto v = net_violation(n)) throw_at(m, root, *v);
  return n;
}

// The text of a built-in config (configs/<dir>/<name>.yaml) or of a file named by path.
Result<std::pair<std::string, std::string>> config_text(std::string_view dir, std::string_view name_or_path,
                                                        const std::vector<std::string>& builtins) {
  const std::string wanted = std::string(dir) + "/" + std::string(name_or_path) + ".yaml";
  for (const EmbeddedFile& f : embedded_files())
    if (f.path == wanted) return std::pair{std::string(f.text), "configs/" + wanted};
  const bool looks_like_path = name_or_path.find('/') != std::string_view::npos || name_or_path.ends_with(".yaml");
  std::ifstream in{std::string(name_or_path)};
  if (!looks_like_path || !in) {
    std::string known;
    for (const auto& n : builtins) known += " " + n;
    return fail("unknown " + std::string(dir) + " config '" + shown_text(name_or_path) + "' (built in:" + known +
                "; or give a path to a .yaml file)");
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return std::pair{buffer.str(), std::string(name_or_path)};
}

}  // namespace

std::string_view precision_name(Precision p) {
  switch (p) {
    case Precision::Float16: return "float16";
    case Precision::BFloat16: return "bfloat16";
    case Precision::Float32: break;
  }
  return "float32";
}

Result<NetConfig> parse_net_config(std::string_view yaml, std::string_view source) {
  try {
    return parse_net_or_throw(yaml, source);
  } catch (const Error& e) {
    return fail(e.what());
  }
}

std::vector<std::string> builtin_net_presets() {
  std::vector<std::string> names;
  for (const EmbeddedFile& f : embedded_files())
    if (f.path.starts_with("nets/") && f.path.ends_with(".yaml")) names.emplace_back(f.path.substr(5, f.path.size() - 5 - 5));
  return names;
}

Result<NetConfig> load_net_config(std::string_view name_or_path) {
  auto text = config_text("nets", name_or_path, builtin_net_presets());
  if (!text) return fail(text.error());
  return parse_net_config(text->first, text->second);
}

void read_inference_config(StrictMap& m, const YAML::Node& node, InferenceConfig& c) {
  m.read("device", c.device);
  m.read_enum("precision", c.precision,
              {{"float32", Precision::Float32}, {"float16", Precision::Float16}, {"bfloat16", Precision::BFloat16}});
  for (const auto& r : kInferenceRanges) m.read(r.key, c.*r.field);
  m.check_no_unknown_keys();
  if (auto v = range_violation(c, kInferenceRanges)) throw_at(m, node, *v);
  if (!valid_device(c.device))
    throw_at(m, node, {"device", "'device' must be auto, cpu, cuda or cuda:N, not '" + c.device + "'"});
}

Result<InferenceConfig> parse_inference_config(std::string_view yaml, std::string_view source) {
  try {
    const YAML::Node root = load_yaml(yaml, source);
    StrictMap m(root, "", source);
    InferenceConfig c;
    read_inference_config(m, root, c);
    return c;
  } catch (const Error& e) {
    return fail(e.what());
  }
}

Result<NetConfig> validate(NetConfig net) {
  if (auto v = net_violation(net)) return fail("network '" + net.name + "': " + v->message);
  return net;
}

}  // namespace sz::config
