//===- Policy.cpp - JAX-style checkpoint policies -------------------------===//
//
// The policies mirror jax.checkpoint_policies. "Dots" are the matrix
// products (as in JAX, convolutions are not dots). A tosa.matmul always has
// a batch dimension in its type; it counts as having "no batch dims" when
// that dimension is 1, which is how a plain 2-D product is written in TOSA.
//
//===----------------------------------------------------------------------===//

#include "Policy.h"

#include "remat/Dialect/Remat/RematOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"

using namespace mlir;
using namespace remat;

static bool isDotWithoutBatchDims(Operation *op) {
  if (isa<linalg::MatmulOp, linalg::MatvecOp, linalg::VecmatOp, linalg::DotOp>(
          op))
    return true;
  if (auto matmul = dyn_cast<tosa::MatMulOp>(op)) {
    auto type = dyn_cast<RankedTensorType>(matmul.getType());
    return type && type.getDimSize(0) == 1;
  }
  return false;
}

static bool isDot(Operation *op) {
  return isDotWithoutBatchDims(op) ||
         isa<tosa::MatMulOp, linalg::BatchMatmulOp, linalg::BatchMatvecOp,
             linalg::BatchVecmatOp, linalg::BatchReduceMatmulOp,
             linalg::ContractOp>(op);
}

/// Whether a result of `op` is tagged by a remat.name in `names` (or `op` is
/// such a tag itself).
static bool isNamed(Operation *op, const llvm::StringSet<> &names) {
  if (auto tag = dyn_cast<NameOp>(op))
    return names.contains(tag.getTag());
  for (Operation *user : op->getUsers())
    if (auto tag = dyn_cast<NameOp>(user); tag && names.contains(tag.getTag()))
      return true;
  return false;
}

bool remat::isSaveable(Operation *op, SavePolicy policy,
                       const llvm::StringSet<> &names) {
  switch (policy) {
  case SavePolicy::EverythingSaveable:
    return true;
  case SavePolicy::NothingSaveable:
    return false;
  case SavePolicy::DotsSaveable:
    return isDot(op);
  case SavePolicy::DotsWithNoBatchDimsSaveable:
    return isDotWithoutBatchDims(op);
  case SavePolicy::SaveOnlyTheseNames:
    return isNamed(op, names);
  case SavePolicy::SaveAnyNamesButThese:
    return !isNamed(op, names);
  }
  return true;
}
