#include "data/hdf5_util.h"

#include <algorithm>
#include <cstring>

#include "core/error.h"

namespace sz::data::h5 {

namespace {

herr_t innermost_message(unsigned n, const H5E_error2_t* err, void* client) {
  // Walking upward starts at the most specific error, which is the one that explains.
  if (n == 0 && err->desc) *static_cast<std::string*>(client) = err->desc;
  return 0;
}

// Frees the strings HDF5 allocated when it read variable-length data into `buf`.
void reclaim(hid_t type, hid_t space, void* buf) {
#if H5_VERSION_GE(1, 12, 0)
  H5Treclaim(type, space, H5P_DEFAULT, buf);
#else
  H5Dvlen_reclaim(type, space, H5P_DEFAULT, buf);
#endif
}

Handle file_space(hid_t dataset, const std::string& where) {
  return Handle(check_id(H5Dget_space(dataset), where, "cannot get the dataspace"), H5Sclose);
}

Handle open_attr(hid_t loc, const char* name, const std::string& where) {
  if (H5Aexists(loc, name) <= 0) {
    take_error_message();
    throw Error(where + ": missing attribute '" + name + "'");
  }
  return Handle(check_id(H5Aopen(loc, name, H5P_DEFAULT), where, "cannot open attribute"), H5Aclose);
}

// Selects rows [first, first + rows) x all `width` columns in `space`.
void select_rows(hid_t space, hsize_t first, hsize_t rows, hsize_t width, const std::string& where) {
  const hsize_t start[2] = {first, 0};
  const hsize_t count[2] = {rows, width};
  check_ok(H5Sselect_hyperslab(space, H5S_SELECT_SET, start, nullptr, count, nullptr), where,
           "cannot select rows");
}

uint32_t rotate(uint32_t x, int k) { return (x << k) | (x >> (32 - k)); }

// Bob Jenkins' lookup3 hash (hashlittle, public domain), the checksum of HDF5's metadata.
uint32_t lookup3(const unsigned char* k, size_t length, uint32_t initval) {
  const auto word = [](const unsigned char* p, size_t n) {  // n bytes, little-endian
    uint32_t w = 0;
    for (size_t i = 0; i < n; ++i) w |= uint32_t(p[i]) << (8 * i);
    return w;
  };
  uint32_t a, b, c;
  a = b = c = 0xdeadbeefu + uint32_t(length) + initval;
  for (; length > 12; length -= 12, k += 12) {
    a += word(k, 4), b += word(k + 4, 4), c += word(k + 8, 4);
    a -= c, a ^= rotate(c, 4), c += b;
    b -= a, b ^= rotate(a, 6), a += c;
    c -= b, c ^= rotate(b, 8), b += a;
    a -= c, a ^= rotate(c, 16), c += b;
    b -= a, b ^= rotate(a, 19), a += c;
    c -= b, c ^= rotate(b, 4), b += a;
  }
  if (length == 0) return c;
  a += word(k, std::min<size_t>(length, 4));
  if (length > 4) b += word(k + 4, std::min<size_t>(length - 4, 4));
  if (length > 8) c += word(k + 8, length - 8);
  c ^= b, c -= rotate(b, 14);
  a ^= c, a -= rotate(c, 11);
  b ^= a, b -= rotate(a, 25);
  c ^= b, c -= rotate(b, 16);
  a ^= c, a -= rotate(c, 4);
  b ^= a, b -= rotate(a, 14);
  c ^= b, c -= rotate(b, 24);
  return c;
}

}  // namespace

void fix_superblock_checksum(std::vector<char>& image, const std::string& where) {
  static constexpr char kSignature[8] = {'\x89', 'H', 'D', 'F', '\r', '\n', '\x1a', '\n'};
  if (image.size() < 12 || !std::equal(kSignature, kSignature + 8, image.begin()))
    throw Error(where + ": the in-memory shard does not start with an HDF5 superblock");
  const int version = image[8];
  if (version != 2 && version != 3) return;  // versions 0 and 1 have no checksum
  // Signature, version, the sizes of offsets and lengths, the flags, then four addresses.
  const size_t covered = 12 + 4 * size_t(static_cast<unsigned char>(image[9]));
  if (image.size() < covered + 4) throw Error(where + ": the in-memory shard's superblock is cut short");
  const uint32_t sum = lookup3(reinterpret_cast<const unsigned char*>(image.data()), covered, 0);
  for (int i = 0; i < 4; ++i) image[covered + size_t(i)] = char((sum >> (8 * i)) & 0xFF);
}

std::unique_lock<std::recursive_mutex> lock() {
  static std::recursive_mutex mutex;
  std::unique_lock<std::recursive_mutex> guard(mutex);
  // The automatic printer is per thread in a thread-safe HDF5; turn it off once per thread.
  thread_local bool silenced = false;
  if (!silenced) {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    silenced = true;
  }
  return guard;
}

std::string take_error_message() {
  std::string message;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, innermost_message, &message);
  H5Eclear2(H5E_DEFAULT);
  return message;
}

