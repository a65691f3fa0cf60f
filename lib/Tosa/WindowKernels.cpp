//===- WindowKernels.cpp - Convolutions without padded copies --------===//
//
// Each kernel is one linalg.generic over the window op's loops (seven for a
// convolution, six for a pool, whose window sizes come from an unread
// [KH, KW] operand as in linalg's pooling ops). The
// operand whose index is a linear function of the loops with a bounds check
// (x in the forward and the weight adjoint, g in the input adjoint) is read
// with tensor.extract at a clamped index and the product is dropped where the
// check fails; the other operands go through indexing maps. The kernel's
// map composes the OHWI loop order with the permutation it is stored in, so
// a transposed parameter is read in place.
//
//===----------------------------------------------------------------------===//

#include "remat/Tosa/WindowKernels.h"

#include "remat/Dialect/Remat/RematDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/AffineMap.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace mlir;
using namespace remat;

bool remat::lowersWithoutPaddedCopy(tosa::Conv2DOp conv) {
  if (llvm::all_of(conv.getPad(), [](int64_t p) { return p == 0; }))
    return false;
  Type element = getElementTypeOrSelf(conv.getInput().getType());
  return isa<FloatType>(element) &&
         getElementTypeOrSelf(conv.getWeight().getType()) == element &&
         getElementTypeOrSelf(conv.getBias().getType()) == element &&
         getElementTypeOrSelf(conv.getType()) == element &&
         conv.getAccType() == element &&
         cast<ShapedType>(conv.getInput().getType()).hasStaticShape() &&
         cast<ShapedType>(conv.getWeight().getType()).hasStaticShape() &&
         cast<ShapedType>(conv.getType()).hasStaticShape() &&
         cast<ShapedType>(conv.getBias().getType()).hasStaticShape() &&
         // TOSA allows a one-element bias for every output channel; the
         // kernel reads one bias element per channel.
         shapeOf(conv.getBias())[0] == shapeOf(conv.getWeight())[0];
}

StoredKernel StoredKernel::of(Value kernel) {
  StoredKernel stored{kernel};
  auto transpose = kernel.getDefiningOp<tosa::TransposeOp>();
  if (!transpose)
    return stored;
  stored.tensor = transpose.getInput1();
  for (auto [j, p] : llvm::enumerate(transpose.getPerms()))
    stored.perms[j] = p;
  return stored;
}

int64_t StoredKernel::size(int j) const {
  return shapeOf(tensor)[perms[j]];
}

namespace {

/// Index arithmetic inside a kernel's body.
struct IndexMath {
  OpBuilder &b;
  Location loc;

