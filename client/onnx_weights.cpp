#include "client/onnx_weights.h"

#include <bit>
#include <cstring>

#include "core/read_file.h"

namespace sz::client {

static_assert(std::endian::native == std::endian::little, "ONNX stores raw tensor data little-endian, as this machine");

namespace {

// Field numbers of onnx.proto (ONNX 1.12, IR version 8) that the reader needs.
constexpr uint32_t kModelIrVersion = 1, kModelGraph = 7, kModelOpsetImport = 8;
constexpr uint32_t kGraphInitializer = 5;
constexpr uint32_t kTensorDims = 1, kTensorDataType = 2, kTensorFloatData = 4, kTensorName = 8, kTensorRawData = 9,
                   kTensorDataLocation = 14;
constexpr uint64_t kOnnxFloat = 1, kOnnxExternal = 1;
constexpr uint32_t kMaxDims = 8;
constexpr uint64_t kMaxElements = uint64_t(1) << 31;

enum Wire : uint32_t { kVarint = 0, kFixed64 = 1, kBytes = 2, kFixed32 = 5 };

// One protobuf message's bytes; `offset` is where they start in the file, for messages.
class Reader {
 public:
  Reader(std::string_view bytes, size_t offset, std::string_view source)
      : bytes_(bytes), offset_(offset), source_(source) {}

  bool done() const { return pos_ == bytes_.size(); }

  // The next field's number and wire type.
  std::pair<uint32_t, uint32_t> tag() {
    const uint64_t t = varint("a field tag");
    const uint64_t field = t >> 3;
    const uint32_t wire = uint32_t(t & 7);
    if (field == 0 || field > (uint64_t(1) << 29) ||
        (wire != kVarint && wire != kFixed64 && wire != kBytes && wire != kFixed32))
      throw broken("an invalid field tag");
    return {uint32_t(field), wire};
  }
  uint64_t varint(const char* what) {
    uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (done()) throw broken(std::string("the end of the data inside ") + what);
      const auto byte = uint8_t(bytes_[pos_++]);
      value |= uint64_t(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return value;
    }
    throw broken(std::string("an overlong varint in ") + what);
  }
  // A length-delimited field's bytes, as a reader of its own.
  Reader message(const char* what) {
    const uint64_t length = varint(what);
    if (length > bytes_.size() - pos_) throw broken(std::string("the end of the data inside ") + what);
    Reader inner(bytes_.substr(pos_, size_t(length)), offset_ + pos_, source_);
    pos_ += size_t(length);
    return inner;
  }
  std::string_view rest() const { return bytes_.substr(pos_); }
  void skip(uint32_t wire) {
    switch (wire) {
      case kVarint:
        varint("a field");
        return;
      case kBytes:
        message("a field");
        return;
      default: {
        const size_t n = wire == kFixed64 ? 8 : 4;
        if (bytes_.size() - pos_ < n) throw broken("the end of the data inside a field");
        pos_ += n;
      }
    }
  }
  Error error(const std::string& what) const { return Error(std::string(source_) + ": " + what); }
  Error broken(const std::string& what) const {
    return error("not a complete ONNX model: " + what + " at byte " + std::to_string(offset_ + pos_) +
                 " (a truncated file, or not an ONNX file)");
  }

