//===- RandomGraphs.cpp - Seeded random graphs and model families ---------===//
//
// The graph generator of the testing library: seeded random layered DAGs
// with a backward part, the synthetic model families, the layered DAGs of
// the CP rematerialization study (their printers are in GraphPrinters.cpp).
// Training steps with the features property tests need (views, policies,
// in-place writes) come from TrainingSteps.cpp.
//
//===----------------------------------------------------------------------===//

#include "remat/Planning/Testing/Generators.h"

#include "Random.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace remat;

namespace {

ValueId resultOf(const Program &program, OpId op) {
  return program.ops[op].results[0];
}

/// Helper that builds forward graphs of one-result ops.
struct Builder {
  Program program;
  std::vector<ValueId> params;

  ValueId input(uint64_t bytes, const std::string &name) {
    return program.addInput(bytes, name);
  }
  ValueId param(uint64_t bytes, const std::string &name) {
    ValueId v = program.addInput(bytes, name);
    params.push_back(v);
    return v;
  }
  ValueId op(const std::string &name, std::vector<ValueId> operands,
             uint64_t bytes, uint64_t flops) {
    OpId id = program.addOp(std::move(operands), {std::max<uint64_t>(bytes, 1)},
                            flops, true, name);
    return resultOf(program, id);
  }
  Program finish(ValueId last) {
    op("loss", {last}, 4, program.values[last].bytes);
    appendBackward(program, params);
    return std::move(program);
  }
};

} // namespace

void remat::appendBackward(Program &program,
                           const std::vector<ValueId> &params) {
  OpId numForward = program.ops.size();
  std::vector<bool> isParam(program.values.size(), false);
  for (ValueId p : params)
    isParam[p] = true;
  program.backwardBegin = numForward;
  std::vector<std::vector<ValueId>> contributions(program.values.size());
  ValueId loss = resultOf(program, numForward - 1);
  OpId seed = program.addOp({loss}, {4}, 1, true, "grad_seed");
  contributions[loss].push_back(resultOf(program, seed));

  for (OpId f = numForward; f-- > 0;) {
    const OpInfo forward = program.ops[f];
    ValueId out = forward.results[0];
    std::vector<ValueId> &contribs = contributions[out];
    if (contribs.empty())
      continue;
    ValueId grad = contribs[0];
    if (contribs.size() > 1) {
      grad = resultOf(program,
                      program.addOp(contribs, {program.values[out].bytes},
                                    program.values[out].bytes *
                                        (contribs.size() - 1) / 4,
                                    true, "grad_acc_" + forward.name));
    }
    // The forward activations the derivative reads: the op's operands
    // (not parameters: those are inputs and always there).
    std::vector<ValueId> saved;
    for (ValueId operand : forward.operands)
      if (std::find(saved.begin(), saved.end(), operand) == saved.end())
        saved.push_back(operand);
    for (ValueId operand : saved) {
      if (program.values[operand].def == kNone && !isParam[operand])
        continue;
      std::vector<ValueId> operands = {grad};
      for (ValueId other : saved)
        if (other != operand || saved.size() == 1)
          operands.push_back(other);
      uint64_t bytes = program.values[operand].bytes;
      OpId g = program.addOp(operands, {std::max<uint64_t>(bytes, 1)},
                             std::max<uint64_t>(forward.flops, 1), true,
                             "d_" + forward.name);
      ValueId result = resultOf(program, g);
      if (program.values[operand].def == kNone)
        program.markOutput(result);
      else
        contributions[operand].push_back(result);
    }
  }
}

/// Adds a forward op of the random DAG with the checkpoint policy, fixed
/// op or scratch buffer that the chances of `options` draw from `features`;
/// returns its result.
static ValueId addDrawnOp(Program &program, const std::string &name,
                          std::vector<ValueId> operands, uint64_t bytes,
                          uint64_t flops, const RandomDagOptions &options,
                          Rng &features) {
  double policy = features.unit();
  bool ordered = features.unit() < 0.5;
  bool scratch = features.unit() < options.scratchChance;
  OpId op = program.addOp(std::move(operands), {std::max<uint64_t>(bytes, 1)},
                          flops, true, name);
  OpInfo &info = program.ops[op];
  double keep = options.mustRecomputeChance + options.mustKeepChance;
  if (policy < options.mustRecomputeChance) {
    info.mustRecompute = true;
  } else if (policy < keep) {
    info.mustKeep = true;
  } else if (policy < keep + options.fixedChance) {
    info.recomputable = false;
    info.ordered = ordered;
  }
  if (scratch)
    info.scratchBuffers = {program.values[resultOf(program, op)].bytes / 2 + 1};
  return resultOf(program, op);
}