  Value constant(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value loop(unsigned dim) { return linalg::IndexOp::create(b, loc, dim); }
  Value mul(Value v, int64_t k) {
    return k == 1 ? v : arith::MulIOp::create(b, loc, v, constant(k));
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value addConstant(Value v, int64_t k) {
    return k == 0 ? v : arith::AddIOp::create(b, loc, v, constant(k));
  }
  Value compare(arith::CmpIPredicate p, Value x, int64_t k) {
    return arith::CmpIOp::create(b, loc, p, x, constant(k));
  }
  Value both(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  /// `v` where `valid`, else 0 (an index that is always in bounds).
  Value clamp(Value valid, Value v) {
    return arith::SelectOp::create(b, loc, valid, v, constant(0));
  }
  /// 0 <= v < size.
  Value inBounds(Value v, int64_t size) {
    return both(compare(arith::CmpIPredicate::sge, v, 0),
                compare(arith::CmpIPredicate::slt, v, size));
  }

  /// The input row (column) that output position `out` reads through kernel
  /// tap `tap` along spatial dim `d`, and whether it lies inside `size`.
  std::pair<Value, Value> inputIndex(const Window2d &win, int d, Value out,
                                     Value tap, int64_t size) {
    Value i = addConstant(add(mul(out, win.stride[d]), mul(tap, win.dilation[d])),
                          -win.pad[2 * d]);
    Value valid = inBounds(i, size);
    return {clamp(valid, i), valid};
  }

  /// The output row (column) that reads input position `in` through kernel
  /// tap `tap` along spatial dim `d`, and whether there is one: in + t -
  /// tap*d must be a non-negative multiple of the stride below `size`.
  std::pair<Value, Value> outputIndex(const Window2d &win, int d, Value in,
                                      Value tap, int64_t size) {
    Value num = arith::SubIOp::create(
        b, loc, addConstant(in, win.pad[2 * d]), mul(tap, win.dilation[d]));
    Value valid = compare(arith::CmpIPredicate::sge, num, 0);
    Value o = clamp(valid, num);
    if (int64_t s = win.stride[d]; s != 1) {
      Value rem = arith::RemUIOp::create(b, loc, o, constant(s));
      valid = both(valid, compare(arith::CmpIPredicate::eq, rem, 0));
      o = arith::DivUIOp::create(b, loc, o, constant(s));
    }
    valid = both(valid, compare(arith::CmpIPredicate::slt, o, size));
    return {clamp(valid, o), valid};
  }

  /// acc + (valid ? lhs * rhs : 0).
  Value accumulate(Value acc, Value lhs, Value rhs, Value valid) {
    Value product = arith::MulFOp::create(b, loc, lhs, rhs);
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(acc.getType()));
    return arith::AddFOp::create(
        b, loc, acc, arith::SelectOp::create(b, loc, valid, product, zero));
  }
};

Type elementOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getElementType();
}

Value zeros(OpBuilder &b, Location loc, ArrayRef<int64_t> shape, Type element) {
  Value empty = tensor::EmptyOp::create(b, loc, shape, element);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  return linalg::FillOp::create(b, loc, zero, empty).getResult(0);
}

/// The kernel's indexing map when loop `loops[j]` walks OHWI dimension j.
AffineMap kernelMap(MLIRContext *context, unsigned numLoops,
                    const StoredKernel &w, std::array<unsigned, 4> loops) {
  SmallVector<AffineExpr> results(4);
  for (int j = 0; j < 4; ++j)
    results[w.perms[j]] = getAffineDimExpr(loops[j], context);
  return AffineMap::get(numLoops, 0, results, context);
}

AffineMap loopsMap(MLIRContext *context, unsigned numLoops,
                   ArrayRef<unsigned> loops) {
  SmallVector<AffineExpr> results;
  for (unsigned l : loops)
    results.push_back(getAffineDimExpr(l, context));
  return AffineMap::get(numLoops, 0, results, context);
}

/// `parallel` parallel loops, then three reductions.
SmallVector<utils::IteratorType> convolutionIterators(unsigned parallel = 4) {
  SmallVector<utils::IteratorType> iterators(parallel,
                                             utils::IteratorType::parallel);
  iterators.append(3, utils::IteratorType::reduction);
  return iterators;
}

/// `perPoint` FLOPs per point of the iteration domain `ranges`.
void setFlops(OpBuilder &b, Operation *op, ArrayRef<int64_t> ranges,
              uint64_t perPoint = 2) {
  uint64_t points = perPoint;
  for (int64_t r : ranges)
    points = llvm::SaturatingMultiply(points, static_cast<uint64_t>(r));
  op->setAttr(kFlopsAttrName, b.getI64IntegerAttr(
                                  static_cast<int64_t>(std::min<uint64_t>(
                                      points, INT64_MAX))));
}

/// `kernel` (a convolution kernel's result) with its window recorded
/// under kWindowAttrName.
Value tagWindow(OpBuilder &b, Value kernel, StringRef kind,
                const Window2d &win) {
  NamedAttribute fields[] = {
      b.getNamedAttr("kind", b.getStringAttr(kind)),
      b.getNamedAttr("stride", b.getDenseI64ArrayAttr(win.stride)),
      b.getNamedAttr("dilation", b.getDenseI64ArrayAttr(win.dilation)),
      b.getNamedAttr("pad", b.getDenseI64ArrayAttr(win.pad))};
  kernel.getDefiningOp()->setAttr(kWindowAttrName,
                                  b.getDictionaryAttr(fields));
  return kernel;
}

/// Where a kernel reads the operand it gathers at the current loops: the
/// indices (clamped into bounds) and whether they hold a real element.
using GatherAt =
    llvm::function_ref<std::pair<SmallVector<Value, 5>, Value>(IndexMath &)>;

/// init + the sum over three reduction loops of mapped[mappedMap(loops)] *
/// gathered[at(loops)] where `at` is valid: one linalg.generic whose first
/// rank(init) loops are init's dimensions, priced at two FLOPs per point of
/// the iteration domain `ranges`. Every convolution kernel is one of these.
Value gatheringContraction(OpBuilder &b, Location loc, Value init,
                           Value mapped, AffineMap mappedMap, Value gathered,
                           GatherAt at, ArrayRef<int64_t> ranges) {
  unsigned rank = cast<RankedTensorType>(init.getType()).getRank();
  SmallVector<unsigned> outer(rank);
  std::iota(outer.begin(), outer.end(), 0);
  SmallVector<AffineMap> maps = {
      mappedMap, loopsMap(b.getContext(), ranges.size(), outer)};
  auto op = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ValueRange{mapped}, ValueRange{init},
      maps, convolutionIterators(rank),
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        IndexMath m{nb, nloc};
        auto [indices, valid] = at(m);
        Value v = tensor::ExtractOp::create(nb, nloc, gathered, indices);
        linalg::YieldOp::create(nb, nloc,
                                m.accumulate(args[1], v, args[0], valid));
      });
  setFlops(b, op, ranges);
  return op.getResult(0);
}

} // namespace