void fail(const std::string& where, const std::string& what) {
  const std::string detail = take_error_message();
  throw Error(where + ": " + what + (detail.empty() ? "" : " (HDF5: " + detail + ")"));
}

Handle& Handle::operator=(Handle&& o) noexcept {
  if (this != &o) {
    reset();
    id_ = o.id_;
    closer_ = o.closer_;
    o.id_ = H5I_INVALID_HID;
  }
  return *this;
}

herr_t Handle::reset() {
  if (id_ < 0) return 0;
  auto guard = lock();
  const herr_t status = closer_(id_);
  id_ = H5I_INVALID_HID;
  return status;
}

Handle plist(hid_t cls, const std::string& where) {
  return Handle(check_id(H5Pcreate(cls), where, "cannot create a property list"), H5Pclose);
}

Handle file_access(const std::string& where) {
  Handle fapl = plist(H5P_FILE_ACCESS, where);
#if (H5_VERS_MAJOR == 1 && H5_VERS_MINOR == 10 && H5_VERS_RELEASE >= 7) || H5_VERSION_GE(1, 12, 1)
  check_ok(H5Pset_file_locking(fapl.get(), /*use_file_locking=*/false, /*ignore_when_disabled=*/true), where,
           "cannot turn file locking off");
#endif
  return fapl;
}

Handle simple_space(const std::vector<hsize_t>& dims, const std::vector<hsize_t>& max_dims,
                    const std::string& where) {
  const hid_t id = H5Screate_simple(int(dims.size()), dims.data(), max_dims.empty() ? nullptr : max_dims.data());
  return Handle(check_id(id, where, "cannot create a dataspace"), H5Sclose);
}

Handle fixed_string_type(size_t size, const std::string& where) {
  Handle type(check_id(H5Tcopy(H5T_C_S1), where, "cannot copy the string type"), H5Tclose);
  check_ok(H5Tset_size(type.get(), size), where, "cannot size a string type");
  check_ok(H5Tset_strpad(type.get(), H5T_STR_NULLPAD), where, "cannot set string padding");
  check_ok(H5Tset_cset(type.get(), H5T_CSET_UTF8), where, "cannot set UTF-8");
  return type;
}

Handle variable_string_type(const std::string& where) {
  Handle type(check_id(H5Tcopy(H5T_C_S1), where, "cannot copy the string type"), H5Tclose);
  check_ok(H5Tset_size(type.get(), H5T_VARIABLE), where, "cannot make a variable-length string type");
  check_ok(H5Tset_cset(type.get(), H5T_CSET_UTF8), where, "cannot set UTF-8");
  return type;
}

std::vector<char> pack_strings(const std::vector<std::string>& values, size_t* size) {
  *size = 1;
  for (const auto& v : values) *size = std::max(*size, v.size());
  std::vector<char> packed(values.size() * *size, '\0');
  for (size_t i = 0; i < values.size(); ++i) std::copy(values[i].begin(), values[i].end(), packed.begin() + long(i * *size));
  return packed;
}

