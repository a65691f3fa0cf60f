//===- ShareKernels.cpp - One function per kind of kernel -----------------===//
//
// A training step repeats its kernels: every block of a residual stage runs
// the same convolutions, normalizations and their gradients on buffers of
// the same types (a ResNet-50 step has 2,108 linalg ops of 341 kinds). The
// lowering then tiles, vectorizes and compiles each copy again, and all of
// them sit in the step's one function, whose loops LLVM's loop analyses
// (scalar evolution walks the dominating blocks of each loop) take time
// superlinear in. This pass gives each kind of linalg op one private
// function and calls it wherever an op of that kind ran, after the arena is
// placed: the function only reads and writes the buffers it is passed, so
// it allocates nothing and the memory the plan counted is still the memory
// the step uses; the step's function is left with views and calls.
//
// A function left with no loop at all is marked `optnone`: LLVM generates
// its code without optimizing it. Such a function runs once per step, a
// straight line of descriptor moves and calls, and optimizing it (one basic
// block of about 94k lines of LLVM IR on ResNet-50) cost more compile time
// than the kernels it calls.
//
//===----------------------------------------------------------------------===//

#include "remat/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace remat {
#define GEN_PASS_DEF_SHAREKERNELSPASS
#include "remat/Conversion/Passes.h.inc"
} // namespace remat

using namespace mlir;

namespace {

/// Whether `op` can become a call: a linalg op on buffers, with no results
/// to return.
bool isOutlinable(linalg::LinalgOp op) {
  return op.hasPureBufferSemantics() && op->getNumResults() == 0;
}

/// The values `op`'s body reads from outside it, in the order it first
/// reads them.
llvm::SetVector<Value> readFromOutside(Operation *op) {
  llvm::SetVector<Value> above;
  for (Region &region : op->getRegions())
    getUsedValuesDefinedAbove(region, above);
  return above;
}

/// Those a kernel takes as arguments: all but constants, which the kernel
/// makes itself, so that they still fold there.
SmallVector<Value> capturedArguments(Operation *op) {
  SmallVector<Value> captured;
  for (Value value : readFromOutside(op))
    if (!matchPattern(value, m_Constant()))
      captured.push_back(value);
  return captured;
}

/// Buckets of ops by a hash of their name, attributes and operand types;
/// equivalence is checked within a bucket.
llvm::hash_code kindHash(Operation *op) {
  return OperationEquivalence::computeHash(
      op, [](Value v) { return hash_value(v.getType()); },
      OperationEquivalence::ignoreHashValue,
      OperationEquivalence::IgnoreLocations);
}

/// Whether `value` is defined in `op` (a block argument or result of its
/// body).
bool isDefinedIn(Operation *op, Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  Operation *owner =
      arg ? arg.getOwner()->getParentOp() : value.getDefiningOp();
  return owner && op->isAncestor(owner);
}

/// For each read, in the body's order, of a value a kernel takes as an
/// argument (capturedArguments): which of those arguments it reads.
SmallVector<unsigned> capturePattern(Operation *op) {
  SmallVector<Value> captured = capturedArguments(op);
  SmallVector<unsigned> pattern;
  for (Region &region : op->getRegions())
    region.walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (auto *it = llvm::find(captured, operand); it != captured.end())
          pattern.push_back(it - captured.begin());
    });
  return pattern;
}

/// Whether `a` and `b` compute the same thing on operands of the same
/// types: the same op, attributes and body, their bodies reading the same
/// constants, and other values from outside of the same types in the same
/// pattern (what `a` reads twice, `b` reads twice).
bool sameKind(Operation *a, Operation *b) {
  // Values of the bodies, paired as the comparison walks them.
  llvm::DenseMap<Value, Value> matched;
  bool equivalent = OperationEquivalence::isEquivalentTo(
      a, b,
      [&](Value x, Value y) {
        if (Value paired = matched.lookup(x))
          return success(paired == y);
        if (isDefinedIn(a, x) || isDefinedIn(b, y) ||
            x.getType() != y.getType())
          return failure();
        Attribute constantX, constantY;
        bool isConstantX = matchPattern(x, m_Constant(&constantX));
        bool isConstantY = matchPattern(y, m_Constant(&constantY));
        return success(isConstantX == isConstantY && constantX == constantY);
      },
      [&](Value x, Value y) { matched[x] = y; },
      OperationEquivalence::IgnoreLocations);
  return equivalent && capturePattern(a) == capturePattern(b);
}

