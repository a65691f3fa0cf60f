//===- LinalgLowering.cpp - TOSA and elementwise ops to linalg ------------===//
//
// The conversion remat-convert-to-linalg runs, as a function: the lowering
// runs it on the step, and the memory model on a copy of the step, to ask
// One-Shot Bufferize what the lowered step writes in place.
//
//===----------------------------------------------------------------------===//

#include "remat/Tosa/LinalgLowering.h"
#include "remat/Tosa/ScatterKernels.h"
#include "remat/Tosa/WindowKernels.h"

#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Transforms/Passes.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace {

/// An elementwise op (arith, math) on ranked tensors, with every operand and
/// result a ranked tensor of one shape.
bool isElementwiseOnTensors(Operation *op) {
  if (!OpTrait::hasElementwiseMappableTraits(op) || op->getNumResults() == 0)
    return false;
  auto isRankedTensor = [](Type type) { return isa<RankedTensorType>(type); };
  return llvm::all_of(op->getOperandTypes(), isRankedTensor) &&
         llvm::all_of(op->getResultTypes(), isRankedTensor);
}

/// The op on tensors becomes a `linalg.generic` applying it to scalars,
/// written into a new `tensor.empty` per result. (Upstream's
/// elementwise-to-linalg writes into an operand of the result's type
/// instead: bufferized in place, that would overwrite a value the memory
/// model keeps, or a step argument.)
struct ElementwiseToGeneric final : RewritePattern {
  explicit ElementwiseToGeneric(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isElementwiseOnTensors(op))
      return rewriter.notifyMatchFailure(op, "not elementwise on tensors");
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    if (!type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shape");
    Location loc = op->getLoc();
    SmallVector<Value> inits;
    SmallVector<Type> elementTypes;
    for (Type result : op->getResultTypes()) {
      auto tensor = cast<RankedTensorType>(result);
      inits.push_back(tensor::EmptyOp::create(
          rewriter, loc, tensor.getShape(), tensor.getElementType()));
      elementTypes.push_back(tensor.getElementType());
    }
    AffineMap identity = rewriter.getMultiDimIdentityMap(type.getRank());
    SmallVector<AffineMap> maps(op->getNumOperands() + op->getNumResults(),
                                identity);
    SmallVector<utils::IteratorType> iterators(type.getRank(),
                                               utils::IteratorType::parallel);
    rewriter.replaceOpWithNewOp<linalg::GenericOp>(
        op, op->getResultTypes(), op->getOperands(), inits, maps, iterators,
        [&](OpBuilder &builder, Location bodyLoc, ValueRange arguments) {
          Operation *scalar = builder.create(
              bodyLoc, op->getName().getIdentifier(),
              arguments.take_front(op->getNumOperands()), elementTypes,
              op->getAttrs());
          linalg::YieldOp::create(builder, bodyLoc, scalar->getResults());
        });
    return success();
  }
};

/// A padded float convolution reads its input through bounds checks
/// (buildConvolution) instead of upstream's tensor.pad of the whole input:
/// no input-sized copy per convolution.
struct PaddedConvolutionInPlace final : OpRewritePattern<tosa::Conv2DOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tosa::Conv2DOp conv,
                                PatternRewriter &rewriter) const override {
    if (!remat::lowersWithoutPaddedCopy(conv))
      return rewriter.notifyMatchFailure(
          conv, "unpadded, quantized, mixed or with a broadcast bias");
    remat::Window2d window;
    window.stride = {conv.getStride()[0], conv.getStride()[1]};
    window.dilation = {conv.getDilation()[0], conv.getDilation()[1]};
    for (int i = 0; i < 4; ++i)
      window.pad[i] = conv.getPad()[i];
    Value y = remat::buildConvolution(rewriter, conv.getLoc(), conv.getInput(),
                                      remat::StoredKernel{conv.getWeight()},
                                      conv.getBias(), window);
    rewriter.replaceOp(conv, y);
    return success();
  }
};

} // namespace

LogicalResult remat::convertToLinalg(Operation *root) {
  MLIRContext *context = root->getContext();
  TypeConverter converter;
  tosa::populateTosaTypeConversion(converter);
  RewritePatternSet patterns(context);
  tosa::populateTosaToLinalgNamedConversionPatterns(converter, &patterns,
                                                    {});
  tosa::populateTosaToLinalgConversionPatterns(converter, &patterns);
  tosa::populateTosaToTensorConversionPatterns(converter, &patterns);
  tosa::populateTosaToArithConversionPatterns(&patterns);
  patterns.add<ElementwiseToGeneric>(context);
  patterns.add<PaddedConvolutionInPlace>(context, /*benefit=*/2);
  remat::populateScatterAddLoweringPatterns(patterns);

  ConversionTarget target(*context);
  target.addIllegalDialect<tosa::TosaDialect>();
  // What upstream's TOSA lowerings leave for later passes or keep.
  target.addLegalOp<tosa::ApplyScaleOp, tosa::ConstShapeOp, tosa::IfOp,
                    tosa::WhileOp>();
  target.markUnknownOpDynamicallyLegal([](Operation *op) {
    return !isElementwiseOnTensors(op) && !remat::isScatterAddKernel(op);
  });

  // The memory model counts every op as written: an op folded away here
  // (negate of a negate, a transpose of a transpose) would allocate less
  // than predicted.
  ConversionConfig config;
  config.foldingMode = DialectConversionFoldingMode::Never;
  return applyFullConversion(root, target, std::move(patterns), config);
}
