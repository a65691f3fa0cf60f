//===- Generators.h - Seeded synthetic training graphs ----------*- C++ -*-===//
//
// The two IR-free generators of the testing library (RematPlanningTesting,
// not installed), for benchmarks and tests:
//
//  - random graphs (RandomGraphs.cpp): seeded random layered DAGs (training
//    steps, and the fixed-order graphs of the CP remat study) and synthetic
//    model families (MLP, transformer, ResNet, U-Net) at any size, each
//    turned into a training step (forward, remat.backward boundary, a
//    backward part that reads the forward activations, parameter gradients
//    as outputs); remat-bench's graphs;
//  - random training steps (TrainingSteps.cpp): small steps with everything
//    the planner must respect (views, two-result ops, ops that cannot be
//    recomputed, checkpoint policies, ordered ops, scratch buffers, in-place
//    writes), the input of the property tests.
//
// Same seed and options, same Program. `writeGraphMlir` prints a Program as
// a remat.graph of remat.abstract ops; `writeGraphJson` as the networkx
// node-link JSON that `remat-translate --import-graph-json` reads.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_PLANNING_GENERATORS_H
#define REMAT_PLANNING_GENERATORS_H

#include "remat/Planning/Program.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace remat {

struct RandomDagOptions {
  unsigned seed = 1;
  /// Forward layers and ops per layer.
  unsigned depth = 16;
  unsigned width = 4;
  /// Probability that an op also reads each op of the two layers before its
  /// previous one (skip connections); every op reads one of the previous
  /// layer.
  double density = 0.1;
  /// Output bytes and flops are drawn log-uniformly from these ranges.
  uint64_t minBytes = 1 << 10, maxBytes = 1 << 20;
  uint64_t minFlops = 1 << 10, maxFlops = 1 << 24;
  /// Probability that a forward op also reads a parameter of its own.
  double paramChance = 0.3;
  /// What property tests need beyond plain ops, per forward op: each
  /// checkpoint policy, an op that cannot be recomputed (ordered half the
  /// time), a scratch buffer. Drawn from a stream of their own, so that at
  /// 0 (remat-bench's dag model) the graph is the one the other draws make.
  double mustRecomputeChance = 0;
  double mustKeepChance = 0;
  double fixedChance = 0;
  double scratchChance = 0;
};

/// A random layered DAG with its backward part.
Program generateRandomDag(const RandomDagOptions &options);

enum class ModelFamily { Mlp, Transformer, ResNet, UNet };

struct ModelOptions {
  /// Layers (MLP), blocks (transformer; ResNet: split over four stages as
  /// in ResNet-50, channels doubling per stage) or levels (U-Net: the
  /// encoder depth; channels double over the first four, deeper levels
  /// keep the bottom resolution and channels).
  unsigned layers = 8;
  /// Batch-like scale factor on every activation.
  unsigned batch = 8;
  /// Width: hidden size (MLP, transformer), channels (ResNet, U-Net).
  unsigned width = 256;
  /// Sequence length (transformer) or image side (ResNet, U-Net).
  unsigned length = 128;
};

/// "mlp", "transformer", "resnet", "unet".
bool parseModelFamily(const std::string &name, ModelFamily &family);
Program generateModel(ModelFamily family, const ModelOptions &options);

/// Builds the backward part of `program`, whose ops so far are the forward
/// part ending with the loss (the last op): one op per (forward op, forward
/// operand) reading the incoming gradient and the op's forward operands,
/// gradient accumulation where a value has several consumers, and one
/// gradient op per parameter (inputs listed in `params`) marked as output.
void appendBackward(Program &program, const std::vector<ValueId> &params);

struct LayeredDagOptions {
  unsigned seed = 1;
  /// Nodes, the source (id 0) and the sink (id 1) included; at least 3.
  unsigned nodes = 100;
  /// Mean layer width in units of 2·sqrt(nodes) (the published "w"); 0
  /// takes the published instance's value for the nearest of n = 100, 250,
  /// 500, 1000 (0.27, 0.43, 0.36, 0.31).
  double width = 0;
  /// Layer widths are uniform in mean·[1 - v, 1 + v] ("nlv").
  double layerVariance = 0.75;
  /// Reach of the edges between neighbouring layers ("ed").
  double edgeDensity = 0.2;
  /// Chance of each of a node's two skip edges ("scd").
  double skipDensity = 0.14;
};