Program remat::generateRandomDag(const RandomDagOptions &options) {
  Rng rng(options.seed * 0x9E3779B97F4A7C15ull + 17);
  Rng features(options.seed * 0x9E3779B97F4A7C15ull + 29);
  Builder b;
  auto bytes = [&] { return rng.logUniform(options.minBytes, options.maxBytes); };
  auto flops = [&] { return rng.logUniform(options.minFlops, options.maxFlops); };
  ValueId x = b.input(bytes(), "x");
  std::vector<std::vector<ValueId>> layers = {{x}};
  unsigned width = std::max(1u, options.width);
  for (unsigned l = 0; l < options.depth; ++l) {
    std::vector<ValueId> layer;
    for (unsigned w = 0; w < width; ++w) {
      const auto &prev = layers.back();
      std::vector<ValueId> operands = {prev[rng.uniform(0, prev.size() - 1)]};
      for (size_t back = 2; back <= 3 && back <= layers.size(); ++back)
        for (ValueId v : layers[layers.size() - back])
          if (rng.unit() < options.density &&
              std::find(operands.begin(), operands.end(), v) == operands.end())
            operands.push_back(v);
      if (rng.unit() < options.paramChance)
        operands.push_back(b.param(bytes() / 4 + 1, "w"));
      uint64_t size = bytes();
      uint64_t cost = flops();
      layer.push_back(addDrawnOp(
          b.program, "n" + std::to_string(l) + "_" + std::to_string(w),
          operands, size, cost, options, features));
    }
    layers.push_back(std::move(layer));
  }
  ValueId last = layers.back()[0];
  if (layers.back().size() > 1)
    last = b.op("merge", layers.back(), bytes(), flops());
  return b.finish(last);
}

bool remat::parseModelFamily(const std::string &name, ModelFamily &family) {
  if (name == "mlp")
    family = ModelFamily::Mlp;
  else if (name == "transformer")
    family = ModelFamily::Transformer;
  else if (name == "resnet")
    family = ModelFamily::ResNet;
  else if (name == "unet")
    family = ModelFamily::UNet;
  else
    return false;
  return true;
}