Value remat::buildConvolution(OpBuilder &b, Location loc, Value x,
                              const StoredKernel &w, Value bias,
                              const Window2d &window) {
  // Loops: n, oh, ow, f | kh, kw, c.
  MLIRContext *context = b.getContext();
  ArrayRef<int64_t> xs = shapeOf(x);
  Window2d win = window;
  win.kernel = {w.size(1), w.size(2)};
  SmallVector<int64_t> ys = {xs[0], win.outputSize(0, xs[1]),
                             win.outputSize(1, xs[2]), w.size(0)};
  Type element = elementOf(x);

  // The bias broadcast along n, oh, ow is the accumulator's start.
  Value empty = tensor::EmptyOp::create(b, loc, ys, element);
  AffineMap identity4 = b.getMultiDimIdentityMap(4);
  Value init =
      linalg::GenericOp::create(
          b, loc, TypeRange{empty.getType()}, ValueRange{bias},
          ValueRange{empty},
          ArrayRef<AffineMap>{loopsMap(context, 4, {3}), identity4},
          SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
          [](OpBuilder &nb, Location nloc, ValueRange args) {
            linalg::YieldOp::create(nb, nloc, args[0]);
          })
          .getResult(0);

  Value y = gatheringContraction(
      b, loc, init, w.tensor, kernelMap(context, 7, w, {3, 4, 5, 6}), x,
      [&](IndexMath &m) {
        auto [ih, rowOk] = m.inputIndex(win, 0, m.loop(1), m.loop(4), xs[1]);
        auto [iw, colOk] = m.inputIndex(win, 1, m.loop(2), m.loop(5), xs[2]);
        return std::pair(SmallVector<Value, 5>{m.loop(0), ih, iw, m.loop(6)},
                         m.both(rowOk, colOk));
      },
      {ys[0], ys[1], ys[2], ys[3], win.kernel[0], win.kernel[1], xs[3]});
  return tagWindow(b, y, "convolution", win);
}

Value remat::buildConvolutionInputAdjoint(OpBuilder &b, Location loc, Value g,
                                          const StoredKernel &w,
                                          ArrayRef<int64_t> inputShape,
                                          const Window2d &window) {
  // Loops: n, ih, iw, c | f, kh, kw.
  ArrayRef<int64_t> gs = shapeOf(g);
  Window2d win = window;
  win.kernel = {w.size(1), w.size(2)};
  Value dx = gatheringContraction(
      b, loc, zeros(b, loc, inputShape, elementOf(g)), w.tensor,
      kernelMap(b.getContext(), 7, w, {4, 5, 6, 3}), g,
      [&](IndexMath &m) {
        auto [oh, rowOk] = m.outputIndex(win, 0, m.loop(1), m.loop(5), gs[1]);
        auto [ow, colOk] = m.outputIndex(win, 1, m.loop(2), m.loop(6), gs[2]);
        return std::pair(SmallVector<Value, 5>{m.loop(0), oh, ow, m.loop(4)},
                         m.both(rowOk, colOk));
      },
      {inputShape[0], inputShape[1], inputShape[2], inputShape[3], gs[3],
       win.kernel[0], win.kernel[1]});
  return tagWindow(b, dx, "input_adjoint", win);
}

