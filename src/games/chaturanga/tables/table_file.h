#pragma once
// A table's file (docs/TABLES.md, "File format"): a 128-byte header (magic, format version, game,
// material, the ending rules' fingerprint, entry count, code widths, payload size and checksum,
// the header's own checksum), then the DTZ codes and, when the table has them, the DTM codes,
// little-endian. Written atomically (core/atomic_file.h); read by mapping it read-only. A file
// that is damaged, truncated, of another format version, game, rules or material is refused with
// an error that names it: never a wrong value.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "games/chaturanga/tables/ending_rules.h"
#include "games/chaturanga/tables/table.h"

namespace sz::chaturanga::tables {

inline constexpr int kTableFormatVersion = 1;  // bump => the reader refuses older files (rebuild them)
inline constexpr char kTableExtension[] = ".szt";

// A table's codes as a build leaves them; dtm empty when it equals the DTZ everywhere.
struct TableCodes {
  std::vector<uint8_t> dtz, dtm;
  int dtz_width = 1, dtm_width = 0;
};

// The file name of a material's table: "KRSvK.szt".
std::string table_file_name(const Material& material);

// Writes the table atomically; throws sz::Error naming the file.
void write_table_file(const std::string& path, const EndingRules& rules, const Material& material,
                      const TableCodes& codes);

// Maps and checks the table at `path`, which must be `material`'s under `rules`; throws sz::Error
// naming the file and what is wrong with it.
std::shared_ptr<const Table> load_table_file(const std::string& path, const EndingRules& rules,
                                             const Material& material);

// A table built in memory (the codes move into it).
std::shared_ptr<const Table> table_from_codes(const Material& material, TableCodes codes);

// 64-bit checksum of bytes, about 8 GB/s: detects damage, not tampering.
uint64_t table_checksum(const uint8_t* data, size_t size);

}  // namespace sz::chaturanga::tables
