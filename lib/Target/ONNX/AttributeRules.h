//===- AttributeRules.h - The attributes each ONNX operator takes -*- C++ -*-//
//
// One declarative description per imported operator of the attributes it
// accepts: each attribute's kind, how many values it holds relative to the
// input's rank, and the range of each value. Importer::importNode checks a
// node against its operator's rules before the operator's importer reads
// any attribute, so that the importers may trust what they read.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_LIB_TARGET_ONNX_ATTRIBUTERULES_H
#define REMAT_LIB_TARGET_ONNX_ATTRIBUTERULES_H

#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <limits>

namespace remat::onnx_import {

/// The largest stride, dilation, pad or kernel size imported: with tensors
/// of at most 2^61 elements, window arithmetic then stays within 64 bits.
constexpr int64_t kMaxWindowValue = std::numeric_limits<int32_t>::max();

/// How many values an INTS attribute holds. The rank is the rank of the
/// node's first input; "spatial" dims are the dims after N and C.
enum class Count { Any, Spatial, TwiceSpatial, Rank, TwiceRank };

/// The range of each integer value.
enum class Range {
  /// [min, max].
  Bounds,
  /// An axis of the input: [-rank, rank).
  Axis,
  /// An axis of the input or the rank itself: [-rank, rank] (Flatten).
  AxisOrRank,
  /// An axis of the output of Unsqueeze: [-(rank + n), rank + n) for n axes.
  UnsqueezedAxis,
  /// A dim of the input, not counted from the end: [0, rank) (perm).
  Dim,
};

struct AttrRule {
  llvm::StringLiteral name;
  onnx::AttributeProto::AttributeType kind;
  bool required = false;
  Count count = Count::Any;
  Range range = Range::Bounds;
  int64_t min = std::numeric_limits<int64_t>::min();
  int64_t max = std::numeric_limits<int64_t>::max();
  /// No value may repeat (axes, perm).
  bool distinct = false;
  /// The values a STRING attribute may take (empty: any).
  llvm::ArrayRef<llvm::StringLiteral> oneOf = {};
  /// The opset from which the attribute is gone (its value became an input,
  /// which the importer then reads instead); 0: not removed.
  int64_t removedIn = 0;
};

/// The attributes of one operator.
struct OpAttributes {
  llvm::ArrayRef<AttrRule> rules;
  /// Exactly one of the attributes is set (Constant).
  bool exactlyOne = false;
};

/// The rules of `opType`: an operator missing from the table takes no
/// attributes.
OpAttributes attributeRules(llvm::StringRef opType);

class Importer;

/// Checks the attributes of `node` against its operator's rules; the error
/// names the node, the attribute and the rule it breaks.
mlir::LogicalResult checkAttributes(Importer &im, const onnx::NodeProto &node);

} // namespace remat::onnx_import

#endif // REMAT_LIB_TARGET_ONNX_ATTRIBUTERULES_H
