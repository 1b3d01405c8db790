#include <cstdio>
#include <string>
#include <vector>

#include "bundle/export_bundle.h"
#include "cli/command.h"
#include "cli/config_args.h"
#include "core/error.h"

namespace sz::cli {

namespace {

constexpr const char* kUsage =
    R"(sittuyin-zero export --model CHECKPOINT --out DIR [--profile NAME ...] [--levels FILE]
                             [--tables DIR [--tables-men N]] [--config FILE] [--set KEY=VALUE ...])";

constexpr const char* kAbout =
    R"(Writes a bundle for game clients (docs/CLIENTS.md) into DIR: model.json (the game, the rule
profiles, the encoding and what every input means, the action table, the outputs) and
model.onnx (the network for onnxruntime and the like, passed through ONNX's checker and shape
inference), whose weights the torch-free runtime in client/ reads.
)";

Flags export_flags(bundle::ExportSpec& spec, ConfigFlags& config) {
  Flags f(kUsage, kAbout);
  f.text("--model", "CHECKPOINT", spec.checkpoint, "the network to export").required();
  f.text("--out", "DIR", spec.out, "the bundle's folder (created when missing; its files are replaced)").required();
  f.texts("--profile", "NAME", spec.profiles,
          "a rule profile (name or YAML path) clients may play, repeatable; the first is the default (default: the "
          "profiles the checkpoint was trained on)");
  f.text("--levels", "FILE", spec.levels,
         "a levels manifest (`sittuyin-zero levels`: runs/<run>/eval/levels.yaml): its levels that play CHECKPOINT, "
         "the random mover or uniform MCTS go into model.json with their settings and measured Elo; the others are "
         "listed");
  f.text("--tables", "DIR", spec.tables,
         "a tables directory (`sittuyin-zero tables build`): the endgame tables of the profiles' ending rules go "
         "into the bundle's tables/ folder, each checked first; clients play their best moves in those positions "
         "(docs/TABLES.md)");
  f.number("--tables-men", "N", spec.tables_men, 3, 4,
           "the most men (kings included) of a table copied: 3 (the default, about 0.4 MB per set of rules) or 4 "
           "(about 200 MB)");
  f.config(config,
           "run config whose `play` search settings the bundle carries for the clients' searches (its `search` "
           "section with the `play` section's keys on top; default: quickstart, as `sittuyin-zero uci` uses); a "
           "levels manifest's own search settings (those its Elo was measured with) are carried instead, and "
           "--config/--set must then agree with them");
  return f;
}

}  // namespace

int export_command(Args args) {
  bundle::ExportSpec spec;
  ConfigFlags config;
  if (!export_flags(spec, config).parse(args)) return 0;
  spec.search = run_config_of(config).play;
  spec.search_given = config.given();
  const bundle::ExportReport report = bundle::export_bundle(spec);
  for (const std::string& s : report.skipped) std::printf("left out %s\n", s.c_str());
  if (report.search_from_levels)
    std::printf("search settings: %s's (those its levels were measured with)\n", spec.levels.c_str());
  std::printf("wrote %s/model.json (%d levels) and %s/model.onnx\n", spec.out.c_str(), report.levels, spec.out.c_str());
  if (!spec.tables.empty()) std::printf("copied %d endgame tables into %s/tables\n", report.tables, spec.out.c_str());
  return 0;
}

}  // namespace sz::cli
