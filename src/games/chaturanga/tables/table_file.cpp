#include "games/chaturanga/tables/table_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/fnv1a.h"

namespace sz::chaturanga::tables {

namespace {

constexpr char kMagic[8] = {'S', 'Z', 'T', 'A', 'B', 'L', 'E', '\x1a'};

// The header as it lies on disk (little-endian, 128 bytes).
struct Header {
  char magic[8];
  uint32_t format_version;
  uint32_t header_bytes;
  char game[12];
  char material[12];
  uint64_t rules_fingerprint;
  uint64_t entries;
  uint8_t dtz_width;
  uint8_t dtm_width;  // 0: no DTM codes, the DTM equals the DTZ
  uint8_t men;
  uint8_t symmetries;  // 8, or 2 (the mirror a<->h only)
  uint32_t reserved0;
  uint64_t payload_bytes;
  uint64_t payload_checksum;
  uint8_t reserved[40];
  uint64_t header_checksum;  // FNV-1a of the bytes before it
};
static_assert(sizeof(Header) == 128, "the table header is 128 bytes on disk");

uint64_t header_checksum(const Header& h) { return fnv1a64(&h, offsetof(Header, header_checksum)); }

void copy_text(char* dst, size_t size, const std::string& s) {
  std::memset(dst, 0, size);
  std::memcpy(dst, s.data(), std::min(s.size(), size - 1));
}

std::string text_of(const char* src, size_t size) { return std::string(src, strnlen(src, size)); }

// A file mapped read-only for the life of the object.
class Mapping {
 public:
  explicit Mapping(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw Error(path + ": cannot open: " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
      ::close(fd);
      throw Error(path + ": cannot stat: " + std::strerror(errno));
    }
    size_ = size_t(st.st_size);
    if (size_ > 0) {
      void* p = ::mmap(nullptr, size_, PROT_READ, MAP_SHARED, fd, 0);
      if (p == MAP_FAILED) {
        ::close(fd);
        throw Error(path + ": cannot map: " + std::strerror(errno));
      }
      data_ = static_cast<const uint8_t*>(p);
    }
    ::close(fd);
  }
  ~Mapping() {
    if (data_) ::munmap(const_cast<uint8_t*>(data_), size_);
  }
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;

  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

// Checks a header against what the reader expects; throws naming the file.
void check_header(const std::string& path, const Header& h, size_t file_size, const EndingRules& rules,
                  const Material& material) {
  const auto bad = [&](const std::string& what) { throw Error(path + ": " + what); };
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0) bad("not an endgame table of sittuyin-zero (bad magic)");
  if (h.format_version != kTableFormatVersion)
    bad("table format version " + std::to_string(h.format_version) + ", this program reads version " +
        std::to_string(kTableFormatVersion) + " (rebuild the tables)");
  if (h.header_bytes != sizeof(Header) || header_checksum(h) != h.header_checksum) bad("damaged header (checksum)");
  if (text_of(h.game, sizeof h.game) != game_name(rules.game))
    bad("a table of " + text_of(h.game, sizeof h.game) + ", not " + std::string(game_name(rules.game)));
  if (h.rules_fingerprint != fingerprint(rules)) bad("a table of other ending rules than " + describe(rules));
  if (text_of(h.material, sizeof h.material) != material.name())
    bad("holds " + text_of(h.material, sizeof h.material) + ", not " + material.name());
  const Layout layout(material);
  const bool widths_ok = (h.dtz_width == 1 || h.dtz_width == 2) && h.dtm_width <= 2;
  if (!widths_ok || h.entries != layout.size() || h.men != layout.men())
    bad("damaged header (entry count or code widths do not fit " + material.name() + ")");
  if (h.payload_bytes != h.entries * (h.dtz_width + h.dtm_width)) bad("damaged header (payload size)");
  if (file_size != sizeof(Header) + h.payload_bytes)
    bad((file_size < sizeof(Header) + h.payload_bytes ? "truncated: " : "trailing bytes: ") +
        std::to_string(file_size) + " bytes, the header announces " + std::to_string(sizeof(Header) + h.payload_bytes));
}

}  // namespace

uint64_t table_checksum(const uint8_t* data, size_t size) {
  constexpr uint64_t kMul = 0x9E3779B97F4A7C15ull;
  uint64_t lane[4] = {1, 2, 3, 4};
  size_t i = 0;
  for (; i + 32 <= size; i += 32)
    for (int k = 0; k < 4; ++k) {
      uint64_t w;
      std::memcpy(&w, data + i + 8 * k, 8);
      lane[k] = (lane[k] ^ w) * kMul;
      lane[k] ^= lane[k] >> 29;
    }
  uint64_t h = fnv1a64(data + i, size - i, size);
  for (uint64_t l : lane) h = (h ^ l) * kMul ^ (h >> 31);
  return h;
}

std::string table_file_name(const Material& material) { return material.name() + kTableExtension; }

void write_table_file(const std::string& path, const EndingRules& rules, const Material& material,
                      const TableCodes& codes) {
  const Layout layout(material);
  Header h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.format_version = kTableFormatVersion;
  h.header_bytes = sizeof(Header);
  copy_text(h.game, sizeof h.game, std::string(game_name(rules.game)));
  copy_text(h.material, sizeof h.material, material.name());
  h.rules_fingerprint = fingerprint(rules);
  h.entries = layout.size();
  h.dtz_width = uint8_t(codes.dtz_width);
  h.dtm_width = uint8_t(codes.dtm.empty() ? 0 : codes.dtm_width);
  h.men = uint8_t(layout.men());
  h.symmetries = layout.full_symmetry() ? 8 : 2;
  h.payload_bytes = codes.dtz.size() + codes.dtm.size();
  if (codes.dtz.size() != h.entries * h.dtz_width || codes.dtm.size() != h.entries * h.dtm_width)
    throw Error(path + ": internal error: the codes do not fit " + material.name());
  std::string bytes(sizeof(Header) + h.payload_bytes, '\0');
  std::memcpy(bytes.data() + sizeof(Header), codes.dtz.data(), codes.dtz.size());
  if (!codes.dtm.empty())
    std::memcpy(bytes.data() + sizeof(Header) + codes.dtz.size(), codes.dtm.data(), codes.dtm.size());
  h.payload_checksum = table_checksum(reinterpret_cast<const uint8_t*>(bytes.data()) + sizeof(Header), h.payload_bytes);
  h.header_checksum = header_checksum(h);
  std::memcpy(bytes.data(), &h, sizeof h);
  write_file_atomically(path, bytes);
}

std::shared_ptr<const Table> load_table_file(const std::string& path, const EndingRules& rules,
                                             const Material& material) {
  auto mapping = std::make_shared<const Mapping>(path);
  if (mapping->size() < sizeof(Header))
    throw Error(path + ": truncated: " + std::to_string(mapping->size()) + " bytes, less than a table's header");
  Header h;
  std::memcpy(&h, mapping->data(), sizeof h);
  check_header(path, h, mapping->size(), rules, material);
  const uint8_t* payload = mapping->data() + sizeof(Header);
  if (table_checksum(payload, h.payload_bytes) != h.payload_checksum) throw Error(path + ": damaged (checksum)");
  const uint8_t* dtm = h.dtm_width ? payload + h.entries * h.dtz_width : nullptr;
  return std::make_shared<const Table>(material, payload, h.dtz_width, dtm, h.dtm_width, mapping);
}

std::shared_ptr<const Table> table_from_codes(const Material& material, TableCodes codes) {
  auto owned = std::make_shared<const TableCodes>(std::move(codes));
  const uint8_t* dtm = owned->dtm.empty() ? nullptr : owned->dtm.data();
  return std::make_shared<const Table>(material, owned->dtz.data(), owned->dtz_width, dtm, owned->dtm_width, owned);
}

}  // namespace sz::chaturanga::tables
