//===- ByteMasks.cpp - Vectors of i1 in memory, a byte per element --------===//
//
// A memref stores each i1 in a byte (the scalar loads and stores the
// lowering makes are `load i1` and `store i1`, a byte each, as the memory
// model counts them), but an LLVM vector of i1 in memory packs one element
// per bit: a `vector.load` of 32 i1 from such a buffer would read 4 bytes.
// This pass makes every LLVM load and store of an i1 vector move a byte
// per element instead: the bytes as an i8 vector, truncated on the way in
// and zero-extended on the way out. remat-vectorize-kernels vectorizes the
// kernels on masks (a ReLU's comparison and its adjoint's select) on that
// promise; in the LLVM dialect nothing else loads or stores i1 vectors.
//
//===----------------------------------------------------------------------===//

#include "remat/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/PatternMatch.h"

namespace remat {
#define GEN_PASS_DEF_BYTEMASKSPASS
#include "remat/Conversion/Passes.h.inc"
} // namespace remat

using namespace mlir;

namespace {

/// The i8 vector of `type`'s shape when `type` is a vector of i1.
VectorType bytesOf(Type type) {
  auto vector = dyn_cast<VectorType>(type);
  if (!vector || !vector.getElementType().isInteger(1))
    return {};
  return vector.clone(IntegerType::get(type.getContext(), 8));
}

struct ByteMasksPass final
    : remat::impl::ByteMasksPassBase<ByteMasksPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    getOperation()->walk([&](Operation *op) {
      if (auto load = dyn_cast<LLVM::LoadOp>(op)) {
        VectorType bytes = bytesOf(load.getType());
        if (!bytes)
          return;
        rewriter.setInsertionPoint(load);
        auto wide = LLVM::LoadOp::create(
            rewriter, load.getLoc(), bytes, load.getAddr(),
            load.getAlignment().value_or(0), load.getVolatile_(),
            load.getNontemporal());
        rewriter.replaceOpWithNewOp<LLVM::TruncOp>(load, load.getType(), wide);
      } else if (auto store = dyn_cast<LLVM::StoreOp>(op)) {
        VectorType bytes = bytesOf(store.getValue().getType());
        if (!bytes)
          return;
        rewriter.setInsertionPoint(store);
        Value wide = LLVM::ZExtOp::create(rewriter, store.getLoc(), bytes,
                                          store.getValue());
        rewriter.modifyOpInPlace(
            store, [&] { store.getValueMutable().assign(wide); });
      }
    });
  }
};

} // namespace
