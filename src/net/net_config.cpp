#include "net/net_config.h"

#include "config/section.h"

namespace sz::net {

bool field_in_use(const NetConfig& n, std::string_view key) {
  if (key == "global_pool_channels") return n.global_pool_every > 0;
  if (key == "moves_left_channels") return n.moves_left;
  return true;
}

Result<NetConfig> parse_net_config(std::string_view yaml, std::string_view source) {
  return config::parse_config<NetConfig>(yaml, source, /*whole_file=*/true);
}

std::vector<std::string> builtin_net_presets() { return config::builtin_config_names("nets"); }

Result<NetConfig> load_net_config(std::string_view name_or_path) {
  auto text = config::find_config_text("nets", name_or_path, "nets config");
  if (!text) return fail(text.error());
  return parse_net_config(text->text, text->source);
}

Result<NetConfig> validate(NetConfig net) {
  if (const std::string problem = config::config_problem(net); !problem.empty())
    return fail("network '" + net.name + "': " + problem);
  return net;
}

}  // namespace sz::net
