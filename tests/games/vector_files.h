#pragma once
// Reads the `;`-separated reference files of ../shared/testdata (see its README.md).
#include <fstream>
#include <string>
#include <vector>

#include "test_paths.h"

namespace sz::test {

struct VectorLine {
  int number = 0;
  std::vector<std::string> fields;
};

inline std::vector<VectorLine> read_vector_file(const std::string& name) {
  std::ifstream in(testdata(name));
  std::vector<VectorLine> lines;
  std::string text;
  for (int n = 1; std::getline(in, text); ++n) {
    VectorLine line{n, {}};
    size_t start = 0;
    for (size_t end; (end = text.find(';', start)) != std::string::npos; start = end + 1)
      line.fields.push_back(text.substr(start, end - start));
    line.fields.push_back(text.substr(start));
    lines.push_back(std::move(line));
  }
  return lines;
}

inline std::vector<std::string> split_words(const std::string& s) {
  std::vector<std::string> words;
  size_t start = 0;
  while (start < s.size()) {
    size_t end = s.find(' ', start);
    if (end == std::string::npos) end = s.size();
    if (end > start) words.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return words;
}

}  // namespace sz::test
