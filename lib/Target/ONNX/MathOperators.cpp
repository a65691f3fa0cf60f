//===- MathOperators.cpp - Elementwise math and reductions ----------------===//
//
// The elementwise operators (numpy broadcasting, kept in NHWC where an
// operand is), the activations, and the reductions.
//
//===----------------------------------------------------------------------===//

#include "Operators.h"

#include <cmath>

using namespace mlir;
using namespace remat;
using namespace remat::onnx_import;

using onnx::NodeProto;

namespace {

/// Operands of an elementwise operator, with numpy broadcasting brought to
/// TOSA's (equal ranks) and a common layout: NHWC when the result is 4-D
/// and an operand already is NHWC.
FailureOr<std::pair<SmallVector<Value>, bool>>
elementwiseOperands(Importer &im, const NodeProto &node) {
  SmallVector<Entry> entries;
  size_t rank = 0;
  bool anyNhwc = false;
  for (const std::string &name : node.input()) {
    FailureOr<Entry> e = im.lookup(name);
    if (failed(e))
      return failure();
    entries.push_back(*e);
    rank = std::max(rank, shapeOf(e->value).size());
    anyNhwc |= e->nhwc;
  }
  bool useNhwc = anyNhwc && rank == 4;
  TosaBuilder &tb = im.tosa();
  SmallVector<Value> values;
  SmallVector<int64_t> shape;
  for (const Entry &e : entries) {
    Value v;
    if (useNhwc && e.nhwc)
      v = e.value;
    else if (useNhwc)
      v = tb.transpose(tb.expandRank(e.value, 4), {0, 2, 3, 1});
    else
      v = tb.expandRank(im.toLogical(e), rank);
    if (shape.empty())
      shape.assign(shapeOf(v).begin(), shapeOf(v).end());
    for (auto [s, d] : llvm::zip(shape, shapeOf(v))) {
      if (s != d && s != 1 && d != 1)
        return im.error() << "operand shapes do not broadcast";
      s = std::max(s, d);
    }
    values.push_back(v);
  }
  return std::make_pair(values, useNhwc);
}

using BinaryFn = Value (TosaBuilder::*)(Value, Value);
using IntFn = int64_t (*)(int64_t, int64_t);

/// Shape arithmetic on compile-time integers is folded with `intFn`.
OpImporter variadic(BinaryFn fn, IntFn intFn = nullptr) {
  return [fn, intFn](Importer &im, const NodeProto &node) -> LogicalResult {
    if (intFn && im.intConstant(node.input(0))) {
      bool divides = fn == &TosaBuilder::div;
      for (const std::string &name : llvm::drop_begin(node.input()))
        if (const IntConstant *c = im.intConstant(name);
            divides && c && llvm::is_contained(c->values, 0))
          return im.error() << "integer division by zero";
      std::optional<IntConstant> folded =
          foldInts(im, node, [intFn](ArrayRef<int64_t> args) {
            int64_t acc = args.front();
            for (int64_t v : args.drop_front())
              acc = intFn(acc, v);
            return acc;
          });
      if (folded) {
        im.defineInts(node.output(0), folded->values,
                      ArrayRef<int64_t>(folded->dims));
        return success();
      }
    }
    auto ops = elementwiseOperands(im, node);
    if (failed(ops))
      return failure();
    TosaBuilder &tb = im.tosa();
    Value acc = ops->first.front();
    for (Value v : ArrayRef<Value>(ops->first).drop_front())
      acc = (tb.*fn)(acc, v);
    im.define(node.output(0), acc, ops->second);
    return success();
  };
}

using UnaryFn = std::function<Value(TosaBuilder &, Value, const NodeProto &)>;

OpImporter unary(UnaryFn fn) {
  return [fn](Importer &im, const NodeProto &node) -> LogicalResult {
    FailureOr<Entry> x = im.lookup(node.input(0));
    if (failed(x))
      return failure();
    im.define(node.output(0), fn(im.tosa(), x->value, node), x->nhwc);
    return success();
  };
}

Value gelu(TosaBuilder &tb, Value x, const NodeProto &node) {
  Value half = tb.scale(x, 0.5);
  Value one = tb.scalarLike(x, 1.0);
  if (stringAttr(node, "approximate", "none") == "tanh") {
    Value cube = tb.mul(tb.mul(x, x), x);
    Value inner = tb.scale(tb.add(x, tb.scale(cube, 0.044715)),
                           std::sqrt(2.0 / M_PI));
    return tb.mul(half, tb.add(one, tb.tanh(inner)));
  }
  return tb.mul(half, tb.add(one, tb.erf(tb.scale(x, M_SQRT1_2))));
}

//===----------------------------------------------------------------------===//
// Reductions, Clip
//===----------------------------------------------------------------------===//

OpImporter reduce(bool mean, int64_t axesInputSince) {
  return [=](Importer &im, const NodeProto &node) -> LogicalResult {
    TosaBuilder &tb = im.tosa();
    FailureOr<Value> x = im.logical(node.input(0));
    if (failed(x))
      return failure();
    SmallVector<int64_t> in(shapeOf(*x));
    FailureOr<SmallVector<int64_t>> axes =
        axesOf(im, node, axesInputSince, in.size());
    if (failed(axes) || failed(checkAxes(im, *axes, in.size())))
      return failure();
    if (axes->empty()) {
      if (intAttr(node, "noop_with_empty_axes", 0)) {
        im.define(node.output(0), *x);
        return success();
      }
      for (int64_t d = 0, e = in.size(); d < e; ++d)
        axes->push_back(d);
    }
    Value y = *x;
    int64_t count = 1;
    for (int64_t a : *axes) {
      y = tb.reduceSum(y, a);
      count *= in[a];
    }
    if (mean)
      y = tb.scale(y, 1.0 / static_cast<double>(count));
    if (!intAttr(node, "keepdims", 1)) {
      SmallVector<int64_t> shape;
      for (auto [d, s] : llvm::enumerate(in))
        if (!llvm::is_contained(*axes, (int64_t)d))
          shape.push_back(s);
      y = tb.reshape(y, shape);
    }
    im.define(node.output(0), y);
    return success();
  };
}

LogicalResult importClip(Importer &im, const NodeProto &node) {
  FailureOr<Entry> x = im.lookup(node.input(0));
  if (failed(x))
    return failure();
  double lo = -kFloatMax, hi = kFloatMax;
  if (im.opset() < 11) {
    lo = floatAttr(node, "min", -kFloatMax);
    hi = floatAttr(node, "max", kFloatMax);
  } else {
    for (int i : {1, 2}) {
      if (!Importer::hasInput(node, i))
        continue;
      std::optional<double> v = im.constantFloat(node.input(i));
      if (!v)
        return im.error() << "the bounds must be compile-time constants";
      (i == 1 ? lo : hi) = *v;
    }
  }
  im.define(node.output(0), im.tosa().clamp(x->value, lo, hi), x->nhwc);
  return success();
}

} // namespace