namespace {

/// Bytes of one float.
constexpr uint64_t kFloatBytes = 4;

/// The sizes every family is drawn at (ModelOptions, each at least 1).
struct ModelSizes {
  uint64_t batch, width, length;
};

/// Matrix products and ReLUs.
Program mlpModel(const ModelOptions &o, const ModelSizes &z) {
  Builder b;
  uint64_t batch = z.batch, width = z.width;
  uint64_t act = batch * width * kFloatBytes;
  ValueId h = b.input(act, "x");
  for (unsigned l = 0; l < o.layers; ++l) {
    std::string s = std::to_string(l);
    ValueId w = b.param(width * width * kFloatBytes, "w" + s);
    ValueId m = b.op("matmul" + s, {h, w}, act, 2 * batch * width * width);
    h = b.op("relu" + s, {m}, act, batch * width);
  }
  return b.finish(h);
}

/// Pre-norm transformer blocks: attention and a 4x feed-forward.
Program transformerModel(const ModelOptions &o, const ModelSizes &z) {
  Builder b;
  uint64_t batch = z.batch, width = z.width, length = z.length;
  uint64_t tokens = batch * length;
  uint64_t act = tokens * width * kFloatBytes;
  uint64_t heads = std::max<uint64_t>(1, width / 64);
  uint64_t scores = batch * heads * length * length * kFloatBytes;
  ValueId x = b.input(act, "x");
  for (unsigned l = 0; l < o.layers; ++l) {
    std::string s = std::to_string(l);
    ValueId ln1 = b.op("ln1_" + s, {x}, act, 5 * tokens * width);
    ValueId wqkv = b.param(3 * width * width * kFloatBytes, "wqkv" + s);
    ValueId qkv = b.op("qkv" + s, {ln1, wqkv}, 3 * act,
                       6 * tokens * width * width);
    ValueId att = b.op("scores" + s, {qkv}, scores,
                       2 * batch * length * length * width);
    ValueId soft = b.op("softmax" + s, {att}, scores, 5 * scores / kFloatBytes);
    ValueId ctx = b.op("context" + s, {soft, qkv}, act,
                       2 * batch * length * length * width);
    ValueId wo = b.param(width * width * kFloatBytes, "wo" + s);
    ValueId proj = b.op("proj" + s, {ctx, wo}, act, 2 * tokens * width * width);
    ValueId res1 = b.op("res1_" + s, {x, proj}, act, tokens * width);
    ValueId ln2 = b.op("ln2_" + s, {res1}, act, 5 * tokens * width);
    ValueId w1 = b.param(4 * width * width * kFloatBytes, "w1_" + s);
    ValueId ff1 = b.op("ff1_" + s, {ln2, w1}, 4 * act,
                       8 * tokens * width * width);
    ValueId gelu = b.op("gelu" + s, {ff1}, 4 * act, 8 * tokens * width);
    ValueId w2 = b.param(4 * width * width * kFloatBytes, "w2_" + s);
    ValueId ff2 = b.op("ff2_" + s, {gelu, w2}, act, 8 * tokens * width * width);
    x = b.op("res2_" + s, {res1, ff2}, act, tokens * width);
  }
  return b.finish(x);
}

/// Residual blocks of two 3x3 convolutions in four stages.
Program resNetModel(const ModelOptions &o, const ModelSizes &z) {
  Builder b;
  uint64_t batch = z.batch, width = z.width, length = z.length;
  // ResNet's four stages, holding 3/16, 4/16, 6/16 and 3/16 of the blocks
  // (ResNet-34 and -50): each stage after the first halves the side and
  // doubles the channels. A deeper network has more blocks per stage, not
  // more channels, so activations stay the bulk of its memory as in real
  // networks (doubling every few blocks made the weight gradients of a
  // 50-block network 10^4 times its activations).
  constexpr uint64_t kStageEnds[] = {3, 7, 13, 16};
  uint64_t side = length, channels = width / 4 + 1;
  auto act = [&] { return batch * channels * side * side * kFloatBytes; };
  auto convFlops = [&] { return 2 * 9 * channels * channels * side * side * batch; };
  ValueId x = b.input(batch * 3 * side * side * kFloatBytes, "image");
  ValueId stem = b.op("stem", {x, b.param(27 * channels * kFloatBytes, "wstem")},
                      act(), 2 * 27 * channels * side * side * batch);
  ValueId h = stem;
  unsigned stage = 0;
  for (unsigned l = 0; l < o.layers; ++l) {
    std::string s = std::to_string(l);
    unsigned blockStage = 0;
    while (blockStage < 3 && uint64_t(l) * kStageEnds[3] >=
                                 uint64_t(o.layers) * kStageEnds[blockStage])
      ++blockStage;
    if (blockStage > stage) {
      // A strided 1x1 projection into the new stage.
      uint64_t in = channels;
      for (; stage < blockStage; ++stage) {
        side = std::max<uint64_t>(1, side / 2);
        channels *= 2;
      }
      h = b.op("down" + s, {h, b.param(in * channels * kFloatBytes, "wd" + s)},
               act(), 2 * in * channels * side * side * batch);
    }
    ValueId c1 = b.op("conv1_" + s,
                      {h, b.param(9 * channels * channels * kFloatBytes, "w1_" + s)},
                      act(), convFlops());
    ValueId n1 = b.op("bn1_" + s, {c1}, act(), 4 * act() / kFloatBytes);
    ValueId r1 = b.op("relu1_" + s, {n1}, act(), act() / kFloatBytes);
    ValueId c2 = b.op("conv2_" + s,
                      {r1, b.param(9 * channels * channels * kFloatBytes, "w2_" + s)},
                      act(), convFlops());
    ValueId n2 = b.op("bn2_" + s, {c2}, act(), 4 * act() / kFloatBytes);
    ValueId add = b.op("add" + s, {n2, h}, act(), act() / kFloatBytes);
    h = b.op("relu2_" + s, {add}, act(), act() / kFloatBytes);
  }
  ValueId pool = b.op("pool", {h}, batch * channels * kFloatBytes, act() / kFloatBytes);
  return b.finish(b.op("fc", {pool, b.param(channels * 1000 * kFloatBytes, "wfc")},
                       batch * 1000 * kFloatBytes, 2 * batch * channels * 1000));
}

/// An encoder-decoder with skip connections.
Program uNetModel(const ModelOptions &o, const ModelSizes &z) {
  Builder b;
  uint64_t batch = z.batch, width = z.width, length = z.length;
  uint64_t side = length, channels = width / 8 + 1;
  auto act = [&] { return batch * channels * side * side * kFloatBytes; };
  auto convFlops = [&] { return 2 * 9 * channels * channels * side * side * batch; };
  auto conv = [&](const std::string &name, ValueId in) {
    return b.op(name, {in, b.param(9 * channels * channels * kFloatBytes, "w" + name)},
                act(), convFlops());
  };
  // Real U-Nets downsample four times (64 to 1024 channels); deeper ones
  // add levels at the bottom resolution instead of more channels.
  constexpr unsigned kDownsamplings = 4;
  ValueId h = b.input(batch * 3 * side * side * kFloatBytes, "image");
  std::vector<ValueId> skips;
  std::vector<std::pair<uint64_t, uint64_t>> shapes;
  for (unsigned l = 0; l < o.layers; ++l) {
    std::string s = std::to_string(l);
    h = conv("enc" + s + "a", h);
    h = conv("enc" + s + "b", h);
    skips.push_back(h);
    shapes.push_back({side, channels});
    if (side > 1 && l < kDownsamplings) {
      side = std::max<uint64_t>(1, side / 2);
      channels *= 2;
    }
    h = b.op("pool" + s, {h}, act(), act() / kFloatBytes);
  }
  h = conv("bottom", h);
  for (unsigned l = o.layers; l-- > 0;) {
    std::string s = std::to_string(l);
    side = shapes[l].first;
    channels = shapes[l].second;
    ValueId up = b.op("up" + s, {h}, act(), act() / kFloatBytes);
    ValueId cat = b.op("concat" + s, {up, skips[l]}, 2 * act(), 0);
    h = b.op("dec" + s + "a",
             {cat, b.param(18 * channels * channels * kFloatBytes, "wdec" + s)},
             act(), 2 * convFlops());
    h = conv("dec" + s + "b", h);
  }
  return b.finish(b.op("head", {h}, batch * side * side * kFloatBytes,
                       2 * batch * channels * side * side));
}

} // namespace