Handle open_group(hid_t loc, const char* name, const std::string& where) {
  return Handle(check_id(H5Gopen2(loc, name, H5P_DEFAULT), where, "cannot open group"), H5Gclose);
}

Handle open_dataset(hid_t loc, const char* path, const std::string& where) {
  return Handle(check_id(H5Dopen2(loc, path, H5P_DEFAULT), where, "cannot open dataset"), H5Dclose);
}

bool exists(hid_t loc, const char* path) {
  const std::string full(path);
  for (size_t slash = full.find('/'); ; slash = full.find('/', slash + 1)) {
    const std::string prefix = full.substr(0, slash);
    if (H5Lexists(loc, prefix.c_str(), H5P_DEFAULT) <= 0) {
      take_error_message();
      return false;
    }
    if (slash == std::string::npos) return true;
  }
}

void write_int_attr(hid_t loc, const char* name, int64_t value, const std::string& where) {
  const Handle space(check_id(H5Screate(H5S_SCALAR), where, "cannot create a dataspace"), H5Sclose);
  const Handle attr(check_id(H5Acreate2(loc, name, H5T_STD_I64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT), where,
                             "cannot create attribute"),
                    H5Aclose);
  check_ok(H5Awrite(attr.get(), H5T_NATIVE_INT64, &value), where, "cannot write attribute");
}

void write_string_attr(hid_t loc, const char* name, const std::string& value, const std::string& where) {
  size_t size = 0;
  const std::vector<char> packed = pack_strings({value}, &size);
  const Handle type = fixed_string_type(size, where);
  const Handle space(check_id(H5Screate(H5S_SCALAR), where, "cannot create a dataspace"), H5Sclose);
  const Handle attr(check_id(H5Acreate2(loc, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), where,
                             "cannot create attribute"),
                    H5Aclose);
  check_ok(H5Awrite(attr.get(), type.get(), packed.data()), where, "cannot write attribute");
}

void write_string_array_attr(hid_t loc, const char* name, const std::vector<std::string>& values,
                             const std::string& where) {
  size_t size = 0;
  const std::vector<char> packed = pack_strings(values, &size);
  const Handle type = fixed_string_type(size, where);
  const Handle space = simple_space({hsize_t(values.size())}, {}, where);
  const Handle attr(check_id(H5Acreate2(loc, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), where,
                             "cannot create attribute"),
                    H5Aclose);
  check_ok(H5Awrite(attr.get(), type.get(), packed.data()), where, "cannot write attribute");
}

int64_t read_int_attr(hid_t loc, const char* name, const std::string& where) {
  const Handle attr = open_attr(loc, name, where);
  const Handle type(check_id(H5Aget_type(attr.get()), where, "cannot get attribute type"), H5Tclose);
  const Handle space(check_id(H5Aget_space(attr.get()), where, "cannot get attribute space"), H5Sclose);
  if (H5Tget_class(type.get()) != H5T_INTEGER || H5Sget_simple_extent_npoints(space.get()) != 1) {
    throw Error(where + ": attribute '" + name + "' is not an integer");
  }
  int64_t value = 0;
  check_ok(H5Aread(attr.get(), H5T_NATIVE_INT64, &value), where, "cannot read attribute");
  return value;
}

