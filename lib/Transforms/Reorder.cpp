//===- Reorder.cpp - Moving a graph's ops into a new order ----------------===//

#include "Reorder.h"

#include "remat/Dialect/Remat/RematOps.h"

using namespace mlir;
using namespace remat;

void remat::reorderBlock(FunctionOpInterface function,
                         const GraphProgram &graph,
                         llvm::ArrayRef<OpId> order) {
  Block &block = function.getFunctionBody().front();
  SmallVector<NameOp> tags(block.getOps<NameOp>());
  for (OpId op : order)
    graph.ops[op]->moveBefore(block.getTerminator());
  for (NameOp tag : tags) {
    if (Operation *def = tag.getInput().getDefiningOp())
      tag->moveAfter(def);
    else
      tag->moveBefore(&block.front());
  }
}
