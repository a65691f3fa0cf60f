//===- TrainingSteps.cpp - Seeded random training steps -------------------===//
//
// The training-step generator of the testing library: small steps shaped
// like training, with every feature the planner must respect, for property
// tests. The forward part is layers of ops, each reading a value of the
// previous layer and sometimes another value already made (a parameter, an
// earlier activation); a loss reads the last layer; the backward part walks
// the forward ops in reverse, each backward op reading the incoming
// gradient and some of the forward op's operands and results, with weight
// gradients reading a parameter.
//
// In-place writes come in the three shapes the IR analysis sees:
//
//  - an in-place activation: a forward op writes into its first operand's
//    buffer; from then on the new value replaces the old one as an operand
//    of later forward ops, and the backward part reads neither the old value
//    nor, through its derivative, what the old value was an operand of;
//  - destination passing: a backward op writes its result into a buffer
//    made earlier whose contents nothing reads again, a forward activation
//    whose backward readers all came before (the forward ops after the one
//    being differentiated), or an older gradient;
//  - an optimizer update: once no weight gradient will read a parameter any
//    more, an op reading it and its gradients writes the new parameter into
//    its buffer (a donated input) and returns it.
//
// So the generated step never reads a value after its buffer was
// overwritten; the plans made for it must not either.
//
//===----------------------------------------------------------------------===//

#include "remat/Planning/InPlaceWrites.h"
#include "remat/Planning/Testing/Generators.h"

#include "Random.h"

#include <algorithm>
#include <cassert>

using namespace remat;

namespace {

class StepBuilder {
public:
  explicit StepBuilder(const TrainingStepOptions &options)
      : options(options), rng(options.seed * 0x9E3779B97F4A7C15ull + 41) {}

  Program build() {
    unsigned numParams = rng.uniform(1, std::max(1u, options.maxParams));
    for (unsigned i = 0; i < numParams; ++i)
      params.push_back(program.addInput(bytes(), "param" + std::to_string(i)));
    liveParams = params;
    std::vector<ValueId> layer = {program.addInput(bytes(), "batch")};
    available = params;
    available.push_back(layer[0]);

    unsigned minLayers = std::max(1u, options.minLayers);
    unsigned numLayers =
        rng.uniform(minLayers, std::max(minLayers, options.maxLayers));
    for (unsigned l = 0; l < numLayers; ++l) {
      std::vector<ValueId> next;
      unsigned width = rng.uniform(1, std::max(1u, options.maxWidth));
      for (unsigned w = 0; w < width; ++w) {
        OpId op = forwardOp(layer);
        forwardOps.push_back(op);
        for (ValueId result : program.ops[op].results) {
          next.push_back(result);
          available.push_back(result);
        }
      }
      layer = std::move(next);
    }
    ValueId loss =
        program.ops[program.addOp(layer, {4}, 1, true, "loss")].results[0];
    backward(loss);
    assert(!findClobberedRead(program) && "the generator reads a clobbered "
                                          "value");
    return std::move(program);
  }

private:
  uint64_t bytes() {
    return rng.uniform(1, std::max<uint64_t>(1, options.maxBytes));
  }
  uint64_t flops() {
    return rng.uniform(1, std::max<uint64_t>(1, options.maxFlops));
  }

  /// Whether a forward op may write in place into `v`: a buffer a forward op
  /// made, with no view and no earlier write, that is not returned.
  bool canOverwrite(ValueId v) const {
    const ValueInfo &info = program.values[v];
    if (info.def == kNone || info.aliasOf != kNone || info.bytes == 0 ||
        info.isOutput || isWritten(v) || isPinned(v))
      return false;
    return !program.rootsWithViews()[v];
  }

  bool isWritten(ValueId v) const { return v < written.size() && written[v]; }
  bool isPinned(ValueId v) const { return v < pinned.size() && pinned[v]; }
  void markWritten(ValueId v) {
    written.resize(program.values.size());
    written[v] = true;
  }

  void replace(std::vector<ValueId> &values, ValueId from, ValueId to) {
    std::replace(values.begin(), values.end(), from, to);
  }

  OpId forwardOp(std::vector<ValueId> &layer) {
    ValueId main = rng.pick(layer);
    if (program.values[main].def != kNone && rng.chance(options.viewChance)) {
      OpId op = program.addOp({main}, {0}, 0, true, "view");
      program.setAlias(program.ops[op].results[0], main);
      return op;
    }
    bool inPlace = rng.chance(options.inPlaceChance) && canOverwrite(main);
    std::vector<ValueId> operands = {main};
    if (rng.chance(0.5))
      operands.push_back(rng.pick(available));
    std::vector<uint64_t> results = {bytes()};
    if (!inPlace && rng.chance(options.secondResultChance))
      results.push_back(bytes());
    OpId op = program.addOp(operands, results, flops(), true,
                            inPlace ? "fwd_inplace" : "fwd");
    OpInfo &info = program.ops[op];
    if (rng.chance(options.fixedChance)) {
      info.recomputable = false;
      info.ordered = rng.chance(0.5);
    } else if (rng.chance(options.mustRecomputeChance) && !inPlace) {
      // Its recomputation in the backward part reads its operands there:
      // no forward op may overwrite them (an in-place op is never one, as
      // it overwrites its own operand).
      info.mustRecompute = true;
      pinned.resize(program.values.size());
      for (ValueId operand : info.operands)
        pinned[program.rootOf(operand)] = true;
    } else if (rng.chance(options.mustKeepChance)) {
      info.mustKeep = true;
    }
    if (rng.chance(options.scratchChance))
      info.scratchBuffers = {bytes()};
    if (inPlace) {
      ValueId result = info.results[0];
      program.setInPlaceWrite(result, main);
      markWritten(main);
      // Later ops read the new contents.
      replace(layer, main, result);
      replace(available, main, result);
    }
    return op;
  }

