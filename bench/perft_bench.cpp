// `sittuyin-zero bench perft`: perft speed on the anchor positions of ../shared/RULES.md
// (section "Performance anchor"). Placeholder filled in below.
#include "cli/command.h"
namespace sz::cli {
int bench_perft(Args) { return 0; }
}  // namespace sz::cli