 private:
  std::string_view bytes_;
  size_t offset_;
  std::string_view source_;
  size_t pos_ = 0;
};

void expect_wire(const Reader& r, uint32_t wire, uint32_t want, const char* what) {
  if (wire != want) throw r.broken(std::string("a ") + what + " of the wrong wire type");
}

// A TensorProto; false for a graph constant (kOnnxConstantPrefix), which is passed over.
bool read_tensor(Reader r, Tensor& t) {
  uint64_t data_type = 0, location = 0;
  std::string_view raw;
  std::vector<float> floats;
  while (!r.done()) {
    const auto [field, wire] = r.tag();
    if (field == kTensorDims && wire == kVarint) {
      t.shape.push_back(int64_t(r.varint("a dimension")));
    } else if (field == kTensorDims && wire == kBytes) {
      Reader packed = r.message("the dimensions");
      while (!packed.done()) t.shape.push_back(int64_t(packed.varint("a dimension")));
    } else if (field == kTensorDataType) {
      expect_wire(r, wire, kVarint, "data type");
      data_type = r.varint("the data type");
    } else if (field == kTensorFloatData && wire == kBytes) {
      const std::string_view packed = r.message("float data").rest();
      if (packed.size() % sizeof(float)) throw r.broken("float data of a length not a multiple of 4");
      const size_t first = floats.size();
      floats.resize(first + packed.size() / sizeof(float));
      // Not for an empty field: memcpy from its null pointer is undefined (bundle_fuzz's find).
      if (!packed.empty()) std::memcpy(floats.data() + first, packed.data(), packed.size());
    } else if (field == kTensorName) {
      expect_wire(r, wire, kBytes, "name");
      t.name = std::string(r.message("a name").rest());
    } else if (field == kTensorRawData) {
      expect_wire(r, wire, kBytes, "raw data");
      raw = r.message("raw data").rest();
    } else if (field == kTensorDataLocation) {
      expect_wire(r, wire, kVarint, "data location");
      location = r.varint("the data location");
    } else {
      r.skip(wire);
    }
  }
  if (t.name.empty()) throw r.error("an initializer without a name");
  if (t.name.rfind(kOnnxConstantPrefix, 0) == 0) return false;
  const std::string tensor = "initializer '" + t.name + "'";
  if (location == kOnnxExternal)
    throw r.error(tensor + " keeps its data outside the file, which this runtime does not read");
  if (data_type != kOnnxFloat)
    throw r.error(tensor + " is of ONNX data type " + std::to_string(data_type) + ", not float32 (1)");
  if (t.shape.size() > kMaxDims) throw r.error(tensor + " has rank " + std::to_string(t.shape.size()));
  uint64_t elements = 1;
  for (const int64_t d : t.shape) {
    if (d < 0 || uint64_t(d) > kMaxElements) throw r.error(tensor + " has a bad dimension " + std::to_string(d));
    elements *= uint64_t(d);
    if (elements > kMaxElements) throw r.error(tensor + " is too large");
  }
  if (!raw.empty() && !floats.empty()) throw r.error(tensor + " has both raw and float data");
  const uint64_t have = raw.empty() ? floats.size() : raw.size() / sizeof(float);
  if (have != elements || raw.size() % sizeof(float))
    throw r.error(tensor + " holds " + std::to_string(raw.empty() ? floats.size() * sizeof(float) : raw.size()) +
                  " bytes of data for " + std::to_string(elements) + " values");
  if (raw.empty()) {
    t.data = std::move(floats);
  } else {
    t.data.resize(size_t(elements));
    std::memcpy(t.data.data(), raw.data(), raw.size());
  }
  return true;
}

std::vector<Tensor> parse_or_throw(std::string_view bytes, std::string_view source) {
  Reader model(bytes, 0, source);
  if (bytes.empty()) throw model.error("empty (not an ONNX model)");
  // Protobuf writes fields in number order, so a file cut short anywhere before its operator sets
  // (after the graph) lacks them.
  bool ir_version = false, graph = false, opsets = false;
  std::vector<Tensor> out;
  while (!model.done()) {
    const auto [field, wire] = model.tag();
    if (field == kModelIrVersion) {
      expect_wire(model, wire, kVarint, "IR version");
      model.varint("the IR version");
      ir_version = true;
    } else if (field == kModelGraph) {
      expect_wire(model, wire, kBytes, "graph");
      Reader g = model.message("the graph");
      graph = true;
      while (!g.done()) {
        const auto [graph_field, graph_wire] = g.tag();
        if (graph_field != kGraphInitializer) {
          g.skip(graph_wire);
          continue;
        }
        expect_wire(g, graph_wire, kBytes, "initializer");
        Tensor t;
        if (read_tensor(g.message("an initializer"), t)) out.push_back(std::move(t));
      }
    } else {
      opsets |= field == kModelOpsetImport;
      model.skip(wire);
    }
  }
  if (!ir_version || !graph)
    throw model.error(std::string("not an ONNX model (it has no ") + (ir_version ? "graph" : "IR version") + ")");
  if (!opsets) throw model.error("not a complete ONNX model: it has no operator sets (a truncated file?)");
  return out;
}

}  // namespace

Result<std::vector<Tensor>> parse_onnx_weights(std::string_view bytes, std::string_view source) {
  try {
    return parse_or_throw(bytes, source);
  } catch (const Error& e) {
    return fail(e.what());
  }
}

Result<std::vector<Tensor>> read_onnx_weights(const std::string& path) {
  const Result<std::string> bytes = try_read_file(path, "cannot open the model");
  if (!bytes) return fail(bytes.error());
  return parse_onnx_weights(*bytes, path);
}

}  // namespace sz::client
