//===- LayeredDag.cpp - Random layered DAGs after Gagrani et al. 2022 -----===//
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
//
//===----------------------------------------------------------------------===//

#include "remat/Planning/Testing/Generators.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

using namespace remat;

namespace {

/// Deterministic across platforms: only the engine's raw output is used
/// (the standard distributions are implementation-defined).
struct Draw {
  std::mt19937_64 engine;
  double unit() { return double(engine() >> 11) / double(1ull << 53); }
  uint64_t below(uint64_t n) { return engine() % n; }
  bool chance(double p) { return unit() < p; }
};

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
                const std::vector<unsigned> &to, double density, Draw &draw,
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
  Draw draw{std::mt19937_64(options.seed)};
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
