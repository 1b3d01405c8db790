#include "config/strict_map.h"

namespace sz::config {

YAML::Node load_yaml(std::string_view text, std::string_view source) {
  try {
    return YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    throw Error(std::string(source) + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
}

}  // namespace sz::config