struct ShareKernelsPass final
    : remat::impl::ShareKernelsPassBase<ShareKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Kinds in the order their first op appears, so that names are stable.
    llvm::MapVector<Operation *, SmallVector<Operation *>> kinds;
    llvm::DenseMap<llvm::hash_code, SmallVector<Operation *, 1>> buckets;
    module.walk([&](linalg::LinalgOp op) {
      if (!isOutlinable(op))
        return;
      SmallVector<Operation *, 1> &bucket = buckets[kindHash(op)];
      for (Operation *first : bucket)
        if (sameKind(first, op)) {
          kinds[first].push_back(op);
          return;
        }
      bucket.push_back(op);
      kinds[op].push_back(op);
    });

    SymbolTable symbols(module);
    llvm::SetVector<func::FuncOp> callers;
    for (auto &[first, ops] : kinds) {
      func::FuncOp kernel = outline(first, symbols);
      for (Operation *op : ops) {
        SmallVector<Value> arguments(op->getOperands());
        llvm::append_range(arguments, capturedArguments(op));
        OpBuilder builder(op);
        func::CallOp::create(builder, op->getLoc(), kernel, arguments);
        if (auto caller = op->getParentOfType<func::FuncOp>())
          callers.insert(caller);
        op->erase();
      }
      ++numKinds;
      numCalls += ops.size();
    }
    for (func::FuncOp caller : callers)
      if (isStraightLine(caller))
        addPassthrough(caller, {"noinline", "optnone"});
  }

  /// Whether `function` holds no op with a region: no loop, no branch of
  /// structured control flow, no kernel left in place.
  static bool isStraightLine(func::FuncOp function) {
    return !function.getBody()
                .walk([](Operation *op) {
                  return op->getNumRegions() ? WalkResult::interrupt()
                                             : WalkResult::advance();
                })
                .wasInterrupted();
  }

  /// Adds LLVM function attributes (`passthrough`, which the conversion to
  /// the LLVM dialect keeps) to those `function` has.
  static void addPassthrough(func::FuncOp function,
                             ArrayRef<StringRef> attributes) {
    Builder builder(function.getContext());
    SmallVector<Attribute> all;
    if (auto existing = function->getAttrOfType<ArrayAttr>(kPassthrough))
      llvm::append_range(all, existing);
    for (StringRef name : attributes) {
      StringAttr attribute = builder.getStringAttr(name);
      if (!llvm::is_contained(all, attribute))
        all.push_back(attribute);
    }
    function->setAttr(kPassthrough, builder.getArrayAttr(all));
  }

  static constexpr StringLiteral kPassthrough = "passthrough";

  /// A private function that runs a copy of `op` on its operands and on the
  /// values its body reads from outside, constants made anew inside.
  func::FuncOp outline(Operation *op, SymbolTable &symbols) {
    SmallVector<Value> captured = capturedArguments(op);
    SmallVector<Type> types(op->getOperandTypes());
    for (Value value : captured)
      types.push_back(value.getType());
    OpBuilder builder(op->getContext());
    // Named after the op (kernel_linalg_matmul, then _0, _1, ...: the
    // symbol table makes each name unique), so profiles say what runs.
    std::string name = "kernel_" + op->getName().getStringRef().str();
    llvm::replace(name, '.', '_');
    func::FuncOp kernel = func::FuncOp::create(
        op->getLoc(), name, builder.getFunctionType(types, {}));
    kernel.setPrivate();
    // Inlined, a kernel called once would bring its loops back into the
    // step's function, where LLVM's loop analyses take time superlinear in
    // the function's size.
    addPassthrough(kernel, {"noinline"});
    symbols.insert(kernel);
    Block *body = kernel.addEntryBlock();
    builder.setInsertionPointToStart(body);
    // Every operand is an argument of its own, every value the body reads
    // from outside another: a value in both places is passed twice, so
    // that ops of the kind that pass two values there share it too.
    IRMapping mapping;
    unsigned numOperands = op->getNumOperands();
    mapping.map(captured, body->getArguments().drop_front(numOperands));
    for (Value value : readFromOutside(op))
      if (!mapping.contains(value))
        builder.clone(*value.getDefiningOp(), mapping);
    Operation *copy = builder.clone(*op, mapping);
    for (unsigned i = 0; i < numOperands; ++i)
      copy->setOperand(i, body->getArgument(i));
    func::ReturnOp::create(builder, op->getLoc());
    return kernel;
  }
};

} // namespace
