//===- Builder.h - Building TOSA 22 ops with computed types -----*- C++ -*-===//
//
// A thin layer over OpBuilder that creates the TOSA ops the ONNX importer and
// the autodiff rules emit, computing each result type from the operands and
// supplying what TOSA 22 requires beside the data: zero points, the `shift`
// of tosa.mul, shapes as tosa.const_shape, padding that divides by the
// stride. Every value is a ranked f32 (or i1) tensor with a static shape.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_TOSA_BUILDER_H
#define REMAT_TOSA_BUILDER_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"

#include <array>
#include <optional>

namespace remat {

/// Static shape of a ranked tensor value.
llvm::ArrayRef<int64_t> shapeOf(mlir::Value value);

/// Number of elements of a static shape.
int64_t numElements(llvm::ArrayRef<int64_t> shape);

/// The broadcast of two equal-rank shapes (size-1 dims stretch).
llvm::SmallVector<int64_t> broadcastShapes(llvm::ArrayRef<int64_t> a,
                                           llvm::ArrayRef<int64_t> b);

/// Spatial parameters of a 2-D window op (conv or pool) in TOSA order.
struct Window2d {
  std::array<int64_t, 2> kernel = {1, 1};
  std::array<int64_t, 2> stride = {1, 1};
  std::array<int64_t, 2> dilation = {1, 1};
  /// top, bottom, left, right.
  std::array<int64_t, 4> pad = {0, 0, 0, 0};

  /// Output size along spatial dim `d` (0: H, 1: W) for an input size.
  int64_t outputSize(int d, int64_t input) const;
  /// Rows (columns) at the end of an input of size `input` that no output
  /// reads, beyond what the bottom (right) padding already covers: the
  /// input must be cut by this much before the op. Trims the end padding by
  /// what it can so that TOSA's exact-division rule holds.
  int64_t fitToStride(int d, int64_t input);
};

/// The value of every element of an f32 splat constant, if `x` is one.
std::optional<double> splatValue(mlir::Value x);

class TosaBuilder {
public:
  TosaBuilder(mlir::OpBuilder &builder, mlir::Location loc)
      : b(builder), loc(loc) {}

  mlir::OpBuilder &builder() { return b; }
  /// Constants are created once per builder and reused; call this when
  /// later ops must not use the earlier ones (e.g. across a phase marker).
  void forgetConstants() { constants.clear(); }
  mlir::Location getLoc() const { return loc; }
  void setLoc(mlir::Location l) { loc = l; }

  mlir::RankedTensorType type(llvm::ArrayRef<int64_t> shape,
                              mlir::Type element = {});

  // Constants.
  mlir::Value splat(llvm::ArrayRef<int64_t> shape, double value);
  /// A splat with the rank of `like` and all dims 1.
  mlir::Value scalarLike(mlir::Value like, double value);
  mlir::Value constant(mlir::DenseElementsAttr values);
  mlir::Value constShape(llvm::ArrayRef<int64_t> shape);

  // Elementwise (TOSA broadcasting: equal ranks, size-1 dims stretch).
  mlir::Value add(mlir::Value x, mlir::Value y);
  mlir::Value sub(mlir::Value x, mlir::Value y);
  mlir::Value mul(mlir::Value x, mlir::Value y);
  mlir::Value scale(mlir::Value x, double factor);
  mlir::Value div(mlir::Value x, mlir::Value y);
  mlir::Value maximum(mlir::Value x, mlir::Value y);
  mlir::Value minimum(mlir::Value x, mlir::Value y);
  mlir::Value pow(mlir::Value x, mlir::Value y);
  mlir::Value negate(mlir::Value x);
  mlir::Value reciprocal(mlir::Value x);
  mlir::Value rsqrt(mlir::Value x);
  mlir::Value exp(mlir::Value x);
  mlir::Value log(mlir::Value x);
  mlir::Value tanh(mlir::Value x);
  mlir::Value sigmoid(mlir::Value x);
  mlir::Value erf(mlir::Value x);
  mlir::Value abs(mlir::Value x);
  mlir::Value clamp(mlir::Value x, float min, float max);
  mlir::Value greater(mlir::Value x, mlir::Value y);
  mlir::Value greaterEqual(mlir::Value x, mlir::Value y);
  mlir::Value equal(mlir::Value x, mlir::Value y);
  mlir::Value logicalAnd(mlir::Value x, mlir::Value y);
  mlir::Value logicalNot(mlir::Value x);
  /// Converts the elements to `element` (i1 -> f32: 0 or 1).
  mlir::Value cast(mlir::Value x, mlir::Type element);
  mlir::Value select(mlir::Value cond, mlir::Value x, mlir::Value y);

