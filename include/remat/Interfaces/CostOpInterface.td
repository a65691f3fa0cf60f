//===- CostOpInterface.td - Cost of executing an op ---------*- tablegen -*-===//

#ifndef REMAT_INTERFACES_COSTOPINTERFACE_TD
#define REMAT_INTERFACES_COSTOPINTERFACE_TD

include "mlir/IR/OpBase.td"

def Remat_CostOpInterface : OpInterface<"CostOpInterface"> {
  let description = [{
    The cost of executing an operation once, in floating-point operations
    (a multiply-add counts two), as the rematerialization planner weighs it
    against the memory a recomputation saves. Data movement counts one per
    element written; views and constants count zero.

    Upstream ops get this interface through external models
    (`remat::registerCostModelExternalModels`); any op can override its cost
    with an integer `remat.flops` attribute.
  }];
  let cppNamespace = "::remat";
  let methods = [
    InterfaceMethod<
      /*desc=*/"Returns the FLOPs of executing the op once, or std::nullopt "
               "when they cannot be computed (e.g. dynamic shapes).",
      /*retTy=*/"std::optional<uint64_t>",
      /*methodName=*/"estimateFlops">
  ];
}

#endif // REMAT_INTERFACES_COSTOPINTERFACE_TD
