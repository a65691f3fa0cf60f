//===- AttributeRules.cpp - The attributes each ONNX operator takes -------===//
//
// The table of attribute rules, per operator, and the one check that holds
// a node to them. The rules are those of the ONNX operator specification
// (opsets 7 to 21), narrowed where the importer supports less (window sizes
// that fit window arithmetic in 64 bits, the Constant forms it reads).
//
//===----------------------------------------------------------------------===//

#include "AttributeRules.h"

#include "Importer.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace remat;
using namespace remat::onnx_import;

using onnx::AttributeProto;

namespace {

//===----------------------------------------------------------------------===//
// Rule constructors
//===----------------------------------------------------------------------===//

AttrRule integer(llvm::StringLiteral name,
                 int64_t min = std::numeric_limits<int64_t>::min(),
                 int64_t max = std::numeric_limits<int64_t>::max()) {
  AttrRule rule{name, AttributeProto::INT};
  rule.min = min;
  rule.max = max;
  return rule;
}

AttrRule flag(llvm::StringLiteral name) { return integer(name, 0, 1); }

AttrRule real(llvm::StringLiteral name) {
  return AttrRule{name, AttributeProto::FLOAT};
}

AttrRule tensor(llvm::StringLiteral name) {
  return AttrRule{name, AttributeProto::TENSOR};
}

AttrRule text(llvm::StringLiteral name,
              llvm::ArrayRef<llvm::StringLiteral> oneOf) {
  AttrRule rule{name, AttributeProto::STRING};
  rule.oneOf = oneOf;
  return rule;
}

/// Strides, dilations, pads, kernel sizes: one (or two) per spatial dim.
AttrRule window(llvm::StringLiteral name, Count count, int64_t min) {
  AttrRule rule{name, AttributeProto::INTS};
  rule.count = count;
  rule.min = min;
  rule.max = kMaxWindowValue;
  return rule;
}

AttrRule axis(llvm::StringLiteral name, Range range) {
  AttrRule rule{name, AttributeProto::INT};
  rule.range = range;
  return rule;
}

AttrRule axes(llvm::StringLiteral name, Range range) {
  AttrRule rule{name, AttributeProto::INTS};
  rule.range = range;
  rule.distinct = true;
  return rule;
}

AttrRule required(AttrRule rule) {
  rule.required = true;
  return rule;
}

AttrRule removedIn(int64_t opset, AttrRule rule) {
  rule.removedIn = opset;
  return rule;
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

const llvm::StringLiteral kAutoPad[] = {"NOTSET", "SAME_UPPER", "SAME_LOWER",
                                        "VALID"};
const llvm::StringLiteral kPadModes[] = {"constant", "reflect", "edge", "wrap"};
const llvm::StringLiteral kGeluApproximations[] = {"none", "tanh"};

const llvm::StringMap<std::vector<AttrRule>> &ruleTable() {
  static const llvm::StringMap<std::vector<AttrRule>> table = [] {
    llvm::StringMap<std::vector<AttrRule>> t;
    AttrRule autoPad = text("auto_pad", kAutoPad);
    AttrRule dilations = window("dilations", Count::Spatial, 1);
    AttrRule kernelShape = window("kernel_shape", Count::Spatial, 1);
    AttrRule pads = window("pads", Count::TwiceSpatial, 0);
    AttrRule strides = window("strides", Count::Spatial, 1);
    t["Conv"] = {autoPad,     dilations, integer("group", 1, kMaxWindowValue),
                 kernelShape, pads,      strides};
    t["MaxPool"] = {autoPad,
                    flag("ceil_mode"),
                    dilations,
                    required(kernelShape),
                    pads,
                    flag("storage_order"),
                    strides};
    t["AveragePool"] = {autoPad,
                        flag("ceil_mode"),
                        flag("count_include_pad"),
                        dilations,
                        required(kernelShape),
                        pads,
                        strides};
    t["BatchNormalization"] = {real("epsilon"), real("momentum"),
                               removedIn(9, integer("spatial", 1, 1)),
                               flag("training_mode")};
    t["LRN"] = {real("alpha"), real("beta"), real("bias"),
                required(integer("size", 1))};
    t["Softmax"] = {axis("axis", Range::Axis)};
    t["LogSoftmax"] = {axis("axis", Range::Axis)};
    t["LeakyRelu"] = {real("alpha")};
    t["Gelu"] = {text("approximate", kGeluApproximations)};
    t["Dropout"] = {removedIn(12, real("ratio")), integer("seed")};
    t["Gemm"] = {real("alpha"), real("beta"), flag("transA"), flag("transB")};
    t["Concat"] = {required(axis("axis", Range::Axis))};
    t["Flatten"] = {axis("axis", Range::AxisOrRank)};
    t["Reshape"] = {flag("allowzero")};
    AttrRule perm = axes("perm", Range::Dim);
    perm.count = Count::Rank;
    t["Transpose"] = {perm};
    AttrRule padPads{"pads", AttributeProto::INTS};
    padPads.count = Count::TwiceRank;
    t["Pad"] = {text("mode", kPadModes), removedIn(11, padPads),
                removedIn(11, real("value"))};
    t["Squeeze"] = {removedIn(13, axes("axes", Range::Axis))};
    t["Unsqueeze"] = {removedIn(13, axes("axes", Range::UnsqueezedAxis))};
    t["ReduceSum"] = {removedIn(13, axes("axes", Range::Axis)),
                      flag("keepdims"), flag("noop_with_empty_axes")};
    t["ReduceMean"] = {removedIn(18, axes("axes", Range::Axis)),
                       flag("keepdims"), flag("noop_with_empty_axes")};
    t["Clip"] = {removedIn(11, real("min")), removedIn(11, real("max"))};
    t["Constant"] = {tensor("value"), real("value_float"),
                     integer("value_int"),
                     AttrRule{"value_ints", AttributeProto::INTS}};
    t["ConstantOfShape"] = {tensor("value")};
    t["Shape"] = {integer("start"), integer("end")};
    t["LayerNormalization"] = {axis("axis", Range::Axis), real("epsilon"),
                               integer("stash_type", 1, 1)};
    t["Gather"] = {axis("axis", Range::Axis)};
    AttrRule sliceBound{"starts", AttributeProto::INTS};
    AttrRule sliceEnd{"ends", AttributeProto::INTS};
    t["Slice"] = {removedIn(10, sliceBound), removedIn(10, sliceEnd),
                  removedIn(10, axes("axes", Range::Axis))};
    AttrRule splitSizes{"split", AttributeProto::INTS};
    splitSizes.min = 1;
    t["Split"] = {axis("axis", Range::Axis), removedIn(13, splitSizes),
                  integer("num_outputs", 1)};
    t["Expand"] = {};
    t["Trilu"] = {flag("upper")};
    t["Equal"] = {};
    t["Not"] = {};
    t["Where"] = {};
    t["Cast"] = {required(integer("to", 1)), flag("saturate")};
    return t;
  }();
  return table;
}

//===----------------------------------------------------------------------===//
// The check
//===----------------------------------------------------------------------===//

std::string kindName(int kind) {
  const std::string &name = AttributeProto::AttributeType_Name(kind);
  return name.empty() ? "type " + std::to_string(kind) : name;
}

/// Whether `attr` holds a value of `kind`: its declared type, or, where a
/// producer left the type out, the field that is set.
bool hasKind(const AttributeProto &attr, AttributeProto::AttributeType kind) {
  if (attr.type() != AttributeProto::UNDEFINED)
    return attr.type() == kind;
  switch (kind) {
  case AttributeProto::INT:
    return attr.has_i();
  case AttributeProto::INTS:
    return attr.ints_size() > 0;
  case AttributeProto::FLOAT:
    return attr.has_f();
  case AttributeProto::STRING:
    return attr.has_s();
  case AttributeProto::TENSOR:
    return attr.has_t();
  default:
    return false;
  }
}

/// The names the rules accept, for a message.
std::string acceptedNames(llvm::ArrayRef<AttrRule> rules) {
  if (rules.empty())
    return "no attributes";
  std::string names;
  for (const AttrRule &rule : rules)
    names += (names.empty() ? "" : ", ") + rule.name.str();
  return names;
}

/// Checks the value count of an INTS attribute against the input's rank.
LogicalResult checkCount(Importer &im, const AttrRule &rule, int64_t n,
                         std::optional<int64_t> rank) {
  if (rule.count == Count::Any || !rank)
    return success();
  int64_t spatial = *rank - 2;
  int64_t expected = 0;
  const char *what = "";
  switch (rule.count) {
  case Count::Any:
    return success();
  case Count::Spatial:
    expected = spatial;
    what = "one per spatial dim of the input";
    break;
  case Count::TwiceSpatial:
    expected = 2 * spatial;
    what = "a begin and an end per spatial dim of the input";
    break;
  case Count::Rank:
    expected = *rank;
    what = "one per dim of the input";
    break;
  case Count::TwiceRank:
    expected = 2 * *rank;
    what = "a begin and an end per dim of the input";
    break;
  }
  // Windows over an input without spatial dims are refused by the importer.
  if (expected < 1 || n == expected)
    return success();
  return im.error() << "attribute '" << rule.name << "' must hold " << expected
                    << " values, " << what << " (rank " << *rank << "), got "
                    << n;
}

/// Checks one integer value against the rule's range.
LogicalResult checkValue(Importer &im, const AttrRule &rule, int64_t v,
                         std::optional<int64_t> rank, int64_t count) {
  int64_t lo = rule.min, hi = rule.max;
  if (rule.range != Range::Bounds) {
    if (!rank)
      return success();
    int64_t r = *rank;
    switch (rule.range) {
    case Range::Bounds:
      break;
    case Range::Axis:
      lo = -r, hi = r - 1;
      break;
    case Range::AxisOrRank:
      lo = -r, hi = r;
      break;
    case Range::UnsqueezedAxis:
      lo = -(r + count), hi = r + count - 1;
      break;
    case Range::Dim:
      lo = 0, hi = r - 1;
      break;
    }
    if (v >= lo && v <= hi)
      return success();
    return im.error() << "attribute '" << rule.name << "' must be in [" << lo
                      << ", " << hi << "] for an input of rank " << r
                      << ", got " << v;
  }
  if (v >= lo && v <= hi)
    return success();
  InFlightDiagnostic diag = im.error() << "attribute '" << rule.name << "' ";
  if (lo == hi)
    diag << "must be " << lo;
  else if (lo == 0 && hi == 1)
    diag << "must be 0 or 1";
  else if (hi == std::numeric_limits<int64_t>::max())
    diag << "must be at least " << lo;
  else
    diag << "must be in [" << lo << ", " << hi << "]";
  return diag << ", got " << v;
}

/// Checks that no axis repeats once negative axes are counted from the end
/// (of the input, or of Unsqueeze's output).
LogicalResult checkDistinct(Importer &im, const AttrRule &rule,
                            llvm::ArrayRef<int64_t> values,
                            std::optional<int64_t> rank) {
  int64_t r = rank.value_or(0);
  if (rule.range == Range::UnsqueezedAxis)
    r += values.size();
  llvm::SmallSet<int64_t, 8> seen;
  for (int64_t v : values) {
    int64_t normalized = v < 0 && rank ? v + r : v;
    if (!seen.insert(normalized).second)
      return im.error() << "attribute '" << rule.name << "' names axis "
                        << normalized << " twice";
  }
  return success();
}

LogicalResult checkAttribute(Importer &im, const AttrRule &rule,
                             const AttributeProto &attr,
                             std::optional<int64_t> rank) {
  if (rule.removedIn && im.opset() >= rule.removedIn)
    return im.error() << "attribute '" << rule.name
                      << "' is not part of the operator from opset "
                      << rule.removedIn << " on (the model's opset is "
                      << im.opset() << "): give it as an input";
  if (!hasKind(attr, rule.kind))
    return im.error() << "attribute '" << rule.name << "' must be "
                      << kindName(rule.kind) << ", got "
                      << kindName(attr.type());
  if (rule.kind == AttributeProto::STRING) {
    if (rule.oneOf.empty() || llvm::is_contained(rule.oneOf, attr.s()))
      return success();
    InFlightDiagnostic diag =
        im.error() << "attribute '" << rule.name << "' must be one of ";
    llvm::interleaveComma(rule.oneOf, diag);
    return diag << ", got '" << attr.s() << "'";
  }
  if (rule.kind != AttributeProto::INT && rule.kind != AttributeProto::INTS)
    return success();
  llvm::SmallVector<int64_t> values;
  if (rule.kind == AttributeProto::INT)
    values.push_back(attr.i());
  else
    values.assign(attr.ints().begin(), attr.ints().end());
  if (failed(checkCount(im, rule, values.size(), rank)))
    return failure();
  for (int64_t v : values)
    if (failed(checkValue(im, rule, v, rank, values.size())))
      return failure();
  if (rule.distinct)
    return checkDistinct(im, rule, values, rank);
  return success();
}

} // namespace

OpAttributes onnx_import::attributeRules(llvm::StringRef opType) {
  const llvm::StringMap<std::vector<AttrRule>> &table = ruleTable();
  auto it = table.find(opType);
  if (it == table.end())
    return {};
  return {it->second, /*exactlyOne=*/opType == "Constant"};
}

LogicalResult onnx_import::checkAttributes(Importer &im,
                                           const onnx::NodeProto &node) {
  OpAttributes spec = attributeRules(node.op_type());
  std::optional<int64_t> rank;
  if (Importer::hasInput(node, 0))
    rank = im.rankOf(node.input(0));
  llvm::StringMap<bool> given;
  for (const AttributeProto &attr : node.attribute()) {
    if (!given.insert({attr.name(), true}).second)
      return im.error() << "attribute '" << attr.name() << "' is given twice";
    const AttrRule *rule = llvm::find_if(
        spec.rules, [&](const AttrRule &r) { return r.name == attr.name(); });
    if (rule == spec.rules.end())
      return im.error() << "unsupported attribute '" << attr.name() << "' ("
                        << node.op_type() << " takes "
                        << acceptedNames(spec.rules) << ")";
    if (failed(checkAttribute(im, *rule, attr, rank)))
      return failure();
  }
  for (const AttrRule &rule : spec.rules)
    if (rule.required && !given.count(rule.name))
      return im.error() << "attribute '" << rule.name << "' is required";
  if (spec.exactlyOne && given.size() != 1)
    return im.error() << "exactly one of " << acceptedNames(spec.rules)
                      << " must be given, got " << given.size();
  return success();
}
