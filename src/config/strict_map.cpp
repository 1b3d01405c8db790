#include "config/strict_map.h"

#include "core/shown_text.h"

namespace sz::config {

YAML::Node load_yaml(std::string_view text, std::string_view source) {
  try {
    return YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    // yaml-cpp's message may quote a byte of the text ("unknown escape character: <byte>").
    throw Error(std::string(source) + ":" + std::to_string(e.mark.line + 1) + ": " + shown_text(e.msg, 200));
  }
}

}  // namespace sz::config
