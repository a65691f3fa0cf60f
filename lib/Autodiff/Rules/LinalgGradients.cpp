//===- LinalgGradients.cpp - Derivatives of linalg named ops --------------===//
//
// Contractions accumulate into their init operand (C = A B + C0), so the
// init receives the adjoint unchanged; elementwise named ops overwrite it,
// so it receives nothing. The backward ops are linalg named ops on new
// zero-filled tensors.
//
//===----------------------------------------------------------------------===//

#include "remat/Autodiff/GradientRules.h"
#include "remat/Dialect/Remat/RematDialect.h"
#include "remat/Tosa/ActivationKernels.h"
#include "remat/Tosa/SoftmaxKernels.h"
#include "remat/Tosa/WindowKernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace remat;

namespace {

struct Emitter {
  OpBuilder &b;
  Location loc;

  Value empty(ArrayRef<int64_t> shape, Type element) {
    return tensor::EmptyOp::create(b, loc, shape, element);
  }
  Value zeros(ArrayRef<int64_t> shape, Type element) {
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
    return linalg::FillOp::create(b, loc, zero, empty(shape, element))
        .getResult(0);
  }
  Type element(Value v) {
    return cast<RankedTensorType>(v.getType()).getElementType();
  }
  Value transpose(Value v, ArrayRef<int64_t> perm) {
    ArrayRef<int64_t> in = shapeOf(v);
    SmallVector<int64_t> shape;
    for (int64_t p : perm)
      shape.push_back(in[p]);
    return linalg::TransposeOp::create(b, loc, v, empty(shape, element(v)),
                                       perm)
        .getResult()
        .front();
  }
  template <typename OpTy>
  Value contract(Value x, Value y, ArrayRef<int64_t> shape) {
    Value init = zeros(shape, element(x));
    return OpTy::create(b, loc, TypeRange{init.getType()}, ValueRange{x, y},
                        ValueRange{init})
        .getResult(0);
  }
  template <typename OpTy>
  Value elementwise(ValueRange xs) {
    Value init = empty(shapeOf(xs.front()), element(xs.front()));
    return OpTy::create(b, loc, TypeRange{init.getType()}, xs,
                        ValueRange{init})
        ->getResult(0);
  }
};

Emitter emitter(GradientRequest &r) {
  return Emitter{r.builder(), r.op->getLoc()};
}

/// C[M,N] = A[M,K] B[K,N] + C0: dA = G B^T, dB = A^T G, dC0 = G.
LogicalResult matmulRule(GradientRequest &r) {
  auto op = cast<linalg::MatmulOp>(r.op);
  if (!op.getIndexingMaps().empty() && op.hasUserDefinedMaps())
    return op.emitError("cannot differentiate a linalg.matmul with "
                        "user-defined indexing maps");
  Emitter e = emitter(r);
  Value a = r.operand(0), b = r.operand(1), g = r.grad();
  if (r.needed[0])
    r.set(0, e.contract<linalg::MatmulOp>(g, e.transpose(b, {1, 0}),
                                          shapeOf(a)));
  if (r.needed[1])
    r.set(1, e.contract<linalg::MatmulOp>(e.transpose(a, {1, 0}), g,
                                          shapeOf(b)));
  r.set(2, g);
  return success();
}

LogicalResult batchMatmulRule(GradientRequest &r) {
  auto op = cast<linalg::BatchMatmulOp>(r.op);
  if (op.hasUserDefinedMaps())
    return op.emitError("cannot differentiate a linalg.batch_matmul with "
                        "user-defined indexing maps");
  Emitter e = emitter(r);
  Value a = r.operand(0), b = r.operand(1), g = r.grad();
  if (r.needed[0])
    r.set(0, e.contract<linalg::BatchMatmulOp>(g, e.transpose(b, {0, 2, 1}),
                                               shapeOf(a)));
  if (r.needed[1])
    r.set(1, e.contract<linalg::BatchMatmulOp>(e.transpose(a, {0, 2, 1}), g,
                                               shapeOf(b)));
  r.set(2, g);
  return success();
}

LogicalResult transposeRule(GradientRequest &r) {
  ArrayRef<int64_t> perm = cast<linalg::TransposeOp>(r.op).getPermutation();
  SmallVector<int64_t> inverse(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    inverse[p] = i;
  r.set(0, emitter(r).transpose(r.grad(), inverse));
  return success();
}

LogicalResult addRule(GradientRequest &r) {
  r.set(0, r.grad());
  r.set(1, r.grad());
  return success();
}

LogicalResult subRule(GradientRequest &r) {
  r.set(0, r.grad());
  if (r.needed[1])
    r.set(1, emitter(r).elementwise<linalg::NegFOp>(ValueRange{r.grad()}));
  return success();
}

LogicalResult mulRule(GradientRequest &r) {
  Emitter e = emitter(r);
  if (r.needed[0])
    r.set(0, e.elementwise<linalg::MulOp>(ValueRange{r.grad(), r.operand(1)}));
  if (r.needed[1])
    r.set(1, e.elementwise<linalg::MulOp>(ValueRange{r.grad(), r.operand(0)}));
  return success();
}

LogicalResult expRule(GradientRequest &r) {
  r.set(0, emitter(r).elementwise<linalg::MulOp>(
               ValueRange{r.grad(), r.result()}));
  return success();
}

LogicalResult negRule(GradientRequest &r) {
  r.set(0, emitter(r).elementwise<linalg::NegFOp>(ValueRange{r.grad()}));
  return success();
}

/// The grouped convolution (what the ONNX importer makes of a Conv with
/// several channels per group): both adjoints are single kernels that read
/// x, g and the weight in place (WindowKernels.h); the init receives g.
LogicalResult groupedConvolutionRule(GradientRequest &r) {
  auto conv = cast<linalg::Conv2DNhwgcGfhwcOp>(r.op);
  Value x = conv.getInputs()[0], w = conv.getInputs()[1], g = r.grad();
  Window2d window;
  for (auto [i, s] : llvm::enumerate(conv.getStrides().getValues<int64_t>()))
    window.stride[i] = s;
  for (auto [i, d] : llvm::enumerate(conv.getDilations().getValues<int64_t>()))
    window.dilation[i] = d;
  ArrayRef<int64_t> ws = shapeOf(w);
  Location loc = r.tosa.getLoc();
  if (r.needed[1])
    r.set(1, buildGroupedConvolutionWeightAdjoint(r.builder(), loc, x, g,
                                                  {ws[2], ws[3]}, window));
  if (r.needed[0])
    r.set(0, buildGroupedConvolutionInputAdjoint(r.builder(), loc, g, w,
                                                 shapeOf(x), window));
  r.set(2, g);
  return success();
}

/// A linalg.generic has a derivative when it is a kernel that says what it
/// computes. The GELU kernel's rule reads its input only. The softmax
/// kernel's rule differentiates the whole softmax
/// (through the maximum and the sum it reads) from its result: the maximum
/// and the sum receive no adjoint, so their kernels emit nothing.
LogicalResult genericRule(GradientRequest &r) {
  for (bool logOutput : {false, true}) {
    auto axis = r.op->getAttrOfType<IntegerAttr>(
        logOutput ? kLogSoftmaxAttrName : kSoftmaxAttrName);
    if (!axis)
      continue;
    r.set(0, buildSoftmaxGradient(r.builder(), r.tosa.getLoc(), r.result(),
                                  r.grad(), axis.getInt(), logOutput));
    return success();
  }
  if (r.op->hasAttr(kTanhGeluAttrName)) {
    r.set(0, buildTanhGeluGradient(r.builder(), r.tosa.getLoc(), r.operand(0),
                                   r.grad()));
    return success();
  }
  return r.op->emitError("remat-autodiff: no derivative rule for this "
                         "linalg.generic (only Remat's softmax and GELU "
                         "kernels have one)");
}

} // namespace

REMAT_GRADIENT_RULES_FILE(addLinalgGradients) {
  rules.add(linalg::MatmulOp::getOperationName(), matmulRule);
  rules.add(linalg::BatchMatmulOp::getOperationName(), batchMatmulRule);
  rules.add(linalg::TransposeOp::getOperationName(), transposeRule);
  rules.add(linalg::Conv2DNhwgcGfhwcOp::getOperationName(),
            groupedConvolutionRule);
  rules.add(linalg::AddOp::getOperationName(), addRule);
  rules.add(linalg::SubOp::getOperationName(), subRule);
  rules.add(linalg::MulOp::getOperationName(), mulRule);
  rules.add(linalg::ExpOp::getOperationName(), expRule);
  rules.add(linalg::NegFOp::getOperationName(), negRule);
  rules.add(linalg::GenericOp::getOperationName(), genericRule);
}