Value remat::buildConvolutionWeightAdjoint(OpBuilder &b, Location loc, Value x,
                                           Value g,
                                           std::array<int64_t, 2> kernel,
                                           const Window2d &window) {
  // Loops: f, kh, kw, c | n, oh, ow.
  ArrayRef<int64_t> xs = shapeOf(x), gs = shapeOf(g);
  Window2d win = window;
  win.kernel = kernel;
  SmallVector<int64_t> ws = {gs[3], kernel[0], kernel[1], xs[3]};
  Value dw = gatheringContraction(
      b, loc, zeros(b, loc, ws, elementOf(g)), g,
      loopsMap(b.getContext(), 7, {4, 5, 6, 0}), x,
      [&](IndexMath &m) {
        auto [ih, rowOk] = m.inputIndex(win, 0, m.loop(5), m.loop(1), xs[1]);
        auto [iw, colOk] = m.inputIndex(win, 1, m.loop(6), m.loop(2), xs[2]);
        return std::pair(SmallVector<Value, 5>{m.loop(4), ih, iw, m.loop(3)},
                         m.both(rowOk, colOk));
      },
      {ws[0], ws[1], ws[2], ws[3], gs[0], gs[1], gs[2]});
  return tagWindow(b, dw, "weight_adjoint", win);
}

Value remat::buildPoolInputAdjoint(OpBuilder &b, Location loc, Value share,
                                   std::optional<MaxPoolOperands> maxOf,
                                   ArrayRef<int64_t> inputShape,
                                   const Window2d &window) {
  // Loops: n, ih, iw, c | kh, kw.
  MLIRContext *context = b.getContext();
  ArrayRef<int64_t> ss = shapeOf(share);
  Type element = elementOf(share);
  Value init = zeros(b, loc, inputShape, element);
  Value taps = tensor::EmptyOp::create(b, loc, window.kernel, element);
  SmallVector<Value> inputs = {taps};
  SmallVector<AffineMap> maps = {loopsMap(context, 6, {4, 5})};
  if (maxOf) {
    inputs.push_back(maxOf->x);
    maps.push_back(loopsMap(context, 6, {0, 1, 2, 3}));
  }
  maps.push_back(loopsMap(context, 6, {0, 1, 2, 3}));
  SmallVector<utils::IteratorType> iterators(4, utils::IteratorType::parallel);
  iterators.append(2, utils::IteratorType::reduction);
  auto adjoint = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, inputs, ValueRange{init}, maps,
      iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        IndexMath m{nb, nloc};
        auto [oh, rowOk] = m.outputIndex(window, 0, m.loop(1), m.loop(4), ss[1]);
        auto [ow, colOk] = m.outputIndex(window, 1, m.loop(2), m.loop(5), ss[2]);
        Value valid = m.both(rowOk, colOk);
        SmallVector<Value, 4> at = {m.loop(0), oh, ow, m.loop(3)};
        Value gv = tensor::ExtractOp::create(nb, nloc, share, at);
        if (maxOf) {
          Value yv = tensor::ExtractOp::create(nb, nloc, maxOf->y, at);
          valid = m.both(valid, arith::CmpFOp::create(nb, nloc,
                                                      arith::CmpFPredicate::OEQ,
                                                      args[1], yv));
        }
        Value acc = args.back();
        Value zero = arith::ConstantOp::create(nb, nloc, nb.getZeroAttr(element));
        Value sum = arith::AddFOp::create(
            nb, nloc, acc, arith::SelectOp::create(nb, nloc, valid, gv, zero));
        linalg::YieldOp::create(nb, nloc, sum);
      });
  setFlops(b, adjoint,
           {inputShape[0], inputShape[1], inputShape[2], inputShape[3],
            window.kernel[0], window.kernel[1]},
           /*perPoint=*/1);
  return adjoint.getResult(0);
}

Value remat::buildGroupedConvolutionInputAdjoint(OpBuilder &b, Location loc,
                                                 Value g, Value w,
                                                 ArrayRef<int64_t> inputShape,
                                                 const Window2d &window) {
  // Loops: n, ih, iw, grp, c | f, kh, kw.
  ArrayRef<int64_t> gs = shapeOf(g), ws = shapeOf(w);
  Window2d win = window;
  win.kernel = {ws[2], ws[3]};
  return gatheringContraction(
      b, loc, zeros(b, loc, inputShape, elementOf(g)), w,
      loopsMap(b.getContext(), 8, {3, 5, 6, 7, 4}), g,
      [&](IndexMath &m) {
        auto [oh, rowOk] = m.outputIndex(win, 0, m.loop(1), m.loop(6), gs[1]);
        auto [ow, colOk] = m.outputIndex(win, 1, m.loop(2), m.loop(7), gs[2]);
        return std::pair(
            SmallVector<Value, 5>{m.loop(0), oh, ow, m.loop(3), m.loop(5)},
            m.both(rowOk, colOk));
      },
      {inputShape[0], inputShape[1], inputShape[2], inputShape[3],
       inputShape[4], ws[1], ws[2], ws[3]});
}

