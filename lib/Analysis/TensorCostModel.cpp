//===- TensorCostModel.cpp - FLOPs of tensor ops --------------------------===//
//
// Views (slices, reshapes, casts) and metadata queries are free; ops that
// write a tensor count one per element written.
//
//===----------------------------------------------------------------------===//

#include "ExternalCostModel.h"
#include "remat/Analysis/CostModel.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace remat;

namespace {

std::optional<uint64_t> tensorFlops(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<uint64_t>>(op)
      .Case<tensor::ExtractSliceOp, tensor::CollapseShapeOp,
            tensor::ExpandShapeOp, tensor::CastOp, tensor::ReshapeOp,
            tensor::EmptyOp, tensor::DimOp, tensor::RankOp,
            tensor::BitcastOp>([](Operation *) { return uint64_t(0); })
      .Case([](tensor::InsertSliceOp insert) {
        return staticNumElements(insert.getSource().getType());
      })
      .Case<tensor::ExtractOp, tensor::InsertOp>(
          [](Operation *) { return uint64_t(1); })
      .Default([](Operation *other) { return resultElements(other); });
}

} // namespace

void remat::registerTensorCostModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, tensor::TensorDialect *) {
    detail::attachCostModel<tensorFlops,
#define GET_OP_LIST
#include "mlir/Dialect/Tensor/IR/TensorOps.cpp.inc"
                            >(context);
  });
}
