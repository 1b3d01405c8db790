#pragma once
// Internal to src/data: included only by its .cpp files, never by a public header, so that
// HDF5 stays inside this module. RAII handles, error capture and the few typed helpers that the
// writer and the reader share.
//
// Thread-safety: every public entry point of the module holds lock() while it calls HDF5, so the
// module is safe to use from several threads even with an HDF5 built without thread safety.
// The lock is recursive because a Handle closes its id under it too.
#include <hdf5.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace sz::data::h5 {

// Takes the module's HDF5 lock and turns HDF5's automatic error printing off for this thread
// (errors are reported through sz::Error instead).
std::unique_lock<std::recursive_mutex> lock();

// The innermost message on this thread's HDF5 error stack (empty when none), and clears it.
std::string take_error_message();

// Throws sz::Error("<where>: <what> (<HDF5's message>)").
[[noreturn]] void fail(const std::string& where, const std::string& what);

inline hid_t check_id(hid_t id, const std::string& where, const char* what) {
  if (id < 0) fail(where, what);
  return id;
}
inline void check_ok(herr_t status, const std::string& where, const char* what) {
  if (status < 0) fail(where, what);
}

// Owns one HDF5 id and closes it with the matching H5?close.
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle() = default;
  Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {}
  Handle(Handle&& o) noexcept : id_(o.id_), closer_(o.closer_) { o.id_ = H5I_INVALID_HID; }
  Handle& operator=(Handle&& o) noexcept;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { reset(); }

  hid_t get() const { return id_; }
  explicit operator bool() const { return id_ >= 0; }
  herr_t reset();  // closes now; returns the close status (files report failed flushes here)

 private:
  hid_t id_ = H5I_INVALID_HID;
  Closer closer_ = nullptr;
};

// Checked constructors of owned ids; `where` names the file (and object) for error messages.
Handle plist(hid_t cls, const std::string& where);
// File access properties for shards: HDF5's file locking off. A shard has one writer (its
// temporary name is private to it) and is never changed once renamed into place, so locks
// protect nothing, and they fail on file systems without flock (NFS), where several machines'
// self-play may share a games directory.
Handle file_access(const std::string& where);
Handle simple_space(const std::vector<hsize_t>& dims, const std::vector<hsize_t>& max_dims,
                    const std::string& where);
// Strings are stored fixed-length (UTF-8, zero-padded to the longest), never variable-length:
// variable-length data lives in HDF5's global heap, which has no checksum, and HDF5 crashes on
// a damaged one instead of reporting it.
Handle fixed_string_type(size_t size, const std::string& where);
Handle variable_string_type(const std::string& where);
Handle open_group(hid_t loc, const char* name, const std::string& where);
Handle open_dataset(hid_t loc, const char* path, const std::string& where);
bool exists(hid_t loc, const char* path);  // a link at `path` (intermediate groups checked too)

// Attributes on `loc`: 64-bit integers and strings (scalars or 1-D arrays). The readers also
// accept variable-length strings, as tools like h5py write them.
void write_int_attr(hid_t loc, const char* name, int64_t value, const std::string& where);
void write_string_attr(hid_t loc, const char* name, const std::string& value, const std::string& where);
void write_string_array_attr(hid_t loc, const char* name, const std::vector<std::string>& values,
                             const std::string& where);
int64_t read_int_attr(hid_t loc, const char* name, const std::string& where);
std::string read_string_attr(hid_t loc, const char* name, const std::string& where);
std::vector<std::string> read_string_array_attr(hid_t loc, const char* name, const std::string& where);

// The extent of a dataset (one entry per dimension).
std::vector<hsize_t> extent(hid_t dataset, const std::string& where);

// Grows a dataset of rank 1 or 2 by `rows` rows of `width` elements and writes them.
void append_rows(hid_t dataset, hid_t mem_type, const void* data, hsize_t rows, hsize_t width,
                 const std::string& where);
// Reads rows [first, first + rows) of a dataset of rank 1 or 2 into `out`.
void read_rows(hid_t dataset, hid_t mem_type, void* out, hsize_t first, hsize_t rows, hsize_t width,
               const std::string& where);

// The image of an in-memory file that is still open for writing (H5Fget_file_image), made into
// the bytes of a closed file. HDF5 1.10.8 clears the superblock's status flags in the copy, as
// closing would, but leaves the checksum of the flagged superblock, so the image would not open.
// This recomputes that checksum (superblock versions 2 and 3: Jenkins' lookup3 over the bytes
// before it); it is idempotent, so a library that gets it right loses nothing. Throws sz::Error
// naming `where` when the image does not start with an HDF5 superblock.
void fix_superblock_checksum(std::vector<char>& image, const std::string& where);

// The values packed into `size`-byte zero-padded slots, size = the longest (at least 1).
std::vector<char> pack_strings(const std::vector<std::string>& values, size_t* size);
// Rows [first, first + rows) of a 1-D fixed-length string dataset.
std::vector<std::string> read_strings(hid_t dataset, hsize_t first, hsize_t rows, const std::string& where);

}  // namespace sz::data::h5