void onnx_import::addMathOperators(llvm::StringMap<OpImporter> &t) {
  // Integer arithmetic wraps like the int64 it stands for; Div truncates.
  t["Add"] = variadic(&TosaBuilder::add, [](int64_t a, int64_t b) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) + b);
  });
  t["Sum"] = t["Add"];
  t["Sub"] = variadic(&TosaBuilder::sub, [](int64_t a, int64_t b) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) - b);
  });
  t["Mul"] = variadic(&TosaBuilder::mul, [](int64_t a, int64_t b) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) * b);
  });
  t["Div"] = variadic(&TosaBuilder::div, [](int64_t a, int64_t b) {
    return a == std::numeric_limits<int64_t>::min() && b == -1 ? a : a / b;
  });
  t["Max"] = variadic(&TosaBuilder::maximum);
  t["Min"] = variadic(&TosaBuilder::minimum);
  t["Pow"] = variadic(&TosaBuilder::pow);
  t["Relu"] = unary([](TosaBuilder &tb, Value x, const NodeProto &) {
    return tb.clamp(x, 0.0f, kFloatMax);
  });
  t["LeakyRelu"] = unary([](TosaBuilder &tb, Value x, const NodeProto &n) {
    return tb.select(tb.greater(x, tb.scalarLike(x, 0.0)), x,
                     tb.scale(x, floatAttr(n, "alpha", 0.01f)));
  });
  t["Sigmoid"] = unary([](TosaBuilder &tb, Value x, const NodeProto &) {
    return tb.sigmoid(x);
  });
  t["Tanh"] = unary([](TosaBuilder &tb, Value x, const NodeProto &) {
    return tb.tanh(x);
  });
  t["Erf"] = unary([](TosaBuilder &tb, Value x, const NodeProto &) {
    return tb.erf(x);
  });
  t["Exp"] = unary([](TosaBuilder &tb, Value x, const NodeProto &) {
    return tb.exp(x);
  });
  t["Log"] = unary([](TosaBuilder &tb, Value x, const NodeProto &) {
    return tb.log(x);
  });
  t["Neg"] = unary([](TosaBuilder &tb, Value x, const NodeProto &) {
    return tb.negate(x);
  });
  t["Abs"] = unary([](TosaBuilder &tb, Value x, const NodeProto &) {
    return tb.abs(x);
  });
  t["Reciprocal"] = unary([](TosaBuilder &tb, Value x, const NodeProto &) {
    return tb.reciprocal(x);
  });
  t["Sqrt"] = unary([](TosaBuilder &tb, Value x, const NodeProto &) {
    return tb.pow(x, tb.scalarLike(x, 0.5));
  });
  t["Gelu"] = unary(gelu);
  t["ReduceSum"] = reduce(false, 13);
  t["ReduceMean"] = reduce(true, 18);
  t["Clip"] = importClip;
}
