#pragma once
// The files under configs/, compiled into the program (cmake/embed.cmake), so that the default
// configs and the rule profiles work from any directory.
#include <span>
#include <string_view>

namespace sz::config {

struct EmbeddedFile {
  std::string_view path;  // relative to configs/, e.g. "rules/sittuyin.yaml"
  std::string_view text;
};

std::span<const EmbeddedFile> embedded_files();

}  // namespace sz::config