Value remat::buildGroupedConvolutionWeightAdjoint(OpBuilder &b, Location loc,
                                                  Value x, Value g,
                                                  std::array<int64_t, 2> kernel,
                                                  const Window2d &window) {
  // Loops: grp, f, kh, kw, c | n, oh, ow.
  ArrayRef<int64_t> xs = shapeOf(x), gs = shapeOf(g);
  Window2d win = window;
  win.kernel = kernel;
  SmallVector<int64_t> ws = {xs[3], gs[4], kernel[0], kernel[1], xs[4]};
  return gatheringContraction(
      b, loc, zeros(b, loc, ws, elementOf(g)), g,
      loopsMap(b.getContext(), 8, {5, 6, 7, 0, 1}), x,
      [&](IndexMath &m) {
        auto [ih, rowOk] = m.inputIndex(win, 0, m.loop(6), m.loop(2), xs[1]);
        auto [iw, colOk] = m.inputIndex(win, 1, m.loop(7), m.loop(3), xs[2]);
        return std::pair(
            SmallVector<Value, 5>{m.loop(5), ih, iw, m.loop(0), m.loop(4)},
            m.both(rowOk, colOk));
      },
      {ws[0], ws[1], ws[2], ws[3], ws[4], gs[0], gs[1], gs[2]});
}

Value remat::buildDepthwiseInputAdjoint(OpBuilder &b, Location loc, Value g,
                                        const StoredKernel &w,
                                        ArrayRef<int64_t> inputShape,
                                        const Window2d &window) {
  // Loops: n, ih, iw, c | m, kh, kw; g is read at channel c*M+m.
  ArrayRef<int64_t> gs = shapeOf(g);
  Window2d win = window;
  win.kernel = {w.size(0), w.size(1)};
  int64_t multiplier = w.size(3);
  return gatheringContraction(
      b, loc, zeros(b, loc, inputShape, elementOf(g)), w.tensor,
      kernelMap(b.getContext(), 7, w, {5, 6, 3, 4}), g,
      [&](IndexMath &m) {
        auto [oh, rowOk] = m.outputIndex(win, 0, m.loop(1), m.loop(5), gs[1]);
        auto [ow, colOk] = m.outputIndex(win, 1, m.loop(2), m.loop(6), gs[2]);
        Value channel = m.add(m.mul(m.loop(3), multiplier), m.loop(4));
        return std::pair(SmallVector<Value, 5>{m.loop(0), oh, ow, channel},
                         m.both(rowOk, colOk));
      },
      {inputShape[0], inputShape[1], inputShape[2], inputShape[3], multiplier,
       win.kernel[0], win.kernel[1]});
}

Value remat::buildDepthwiseWeightAdjoint(OpBuilder &b, Location loc, Value x,
                                         Value g, std::array<int64_t, 2> kernel,
                                         int64_t multiplier,
                                         const Window2d &window) {
  // Loops: kh, kw, c, m | n, oh, ow; g is read at channel c*M+m (an affine
  // map: linalg infers n, oh, ow from g and c, m from the result).
  MLIRContext *context = b.getContext();
  ArrayRef<int64_t> xs = shapeOf(x), gs = shapeOf(g);
  Window2d win = window;
  win.kernel = kernel;
  SmallVector<int64_t> ws = {kernel[0], kernel[1], xs[3], multiplier};
  AffineExpr channel =
      getAffineDimExpr(2, context) * multiplier + getAffineDimExpr(3, context);
  AffineMap gMap = AffineMap::get(
      7, 0,
      {getAffineDimExpr(4, context), getAffineDimExpr(5, context),
       getAffineDimExpr(6, context), channel},
      context);
  return gatheringContraction(
      b, loc, zeros(b, loc, ws, elementOf(g)), g, gMap, x,
      [&](IndexMath &m) {
        auto [ih, rowOk] = m.inputIndex(win, 0, m.loop(5), m.loop(0), xs[1]);
        auto [iw, colOk] = m.inputIndex(win, 1, m.loop(6), m.loop(1), xs[2]);
        return std::pair(SmallVector<Value, 5>{m.loop(4), ih, iw, m.loop(2)},
                         m.both(rowOk, colOk));
      },
      {ws[0], ws[1], ws[2], ws[3], gs[0], gs[1], gs[2]});
}

std::optional<StringRef> remat::windowKindOf(Operation *op) {
  auto window = op->getAttrOfType<DictionaryAttr>(kWindowAttrName);
  auto kind = window ? window.getAs<StringAttr>("kind") : StringAttr();
  if (!kind)
    return std::nullopt;
  return kind.getValue();
}
