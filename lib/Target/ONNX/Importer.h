//===- Importer.h - State of one ONNX import --------------------*- C++ -*-===//

#ifndef REMAT_LIB_TARGET_ONNX_IMPORTER_H
#define REMAT_LIB_TARGET_ONNX_IMPORTER_H

#include "remat/Target/ONNX/ImportONNX.h"
#include "remat/Tosa/Builder.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"

#include <onnx/onnx_pb.h>

#include <functional>
#include <optional>

namespace remat::onnx_import {

/// A value of the ONNX graph: its SSA value and whether a 4-D value is held
/// in NHWC (its ONNX shape is then the NCHW permutation of the type).
struct Entry {
  mlir::Value value;
  bool nhwc = false;
};

/// A parameter not yet materialized as a function argument, so that its
/// shape can still follow the graph (OnnxImportOptions::adapt).
struct PendingParameter {
  llvm::SmallVector<int64_t> shape;
};

/// An integer (or boolean) tensor known at compile time: shapes, axes,
/// masks. Shape arithmetic is folded on these; a consumer that needs one as
/// data materializes it as a constant.
struct IntConstant {
  llvm::SmallVector<int64_t> values;
  llvm::SmallVector<int64_t> dims;
};

class Importer;
using OpImporter =
    std::function<mlir::LogicalResult(Importer &, const onnx::NodeProto &)>;

/// The operator table: ONNX op_type -> importer (Operators.h).
const llvm::StringMap<OpImporter> &operatorTable();

class Importer {
public:
  Importer(mlir::MLIRContext *context, const onnx::ModelProto &model,
           const OnnxImportOptions &options);

  mlir::OwningOpRef<mlir::ModuleOp> run();

  // --- used by the operator importers ---
  TosaBuilder &tosa() { return tb; }
  const OnnxImportOptions &options() const { return opts; }
  int64_t opset() const { return opsetVersion; }
  int64_t declaredBatch() const { return modelBatch; }

  /// An error at the current node, naming it.
  mlir::InFlightDiagnostic error();

  /// The rank of a defined tensor or pending parameter, without
  /// materializing it.
  std::optional<int64_t> rankOf(llvm::StringRef name) const;

  /// Fails unless every dim of a tensor's shape is positive (ONNX allows 0,
  /// but no later stage handles empty tensors) and its f32 bytes fit in 63
  /// bits; `what` names the tensor in the message ("input 'x'").
  mlir::LogicalResult checkShape(const llvm::Twine &what,
                                 llvm::ArrayRef<int64_t> shape);

  /// True when input `i` of `node` is present (optional inputs are "").
  static bool hasInput(const onnx::NodeProto &node, int i);

  /// The value of a named ONNX tensor, in the layout it is held in.
  mlir::FailureOr<Entry> lookup(llvm::StringRef name);
  /// The value in ONNX layout.
  mlir::FailureOr<mlir::Value> logical(llvm::StringRef name);
  /// The value of a 4-D tensor in NHWC.
  mlir::FailureOr<mlir::Value> nhwc(llvm::StringRef name);
  /// The ONNX shape of a value.
  llvm::SmallVector<int64_t> logicalShape(const Entry &entry);
  mlir::Value toLogical(const Entry &entry);
  mlir::Value toNhwc(const Entry &entry);

  /// Compile-time int64 contents of a tensor (initializers, Constant,
  /// ConstantOfShape with int64 values), if known.
  std::optional<llvm::SmallVector<int64_t>> constantInts(llvm::StringRef name);
  /// The same with its dims.
  const IntConstant *intConstant(llvm::StringRef name) const;
  /// A compile-time integer tensor as a constant of `element` type (i1
  /// for masks, f32 where it meets float data).
  mlir::Value materializeInts(const IntConstant &c, mlir::Type element);
  /// Compile-time float scalar of a tensor (Clip bounds), if known.
  std::optional<double> constantFloat(llvm::StringRef name);

