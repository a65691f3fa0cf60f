//===- RandomTrainingGraph.h - Seeded random training steps -----*- C++ -*-===//
//
// Seeded random layered DAGs shaped like training steps: a forward part
// (with views, two-result ops, checkpoint policies and ops that cannot be
// recomputed), a loss, then a backward part that walks the forward ops in
// reverse and reads their activations. Property tests check the planner's
// promises on every one of them.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_UNITTESTS_PLANNING_RANDOMTRAININGGRAPH_H
#define REMAT_UNITTESTS_PLANNING_RANDOMTRAININGGRAPH_H

#include "remat/Planning/Program.h"

#include <algorithm>
#include <random>

namespace remat {

/// Same seed, same Program; generate() once per generator.
class GraphGenerator {
public:
  explicit GraphGenerator(unsigned seed) : rng(seed) {}

  Program generate() {
    unsigned numParams = uniform(1, 3);
    for (unsigned i = 0; i < numParams; ++i)
      params.push_back(program.addInput(uniform(1, 64), "param"));
    std::vector<ValueId> layer = {program.addInput(uniform(1, 64), "batch")};
    std::vector<ValueId> available = params;
    available.push_back(layer[0]);

    std::vector<OpId> forwardOps;
    unsigned numLayers = uniform(2, 12);
    for (unsigned l = 0; l < numLayers; ++l) {
      std::vector<ValueId> next;
      unsigned width = uniform(1, 4);
      for (unsigned w = 0; w < width; ++w) {
        ValueId main = pick(layer);
        OpId op;
        if (chance(10) && program.values[main].def != kNone) {
          op = program.addOp({main}, {0}, 0, true, "view");
          program.setAlias(program.ops[op].results[0], main);
        } else {
          std::vector<ValueId> operands = {main};
          if (chance(50))
            operands.push_back(pick(available));
          std::vector<uint64_t> results = {uniform(1, 100)};
          if (chance(10))
            results.push_back(uniform(1, 100));
          op = program.addOp(operands, results, uniform(1, 1000), chance(85),
                             "fwd");
          decorate(program.ops[op]);
        }
        forwardOps.push_back(op);
        for (ValueId result : program.ops[op].results) {
          next.push_back(result);
          available.push_back(result);
        }
      }
      layer = std::move(next);
    }
    ValueId grad =
        program.ops[program.addOp(layer, {4}, 1, true, "loss")].results[0];

    program.backwardBegin = program.ops.size();
    for (auto it = forwardOps.rbegin(); it != forwardOps.rend(); ++it) {
      const OpInfo &forward = program.ops[*it];
      std::vector<ValueId> operands = {grad};
      for (ValueId operand : forward.operands)
        if (program.values[operand].def != kNone && chance(80))
          operands.push_back(operand);
      if (chance(30))
        operands.push_back(forward.results[0]);
      uint64_t bytes = std::max<uint64_t>(
          1, program.values[program.rootOf(forward.results[0])].bytes);
      OpId op =
          program.addOp(operands, {bytes}, uniform(1, 1000), chance(95), "bwd");
      program.ops[op].ordered = chance(5);
      grad = program.ops[op].results[0];
      if (chance(30)) {
        OpId weightGrad = program.addOp({grad, pick(params)}, {uniform(1, 20)},
                                        1, true, "wgrad");
        program.markOutput(program.ops[weightGrad].results[0]);
      }
    }
    program.markOutput(grad);
    return std::move(program);
  }

private:
  uint64_t uniform(uint64_t lo, uint64_t hi) {
    return lo + rng() % (hi - lo + 1);
  }
  bool chance(unsigned percent) { return uniform(1, 100) <= percent; }
  ValueId pick(const std::vector<ValueId> &values) {
    return values[uniform(0, values.size() - 1)];
  }
  void decorate(OpInfo &op) {
    if (op.recomputable) {
      op.mustRecompute = chance(10);
      op.mustKeep = !op.mustRecompute && chance(5);
    } else {
      op.ordered = chance(50);
    }
  }

  std::mt19937 rng;
  Program program;
  std::vector<ValueId> params;
};

} // namespace remat

#endif // REMAT_UNITTESTS_PLANNING_RANDOMTRAININGGRAPH_H
