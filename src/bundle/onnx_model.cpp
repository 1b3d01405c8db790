#include "bundle/onnx_model.h"

#include <map>
#include <set>

#include "core/error.h"

#ifdef SZ_HAVE_ONNX
#include <onnx/checker.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>
#endif

namespace sz::bundle {

#ifndef SZ_HAVE_ONNX

bool onnx_available() { return false; }

std::string onnx_model_bytes(const net::Architecture&, const std::vector<client::Tensor>&, const std::string&) {
  throw Error("this sittuyin-zero was built without ONNX (Debian: apt-get install libonnx-dev, then rebuild)");
}

#else

bool onnx_available() { return true; }

namespace {

const std::string kConst = client::kOnnxConstantPrefix;

void set_float_data(onnx::TensorProto& t, const float* values, size_t n) {
  t.set_data_type(onnx::TensorProto::FLOAT);
  t.set_raw_data(std::string(reinterpret_cast<const char*>(values), n * sizeof(float)));
}

// The graph under construction: weights become initializers as nodes name them, each once.
class GraphBuilder {
 public:
  GraphBuilder(onnx::GraphProto& graph, const std::vector<client::Tensor>& tensors) : graph_(graph) {
    for (const client::Tensor& t : tensors)
      if (!weights_.emplace(t.name, &t).second) throw Error("model.onnx: tensor '" + t.name + "' given twice");
  }

  // The weight `name` as an initializer; `shape` is the one the graph needs.
  std::string weight(const std::string& name, const std::vector<int64_t>& shape) {
    const auto it = weights_.find(name);
    if (it == weights_.end()) throw Error("model.onnx: the network has no tensor '" + name + "'");
    if (it->second->shape != shape) throw Error("model.onnx: tensor '" + name + "' is not of the architecture's shape");
    if (!used_.insert(name).second) throw Error("model.onnx: tensor '" + name + "' used twice");
    onnx::TensorProto* t = graph_.add_initializer();
    t->set_name(name);
    for (const int64_t d : shape) t->add_dims(d);
    set_float_data(*t, it->second->data.data(), it->second->data.size());
    return name;
  }
  std::string int64_constant(const std::string& name, const std::vector<int64_t>& values) {
    onnx::TensorProto* t = graph_.add_initializer();
    t->set_name(kConst + name);
    t->set_data_type(onnx::TensorProto::INT64);
    t->add_dims(int64_t(values.size()));
    t->set_raw_data(std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(int64_t)));
    return t->name();
  }
  std::string float_scalar(const std::string& name, float value) {
    onnx::TensorProto* t = graph_.add_initializer();
    t->set_name(kConst + name);
    set_float_data(*t, &value, 1);
    return t->name();
  }

  onnx::NodeProto& node(const std::string& op, const std::vector<std::string>& inputs, const std::string& output) {
    onnx::NodeProto* n = graph_.add_node();
    n->set_op_type(op);
    n->set_name(output);
    for (const std::string& in : inputs) n->add_input(in);
    n->add_output(output);
    return *n;
  }

  // Every weight of the network must be in the graph.
  void finish() const {
    for (const auto& [name, t] : weights_)
      if (!used_.count(name)) throw Error("model.onnx: tensor '" + name + "' is not part of this architecture");
  }

 private:
  onnx::GraphProto& graph_;
  std::map<std::string, const client::Tensor*> weights_;
  std::set<std::string> used_;
};

void attribute(onnx::NodeProto& n, const std::string& name, int64_t value) {
  onnx::AttributeProto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(value);
}
void attribute(onnx::NodeProto& n, const std::string& name, float value) {
  onnx::AttributeProto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::FLOAT);
  a->set_f(value);
}
void attribute(onnx::NodeProto& n, const std::string& name, const std::vector<int64_t>& values) {
  onnx::AttributeProto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (const int64_t v : values) a->add_ints(v);
}

// A float tensor of the graph's inputs or outputs; dimension -1 is the batch.
void declare(onnx::ValueInfoProto* v, const std::string& name, const std::vector<int64_t>& dims) {
  v->set_name(name);
  onnx::TypeProto_Tensor* t = v->mutable_type()->mutable_tensor_type();
  t->set_elem_type(onnx::TensorProto::FLOAT);
  for (const int64_t d : dims) {
    onnx::TensorShapeProto_Dimension* dim = t->mutable_shape()->add_dim();
    if (d < 0) {
      dim->set_dim_param("batch");
    } else {
      dim->set_dim_value(d);
    }
  }
}

