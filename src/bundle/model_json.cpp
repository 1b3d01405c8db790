#include "bundle/model_json.h"

#include "bundle/onnx_model.h"
#include "client/json_fields.h"
#include "client/profile_json.h"
#include "core/json_writer.h"
#include "games/chaturanga/action_space.h"
#include "games/chaturanga/encoder.h"

namespace sz::bundle {

namespace {

using chaturanga::Game;

void add_strings(JsonWriter& w, const char* key, const std::vector<std::string>& items) {
  w.array(key);
  for (const std::string& item : items) w.add(item);
  w.close();
}

// The action table: an action id's move text, null for an id that names none.
void add_action_table(JsonWriter& w, Game game, int actions) {
  w.array("table");
  for (int a = 0; a < actions; ++a) {
    const std::string text = chaturanga::action_text(game, a);
    if (text.empty())
      w.raw("null");
    else
      w.add(text);
  }
  w.close();
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
  client::JsonFieldWriter encoding;
  game::GameSpec s = spec;
  net::fields(encoding, s);
  encoding.num("policy_planes", s.policy_planes, 0, 1 << 20);
  client::JsonFieldWriter net;
  net::NetConfig n = info.arch.net;
  net::fields(net, n);

  JsonWriter w;
  w.object()
      .add("format", client::kBundleFormat)
      .add("format_version", client::kBundleFormatVersion)
      .add("checkpoint", info.checkpoint)
      .add("step", info.step)
      .add("game", spec.game)
      .raw("encoding", encoding.object())
      .raw("net", net.object())
      .raw("search", search_json(info.search))
      .array("profiles");
  for (const auto& profile : info.profiles) w.raw(client::profile_json(*profile));
  w.close().object("inputs").add(
      "about",
      "Everything from the side to move's view (docs/ENCODING.md). Sittuyin rotates the board 180 degrees for "
      "Black (square s -> 63 - s), Shatranj flips it vertically (s -> s ^ 56); a1 = 0, b1 = 1, ..., h8 = 63. "
      "The network reads binary_planes + scalar_features channels of 8x8: channel c < binary_planes is bit s of "
      "bitboard c at row s / 8 (rank), column s % 8 (file); channel binary_planes + j is scalar j on every "
      "square. model.onnx reads 'planes' [N, binary_planes, 8, 8] float32 (0 or 1) and 'scalars' "
      "[N, scalar_features] float32; the runtime (client/eigen_net.h) reads the bitboards as uint64.");
  add_strings(w, "planes", chaturanga::plane_meanings(game));
  add_strings(w, "scalars", chaturanga::scalar_meanings());
  w.close().object("actions").add(
      "about",
      "table[id] is the move an action id stands for in the mover's frame, as White writes it in UCI: "
      "board moves 'b1c3', drops 'R@a1' (K king, F met, S khon, N knight, R rook), Sittuyin promotions "
      "'d5d5f' (in place) and 'd5c6f' (a diagonal step); null for an id that names no move. For Black, map "
      "each square back: Sittuyin s -> 63 - s (a1 <-> h8), Shatranj s -> s ^ 56 (a1 <-> a8). A Shatranj pawn "
      "move to the last rank is written with 'q' when played.");
  add_action_table(w, game, spec.action_space);
  w.close()
      .object("outputs")
      .add("policy",
           "[N, action_space] logits over every action id; the priors are their softmax over the legal actions only")
      .add("wdl", "[N, 3] logits of win, draw, loss for the side to move; softmax them")
      .add("moves_left", info.arch.net.moves_left ? "[N] expected plies to the game's end"
                                                  : "absent: the network has no moves-left head (the runtime gives 0)")
      .close()
      .object("weights", JsonWriter::Layout::Inline)
      .add("file", client::kModelOnnx)
      .add("format", client::kWeightsFormat)
      .add("opset", kOnnxOpset)
      .raw("batch_norm_epsilon", "1e-05")
      .add("about",
           "the network as an ONNX model (inputs 'planes' and 'scalars', outputs 'policy', 'wdl' and, with the "
           "head, 'moves_left'; dynamic batch); its float32 initializers are the weights under LibTorch's names "
           "and shapes (models/network.cpp), which the runtime reads; docs/CLIENTS.md")
      .close()
      .array("levels");
  for (const client::BundleLevel& level : info.levels) w.raw(level_json(level));
  return w.close().close().str() + "\n";
}

std::string search_json(search::SearchConfig config) {
  client::JsonFieldWriter w;
  search::fields(w, config);
  return w.object();
}

}  // namespace sz::bundle
