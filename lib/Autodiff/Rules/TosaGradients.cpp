//===- TosaGradients.cpp - Derivatives of TOSA elementwise and data ops ---===//
//
// Broadcasting ops sum the adjoint back to each operand's shape. Rules for
// ops with an i1 result (comparisons) are absent on purpose: nothing flows
// through a condition. Each rule is tested in test/Autodiff/tosa-*.mlir and
// checked against finite differences in test/Autodiff/gradcheck-*.test.
//
//===----------------------------------------------------------------------===//

#include "remat/Autodiff/GradientRules.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace remat;

namespace {

/// The dims a tosa.const_shape operand holds.
FailureOr<SmallVector<int64_t>> constShape(Value v) {
  DenseElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return failure();
  SmallVector<int64_t> out;
  for (APInt x : attr.getValues<APInt>())
    out.push_back(x.getSExtValue());
  return out;
}

using Rule = LogicalResult (*)(GradientRequest &, TosaBuilder &);

/// Adjoint of an operand broadcast into the result.
Value unbroadcast(TosaBuilder &tb, Value grad, Value operand) {
  return tb.sumTo(grad, shapeOf(operand));
}

LogicalResult addRule(GradientRequest &r, TosaBuilder &tb) {
  r.set(0, unbroadcast(tb, r.grad(), r.operand(0)));
  r.set(1, unbroadcast(tb, r.grad(), r.operand(1)));
  return success();
}

LogicalResult subRule(GradientRequest &r, TosaBuilder &tb) {
  r.set(0, unbroadcast(tb, r.grad(), r.operand(0)));
  if (r.needed[1])
    r.set(1, unbroadcast(tb, tb.negate(r.grad()), r.operand(1)));
  return success();
}

LogicalResult mulRule(GradientRequest &r, TosaBuilder &tb) {
  if (r.needed[0])
    r.set(0, unbroadcast(tb, tb.mul(r.grad(), r.operand(1)), r.operand(0)));
  if (r.needed[1])
    r.set(1, unbroadcast(tb, tb.mul(r.grad(), r.operand(0)), r.operand(1)));
  return success();
}

LogicalResult negateRule(GradientRequest &r, TosaBuilder &tb) {
  r.set(0, tb.negate(r.grad()));
  return success();
}

/// y = 1/x: dx = -g y^2.
LogicalResult reciprocalRule(GradientRequest &r, TosaBuilder &tb) {
  Value y = r.result();
  r.set(0, tb.negate(tb.mul(r.grad(), tb.mul(y, y))));
  return success();
}

/// y = x^-1/2: dx = -g y^3 / 2.
LogicalResult rsqrtRule(GradientRequest &r, TosaBuilder &tb) {
  Value y = r.result();
  r.set(0, tb.mul(r.grad(), tb.scale(tb.mul(tb.mul(y, y), y), -0.5)));
  return success();
}

LogicalResult expRule(GradientRequest &r, TosaBuilder &tb) {
  r.set(0, tb.mul(r.grad(), r.result()));
  return success();
}

LogicalResult logRule(GradientRequest &r, TosaBuilder &tb) {
  r.set(0, tb.mul(r.grad(), tb.reciprocal(r.operand(0))));
  return success();
}

/// dx = g (1 - y^2).
LogicalResult tanhRule(GradientRequest &r, TosaBuilder &tb) {
  Value y = r.result();
  r.set(0, tb.mul(r.grad(), tb.sub(tb.scalarLike(y, 1.0), tb.mul(y, y))));
  return success();
}

/// dx = g y (1 - y).
LogicalResult sigmoidRule(GradientRequest &r, TosaBuilder &tb) {
  Value y = r.result();
  r.set(0, tb.mul(r.grad(), tb.mul(y, tb.sub(tb.scalarLike(y, 1.0), y))));
  return success();
}

/// dx = g 2/sqrt(pi) exp(-x^2).
LogicalResult erfRule(GradientRequest &r, TosaBuilder &tb) {
  Value x = r.operand(0);
  Value d = tb.scale(tb.exp(tb.negate(tb.mul(x, x))), 2.0 / std::sqrt(M_PI));
  r.set(0, tb.mul(r.grad(), d));
  return success();
}

/// dx = g sign(x), with sign(0) taken as 1.
LogicalResult absRule(GradientRequest &r, TosaBuilder &tb) {
  Value x = r.operand(0);
  Value g = r.grad();
  r.set(0, tb.select(tb.greaterEqual(x, tb.scalarLike(x, 0.0)), g,
                     tb.negate(g)));
  return success();
}

/// y = a^b: da = g b a^(b-1) (defined at a = 0 for b >= 1, unlike g b y / a);
/// db = g y log(a).
LogicalResult powRule(GradientRequest &r, TosaBuilder &tb) {
  Value a = r.operand(0), b = r.operand(1), g = r.grad();
  if (r.needed[0]) {
    // A constant exponent (x^2 in a variance) gives a constant b - 1: an op
    // on constants alone would be folded away by the lowering, and the
    // memory model would count a buffer nothing allocates.
    std::optional<double> exponent = splatValue(b);
    Value bm1 = exponent ? tb.splat(shapeOf(b), *exponent - 1.0)
                         : tb.sub(b, tb.scalarLike(b, 1.0));
    r.set(0, unbroadcast(tb, tb.mul(g, tb.mul(b, tb.pow(a, bm1))), a));
  }
  if (r.needed[1])
    r.set(1, unbroadcast(tb, tb.mul(g, tb.mul(r.result(), tb.log(a))), b));
  return success();
}

/// The adjoint passes where the input is strictly inside the bounds (so
/// relu'(0) = 0, as in the hand-written examples). The mask is read from the
/// output: for lo < hi, x > lo iff clamp(x) > lo and x < hi iff clamp(x) < hi
/// (and for lo == hi both sides are false), so the backward keeps the result,
/// which the next op usually keeps anyway, instead of the input as well.
LogicalResult clampRule(GradientRequest &r, TosaBuilder &tb) {
  auto clamp = cast<tosa::ClampOp>(r.op);
  Value y = r.result(), g = r.grad();
  auto bound = [](Attribute a) {
    return cast<FloatAttr>(a).getValueAsDouble();
  };
  double lo = bound(clamp.getMinValAttr()), hi = bound(clamp.getMaxValAttr());
  double limit = std::numeric_limits<float>::max();
  Value mask;
  if (lo > -limit)
    mask = tb.greater(y, tb.scalarLike(y, lo));
  if (hi < limit) {
    Value below = tb.greater(tb.scalarLike(y, hi), y);
    mask = mask ? tb.logicalAnd(mask, below) : below;
  }
  r.set(0, mask ? tb.select(mask, g, tb.scalarLike(g, 0.0)) : g);
  return success();
}

/// The adjoint goes to the operand that was selected (the first on ties).
/// Against a splat constant c (relu written as maximum(x, 0)) the mask is
/// read from the output instead, y > c for maximum and y < c for minimum,
/// so the backward keeps the result rather than x; on ties the adjoint then
/// goes to the constant, which needs none (relu'(0) = 0, as clamp).
LogicalResult minMaxRule(GradientRequest &r, TosaBuilder &tb, bool max) {
  Value a = r.operand(0), b = r.operand(1), g = r.grad();
  Value zero = tb.scalarLike(g, 0.0);
  if (std::optional<unsigned> x = operandAgainstSplat(r.op)) {
    Value y = r.result(), bound = r.operand(1 - *x);
    Value passes = max ? tb.greater(y, bound) : tb.greater(bound, y);
    r.set(*x, unbroadcast(tb, tb.select(passes, g, zero), r.operand(*x)));
    return success();
  }
  Value firstWins = max ? tb.greaterEqual(a, b) : tb.greaterEqual(b, a);
  if (r.needed[0])
    r.set(0, unbroadcast(tb, tb.select(firstWins, g, zero), a));
  if (r.needed[1])
    r.set(1, unbroadcast(tb, tb.select(firstWins, zero, g), b));
  return success();
}

LogicalResult selectRule(GradientRequest &r, TosaBuilder &tb) {
  Value c = r.operand(0), g = r.grad();
  Value zero = tb.scalarLike(g, 0.0);
  if (r.needed[1])
    r.set(1, unbroadcast(tb, tb.select(c, g, zero), r.operand(1)));
  if (r.needed[2])
    r.set(2, unbroadcast(tb, tb.select(c, zero, g), r.operand(2)));
  return success();
}

LogicalResult identityRule(GradientRequest &r, TosaBuilder &) {
  r.set(0, r.grad());
  return success();
}

LogicalResult reduceSumRule(GradientRequest &r, TosaBuilder &tb) {
  r.set(0, tb.broadcastTo(r.grad(), shapeOf(r.operand(0))));
  return success();
}

/// Every element equal to the maximum receives the adjoint.
LogicalResult reduceMaxRule(GradientRequest &r, TosaBuilder &tb) {
  Value x = r.operand(0);
  Value isMax = tb.equal(x, r.result());
  Value g = tb.broadcastTo(r.grad(), shapeOf(x));
  r.set(0, tb.select(isMax, g, tb.scalarLike(g, 0.0)));
  return success();
}

LogicalResult reshapeRule(GradientRequest &r, TosaBuilder &tb) {
  r.set(0, tb.reshape(r.grad(), shapeOf(r.operand(0))));
  return success();
}

LogicalResult transposeRule(GradientRequest &r, TosaBuilder &tb) {
  ArrayRef<int32_t> perms = cast<tosa::TransposeOp>(r.op).getPerms();
  SmallVector<int32_t> inverse(perms.size());
  for (auto [i, p] : llvm::enumerate(perms))
    inverse[p] = i;
  r.set(0, tb.transpose(r.grad(), inverse));
  return success();
}

LogicalResult sliceRule(GradientRequest &r, TosaBuilder &tb) {
  FailureOr<SmallVector<int64_t>> start = constShape(r.operand(1));
  if (failed(start))
    return r.op->emitError("cannot differentiate a slice with a non-constant start");
  ArrayRef<int64_t> in = shapeOf(r.operand(0)), out = shapeOf(r.result());
  SmallVector<int64_t> hi;
  for (auto [d, s, n] : llvm::zip(in, *start, out))
    hi.push_back(d - s - n);
  r.set(0, tb.pad(r.grad(), *start, hi));
  return success();
}

LogicalResult padRule(GradientRequest &r, TosaBuilder &tb) {
  FailureOr<SmallVector<int64_t>> padding = constShape(r.operand(1));
  if (failed(padding))
    return r.op->emitError("cannot differentiate a pad with non-constant padding");
  SmallVector<int64_t> start;
  for (size_t i = 0; i < padding->size(); i += 2)
    start.push_back((*padding)[i]);
  r.set(0, tb.slice(r.grad(), start, shapeOf(r.operand(0))));
  return success();
}

LogicalResult concatRule(GradientRequest &r, TosaBuilder &tb) {
  int32_t axis = cast<tosa::ConcatOp>(r.op).getAxis();
  SmallVector<int64_t> start(shapeOf(r.result()).size(), 0);
  for (unsigned i = 0, e = r.op->getNumOperands(); i < e; ++i) {
    ArrayRef<int64_t> size = shapeOf(r.operand(i));
    if (r.needed[i])
      r.set(i, tb.slice(r.grad(), start, size));
    start[axis] += size[axis];
  }
  return success();
}

LogicalResult reverseRule(GradientRequest &r, TosaBuilder &tb) {
  r.set(0, tb.reverse(r.grad(), cast<tosa::ReverseOp>(r.op).getAxis()));
  return success();
}

/// Sums the copies: each tiled dim d*m is split into (m, d) and the m axis
/// reduced.
LogicalResult tileRule(GradientRequest &r, TosaBuilder &tb) {
  ArrayRef<int64_t> in = shapeOf(r.operand(0));
  FailureOr<SmallVector<int64_t>> multiples = constShape(r.operand(1));
  if (failed(multiples))
    return r.op->emitError("cannot differentiate a tile with non-constant multiples");
  Value g = r.grad();
  for (int64_t d = 0, e = in.size(); d < e; ++d) {
    int64_t m = (*multiples)[d];
    if (m == 1)
      continue;
    SmallVector<int64_t> split(shapeOf(g));
    split[d] = in[d];
    split.insert(split.begin() + d, m);
    g = tb.reshape(tb.reduceSum(tb.reshape(g, split), d),
                   [&] {
                     SmallVector<int64_t> s(shapeOf(g));
                     s[d] = in[d];
                     return s;
                   }());
  }
  r.set(0, g);
  return success();
}

/// Elements a transpose of the last two dims of `v` copies: none when `v`
/// is itself such a transpose (the builder reads its input instead).
int64_t swapCopyElements(Value v) {
  if (auto t = v.getDefiningOp<tosa::TransposeOp>())
    if (t.getPerms() == ArrayRef<int32_t>{0, 2, 1})
      return 0;
  return numElements(shapeOf(v));
}

/// (B,M,K) x (B,K,N): dA = G B^T = (B G^T)^T and dB = A^T G = (G^T A)^T.
/// Each adjoint takes the form that copies fewer elements: a large weight
/// is read in the layout it is held in, and its adjoint comes out in that
/// layout, when transposing the adjoint and the (small) result is cheaper.
LogicalResult matmulRule(GradientRequest &r, TosaBuilder &tb) {
  Value a = r.operand(0), b = r.operand(1), g = r.grad();
  const SmallVector<int32_t> swap = {0, 2, 1};
  int64_t viaG = swapCopyElements(g);
  Value gt;
  auto swappedG = [&] {
    if (!gt)
      gt = tb.transpose(g, swap);
    return gt;
  };
  if (r.needed[0]) {
    if (swapCopyElements(b) <= viaG + numElements(shapeOf(a)))
      r.set(0, tb.matmul(g, tb.transpose(b, swap)));
    else
      r.set(0, tb.transpose(tb.matmul(b, swappedG()), swap));
  }
  if (r.needed[1]) {
    if (swapCopyElements(a) <= viaG + numElements(shapeOf(b)))
      r.set(1, tb.matmul(tb.transpose(a, swap), g));
    else
      r.set(1, tb.transpose(tb.matmul(swappedG(), a), swap));
  }
  return success();
}

GradientRule wrap(Rule rule) {
  return [rule](GradientRequest &r) { return rule(r, r.tosa); };
}

} // namespace

