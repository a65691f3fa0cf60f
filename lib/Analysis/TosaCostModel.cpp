//===- TosaCostModel.cpp - FLOPs of tosa ops ------------------------------===//
//
// Contractions count a multiply-add as two FLOPs; pooling and reductions one
// per input element they read; reshapes, slices (views after bufferization)
// and constants zero; everything else, elementwise or data movement, one per
// result element.
//
//===----------------------------------------------------------------------===//

#include "ExternalCostModel.h"
#include "remat/Analysis/CostModel.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace remat;

namespace {

std::optional<uint64_t> product(std::initializer_list<std::optional<uint64_t>> factors) {
  uint64_t result = 1;
  for (std::optional<uint64_t> f : factors) {
    if (!f)
      return std::nullopt;
    result = llvm::SaturatingMultiply(result, *f);
  }
  return result;
}

std::optional<uint64_t> dim(Value value, int64_t index) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || index >= type.getRank() || type.isDynamicDim(index))
    return std::nullopt;
  return static_cast<uint64_t>(type.getDimSize(index));
}

std::optional<uint64_t> outElements(Operation *op) {
  return staticNumElements(op->getResult(0).getType());
}

std::optional<uint64_t> tosaFlops(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<uint64_t>>(op)
      // [N,H,C] x [N,C,W] -> [N,H,W]
      .Case([](tosa::MatMulOp mm) {
        return product({2, outElements(mm), dim(mm.getA(), 2)});
      })
      // Weights are [OC,KH,KW,IC] (conv2d) and [OC,KD,KH,KW,IC] (conv3d).
      .Case([](tosa::Conv2DOp conv) {
        return product({2, outElements(conv), dim(conv.getWeight(), 1),
                        dim(conv.getWeight(), 2), dim(conv.getWeight(), 3)});
      })
      .Case([](tosa::Conv3DOp conv) {
        return product({2, outElements(conv), dim(conv.getWeight(), 1),
                        dim(conv.getWeight(), 2), dim(conv.getWeight(), 3),
                        dim(conv.getWeight(), 4)});
      })
      // Weights are [KH,KW,C,M].
      .Case([](tosa::DepthwiseConv2DOp conv) {
        return product({2, outElements(conv), dim(conv.getWeight(), 0),
                        dim(conv.getWeight(), 1)});
      })
      // Every input element is scattered through the [OC,KH,KW,IC] kernel.
      .Case([](tosa::TransposeConv2DOp conv) {
        return product({2, staticNumElements(conv.getInput().getType()),
                        dim(conv.getWeight(), 0), dim(conv.getWeight(), 1),
                        dim(conv.getWeight(), 2)});
      })
      .Case<tosa::AvgPool2dOp, tosa::MaxPool2dOp>([](auto pool) {
        ArrayRef<int64_t> kernel = pool.getKernel();
        return product({outElements(pool), static_cast<uint64_t>(kernel[0]),
                        static_cast<uint64_t>(kernel[1])});
      })
      .Case<tosa::ReduceSumOp, tosa::ReduceMaxOp, tosa::ReduceMinOp,
            tosa::ReduceProductOp, tosa::ReduceAllOp, tosa::ReduceAnyOp,
            tosa::ArgMaxOp>([](Operation *reduce) {
        return staticNumElements(reduce->getOperand(0).getType());
      })
      .Case<tosa::ReshapeOp, tosa::SliceOp, tosa::ConstOp, tosa::ConstShapeOp,
            tosa::IdentityOp>([](Operation *) { return uint64_t(0); })
      .Default([](Operation *other) { return resultElements(other); });
}

} // namespace

void remat::registerTosaCostModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, tosa::TosaDialect *) {
    detail::attachCostModel<tosaFlops,
#define GET_OP_LIST
#include "mlir/Dialect/Tosa/IR/TosaOps.cpp.inc"
                            >(context);
  });
}
