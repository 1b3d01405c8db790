#include "data/schema.h"

#include <algorithm>

namespace sz::data::schema {

hid_t file_type(Kind kind) {
  switch (kind) {
    case Kind::I8: return H5T_STD_I8LE;
    case Kind::U8: return H5T_STD_U8LE;
    case Kind::I32: return H5T_STD_I32LE;
    case Kind::I64: return H5T_STD_I64LE;
    case Kind::U64: return H5T_STD_U64LE;
    case Kind::F32: return H5T_IEEE_F32LE;
    case Kind::Str: return H5T_C_S1;
  }
  return H5I_INVALID_HID;
}

hid_t mem_type(Kind kind) {
  switch (kind) {
    case Kind::I8: return H5T_NATIVE_INT8;
    case Kind::U8: return H5T_NATIVE_UINT8;
    case Kind::I32: return H5T_NATIVE_INT32;
    case Kind::I64: return H5T_NATIVE_INT64;
    case Kind::U64: return H5T_NATIVE_UINT64;
    case Kind::F32: return H5T_NATIVE_FLOAT;
    case Kind::Str: return H5T_C_S1;
  }
  return H5I_INVALID_HID;
}

size_t kind_size(Kind kind) {
  switch (kind) {
    case Kind::I8:
    case Kind::U8: return 1;
    case Kind::I32:
    case Kind::F32: return 4;
    case Kind::I64:
    case Kind::U64: return 8;
    case Kind::Str: return sizeof(char*);
  }
  return 0;
}

std::string kind_name(Kind kind) {
  switch (kind) {
    case Kind::I8: return "int8";
    case Kind::U8: return "uint8";
    case Kind::I32: return "int32";
    case Kind::I64: return "int64";
    case Kind::U64: return "uint64";
    case Kind::F32: return "float32";
    case Kind::Str: return "fixed-length string";
  }
  return "?";
}

int64_t width_of(const Column& column, const game::GameSpec& spec) {
  switch (column.width) {
    case Width::One: return 1;
    case Width::Planes: return spec.binary_planes;
    case Width::Scalars: return spec.scalar_features;
    case Width::Wdl: return 3;
  }
  return 1;
}

int64_t chunk_rows(const Column& column, const game::GameSpec& spec) {
  if (column.table == Table::Games) return 256;  // few per shard: a small chunk wastes nothing
  const int64_t row_bytes = std::max<int64_t>(1, width_of(column, spec)) * int64_t(kind_size(column.kind));
  return std::clamp<int64_t>(kChunkBytes / row_bytes, 1024, 65536);
}

}  // namespace sz::data::schema