Program remat::generateModel(ModelFamily family, const ModelOptions &o) {
  ModelSizes sizes{std::max(1u, o.batch), std::max(1u, o.width),
                   std::max(1u, o.length)};
  switch (family) {
  case ModelFamily::Mlp:
    return mlpModel(o, sizes);
  case ModelFamily::Transformer:
    return transformerModel(o, sizes);
  case ModelFamily::ResNet:
    return resNetModel(o, sizes);
  case ModelFamily::UNet:
    return uNetModel(o, sizes);
  }
  return Program();
}

//===----------------------------------------------------------------------===//
// Layered DAGs after Gagrani et al. 2022
//===----------------------------------------------------------------------===//
//
// The random layered graphs of "Neural topological ordering for computation
// graphs" (Gagrani et al., NeurIPS 2022), the synthetic benchmark of the CP
// rematerialization study (Bartan et al., ICML 2023). What is taken from the
// four published instances (random_layered_n{100,250,500,1000}_w*_nlv0.75_
// ed0.2_scd0.14): a source node 0 and a sink node 1, the other nodes in
// layers numbered from 2 on, edges between neighbouring layers by position
// plus long skip edges, integer out_cost/duration, a program order that is a
// random topological order, and the parameter names and values. The sampling
// below is ours, fitted to those instances (their generator is not public):
//
//  - layer widths are uniform in W·[1 - nlv, 1 + nlv] with W = 2·w·sqrt(n)
//    (about 5 nodes per layer at n = 100 and 12 at n = 250, as published);
//  - a node at relative position p in its layer (0 left, 1 right) reads a
//    node at q in the previous layer with probability 1 - |p - q| / r,
//    r = 2·max(ed, the sparser layer's spacing), and every node has at least
//    one reader and one operand there (the nearest);
//  - each node gets up to two skip edges (each with probability scd) to a
//    random node two or more layers on (about 0.3 per node, as published);
//  - out_cost is 10·k bytes with k exponential of mean 200 in [1, 650],
//    duration uniform in [1, 1000]; the source and sink cost nothing to run;
//  - the order picks a uniformly random ready node at each step.