  /// Buffers a backward op may write into while differentiating the forward
  /// op at `index` of forwardOps: forward activations only the backward ops
  /// already made read (those of later forward ops), older gradients.
  std::vector<ValueId> destinations(size_t index, ValueId grad) const {
    std::vector<bool> hasViews = program.rootsWithViews();
    std::vector<bool> later(program.values.size(), false);
    for (size_t j = index + 1; j < forwardOps.size(); ++j)
      for (ValueId result : program.ops[forwardOps[j]].results)
        later[result] = true;
    for (ValueId old : oldGrads)
      later[old] = true;
    std::vector<ValueId> candidates;
    for (ValueId v = 0; v < program.values.size(); ++v) {
      const ValueInfo &info = program.values[v];
      if (later[v] && v != grad && info.aliasOf == kNone && info.bytes > 0 &&
          !info.isOutput && !isWritten(v) && !hasViews[v])
        candidates.push_back(v);
    }
    return candidates;
  }

  void backward(ValueId loss) {
    std::vector<OpId> overwritten = overwriteTimes(program);
    program.backwardBegin = program.ops.size();
    ValueId grad = loss;
    for (size_t index = forwardOps.size(); index-- > 0;) {
      const OpInfo forward = program.ops[forwardOps[index]];
      std::vector<ValueId> operands = {grad};
      for (ValueId operand : forward.operands)
        if (program.values[operand].def != kNone &&
            overwritten[operand] == kNone && rng.chance(0.8))
          operands.push_back(operand);
      if (overwritten[forward.results[0]] == kNone && rng.chance(0.3))
        operands.push_back(forward.results[0]);
      uint64_t size = std::max<uint64_t>(
          1, program.values[program.rootOf(forward.results[0])].bytes);
      ValueId destination = kNone;
      if (rng.chance(options.destinationChance)) {
        std::vector<ValueId> candidates = destinations(index, grad);
        if (!candidates.empty()) {
          // The destination is an operand, as a destination-passing op's
          // init is (the op need not read what it holds).
          destination = rng.pick(candidates);
          operands.push_back(destination);
        }
      }
      bool recomputable = !rng.chance(options.backwardFixedChance);
      OpId op = program.addOp(operands, {size}, flops(), recomputable,
                              destination == kNone ? "bwd" : "bwd_into");
      program.ops[op].ordered = rng.chance(options.orderedChance);
      if (destination != kNone) {
        program.setInPlaceWrite(program.ops[op].results[0], destination);
        markWritten(destination);
      }
      oldGrads.push_back(grad);
      grad = program.ops[op].results[0];
      if (!liveParams.empty() && rng.chance(options.weightGradChance)) {
        ValueId param = rng.pick(liveParams);
        uint64_t size =
            rng.uniform(1, std::max<uint64_t>(1, options.maxBytes / 5));
        OpId weightGrad =
            program.addOp({grad, param}, {size}, 1, true, "wgrad");
        gradients.push_back({param, program.ops[weightGrad].results[0]});
        if (rng.chance(options.updateChance))
          update(param);
      }
    }
    program.markOutput(grad);
    for (ValueId param : std::vector<ValueId>(liveParams))
      if (hasGradient(param) && rng.chance(options.updateChance))
        update(param);
    // Gradients no update read are results of the step.
    for (auto [param, gradient] : gradients)
      if (std::find(liveParams.begin(), liveParams.end(), param) !=
          liveParams.end())
        program.markOutput(gradient);
  }

  bool hasGradient(ValueId param) const {
    return std::any_of(gradients.begin(), gradients.end(),
                       [&](const auto &g) { return g.first == param; });
  }

  /// The optimizer's update of `param`, in place; nothing reads `param`
  /// after it.
  void update(ValueId param) {
    std::vector<ValueId> operands = {param};
    for (auto [p, gradient] : gradients)
      if (p == param)
        operands.push_back(gradient);
    OpId op = program.addOp(operands, {program.values[param].bytes},
                            program.values[param].bytes, false, "update");
    program.ops[op].ordered = true;
    ValueId updated = program.ops[op].results[0];
    program.setInPlaceWrite(updated, param);
    program.markOutput(updated);
    liveParams.erase(std::find(liveParams.begin(), liveParams.end(), param));
    markWritten(param);
  }

  const TrainingStepOptions &options;
  Rng rng;
  Program program;
  std::vector<ValueId> params, liveParams, available;
  std::vector<OpId> forwardOps;
  /// Gradients made in the backward part that nothing reads any more.
  std::vector<ValueId> oldGrads;
  /// (parameter, weight gradient) pairs, in program order.
  std::vector<std::pair<ValueId, ValueId>> gradients;
  /// Buffers written in place once already.
  std::vector<bool> written;
  /// Buffers a not-saveable (mustRecompute) forward op reads.
  std::vector<bool> pinned;
};

} // namespace

Program remat::generateTrainingStep(const TrainingStepOptions &options) {
  return StepBuilder(options).build();
}

Program remat::generateTrainingStep(unsigned seed) {
  TrainingStepOptions options;
  options.seed = seed;
  return generateTrainingStep(options);
}