std::vector<std::string> read_string_array_attr(hid_t loc, const char* name, const std::string& where) {
  const Handle attr = open_attr(loc, name, where);
  const Handle type(check_id(H5Aget_type(attr.get()), where, "cannot get attribute type"), H5Tclose);
  const Handle space(check_id(H5Aget_space(attr.get()), where, "cannot get attribute space"), H5Sclose);
  const hssize_t n = H5Sget_simple_extent_npoints(space.get());
  if (H5Tget_class(type.get()) != H5T_STRING || n < 0) {
    throw Error(where + ": attribute '" + name + "' is not a string");
  }
  std::vector<std::string> out;
  if (H5Tis_variable_str(type.get()) > 0) {
    const Handle mem = variable_string_type(where);
    std::vector<char*> texts(size_t(n), nullptr);
    check_ok(H5Aread(attr.get(), mem.get(), texts.data()), where, "cannot read attribute");
    for (const char* t : texts) out.emplace_back(t ? t : "");
    reclaim(mem.get(), space.get(), texts.data());
  } else {  // fixed length, zero-padded: may lack a terminating zero
    const size_t len = H5Tget_size(type.get());
    const Handle mem = fixed_string_type(len, where);
    std::vector<char> buf(len * size_t(n) + 1, '\0');
    check_ok(H5Aread(attr.get(), mem.get(), buf.data()), where, "cannot read attribute");
    for (hssize_t i = 0; i < n; ++i) {
      const char* s = buf.data() + size_t(i) * len;
      out.emplace_back(s, strnlen(s, len));
    }
  }
  return out;
}

std::string read_string_attr(hid_t loc, const char* name, const std::string& where) {
  auto values = read_string_array_attr(loc, name, where);
  if (values.size() != 1) throw Error(where + ": attribute '" + name + "' is not a single string");
  return values[0];
}

std::vector<hsize_t> extent(hid_t dataset, const std::string& where) {
  const Handle space = file_space(dataset, where);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0) fail(where, "cannot get the rank");
  std::vector<hsize_t> dims(size_t(rank), 0);
  if (rank > 0) check_ok(H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr), where, "cannot get the extent");
  return dims;
}

void append_rows(hid_t dataset, hid_t mem_type, const void* data, hsize_t rows, hsize_t width,
                 const std::string& where) {
  std::vector<hsize_t> dims = extent(dataset, where);
  if (rows == 0) return;
  const hsize_t first = dims[0];
  dims[0] += rows;
  check_ok(H5Dset_extent(dataset, dims.data()), where, "cannot extend dataset");
  if (width == 0) return;  // a [N, 0] dataset only grows
  const Handle space = file_space(dataset, where);
  select_rows(space.get(), first, rows, width, where);
  const Handle mem = simple_space(dims.size() == 1 ? std::vector<hsize_t>{rows} : std::vector<hsize_t>{rows, width},
                                  {}, where);
  check_ok(H5Dwrite(dataset, mem_type, mem.get(), space.get(), H5P_DEFAULT, data), where, "cannot write rows");
}

void read_rows(hid_t dataset, hid_t mem_type, void* out, hsize_t first, hsize_t rows, hsize_t width,
               const std::string& where) {
  const std::vector<hsize_t> dims = extent(dataset, where);
  if (dims.empty() || first + rows > dims[0]) throw Error(where + ": rows out of range");
  if (rows == 0 || width == 0) return;
  const Handle space = file_space(dataset, where);
  select_rows(space.get(), first, rows, width, where);
  const Handle mem = simple_space(dims.size() == 1 ? std::vector<hsize_t>{rows} : std::vector<hsize_t>{rows, width},
                                  {}, where);
  check_ok(H5Dread(dataset, mem_type, mem.get(), space.get(), H5P_DEFAULT, out), where, "cannot read rows");
}

std::vector<std::string> read_strings(hid_t dataset, hsize_t first, hsize_t rows, const std::string& where) {
  const Handle file_type(check_id(H5Dget_type(dataset), where, "cannot get the type"), H5Tclose);
  const size_t size = H5Tget_size(file_type.get());
  if (H5Tis_variable_str(file_type.get()) != 0 || size == 0) throw Error(where + ": not a fixed-length string dataset");
  const Handle mem = fixed_string_type(size, where);
  std::vector<char> buf(size_t(rows) * size, '\0');
  read_rows(dataset, mem.get(), buf.data(), first, rows, 1, where);
  std::vector<std::string> out;
  out.reserve(rows);
  for (hsize_t i = 0; i < rows; ++i) {
    const char* s = buf.data() + i * size;
    out.emplace_back(s, strnlen(s, size));
  }
  return out;
}

}  // namespace sz::data::h5
