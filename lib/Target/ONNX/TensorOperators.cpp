//===- TensorOperators.cpp - Shapes and constants -------------------------===//
//
// The operators that move, reshape or create tensors, and those that read
// shapes, folded at import (shapes are static).
//
//===----------------------------------------------------------------------===//

#include "Operators.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace remat;
using namespace remat::onnx_import;

using onnx::NodeProto;

namespace {

//===----------------------------------------------------------------------===//
// Shapes: Concat, Flatten, Reshape, Transpose, Squeeze, Unsqueeze
//===----------------------------------------------------------------------===//

/// Concat of compile-time 1-D integer tensors: a shape being assembled.
LogicalResult concatInts(Importer &im, const NodeProto &node) {
  SmallVector<int64_t> values;
  for (const std::string &name : node.input()) {
    const IntConstant *c = im.intConstant(name);
    if (c->dims.size() != 1)
      return im.error() << "only 1-D integer tensors are concatenated at "
                           "import";
    values.append(c->values.begin(), c->values.end());
  }
  im.defineInts(node.output(0), values);
  return success();
}

LogicalResult importConcat(Importer &im, const NodeProto &node) {
  if (llvm::all_of(node.input(),
                   [&](const std::string &n) { return im.intConstant(n); }))
    return concatInts(im, node);
  TosaBuilder &tb = im.tosa();
  SmallVector<Entry> entries;
  bool allNhwc = true;
  for (const std::string &name : node.input()) {
    FailureOr<Entry> e = im.lookup(name);
    if (failed(e))
      return failure();
    entries.push_back(*e);
    allNhwc &= e->nhwc;
  }
  int64_t rank = im.logicalShape(entries.front()).size();
  int64_t axis = normalizeAxis(intAttr(node, "axis", 1), rank);
  SmallVector<Value> values;
  for (const Entry &e : entries)
    values.push_back(allNhwc ? e.value : im.toLogical(e));
  for (Value v : values)
    for (int64_t d = 0; d < rank; ++d) {
      int64_t pd = allNhwc ? nhwcAxis(axis) : axis;
      if (d != pd && shapeOf(v)[d] != shapeOf(values.front())[d])
        return im.error() << "inputs differ outside the concatenation axis";
    }
  im.define(node.output(0),
            tb.concat(values, allNhwc ? nhwcAxis(axis) : axis), allNhwc);
  return success();
}

/// Pad in constant mode (opset 11+: pads and the value as inputs; earlier:
/// attributes), kept in NHWC when the input is; negative pads crop.
LogicalResult importPad(Importer &im, const NodeProto &node) {
  TosaBuilder &tb = im.tosa();
  FailureOr<Entry> e = im.lookup(node.input(0));
  if (failed(e))
    return failure();
  std::string mode = stringAttr(node, "mode", "constant");
  if (mode != "constant")
    return im.error() << "only constant padding is supported, not '" << mode
                      << "'";
  std::optional<SmallVector<int64_t>> pads;
  double value = 0.0;
  if (im.opset() < 11) {
    pads = intsAttr(node, "pads");
    value = floatAttr(node, "value", 0.0f);
  } else {
    if (Importer::hasInput(node, 1))
      pads = im.constantInts(node.input(1));
    if (Importer::hasInput(node, 2)) {
      std::optional<double> v = im.constantFloat(node.input(2));
      if (!v)
        return im.error() << "the padding value must be a compile-time constant";
      value = *v;
    }
    if (Importer::hasInput(node, 3))
      return im.error() << "Pad with axes is not supported";
  }
  int64_t rank = im.logicalShape(*e).size();
  if (!pads || static_cast<int64_t>(pads->size()) != 2 * rank)
    return im.error() << "pads must be " << 2 * rank
                      << " compile-time constants";
  Value x = e->value;
  SmallVector<int64_t> lo(rank), hi(rank), cropLo(rank), cropHi(rank);
  for (int64_t d = 0; d < rank; ++d) {
    int64_t pd = e->nhwc ? nhwcAxis(d) : d;
    int64_t before = (*pads)[d], after = (*pads)[rank + d];
    if (before < -shapeOf(x)[pd] || after < -shapeOf(x)[pd])
      return im.error() << "negative pads crop more than axis " << d << " holds";
    lo[pd] = std::max<int64_t>(before, 0);
    hi[pd] = std::max<int64_t>(after, 0);
    cropLo[pd] = std::max<int64_t>(-before, 0);
    cropHi[pd] = std::max<int64_t>(-after, 0);
    if (cropLo[pd] >= shapeOf(x)[pd] - cropHi[pd])
      return im.error() << "negative pads crop all of axis " << d
                        << ": empty tensors are not supported";
  }
  int64_t elements = 1, size;
  for (int64_t d = 0; d < rank; ++d)
    if (llvm::AddOverflow(shapeOf(x)[d] - cropLo[d] - cropHi[d], lo[d], size) ||
        llvm::AddOverflow(size, hi[d], size) ||
        llvm::MulOverflow(elements, size, elements))
      return im.error() << "the padded tensor has more than 2^63 elements";
  if (llvm::any_of(cropLo, [](int64_t c) { return c != 0; }) ||
      llvm::any_of(cropHi, [](int64_t c) { return c != 0; })) {
    SmallVector<int64_t> size(shapeOf(x));
    for (int64_t d = 0; d < rank; ++d)
      size[d] -= cropLo[d] + cropHi[d];
    x = tb.slice(x, cropLo, size);
  }
  if (llvm::any_of(lo, [](int64_t p) { return p != 0; }) ||
      llvm::any_of(hi, [](int64_t p) { return p != 0; }))
    x = tb.pad(x, lo, hi, value);
  im.define(node.output(0), x, e->nhwc);
  return success();
}

/// The input of an op that only reshapes: float data, or a compile-time
/// integer tensor (shape arithmetic), whose values it keeps.
struct ReshapeInput {
  Value data;
  std::optional<IntConstant> ints;
  SmallVector<int64_t> shape;
};

FailureOr<ReshapeInput> reshapeInput(Importer &im, StringRef name) {
  if (const IntConstant *c = im.intConstant(name))
    return ReshapeInput{Value(), *c, c->dims};
  FailureOr<Value> x = im.logical(name);
  if (failed(x))
    return failure();
  return ReshapeInput{*x, std::nullopt, SmallVector<int64_t>(shapeOf(*x))};
}

void defineReshaped(Importer &im, StringRef out, const ReshapeInput &in,
                    ArrayRef<int64_t> shape) {
  if (in.ints)
    im.defineInts(out, in.ints->values, shape);
  else
    im.define(out, im.tosa().reshape(in.data, shape));
}

LogicalResult importFlatten(Importer &im, const NodeProto &node) {
  FailureOr<ReshapeInput> x = reshapeInput(im, node.input(0));
  if (failed(x))
    return failure();
  ArrayRef<int64_t> s = x->shape;
  // The axis may also be the rank: everything goes to the outer dim.
  int64_t axis = normalizeAxis(intAttr(node, "axis", 1), s.size());
  if (failed(checkAxes(im, axis, s.size() + 1)))
    return failure();
  int64_t outer = numElements(s.take_front(axis));
  defineReshaped(im, node.output(0), *x, {outer, numElements(s) / outer});
  return success();
}

LogicalResult importReshape(Importer &im, const NodeProto &node) {
  FailureOr<ReshapeInput> x = reshapeInput(im, node.input(0));
  if (failed(x))
    return failure();
  std::optional<SmallVector<int64_t>> target;
  if (im.opset() < 5 || !Importer::hasInput(node, 1))
    target = intsAttr(node, "shape");
  else
    target = im.constantInts(node.input(1));
  if (!target)
    return im.error() << "the target shape must be a compile-time constant";
  ArrayRef<int64_t> in = x->shape;
  int64_t n = numElements(in);
  SmallVector<int64_t> shape;
  int64_t inferred = -1, known = 1;
  for (auto [i, d] : llvm::enumerate(*target)) {
    int64_t v = d;
    if (v == 0 && !intAttr(node, "allowzero", 0))
      v = i < in.size() ? in[i] : 0;
    if (v == -1)
      inferred = i;
    else if (llvm::MulOverflow(known, v, known))
      return im.error() << "the target shape has more than 2^63 elements";
    shape.push_back(v);
  }
  // A model made for another batch size names its batch in the target.
  int64_t batch = im.options().batch;
  if (batch > 0 && !shape.empty() && shape[0] == im.declaredBatch() &&
      batch != im.declaredBatch() && inferred != 0 && !in.empty() &&
      in[0] == batch) {
    if (llvm::MulOverflow(known / shape[0], batch, known))
      return im.error() << "the target shape has more than 2^63 elements";
    shape[0] = batch;
  }
  if (inferred >= 0 && known > 0 && n % known == 0) {
    shape[inferred] = n / known;
    known = n;
  }
  if (known != n && im.options().adapt && shape.size() == 2 && shape[0] > 0 &&
      n % shape[0] == 0) {
    shape[1] = n / shape[0];
    known = n;
  }
  if (known != n)
    return im.error() << "cannot reshape " << n << " elements to the target"
                      << (im.options().adapt ? ""
                                             : " (--onnx-adapt keeps the "
                                               "batch and flattens the rest)");
  defineReshaped(im, node.output(0), *x, shape);
  return success();
}

LogicalResult importTranspose(Importer &im, const NodeProto &node) {
  FailureOr<Value> x = im.logical(node.input(0));
  if (failed(x))
    return failure();
  int64_t rank = shapeOf(*x).size();
  SmallVector<int64_t> perm = intsAttr(node, "perm");
  if (perm.empty())
    for (int64_t i = rank - 1; i >= 0; --i)
      perm.push_back(i);
  SmallVector<int32_t> perms(perm.begin(), perm.end());
  im.define(node.output(0), im.tosa().transpose(*x, perms));
  return success();
}

OpImporter squeeze(bool unsqueeze) {
  return [unsqueeze](Importer &im, const NodeProto &node) -> LogicalResult {
    FailureOr<ReshapeInput> x = reshapeInput(im, node.input(0));
    if (failed(x))
      return failure();
    SmallVector<int64_t> in(x->shape), shape;
    int64_t outRank = in.size();
    if (unsqueeze) {
      // Negative axes count from the end of the output: normalized below.
      FailureOr<SmallVector<int64_t>> axes = axesOf(im, node, 13, 0);
      if (failed(axes))
        return failure();
      outRank += axes->size();
      SmallVector<int64_t> normalized;
      for (int64_t a : *axes)
        normalized.push_back(a < 0 ? a + outRank : a);
      if (failed(checkAxes(im, normalized, outRank)))
        return failure();
      llvm::sort(normalized);
      auto it = in.begin();
      for (int64_t d = 0; d < outRank; ++d)
        shape.push_back(llvm::is_contained(normalized, d) ? 1 : *it++);
    } else {
      FailureOr<SmallVector<int64_t>> axes = axesOf(im, node, 13, in.size());
      if (failed(axes) || failed(checkAxes(im, *axes, in.size())))
        return failure();
      for (int64_t a : *axes)
        if (in[a] != 1)
          return im.error() << "cannot squeeze axis " << a << " of size "
                            << in[a];
      for (auto [d, s] : llvm::enumerate(in))
        if (axes->empty() ? s != 1 : !llvm::is_contained(*axes, (int64_t)d))
          shape.push_back(s);
    }
    defineReshaped(im, node.output(0), *x, shape);
    return success();
  };
}

//===----------------------------------------------------------------------===//
// Constants and shapes
//===----------------------------------------------------------------------===//

LogicalResult importConstant(Importer &im, const NodeProto &node) {
  TosaBuilder &tb = im.tosa();
  const std::string &out = node.output(0);
  if (const onnx::AttributeProto *a = findAttr(node, "value_float")) {
    im.defineFloat(out, a->f());
    im.define(out, tb.splat({}, a->f()));
    return success();
  }
  if (const onnx::AttributeProto *a = findAttr(node, "value_int")) {
    im.defineInts(out, {a->i()}, ArrayRef<int64_t>{});
    return success();
  }
  if (const onnx::AttributeProto *a = findAttr(node, "value_ints")) {
    im.defineInts(out, SmallVector<int64_t>(a->ints().begin(), a->ints().end()));
    return success();
  }
  const onnx::AttributeProto *a = findAttr(node, "value");
  if (!a || !a->has_t())
    return im.error() << "only tensor, value_float, value_int and value_ints "
                         "constants are supported";
  const onnx::TensorProto &t = a->t();
  SmallVector<int64_t> dims(t.dims().begin(), t.dims().end());
  if (FailureOr<SmallVector<int64_t>> v = decodeInts(t); succeeded(v)) {
    if (static_cast<int64_t>(v->size()) != numElements(dims))
      return im.error() << "constant '" << out << "' holds " << v->size()
                        << " values, but its dims call for "
                        << numElements(dims);
    im.defineInts(out, *v, ArrayRef<int64_t>(dims));
    return success();
  }
  FailureOr<SmallVector<float>> v = decodeFloats(t);
  if (failed(v))
    return im.error() << "only float and int64 constants are supported";
  if (failed(im.checkShape("constant '" + out + "'", dims)))
    return failure();
  if (static_cast<int64_t>(v->size()) != numElements(dims))
    return im.error() << "constant '" << out << "' holds " << v->size()
                      << " values, but its dims call for "
                      << numElements(dims);
  if (v->size() == 1)
    im.defineFloat(out, (*v)[0]);
  im.define(out, tb.constant(DenseElementsAttr::get(
                     tb.type(dims), ArrayRef<float>(*v))));
  return success();
}

LogicalResult importConstantOfShape(Importer &im, const NodeProto &node) {
  std::optional<SmallVector<int64_t>> shape = im.constantInts(node.input(0));
  if (!shape)
    return im.error() << "the shape must be a compile-time constant";
  if (failed(im.checkShape("output '" + node.output(0) + "'", *shape)))
    return failure();
  const onnx::AttributeProto *a = findAttr(node, "value");
  if (a && a->has_t() && a->t().data_type() != onnx::TensorProto::FLOAT) {
    // Integer tensors are shapes and axes, read at compile time.
    constexpr int64_t kMaxInts = 1 << 16;
    FailureOr<SmallVector<int64_t>> v = decodeInts(a->t());
    if (failed(v) || v->size() != 1)
      return im.error() << "only float and int64 values are supported";
    if (numElements(*shape) > kMaxInts)
      return im.error() << "integer tensors of more than " << kMaxInts
                        << " values are not supported";
    im.defineInts(node.output(0),
                  SmallVector<int64_t>(numElements(*shape), (*v)[0]),
                  ArrayRef<int64_t>(*shape));
    return success();
  }
  // A float tensor of a fixed shape: the weights of the light models. It
  // becomes a parameter, like an initializer.
  im.addPendingParameter(node.output(0), *shape);
  return success();
}

LogicalResult importShape(Importer &im, const NodeProto &node) {
  SmallVector<int64_t> shape;
  if (const IntConstant *c = im.intConstant(node.input(0))) {
    shape = c->dims;
  } else {
    FailureOr<Entry> x = im.lookup(node.input(0));
    if (failed(x))
      return failure();
    shape = im.logicalShape(*x);
  }
  // ONNX counts negative bounds from the end and clamps both to [0, rank].
  int64_t rank = shape.size();
  auto bound = [rank](int64_t b) {
    return std::clamp<int64_t>(b < 0 ? b + rank : b, 0, rank);
  };
  int64_t start = bound(intAttr(node, "start", 0));
  int64_t end = std::max(start, bound(intAttr(node, "end", rank)));
  im.defineInts(node.output(0),
                ArrayRef<int64_t>(shape).slice(start, end - start));
  return success();
}

} // namespace

void onnx_import::addTensorOperators(llvm::StringMap<OpImporter> &t) {
  t["Identity"] = identity();
  t["Concat"] = importConcat;
  t["Flatten"] = importFlatten;
  t["Reshape"] = importReshape;
  t["Transpose"] = importTranspose;
  t["Pad"] = importPad;
  t["Squeeze"] = squeeze(false);
  t["Unsqueeze"] = squeeze(true);
  t["Constant"] = importConstant;
  t["ConstantOfShape"] = importConstantOfShape;
  t["Shape"] = importShape;
}