// models/network.cpp, node by node.
class NetworkGraph {
 public:
  NetworkGraph(GraphBuilder& g, const net::Architecture& arch) : g_(g), n_(arch.net), s_(arch.spec) {}

  void build() {
    const int channels = n_.channels;
    // Unsqueeze's axes [N, C] -> [N, C, 1, 1], for the scalar planes and the pooling biases.
    axes_2_3_ = g_.int64_constant("axes_2_3", {2, 3});
    std::string x = "planes";
    if (s_.scalar_features > 0) {
      // Each scalar as a constant plane: [N, S] -> [N, S, 1, 1] -> [N, S, 8, 8].
      const std::string column = g_.node("Unsqueeze", {"scalars", axes_2_3_}, "scalars_column").output(0);
      const std::string board =
          g_.node("Expand", {column, g_.int64_constant("board_shape", {1, 1, 8, 8})}, "scalar_planes").output(0);
      onnx::NodeProto& cat = g_.node("Concat", {x, board}, "input");
      attribute(cat, "axis", int64_t(1));
      x = cat.output(0);
    }
    x = conv_bn_relu("stem", "stem_bn", x, net::input_channels(s_), channels, 3);
    for (int b = 0; b < n_.blocks; ++b) x = block(b, x);

    const std::string p =
        conv_bn_relu("policy_conv", "policy_bn", x, channels, n_.policy_channels, n_.spatial_policy ? 3 : 1);
    if (n_.spatial_policy) {
      const std::string planes = conv("policy_planes", p, n_.policy_channels, s_.policy_planes, 1, /*bias=*/true);
      const std::vector<int64_t> map(s_.policy_map.begin(), s_.policy_map.end());
      onnx::NodeProto& gather = g_.node("Gather", {flatten(planes), g_.int64_constant("policy_map", map)}, "policy");
      attribute(gather, "axis", int64_t(1));
    } else {
      gemm("policy_fc", flatten(p), n_.policy_channels * net::kBoardSquares, s_.action_space, "policy");
    }
    const std::string v = flatten(conv_bn_relu("value_conv", "value_bn", x, channels, n_.value_channels, 1));
    const std::string hidden =
        g_.node("Relu", {gemm("value_fc1", v, n_.value_channels * net::kBoardSquares, n_.value_hidden)}, "value_hidden")
            .output(0);
    gemm("value_fc2", hidden, n_.value_hidden, 3, "wdl");
    if (n_.moves_left) {
      const std::string m = flatten(conv_bn_relu("moves_conv", "moves_bn", x, channels, n_.moves_left_channels, 1));
      const std::string h =
          g_.node("Relu", {gemm("moves_fc1", m, n_.moves_left_channels * net::kBoardSquares, n_.value_hidden)},
                  "moves_hidden")
              .output(0);
      const std::string soft =
          g_.node("Softplus", {gemm("moves_fc2", h, n_.value_hidden, 1)}, "moves_softplus").output(0);
      const std::string column = g_.node("Squeeze", {soft, g_.int64_constant("axes_1", {1})}, "moves_scaled").output(0);
      g_.node("Mul", {column, g_.float_scalar("moves_left_scale", net::kMovesLeftScale)}, "moves_left");
    }
  }

