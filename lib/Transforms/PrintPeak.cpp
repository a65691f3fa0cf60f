//===- PrintPeak.cpp - Print the memory peak of each graph ----------------===//

#include "remat/Analysis/ProgramBuilder.h"
#include "remat/Planning/MemoryProfile.h"
#include "remat/Support/Budget.h"
#include "remat/Support/Locations.h"
#include "Graphs.h"
#include "remat/Transforms/Passes.h"

#include "llvm/Support/raw_ostream.h"

namespace remat {
#define GEN_PASS_DEF_PRINTPEAKPASS
#include "remat/Transforms/Passes.h.inc"
} // namespace remat

#define DEBUG_TYPE "remat-print-peak"

using namespace mlir;
using namespace remat;

namespace {

struct PrintPeakPass final : remat::impl::PrintPeakPassBase<PrintPeakPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(forEachGraph(getOperation(), [&](FunctionOpInterface graph) {
          return printPeak(graph);
        })))
      signalPassFailure();
  }

  LogicalResult printPeak(FunctionOpInterface function) {
    FailureOr<GraphProgram> graph = buildProgram(function);
    if (failed(graph))
      return failure();
    const Program &program = graph->program;
    MemoryProfile profile = computeMemoryProfile(program, countInputs);

    llvm::raw_ostream &os = llvm::outs();
    os << "@" << function.getName() << ": peak " << profile.peakBytes
       << " bytes";
    if (profile.peakOp == kNone) {
      os << " (no ops)\n";
      return success();
    }
    os << " at op #" << profile.peakOp << " '"
       << graph->ops[profile.peakOp]->getName() << "' ("
       << formatLoc(graph->locOf(profile.peakOp)) << ")\n";
    for (ValueId value : profile.liveAt(program, profile.peakOp))
      os << "  live " << program.values[value].name << ": "
         << program.values[value].bytes << " bytes ("
         << formatLoc(graph->locOfValue(value)) << ")\n";
    if (!timeline)
      return success();
    os << "  timeline:";
    for (uint64_t bytes : profile.liveBytes)
      os << " " << bytes;
    os << "\n";
    return success();
  }
};

} // namespace