  /// The step's dropout seed, a tensor<i32> argument after the graph's
  /// inputs (made at the first dropout that drops).
  mlir::Value dropoutSeed();
  /// Reserves `count` positions of the dropout stream: each dropout reads
  /// its own positions, so no two share random bits.
  uint64_t reserveRandomStream(uint64_t count) {
    uint64_t start = randomOffset;
    randomOffset += count;
    return start;
  }

  bool isPendingParameter(llvm::StringRef name) const {
    return pending.count(name);
  }
  /// Gives a not yet materialized parameter another shape.
  void reshapePending(llvm::StringRef name, llvm::ArrayRef<int64_t> shape) {
    pending[name].shape.assign(shape.begin(), shape.end());
  }
  llvm::ArrayRef<int64_t> pendingShape(llvm::StringRef name) {
    return pending[name].shape;
  }
  void addPendingParameter(llvm::StringRef name,
                           llvm::ArrayRef<int64_t> shape) {
    pending[name].shape.assign(shape.begin(), shape.end());
  }
  /// Defines a compile-time integer tensor; without dims it is 1-D.
  void defineInts(llvm::StringRef name, llvm::ArrayRef<int64_t> values,
                  std::optional<llvm::ArrayRef<int64_t>> dims = std::nullopt) {
    IntConstant &c = ints[name];
    c.values.assign(values.begin(), values.end());
    if (dims)
      c.dims.assign(dims->begin(), dims->end());
    else
      c.dims = {static_cast<int64_t>(values.size())};
  }
  void defineFloat(llvm::StringRef name, double value) { floats[name] = value; }

  void define(llvm::StringRef name, mlir::Value value, bool isNhwc = false) {
    values[name] = Entry{value, isNhwc};
  }

private:
  mlir::LogicalResult checkModel();
  mlir::LogicalResult collectInitializers();
  mlir::LogicalResult addDataInputs();
  mlir::LogicalResult claimOutputs(const onnx::NodeProto &node);
  mlir::LogicalResult importNode(const onnx::NodeProto &node, int index);
  mlir::Value materialize(llvm::StringRef name, const PendingParameter &p);

  mlir::MLIRContext *context;
  const onnx::ModelProto &model;
  const OnnxImportOptions &opts;
  mlir::OpBuilder builder;
  TosaBuilder tb;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::func::FuncOp func;
  int64_t opsetVersion = 0;
  int64_t modelBatch = 0;
  mlir::Location nodeLoc;
  std::string nodeDescription;

  llvm::StringMap<Entry> values;
  llvm::StringMap<mlir::Value> logicalCache;
  llvm::StringMap<PendingParameter> pending;
  llvm::StringMap<const onnx::TensorProto *> floatInitializers;
  llvm::StringMap<IntConstant> ints;
  llvm::StringMap<double> floats;
  unsigned numDataInputs = 0;
  mlir::Value seed;
  uint64_t randomOffset = 0;
  /// Who defines each tensor name: a graph input, an initializer or a node.
  llvm::StringMap<std::string> producers;
};

// Attribute access.
const onnx::AttributeProto *findAttr(const onnx::NodeProto &node,
                                     llvm::StringRef name);
int64_t intAttr(const onnx::NodeProto &node, llvm::StringRef name,
                int64_t fallback);
float floatAttr(const onnx::NodeProto &node, llvm::StringRef name,
                float fallback);
std::string stringAttr(const onnx::NodeProto &node, llvm::StringRef name,
                       llvm::StringRef fallback);
llvm::SmallVector<int64_t> intsAttr(const onnx::NodeProto &node,
                                    llvm::StringRef name);

/// Decodes an int64 / int32 / bool tensor, or a float one (raw_data or
/// typed fields).
mlir::FailureOr<llvm::SmallVector<int64_t>>
decodeInts(const onnx::TensorProto &tensor);
mlir::FailureOr<llvm::SmallVector<float>>
decodeFloats(const onnx::TensorProto &tensor);

} // namespace remat::onnx_import

#endif // REMAT_LIB_TARGET_ONNX_IMPORTER_H