 private:
  std::string conv(const std::string& name, const std::string& x, int in, int out, int kernel, bool bias = false) {
    std::vector<std::string> inputs{x, g_.weight(name + ".weight", {out, in, kernel, kernel})};
    if (bias) inputs.push_back(g_.weight(name + ".bias", {out}));
    onnx::NodeProto& c = g_.node("Conv", inputs, name);
    attribute(c, "kernel_shape", std::vector<int64_t>{kernel, kernel});
    const int64_t pad = kernel / 2;
    attribute(c, "pads", std::vector<int64_t>{pad, pad, pad, pad});
    return c.output(0);
  }
  std::string batch_norm(const std::string& name, const std::string& x, int channels) {
    onnx::NodeProto& bn =
        g_.node("BatchNormalization",
                {x, g_.weight(name + ".weight", {channels}), g_.weight(name + ".bias", {channels}),
                 g_.weight(name + ".running_mean", {channels}), g_.weight(name + ".running_var", {channels})},
                name);
    attribute(bn, "epsilon", net::kBatchNormEpsilon);
    return bn.output(0);
  }
  std::string conv_bn_relu(const std::string& c, const std::string& bn, const std::string& x, int in, int out,
                           int kernel) {
    return g_.node("Relu", {batch_norm(bn, conv(c, x, in, out, kernel), out)}, bn + "_relu").output(0);
  }
  std::string gemm(const std::string& name, const std::string& x, int in, int out, std::string output = "") {
    onnx::NodeProto& n = g_.node("Gemm", {x, g_.weight(name + ".weight", {out, in}), g_.weight(name + ".bias", {out})},
                                 output.empty() ? name : output);
    attribute(n, "transB", int64_t(1));
    return n.output(0);
  }
  // [N, C, 8, 8] -> [N, C * 64], channel-major as torch's flatten(1).
  std::string flatten(const std::string& x) {
    onnx::NodeProto& f = g_.node("Flatten", {x}, x + "_flat");
    attribute(f, "axis", int64_t(1));
    return f.output(0);
  }
  std::string block(int b, const std::string& x) {
    const std::string p = "tower." + std::to_string(b) + ".";
    const int c = n_.channels;
    std::string y = conv_bn_relu(p + "conv1", p + "bn1", x, c, c, 3);
    if (net::is_global_pool_block(n_, b)) {
      // KataGo's global pooling: the mean and max of a few channels, through a linear layer, as a
      // bias per channel.
      const int pool = n_.global_pool_channels;
      const std::string g = conv_bn_relu(p + "pool_conv", p + "pool_bn", x, c, pool, 3);
      const std::string mean = g_.node("GlobalAveragePool", {g}, p + "pool_mean").output(0);
      const std::string max = g_.node("GlobalMaxPool", {g}, p + "pool_max").output(0);
      onnx::NodeProto& cat = g_.node("Concat", {mean, max}, p + "pooled");
      attribute(cat, "axis", int64_t(1));
      const std::string bias = gemm(p + "pool_bias", flatten(cat.output(0)), 2 * pool, c);
      const std::string column = g_.node("Unsqueeze", {bias, axes_2_3_}, p + "pool_bias_column").output(0);
      y = g_.node("Add", {y, column}, p + "biased").output(0);
    }
    const std::string z = batch_norm(p + "bn2", conv(p + "conv2", y, c, c, 3), c);
    return g_.node("Relu", {g_.node("Add", {x, z}, p + "sum").output(0)}, p + "out").output(0);
  }

  GraphBuilder& g_;
  const net::NetConfig& n_;
  const game::GameSpec& s_;
  std::string axes_2_3_;
};

}  // namespace

std::string onnx_model_bytes(const net::Architecture& arch, const std::vector<client::Tensor>& tensors,
                             const std::string& doc_string) {
  const game::GameSpec& s = arch.spec;
  onnx::ModelProto model;
  model.set_ir_version(kOnnxIrVersion);
  model.set_producer_name("sittuyin-zero");
  model.set_doc_string(doc_string);
  onnx::OperatorSetIdProto* opset = model.add_opset_import();
  opset->set_domain("");
  opset->set_version(kOnnxOpset);
  onnx::GraphProto* graph = model.mutable_graph();
  graph->set_name(s.game + "_network");
  declare(graph->add_input(), "planes", {-1, s.binary_planes, net::kBoardSide, net::kBoardSide});
  if (s.scalar_features > 0) declare(graph->add_input(), "scalars", {-1, s.scalar_features});
  declare(graph->add_output(), "policy", {-1, s.action_space});
  declare(graph->add_output(), "wdl", {-1, 3});
  if (arch.net.moves_left) declare(graph->add_output(), "moves_left", {-1});
  GraphBuilder builder(*graph, tensors);
  NetworkGraph(builder, arch).build();
  builder.finish();
  try {
    // Strict: a node whose output shape cannot be inferred, or that contradicts the declared
    // outputs, is an error.
    onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(),
                                       onnx::ShapeInferenceOptions(/*check_type=*/true, /*strict_mode=*/1));
    onnx::checker::check_model(model);
  } catch (const std::exception& e) {
    throw Error(std::string("model.onnx: ONNX refused the graph: ") + e.what());
  }
  // Inference must have typed every intermediate value (the graph's outputs are declared).
  const int outputs = graph->output_size();
  if (graph->value_info_size() + outputs != graph->node_size())
    throw Error("model.onnx: shape inference typed " + std::to_string(graph->value_info_size()) + " of " +
                std::to_string(graph->node_size() - outputs) + " intermediate values");
  std::string bytes;
  if (!model.SerializeToString(&bytes)) throw Error("model.onnx: protobuf could not serialize the model");
  return bytes;
}

#endif

}  // namespace sz::bundle