/// A random layered DAG in the form the CP rematerialization study (Bartan
/// et al. 2023) benchmarks, after Gagrani et al. 2022: no forward/backward
/// split, a fixed program order. Nodes are ids 0..n-1 (0 the source, 1 the
/// sink); the sampling is described in lib/Planning/Testing/RandomGraphs.cpp.
struct LayeredDag {
  std::string name;
  /// Per node: output bytes ("out_cost"), cost ("duration"), layer and
  /// position in the layer (the layout the published files carry).
  std::vector<uint64_t> outBytes, duration;
  std::vector<unsigned> layer;
  std::vector<int> position;
  /// (operand, reader) pairs, sorted.
  std::vector<std::pair<unsigned, unsigned>> links;
  /// The program order: a topological order of all nodes.
  std::vector<unsigned> order;
};

LayeredDag generateLayeredDag(const LayeredDagOptions &options);
/// The DAG as a Program with its ops in `dag.order`, as
/// `remat-translate --import-graph-json` reads `writeLayeredDagJson`.
Program layeredDagProgram(const LayeredDag &dag);
/// The node-link JSON of the published instances: ids under "name",
/// out_cost/param_cost/duration, links keyed "0"/"1", graph.order.
std::string writeLayeredDagJson(const LayeredDag &dag);

/// Random training steps: a forward part of layers of ops reading the
/// previous layer (and parameters, and earlier values), a loss, then a
/// backward part that walks the forward ops in reverse reading their
/// operands and results, with weight gradients. Chances are per op unless
/// said otherwise; 0 turns a feature off (the defaults turn every one on).
struct TrainingStepOptions {
  unsigned seed = 1;
  /// Forward layers, drawn in [minLayers, maxLayers]; ops per layer in
  /// [1, maxWidth]; parameters in [1, maxParams].
  unsigned minLayers = 2, maxLayers = 12;
  unsigned maxWidth = 4;
  unsigned maxParams = 3;
  /// Result bytes and FLOPs are drawn uniformly in [1, max].
  uint64_t maxBytes = 100;
  uint64_t maxFlops = 1000;
  /// Forward ops: a view of an operand; a second result; an op that cannot
  /// be recomputed (ordered half the time); of the others, a mustRecompute
  /// (not saveable) or mustKeep policy; a scratch buffer.
  double viewChance = 0.10;
  double secondResultChance = 0.10;
  double fixedChance = 0.15;
  double mustRecomputeChance = 0.10;
  double mustKeepChance = 0.05;
  double scratchChance = 0.05;
  /// Forward ops that write in place into the buffer of their first operand
  /// (an in-place activation): nothing reads the old contents afterwards.
  double inPlaceChance = 0.05;
  /// Backward ops: ordered; not recomputable; followed by a weight gradient.
  double orderedChance = 0.05;
  double backwardFixedChance = 0.05;
  double weightGradChance = 0.30;
  /// Backward ops that write their result, destination-passing style, into
  /// a buffer created earlier whose old contents nothing reads again (a
  /// forward activation the backward part is done with, or an older
  /// gradient).
  double destinationChance = 0.10;
  /// Per weight gradient: the optimizer updates its parameter right after
  /// it, in place (a donated parameter), once nothing reads the parameter
  /// any more; the update is an output. A parameter with gradients left at
  /// the end is updated there with the same chance.
  double updateChance = 0.30;
};

/// A random training step; never reads a value after its buffer was
/// overwritten (findClobberedRead is empty).
Program generateTrainingStep(const TrainingStepOptions &options);
/// The default options at `seed`.
Program generateTrainingStep(unsigned seed);

struct GraphMlirOptions {
  /// A func.func holding a remat.backward marker rather than a remat.graph.
  bool asFunction = false;
  /// The policies the IR carries: `{remat.never}` on ops a plan may not
  /// execute again (mustKeep, or not recomputable), `{remat.save = false}`
  /// on mustRecompute ones.
  bool policies = false;
  /// Each op's label followed by its index: no two ops are alike, so CSE
  /// merges none (remat.abstract is pure).
  bool uniqueLabels = false;
};

/// Prints `program` as `remat.graph @name` of remat.abstract ops
/// (tensor<Nxi8> for N bytes; views and in-place writes are not
/// representable and become buffers of their own, scratch buffers and
/// ordered ops are not printed). Inputs are graph arguments, outputs are
/// returned.
std::string writeGraphMlir(const Program &program, const std::string &name,
                           const GraphMlirOptions &options = {});
/// Prints `program` as networkx node-link JSON (one node per op; inputs are
/// not nodes).
std::string writeGraphJson(const Program &program);

} // namespace remat

#endif // REMAT_PLANNING_GENERATORS_H