  // Data movement.
  /// Rows of `values` [N,K,C] picked by i32 `indices` [N,W]: [N,W,C].
  mlir::Value gather(mlir::Value values, mlir::Value indices);
  mlir::Value reshape(mlir::Value x, llvm::ArrayRef<int64_t> shape);
  mlir::Value transpose(mlir::Value x, llvm::ArrayRef<int32_t> perms);
  mlir::Value slice(mlir::Value x, llvm::ArrayRef<int64_t> start,
                    llvm::ArrayRef<int64_t> size);
  /// Pads dim i with lo[i] before and hi[i] after, with `value`.
  mlir::Value pad(mlir::Value x, llvm::ArrayRef<int64_t> lo,
                  llvm::ArrayRef<int64_t> hi, double value = 0.0);
  mlir::Value concat(mlir::ValueRange xs, int32_t axis);
  mlir::Value reverse(mlir::Value x, int32_t axis);
  mlir::Value tile(mlir::Value x, llvm::ArrayRef<int64_t> multiples);
  /// Prepends size-1 dims up to `rank`.
  mlir::Value expandRank(mlir::Value x, int64_t rank);
  /// Materializes the broadcast of `x` to `shape` (same rank).
  mlir::Value broadcastTo(mlir::Value x, llvm::ArrayRef<int64_t> shape);
  /// Sums `x` down to `shape` (the inverse of a broadcast to x's shape;
  /// `shape` may have a lower rank: leading dims are summed away).
  mlir::Value sumTo(mlir::Value x, llvm::ArrayRef<int64_t> shape);

  // Reductions keep the reduced axis with size 1.
  mlir::Value reduceSum(mlir::Value x, int32_t axis);
  mlir::Value reduceMax(mlir::Value x, int32_t axis);
  /// Sum over every element, as a tensor of the same rank with all dims 1.
  mlir::Value reduceAll(mlir::Value x);

  // Contractions and windows.
  /// (B,M,K) x (B,K,N) -> (B,M,N).
  mlir::Value matmul(mlir::Value x, mlir::Value y);
  /// NHWC input, OHWI weight, bias [O]. The window's padding must already
  /// satisfy TOSA's exact division (see Window2d::fitToStride).
  mlir::Value conv2d(mlir::Value x, mlir::Value w, mlir::Value bias,
                     const Window2d &window);
  /// NHWC input, [KH,KW,C,M] weight, bias [C*M]: output channel c*M+m
  /// reads input channel c through weight [.., c, m].
  mlir::Value depthwiseConv2d(mlir::Value x, mlir::Value w, mlir::Value bias,
                              const Window2d &window);
  mlir::Value maxPool2d(mlir::Value x, const Window2d &window);
  mlir::Value avgPool2d(mlir::Value x, const Window2d &window);

private:
  mlir::Value unary(llvm::StringRef kind, mlir::Value x);
  mlir::Value zeroPoint();
  mlir::Value shift();

  mlir::OpBuilder &b;
  mlir::Location loc;
  llvm::DenseMap<mlir::Attribute, mlir::Value> constants;
};

} // namespace remat

#endif // REMAT_TOSA_BUILDER_H
