//===- RematDialect.td - The remat dialect ------------------*- tablegen -*-===//

#ifndef REMAT_DIALECT_REMAT_REMATDIALECT_TD
#define REMAT_DIALECT_REMAT_REMATDIALECT_TD

include "mlir/IR/OpBase.td"

def Remat_Dialect : Dialect {
  let name = "remat";
  let summary = "Graph structure and rematerialization decisions";
  let description = [{
    The `remat` dialect models one training step (a forward pass and its
    backward pass) and the decisions of the rematerialization planner. It
    adds structure, not compute: the computation itself is written in
    upstream dialects (tosa, linalg, tensor, arith, math).

    * `remat.graph` holds a training step; `remat.backward` marks where the
      backward pass begins, so that a *residual* (a forward value used by the
      backward pass) is well defined.
    * `remat.name`, `remat.checkpoint` and `remat.barrier` are user-facing
      controls, in the spirit of `jax.ad_checkpoint.checkpoint_name`,
      `jax.checkpoint` and `jax.lax.optimization_barrier`.
    * `remat.recompute` is what the planner produces: an isolated region that
      recomputes values right before a late use and that CSE cannot merge
      back into the original computation.
    * `remat.abstract` is an opaque node with explicit cost and size, for
      graphs that exist only to be planned.
  }];
  let cppNamespace = "::remat";
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let dependentDialects = ["::mlir::func::FuncDialect"];
  let extraClassDeclaration = [{
    void registerAttributes();
  }];
}

class Remat_Op<string mnemonic, list<Trait> traits = []>
    : Op<Remat_Dialect, mnemonic, traits>;

#endif // REMAT_DIALECT_REMAT_REMATDIALECT_TD
