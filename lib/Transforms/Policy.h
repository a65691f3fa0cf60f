//===- Policy.h - JAX-style checkpoint policies -----------------*- C++ -*-===//

#ifndef REMAT_LIB_TRANSFORMS_POLICY_H
#define REMAT_LIB_TRANSFORMS_POLICY_H

#include "remat/Analysis/CostModel.h"
#include "remat/Dialect/Remat/RematAttributes.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringSet.h"

namespace remat {

/// Whether `policy` lets the results of `op` be saved. `names` are the
/// remat.name tags of the name-based policies.
bool isSaveable(mlir::Operation *op, SavePolicy policy,
                const llvm::StringSet<> &names);

/// Whether the policy needs a list of names.
inline bool isNamePolicy(SavePolicy policy) {
  return policy == SavePolicy::SaveOnlyTheseNames ||
         policy == SavePolicy::SaveAnyNamesButThese;
}

} // namespace remat

#endif // REMAT_LIB_TRANSFORMS_POLICY_H
