#include "client/weights_file.h"

#include <bit>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/fnv1a.h"

namespace sz::client {

static_assert(std::endian::native == std::endian::little, "the weights file is little-endian, as is this machine");

namespace {

constexpr uint32_t kMaxDims = 8;
constexpr uint32_t kMaxNameLength = 1024;

template <typename T>
void put(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

class Cursor {
 public:
  Cursor(std::string_view bytes, std::string_view source) : bytes_(bytes), source_(source) {}

  template <typename T>
  T get(const char* what) {
    T value;
    std::memcpy(&value, take(sizeof value, what), sizeof value);
    return value;
  }
  const char* take(size_t n, const char* what) {
    if (bytes_.size() - pos_ < n)
      throw Error(std::string(source_) + ": truncated (it ends inside " + what + ", at byte " + std::to_string(pos_) +
                  ")");
    const char* p = bytes_.data() + pos_;
    pos_ += n;
    return p;
  }
  size_t left() const { return bytes_.size() - pos_; }
  Error error(const std::string& what) const { return Error(std::string(source_) + ": " + what); }

 private:
  std::string_view bytes_;
  std::string_view source_;
  size_t pos_ = 0;
};

std::vector<Tensor> parse_or_throw(std::string_view bytes, std::string_view source) {
  Cursor in(bytes, source);
  if (bytes.size() < sizeof kWeightsMagic || std::memcmp(bytes.data(), kWeightsMagic, sizeof kWeightsMagic) != 0)
    throw in.error("not a sittuyin-zero weights file (it does not start with 'SZWEIGHT')");
  in.take(sizeof kWeightsMagic, "the magic");
  const auto version = in.get<uint32_t>("the format version");
  if (version != kWeightsFormatVersion)
    throw in.error("weights format version " + std::to_string(version) + ", but this runtime reads version " +
                   std::to_string(kWeightsFormatVersion));
  if (bytes.size() < sizeof(uint64_t) + 16) throw in.error("truncated (no checksum)");
  const size_t body = bytes.size() - sizeof(uint64_t);
  uint64_t stored;
  std::memcpy(&stored, bytes.data() + body, sizeof stored);
  if (fnv1a64(bytes.data(), body) != stored) throw in.error("checksum mismatch: the file is truncated or damaged");
  const auto count = in.get<uint32_t>("the tensor count");
  std::vector<Tensor> out(count);
  for (Tensor& t : out) {
    const auto name_length = in.get<uint32_t>("a tensor's name length");
    if (name_length == 0 || name_length > kMaxNameLength) throw in.error("a tensor name of bad length");
    t.name.assign(in.take(name_length, "a tensor's name"), name_length);
    const auto dims = in.get<uint32_t>("a tensor's rank");
    if (dims > kMaxDims) throw in.error("tensor '" + t.name + "' has rank " + std::to_string(dims));
    uint64_t elements = 1;
    for (uint32_t d = 0; d < dims; ++d) {
      const auto n = in.get<int64_t>("a tensor's shape");
      if (n < 0 || n > (int64_t(1) << 31)) throw in.error("tensor '" + t.name + "' has a bad dimension");
      t.shape.push_back(n);
      elements *= uint64_t(n);
      if (elements > (uint64_t(1) << 31)) throw in.error("tensor '" + t.name + "' is too large");
    }
    if (in.left() < sizeof(uint64_t) + elements * sizeof(float))
      throw in.error("truncated (tensor '" + t.name + "' is cut short)");
    t.data.resize(size_t(elements));
    std::memcpy(t.data.data(), in.take(size_t(elements) * sizeof(float), "a tensor's data"),
                size_t(elements) * sizeof(float));
  }
  if (in.left() != sizeof(uint64_t)) throw in.error("unexpected bytes after the last tensor");
  return out;
}

}  // namespace

std::string weights_bytes(const std::vector<Tensor>& tensors) {
  std::string out(kWeightsMagic, sizeof kWeightsMagic);
  put(out, kWeightsFormatVersion);
  put(out, uint32_t(tensors.size()));
  for (const Tensor& t : tensors) {
    put(out, uint32_t(t.name.size()));
    out += t.name;
    put(out, uint32_t(t.shape.size()));
    for (const int64_t n : t.shape) put(out, n);
    out.append(reinterpret_cast<const char*>(t.data.data()), t.data.size() * sizeof(float));
  }
  put(out, fnv1a64(out.data(), out.size()));
  return out;
}

Result<std::vector<Tensor>> parse_weights(std::string_view bytes, std::string_view source) {
  try {
    return parse_or_throw(bytes, source);
  } catch (const Error& e) {
    return fail(e.what());
  }
}

Result<std::vector<Tensor>> read_weights(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(path + ": cannot open the weights file");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) return fail(path + ": read error");
  return parse_weights(bytes.str(), path);
}

}  // namespace sz::client
