#include "bundle/model_json.h"

#include "bundle/onnx_model.h"
#include "client/json_fields.h"
#include "client/profile_json.h"
#include "core/json_text.h"
#include "games/chaturanga/action_space.h"
#include "games/chaturanga/encoder.h"

namespace sz::bundle {

namespace {

using chaturanga::Game;

std::string string_array(const std::vector<std::string>& items, const std::string& indent) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ",\n" : "\n") + indent + "  " + json_quoted(items[i]);
  return out + "\n" + indent + "]";
}

std::string action_table(Game game, int actions) {
  std::string out = "[";
  for (int a = 0; a < actions; ++a) {
    const std::string text = chaturanga::action_text(game, a);
    out += (a % 16 ? ", " : a ? ",\n      " : "\n      ") + (text.empty() ? std::string("null") : json_quoted(text));
  }
  return out + "\n    ]";
}

std::string level_json(const client::BundleLevel& level) {
  client::JsonFieldWriter w;
  client::BundleLevel l = level;
  client::fields(w, l);
  return w.object();
}

}  // namespace

std::string model_json(const ModelInfo& info) {
  const game::GameSpec& spec = info.arch.spec;
  const Game game = spec.game == "sittuyin" ? Game::Sittuyin : Game::Shatranj;
  std::string out = "{\n";
  out += "  \"format\": " + json_quoted(client::kBundleFormat) + ",\n";
  out += "  \"format_version\": " + std::to_string(client::kBundleFormatVersion) + ",\n";
  out += "  \"checkpoint\": " + json_quoted(info.checkpoint) + ",\n";
  out += "  \"step\": " + std::to_string(info.step) + ",\n";
  out += "  \"game\": " + json_quoted(spec.game) + ",\n";

  client::JsonFieldWriter encoding;
  game::GameSpec s = spec;
  net::fields(encoding, s);
  encoding.num("policy_planes", s.policy_planes, 0, 1 << 20);
  out += "  \"encoding\": " + encoding.object() + ",\n";
  client::JsonFieldWriter net;
  net::NetConfig n = info.arch.net;
  net::fields(net, n);
  out += "  \"net\": " + net.object() + ",\n";

  out += "  \"search\": " + search_json(info.search) + ",\n";

  out += "  \"profiles\": [";
  for (size_t i = 0; i < info.profiles.size(); ++i)
    out += (i ? ",\n    " : "\n    ") + client::profile_json(*info.profiles[i]);
  out += "\n  ],\n";

  out += "  \"inputs\": {\n";
  out += "    \"about\": " +
         json_quoted(
             "Everything from the side to move's view (docs/ENCODING.md). Sittuyin rotates the board 180 degrees for "
             "Black (square s -> 63 - s), Shatranj flips it vertically (s -> s ^ 56); a1 = 0, b1 = 1, ..., h8 = 63. "
             "The network reads binary_planes + scalar_features channels of 8x8: channel c < binary_planes is bit s of "
             "bitboard c at row s / 8 (rank), column s % 8 (file); channel binary_planes + j is scalar j on every "
             "square. model.onnx reads 'planes' [N, binary_planes, 8, 8] float32 (0 or 1) and 'scalars' "
             "[N, scalar_features] float32; the runtime (client/eigen_net.h) reads the bitboards as uint64.") +
         ",\n";
  out += "    \"planes\": " + string_array(chaturanga::plane_meanings(game), "    ") + ",\n";
  out += "    \"scalars\": " + string_array(chaturanga::scalar_meanings(), "    ") + "\n  },\n";

  out += "  \"actions\": {\n";
  out += "    \"about\": " +
         json_quoted(
             "table[id] is the move an action id stands for in the mover's frame, as White writes it in UCI: "
             "board moves 'b1c3', drops 'R@a1' (K king, F met, S khon, N knight, R rook), Sittuyin promotions "
             "'d5d5f' (in place) and 'd5c6f' (a diagonal step); null for an id that names no move. For Black, map "
             "each square back: Sittuyin s -> 63 - s (a1 <-> h8), Shatranj s -> s ^ 56 (a1 <-> a8). A Shatranj pawn "
             "move to the last rank is written with 'q' when played.") +
         ",\n";
  out += "    \"table\": " + action_table(game, spec.action_space) + "\n  },\n";

  out += "  \"outputs\": {\n";
  out += "    \"policy\": " +
         json_quoted(
             "[N, action_space] logits over every action id; the priors are their softmax over the legal actions "
             "only") +
         ",\n";
  out += "    \"wdl\": " + json_quoted("[N, 3] logits of win, draw, loss for the side to move; softmax them") + ",\n";
  out += "    \"moves_left\": " +
         json_quoted(info.arch.net.moves_left ? "[N] expected plies to the game's end"
                                              : "absent: the network has no moves-left head (the runtime gives 0)") +
         "\n  },\n";

  out += "  \"weights\": {\"file\": " + json_quoted(client::kModelOnnx) +
         ", \"format\": " + json_quoted(client::kWeightsFormat) + ", \"opset\": " + std::to_string(kOnnxOpset) +
         ", \"batch_norm_epsilon\": 1e-05, \"about\": " +
         json_quoted(
             "the network as an ONNX model (inputs 'planes' and 'scalars', outputs 'policy', 'wdl' and, with the "
             "head, 'moves_left'; dynamic batch); its float32 initializers are the weights under LibTorch's names "
             "and shapes (models/network.cpp), which the runtime reads; docs/CLIENTS.md") +
         "},\n";

  out += "  \"levels\": [";
  for (size_t i = 0; i < info.levels.size(); ++i) out += (i ? ",\n    " : "\n    ") + level_json(info.levels[i]);
  out += info.levels.empty() ? "]\n" : "\n  ]\n";
  return out + "}\n";
}

std::string search_json(search::SearchConfig config) {
  client::JsonFieldWriter w;
  search::fields(w, config);
  return w.object();
}

}  // namespace sz::bundle