namespace {

/// The published instances' width parameter for the size nearest to `n`.
double publishedWidth(unsigned n) {
  static const std::pair<unsigned, double> published[] = {
      {100, 0.27}, {250, 0.43}, {500, 0.36}, {1000, 0.31}};
  auto nearest = std::min_element(
      std::begin(published), std::end(published), [&](auto a, auto b) {
        return std::abs(std::log(double(a.first) / n)) <
               std::abs(std::log(double(b.first) / n));
      });
  return nearest->second;
}

double relativePosition(unsigned index, unsigned width) {
  return width == 1 ? 0.5 : double(index) / double(width - 1);
}

/// Local edges between two neighbouring layers (ids in position order).
void linkLayers(const std::vector<unsigned> &from,
                const std::vector<unsigned> &to, double density, Rng &draw,
                std::vector<std::pair<unsigned, unsigned>> &links) {
  unsigned sparser = std::min(from.size(), to.size());
  double reach = 2 * std::max(density, sparser > 1 ? 1.0 / (sparser - 1) : 1.0);
  std::vector<bool> hasReader(from.size()), hasOperand(to.size());
  auto nearest = [](double p, unsigned width) {
    return unsigned(std::lround(p * (width - 1)));
  };
  for (unsigned j = 0; j < to.size(); ++j) {
    double q = relativePosition(j, to.size());
    for (unsigned i = 0; i < from.size(); ++i) {
      double distance = std::abs(relativePosition(i, from.size()) - q);
      if (distance < reach && draw.chance(1 - distance / reach)) {
        links.push_back({from[i], to[j]});
        hasReader[i] = hasOperand[j] = true;
      }
    }
  }
  for (unsigned j = 0; j < to.size(); ++j)
    if (!hasOperand[j]) {
      unsigned i = nearest(relativePosition(j, to.size()), from.size());
      links.push_back({from[i], to[j]});
      hasReader[i] = true;
    }
  for (unsigned i = 0; i < from.size(); ++i)
    if (!hasReader[i])
      links.push_back(
          {from[i], to[nearest(relativePosition(i, from.size()), to.size())]});
}

} // namespace

LayeredDag remat::generateLayeredDag(const LayeredDagOptions &options) {
  unsigned n = std::max(options.nodes, 3u);
  double w = options.width > 0 ? options.width : publishedWidth(n);
  Rng draw(options.seed);
  LayeredDag dag;
  char name[160];
  std::snprintf(name, sizeof(name),
                "random_layered_n%u_w%.2f_nlv%.2f_ed%.2f_scd%.2f_seed%u", n, w,
                options.layerVariance, options.edgeDensity,
                options.skipDensity, options.seed);
  dag.name = name;
  dag.outBytes.resize(n);
  dag.duration.resize(n);
  dag.layer.resize(n);
  dag.position.resize(n);

  // Layers of inner nodes 2..n-1, then the sink's layer.
  std::vector<std::vector<unsigned>> layers = {{0}};
  double mean = 2 * w * std::sqrt(double(n));
  for (unsigned next = 2; next < n;) {
    double spread = 1 - options.layerVariance +
                    2 * options.layerVariance * draw.unit();
    unsigned width = std::clamp<unsigned>(unsigned(std::lround(mean * spread)),
                                          1, n - next);
    std::vector<unsigned> layer(width);
    for (unsigned k = 0; k < width; ++k)
      layer[k] = next++;
    layers.push_back(std::move(layer));
  }
  layers.push_back({1});
  for (unsigned l = 0; l < layers.size(); ++l)
    for (unsigned k = 0; k < layers[l].size(); ++k) {
      dag.layer[layers[l][k]] = l;
      dag.position[layers[l][k]] = int(k) - int(layers[l].size() / 2);
    }

  for (unsigned l = 0; l + 1 < layers.size(); ++l)
    linkLayers(layers[l], layers[l + 1], options.edgeDensity, draw, dag.links);
  unsigned lastInner = layers.size() - 2;
  for (unsigned l = 1; l + 2 <= lastInner; ++l)
    for (unsigned u : layers[l])
      for (int attempt = 0; attempt < 2; ++attempt)
        if (draw.chance(options.skipDensity)) {
          unsigned target = l + 2 + draw.below(lastInner - l - 1);
          const std::vector<unsigned> &to = layers[target];
          dag.links.push_back({u, to[draw.below(to.size())]});
        }
  std::sort(dag.links.begin(), dag.links.end());
  dag.links.erase(std::unique(dag.links.begin(), dag.links.end()),
                  dag.links.end());

  for (unsigned v = 0; v < n; ++v) {
    double k = -200 * std::log(1 - draw.unit());
    dag.outBytes[v] = 10 * std::clamp<uint64_t>(uint64_t(std::lround(k)), 1, 650);
    dag.duration[v] = v < 2 ? 0 : 1 + draw.below(1000);
  }

  // A random topological order: any ready node, uniformly.
  std::vector<unsigned> pending(n, 0);
  std::vector<std::vector<unsigned>> readers(n);
  for (auto [from, to] : dag.links) {
    ++pending[to];
    readers[from].push_back(to);
  }
  std::vector<unsigned> ready = {0};
  while (!ready.empty()) {
    size_t pick = draw.below(ready.size());
    unsigned v = ready[pick];
    ready[pick] = ready.back();
    ready.pop_back();
    dag.order.push_back(v);
    for (unsigned r : readers[v])
      if (--pending[r] == 0)
        ready.push_back(r);
  }
  return dag;
}

