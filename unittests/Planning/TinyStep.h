//===- TinyStep.h - A hand-checked training step for solver tests -*- C++ -*-//

#ifndef REMAT_UNITTESTS_PLANNING_TINYSTEP_H
#define REMAT_UNITTESTS_PLANNING_TINYSTEP_H

#include "remat/Planning/Program.h"

namespace remat {

/// A tiny training step, checked by hand:
///   0: a = f(x)      10 flops, 100 bytes
///   1: b = g(a)      20 flops, 100 bytes
///   2: c = h(b)       5 flops,  10 bytes   (the loss)
///   --- backward
///   3: gc = s(c)      1 flop,   10 bytes
///   4: gb = d(gc, b)  1 flop,  100 bytes
///   5: ga = d(gb, a)  1 flop,  100 bytes   (output)
/// Live bytes: 100 200 210 220 310 300 -> peak 310 at op 4 (a, b, gc, gb).
/// Recomputing a before op 5 (10 flops): a dies after op 1, so the live
/// bytes are 100 200 110 120 210 [a: 200] 300: peak 300. Recomputing b
/// before op 4 instead (20 flops, from a) leaves 310 at op 4 (a, b, gc, gb).
/// With budget 300 the optimum is 10 extra flops.
struct TinyStep {
  Program program;
  TinyStep() {
    auto op = [&](std::vector<ValueId> operands, uint64_t bytes,
                  uint64_t flops, const char *name) {
      return program.ops[program.addOp(std::move(operands), {bytes}, flops,
                                       true, name)]
          .results[0];
    };
    ValueId x = program.addInput(0, "x");
    ValueId a = op({x}, 100, 10, "f");
    ValueId b = op({a}, 100, 20, "g");
    ValueId c = op({b}, 10, 5, "h");
    program.backwardBegin = program.ops.size();
    ValueId gc = op({c}, 10, 1, "s");
    ValueId gb = op({gc, b}, 100, 1, "db");
    program.markOutput(op({gb, a}, 100, 1, "da"));
  }
};

} // namespace remat

#endif // REMAT_UNITTESTS_PLANNING_TINYSTEP_H
