//===- Importer.cpp - ONNX graphs to a func.func of TOSA ------------------===//

#include "Importer.h"
#include "Operators.h"

#include "AttributeRules.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>

using namespace mlir;
using namespace remat;
using namespace remat::onnx_import;

namespace {
/// The ai.onnx opsets whose operator semantics the importer implements.
constexpr int64_t kMinOpset = 7;
constexpr int64_t kMaxOpset = 21;

std::string sanitize(StringRef name) {
  std::string out;
  for (char c : name)
    out.push_back(isalnum(static_cast<unsigned char>(c)) ? c : '_');
  if (out.empty() || isdigit(static_cast<unsigned char>(out[0])))
    out.insert(0, "onnx_");
  return out;
}
} // namespace

//===----------------------------------------------------------------------===//
// Attributes and tensors
//===----------------------------------------------------------------------===//

const onnx::AttributeProto *onnx_import::findAttr(const onnx::NodeProto &node,
                                                  StringRef name) {
  for (const onnx::AttributeProto &a : node.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

int64_t onnx_import::intAttr(const onnx::NodeProto &node, StringRef name,
                             int64_t fallback) {
  const onnx::AttributeProto *a = findAttr(node, name);
  return a ? a->i() : fallback;
}

float onnx_import::floatAttr(const onnx::NodeProto &node, StringRef name,
                             float fallback) {
  const onnx::AttributeProto *a = findAttr(node, name);
  return a ? a->f() : fallback;
}

std::string onnx_import::stringAttr(const onnx::NodeProto &node,
                                    StringRef name, StringRef fallback) {
  const onnx::AttributeProto *a = findAttr(node, name);
  return a ? a->s() : fallback.str();
}

SmallVector<int64_t> onnx_import::intsAttr(const onnx::NodeProto &node,
                                           StringRef name) {
  const onnx::AttributeProto *a = findAttr(node, name);
  if (!a)
    return {};
  return SmallVector<int64_t>(a->ints().begin(), a->ints().end());
}

FailureOr<SmallVector<int64_t>>
onnx_import::decodeInts(const onnx::TensorProto &tensor) {
  SmallVector<int64_t> out;
  if (tensor.has_data_location() &&
      tensor.data_location() == onnx::TensorProto::EXTERNAL)
    return failure();
  if (tensor.data_type() == onnx::TensorProto::INT64) {
    if (!tensor.raw_data().empty()) {
      const std::string &raw = tensor.raw_data();
      if (raw.size() % 8)
        return failure();
      out.resize(raw.size() / 8);
      std::memcpy(out.data(), raw.data(), raw.size());
    } else {
      out.assign(tensor.int64_data().begin(), tensor.int64_data().end());
    }
    return out;
  }
  if (tensor.data_type() == onnx::TensorProto::INT32) {
    if (!tensor.raw_data().empty()) {
      const std::string &raw = tensor.raw_data();
      if (raw.size() % 4)
        return failure();
      SmallVector<int32_t> v(raw.size() / 4);
      std::memcpy(v.data(), raw.data(), raw.size());
      out.assign(v.begin(), v.end());
    } else {
      out.assign(tensor.int32_data().begin(), tensor.int32_data().end());
    }
    return out;
  }
  if (tensor.data_type() == onnx::TensorProto::BOOL) {
    // Booleans are one byte each in raw_data, int32 values otherwise.
    if (!tensor.raw_data().empty())
      for (char c : tensor.raw_data())
        out.push_back(c != 0);
    else
      for (int32_t v : tensor.int32_data())
        out.push_back(v != 0);
    return out;
  }
  return failure();
}

FailureOr<SmallVector<float>>
onnx_import::decodeFloats(const onnx::TensorProto &tensor) {
  if (tensor.data_type() != onnx::TensorProto::FLOAT ||
      (tensor.has_data_location() &&
       tensor.data_location() == onnx::TensorProto::EXTERNAL))
    return failure();
  SmallVector<float> out;
  if (!tensor.raw_data().empty()) {
    const std::string &raw = tensor.raw_data();
    if (raw.size() % 4)
      return failure();
    out.resize(raw.size() / 4);
    std::memcpy(out.data(), raw.data(), raw.size());
  } else {
    out.assign(tensor.float_data().begin(), tensor.float_data().end());
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Importer
//===----------------------------------------------------------------------===//

Importer::Importer(MLIRContext *context, const onnx::ModelProto &model,
                   const OnnxImportOptions &options)
    : context(context), model(model), opts(options), builder(context),
      tb(builder, UnknownLoc::get(context)), nodeLoc(UnknownLoc::get(context)) {
}

bool Importer::hasInput(const onnx::NodeProto &node, int i) {
  return i < node.input_size() && !node.input(i).empty();
}

InFlightDiagnostic Importer::error() {
  InFlightDiagnostic diag = emitError(nodeLoc);
  if (!nodeDescription.empty())
    diag << nodeDescription << ": ";
  return diag;
}

LogicalResult Importer::checkModel() {
  if (!model.has_graph() || model.ir_version() <= 0)
    return error() << "not an ONNX model (no graph or IR version)";
  for (const onnx::OperatorSetIdProto &set : model.opset_import()) {
    if (!set.domain().empty() && set.domain() != "ai.onnx")
      continue;
    opsetVersion = set.version();
  }
  if (model.opset_import_size() == 0 && model.ir_version() < 3)
    opsetVersion = 1;
  if (opsetVersion < kMinOpset || opsetVersion > kMaxOpset)
    return error() << "unsupported opset " << opsetVersion
                   << " of the ai.onnx domain (supported: " << kMinOpset
                   << " to " << kMaxOpset << ")";
  return success();
}

LogicalResult Importer::checkShape(const Twine &what, ArrayRef<int64_t> shape) {
  // f32 bytes of at most 2^61 elements fit in int64_t, and so does the
  // window arithmetic over such dims (see kMaxWindowValue).
  constexpr int64_t kMaxElements = int64_t(1) << 61;
  int64_t elements = 1;
  for (auto [i, d] : llvm::enumerate(shape)) {
    if (d < 0)
      return error() << "dimension " << i << " of " << what << " is " << d
                     << ": an ONNX dimension is at least 0";
    if (d == 0)
      return error() << "dimension " << i << " of " << what
                     << " is 0: empty tensors are not supported";
    if (llvm::MulOverflow(elements, d, elements) || elements > kMaxElements)
      return error() << what
                     << " has more than 2^61 elements: its bytes do not fit "
                        "in 64 bits";
  }
  return success();
}

LogicalResult Importer::claimOutputs(const onnx::NodeProto &node) {
  for (const std::string &out : node.output()) {
    if (out.empty())
      continue; // An optional output left out.
    auto [it, inserted] = producers.try_emplace(out, nodeDescription);
    if (!inserted)
      return error() << "output '" << out << "' is already produced by "
                     << it->second;
  }
  return success();
}

LogicalResult Importer::collectInitializers() {
  for (const onnx::TensorProto &t : model.graph().initializer()) {
    if (!producers.try_emplace(t.name(), "initializer '" + t.name() + "'")
             .second)
      return error() << "initializer '" << t.name() << "' is given twice";
    if (t.data_type() == onnx::TensorProto::INT64 ||
        t.data_type() == onnx::TensorProto::INT32 ||
        t.data_type() == onnx::TensorProto::BOOL) {
      FailureOr<SmallVector<int64_t>> v = decodeInts(t);
      SmallVector<int64_t> dims(t.dims().begin(), t.dims().end());
      if (failed(v) || static_cast<int64_t>(v->size()) != numElements(dims))
        return error() << "initializer '" << t.name()
                       << "': cannot read its integer data";
      defineInts(t.name(), *v, ArrayRef<int64_t>(dims));
      continue;
    }
    if (t.data_type() != onnx::TensorProto::FLOAT)
      return error() << "initializer '" << t.name()
                     << "': unsupported element type " << t.data_type()
                     << " (only float and int64 tensors are supported)";
    SmallVector<int64_t> dims(t.dims().begin(), t.dims().end());
    if (failed(checkShape("initializer '" + t.name() + "'", dims)))
      return failure();
    pending[t.name()].shape = dims;
    floatInitializers[t.name()] = &t;
  }
  return success();
}

LogicalResult Importer::addDataInputs() {
  Block &body = func.getBody().front();
  bool first = true;
  for (const onnx::ValueInfoProto &input : model.graph().input()) {
    if (pending.count(input.name()) || ints.count(input.name()))
      continue; // An initializer listed as an input (IR version < 4).
    if (!producers.try_emplace(input.name(), "graph input '" + input.name() + "'")
             .second)
      return error() << "graph input '" << input.name() << "' is given twice";
    const onnx::TypeProto &type = input.type();
    int elemType =
        type.has_tensor_type() ? type.tensor_type().elem_type() : 0;
    // Integer inputs (token ids, labels) are indices: i32, the index type
    // of tosa.gather. They are never differentiated.
    bool integer = elemType == onnx::TensorProto::INT64 ||
                   elemType == onnx::TensorProto::INT32;
    if (elemType != onnx::TensorProto::FLOAT && !integer)
      return error() << "input '" << input.name()
                     << "': only float and integer tensor inputs are "
                        "supported";
    // A dim without a value is dynamic (-1); the options may fix it.
    SmallVector<int64_t> shape;
    for (const onnx::TensorShapeProto::Dimension &d :
         type.tensor_type().shape().dim()) {
      if (d.has_dim_value() && d.dim_value() < 0)
        return error() << "dimension " << shape.size() << " of input '"
                       << input.name() << "' is " << d.dim_value()
                       << ": an ONNX dimension is at least 0";
      shape.push_back(d.has_dim_value() ? d.dim_value() : -1);
    }
    if (first && !shape.empty())
      modelBatch = shape[0];
    if (opts.batch > 0 && !shape.empty())
      shape[0] = opts.batch;
    if (first && !opts.inputShape.empty()) {
      if (opts.inputShape.size() + 1 != shape.size())
        return error() << "input '" << input.name() << "' has rank "
                       << shape.size() << ", but --onnx-input-shape gives "
                       << opts.inputShape.size() << " dims after the batch";
      std::copy(opts.inputShape.begin(), opts.inputShape.end(),
                shape.begin() + 1);
    }
    first = false;
    for (auto [i, d] : llvm::enumerate(shape))
      if (d < 0)
        return error() << "input '" << input.name() << "': dim " << i
                       << " is dynamic; fix it with --onnx-batch / "
                          "--onnx-input-shape";
    if (failed(checkShape("input '" + input.name() + "'", shape)))
      return failure();
    BlockArgument arg = body.addArgument(
        tb.type(shape, integer ? builder.getI32Type() : Type()),
        NameLoc::get(builder.getStringAttr(input.name())));
    values[input.name()] = Entry{arg, false};
    ++numDataInputs;
  }
  return success();
}

Value Importer::dropoutSeed() {
  if (!seed)
    seed = func.getBody().front().insertArgument(
        numDataInputs, tb.type({}, builder.getI32Type()),
        NameLoc::get(builder.getStringAttr("dropout_seed")));
  return seed;
}

Value Importer::materialize(StringRef name, const PendingParameter &p) {
  Block &body = func.getBody().front();
  Value arg = body.addArgument(tb.type(p.shape),
                               NameLoc::get(builder.getStringAttr(name)));
  values[name] = Entry{arg, false};
  return arg;
}

std::optional<int64_t> Importer::rankOf(StringRef name) const {
  auto it = values.find(name);
  if (it != values.end())
    return shapeOf(it->second.value).size();
  auto p = pending.find(name);
  if (p != pending.end())
    return p->second.shape.size();
  return std::nullopt;
}

FailureOr<Entry> Importer::lookup(StringRef name) {
  auto it = values.find(name);
  if (it != values.end())
    return it->second;
  auto p = pending.find(name);
  if (p != pending.end()) {
    PendingParameter param = p->second;
    pending.erase(p);
    materialize(name, param);
    return values[name];
  }
  if (ints.count(name))
    return error() << "integer tensor '" << name
                   << "' is used as data (only float data is supported)";
  return error() << "tensor '" << name << "' is not defined before its use";
}

SmallVector<int64_t> Importer::logicalShape(const Entry &entry) {
  SmallVector<int64_t> shape(shapeOf(entry.value));
  if (entry.nhwc)
    return {shape[0], shape[3], shape[1], shape[2]};
  return shape;
}

Value Importer::toLogical(const Entry &entry) {
  if (!entry.nhwc)
    return entry.value;
  return tb.transpose(entry.value, {0, 3, 1, 2});
}

Value Importer::toNhwc(const Entry &entry) {
  if (entry.nhwc)
    return entry.value;
  return tb.transpose(entry.value, {0, 2, 3, 1});
}

FailureOr<Value> Importer::logical(StringRef name) {
  FailureOr<Entry> e = lookup(name);
  if (failed(e))
    return failure();
  if (!e->nhwc)
    return e->value;
  // One transpose per value, however many consumers need the ONNX layout.
  Value &cached = logicalCache[name];
  if (!cached)
    cached = toLogical(*e);
  return cached;
}

FailureOr<Value> Importer::nhwc(StringRef name) {
  FailureOr<Entry> e = lookup(name);
  if (failed(e))
    return failure();
  if (shapeOf(e->value).size() != 4)
    return error() << "expects a 4-D (NCHW) input, got '" << name
                   << "' of rank " << shapeOf(e->value).size();
  if (e->nhwc)
    return e->value;
  Value v = toNhwc(*e);
  // Later NHWC consumers of an NCHW value share the transpose.
  logicalCache[name] = e->value;
  values[name] = Entry{v, true};
  return v;
}

std::optional<SmallVector<int64_t>> Importer::constantInts(StringRef name) {
  auto it = ints.find(name);
  if (it == ints.end())
    return std::nullopt;
  return it->second.values;
}

const IntConstant *Importer::intConstant(StringRef name) const {
  auto it = ints.find(name);
  return it == ints.end() ? nullptr : &it->second;
}

Value Importer::materializeInts(const IntConstant &c, Type element) {
  RankedTensorType type = tb.type(c.dims, element);
  if (element.isF32()) {
    SmallVector<float> values(c.values.begin(), c.values.end());
    return tb.constant(DenseElementsAttr::get(type, ArrayRef<float>(values)));
  }
  if (element.isInteger(1)) {
    SmallVector<bool> values;
    for (int64_t v : c.values)
      values.push_back(v != 0);
    return tb.constant(DenseElementsAttr::get(type, ArrayRef<bool>(values)));
  }
  SmallVector<APInt> values;
  for (int64_t v : c.values)
    values.push_back(APInt(element.getIntOrFloatBitWidth(), v, true));
  return tb.constant(DenseElementsAttr::get(type, values));
}

std::optional<double> Importer::constantFloat(StringRef name) {
  auto it = floats.find(name);
  if (it != floats.end())
    return it->second;
  auto init = floatInitializers.find(name);
  if (init != floatInitializers.end()) {
    FailureOr<SmallVector<float>> v = decodeFloats(*init->second);
    if (succeeded(v) && v->size() == 1)
      return (*v)[0];
  }
  return std::nullopt;
}

/// The inputs ONNX requires of each supported operator (its minimum arity).
/// The operator importers read them unchecked; optional ones they test with
/// hasInput.
static int requiredInputs(StringRef opType) {
  return llvm::StringSwitch<int>(opType)
      .Case("Constant", 0)
      .Cases({"Add", "Sub", "Mul", "Div", "Pow", "Conv", "Gemm", "MatMul",
              "Gather", "Expand", "Equal", "LayerNormalization"},
             2)
      .Case("Where", 3)
      .Case("BatchNormalization", 5)
      .Default(1);
}

LogicalResult Importer::importNode(const onnx::NodeProto &node, int index) {
  std::string name =
      node.name().empty() ? node.op_type() + "#" + std::to_string(index)
                          : node.name();
  nodeDescription = "node '" + name + "' (" + node.op_type() + ")";
  nodeLoc = NameLoc::get(builder.getStringAttr(name),
                         FileLineColLoc::get(context, "onnx", index, 0));
  tb.setLoc(nodeLoc);
  if (!node.domain().empty() && node.domain() != "ai.onnx")
    return error() << "unsupported operator " << node.domain()
                   << "::" << node.op_type();
  const llvm::StringMap<OpImporter> &table = operatorTable();
  auto it = table.find(node.op_type());
  if (it == table.end())
    return error() << "unsupported operator " << node.op_type();
  int inputs = requiredInputs(node.op_type());
  if (node.input_size() < inputs)
    return error() << "expected at least " << inputs << " inputs, got "
                   << node.input_size();
  if (node.output_size() < 1)
    return error() << "expected an output";
  if (failed(checkAttributes(*this, node)) || failed(claimOutputs(node)) ||
      failed(it->second(*this, node)))
    return failure();
  // The limits on input shapes bound every later node's shape arithmetic
  // only while no node makes a larger (or an empty) tensor.
  for (const std::string &out : node.output()) {
    auto v = values.find(out);
    if (v != values.end() &&
        failed(checkShape("output '" + out + "'", logicalShape(v->second))))
      return failure();
  }
  return success();
}

OwningOpRef<ModuleOp> Importer::run() {
  nodeLoc = FileLineColLoc::get(context, "onnx", 0, 0);
  if (failed(checkModel()) || failed(collectInitializers()))
    return nullptr;
  module = ModuleOp::create(nodeLoc);
  builder.setInsertionPointToEnd(module->getBody());
  std::string fname = opts.functionName.empty()
                          ? sanitize(model.graph().name().empty()
                                         ? "main"
                                         : model.graph().name())
                          : opts.functionName;
  func = func::FuncOp::create(builder, nodeLoc, fname,
                              builder.getFunctionType({}, {}));
  Block *body = func.addEntryBlock();
  builder.setInsertionPointToEnd(body);
  if (failed(addDataInputs()))
    return nullptr;

  int index = 0;
  for (const onnx::NodeProto &node : model.graph().node())
    if (failed(importNode(node, index++)))
      return nullptr;

  nodeDescription.clear();
  SmallVector<Value> results;
  for (const onnx::ValueInfoProto &out : model.graph().output()) {
    nodeDescription = "output '" + out.name() + "'";
    FailureOr<Value> v = logical(out.name());
    if (failed(v))
      return nullptr;
    results.push_back(*v);
  }
  func::ReturnOp::create(builder, nodeLoc, results);

  SmallVector<Type> argTypes;
  SmallVector<Attribute> argAttrs;
  for (BlockArgument arg : body->getArguments()) {
    argTypes.push_back(arg.getType());
    NamedAttrList attrs;
    if (auto loc = dyn_cast<NameLoc>(arg.getLoc()))
      attrs.append("onnx.name", loc.getName());
    argAttrs.push_back(attrs.getDictionary(context));
  }
  func.setFunctionType(
      builder.getFunctionType(argTypes, ValueRange(results).getTypes()));
  func.setAllArgAttrs(argAttrs);
  // After the signature is made from `results`, which the fusion may
  // replace.
  onnx_import::fuseTanhGelu(func);
  return std::move(module);
}