Program remat::layeredDagProgram(const LayeredDag &dag) {
  unsigned n = dag.outBytes.size();
  // Operands in link order, as the importer reads them from the JSON.
  std::vector<std::vector<unsigned>> operands(n);
  std::vector<bool> read(n, false);
  for (auto [from, to] : dag.links) {
    operands[to].push_back(from);
    read[from] = true;
  }
  Program program;
  std::vector<ValueId> value(n, kNone);
  for (unsigned v : dag.order) {
    std::vector<ValueId> inputs;
    for (unsigned u : operands[v])
      inputs.push_back(value[u]);
    OpId op = program.addOp(std::move(inputs), {dag.outBytes[v]},
                            dag.duration[v], /*recomputable=*/true,
                            std::to_string(v));
    value[v] = program.ops[op].results[0];
    if (!read[v])
      program.markOutput(value[v]);
  }
  return program;
}

std::string remat::writeLayeredDagJson(const LayeredDag &dag) {
  auto list = [](const std::vector<unsigned> &ids) {
    std::string text = "[";
    for (size_t k = 0; k < ids.size(); ++k)
      text += (k ? ", " : "") + std::to_string(ids[k]);
    return text + "]";
  };
  std::string out = "{\"directed\": true, \"multigraph\": false,\n"
                    " \"graph\": {\"name\": \"" +
                    dag.name + "\",\n  \"pos\": {";
  for (unsigned v = 0; v < dag.outBytes.size(); ++v)
    out += (v ? ", \"" : "\"") + std::to_string(v) + "\": [" +
           std::to_string(dag.position[v]) + ", " +
           std::to_string(-int(dag.layer[v])) + "]";
  out += "},\n  \"source_node\": 0, \"target_node\": 1, "
         "\"node_output_cost_tag\": \"out_cost\", "
         "\"node_param_cost_tag\": \"param_cost\", "
         "\"node_duration_tag\": \"duration\",\n  \"order\": " +
         list(dag.order) + "},\n \"nodes\": [";
  // The published instances have no parameters: param_cost is always 0.
  for (unsigned v = 0; v < dag.outBytes.size(); ++v)
    out += std::string(v ? ",\n  " : "\n  ") + "{\"out_cost\": " +
           std::to_string(dag.outBytes[v]) +
           ", \"param_cost\": 0, \"duration\": " +
           std::to_string(dag.duration[v]) +
           ", \"name\": " + std::to_string(v) + "}";
  out += "],\n \"links\": [";
  for (size_t k = 0; k < dag.links.size(); ++k)
    out += std::string(k ? ",\n  " : "\n  ") + "{\"0\": " +
           std::to_string(dag.links[k].first) +
           ", \"1\": " + std::to_string(dag.links[k].second) + "}";
  return out + "]}\n";
}