REMAT_GRADIENT_RULES_FILE(addTosaGradients) {
  rules.add(tosa::AddOp::getOperationName(), wrap(addRule));
  rules.add(tosa::SubOp::getOperationName(), wrap(subRule));
  rules.add(tosa::MulOp::getOperationName(), wrap(mulRule));
  rules.add(tosa::NegateOp::getOperationName(), wrap(negateRule));
  rules.add(tosa::ReciprocalOp::getOperationName(), wrap(reciprocalRule));
  rules.add(tosa::RsqrtOp::getOperationName(), wrap(rsqrtRule));
  rules.add(tosa::ExpOp::getOperationName(), wrap(expRule));
  rules.add(tosa::LogOp::getOperationName(), wrap(logRule));
  rules.add(tosa::TanhOp::getOperationName(), wrap(tanhRule));
  rules.add(tosa::SigmoidOp::getOperationName(), wrap(sigmoidRule));
  rules.add(tosa::ErfOp::getOperationName(), wrap(erfRule));
  rules.add(tosa::AbsOp::getOperationName(), wrap(absRule));
  rules.add(tosa::PowOp::getOperationName(), wrap(powRule));
  rules.add(tosa::ClampOp::getOperationName(), wrap(clampRule));
  rules.add(tosa::MaximumOp::getOperationName(), [](GradientRequest &r) {
    return minMaxRule(r, r.tosa, true);
  });
  rules.add(tosa::MinimumOp::getOperationName(), [](GradientRequest &r) {
    return minMaxRule(r, r.tosa, false);
  });
  rules.add(tosa::SelectOp::getOperationName(), wrap(selectRule));
  rules.add(tosa::IdentityOp::getOperationName(), wrap(identityRule));
  rules.add(tosa::ReduceSumOp::getOperationName(), wrap(reduceSumRule));
  rules.add(tosa::ReduceMaxOp::getOperationName(), wrap(reduceMaxRule));
  rules.add(tosa::ReshapeOp::getOperationName(), wrap(reshapeRule));
  rules.add(tosa::TransposeOp::getOperationName(), wrap(transposeRule));
  rules.add(tosa::SliceOp::getOperationName(), wrap(sliceRule));
  rules.add(tosa::PadOp::getOperationName(), wrap(padRule));
  rules.add(tosa::ConcatOp::getOperationName(), wrap(concatRule));
  rules.add(tosa::ReverseOp::getOperationName(), wrap(reverseRule));
  rules.add(tosa::TileOp::getOperationName(), wrap(tileRule));
  rules.add(tosa::MatMulOp::getOperationName(), wrap(matmulRule));
}
