//===- RematAttributes.td - remat dialect attributes --------*- tablegen -*-===//

#ifndef REMAT_DIALECT_REMAT_REMATATTRIBUTES_TD
#define REMAT_DIALECT_REMAT_REMATATTRIBUTES_TD

include "remat/Dialect/Remat/RematDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Remat_SavePolicy : I32EnumAttr<"SavePolicy",
    "which values of a checkpointed computation may be saved", [
  I32EnumAttrCase<"EverythingSaveable", 0, "everything_saveable">,
  I32EnumAttrCase<"NothingSaveable", 1, "nothing_saveable">,
  I32EnumAttrCase<"DotsSaveable", 2, "dots_saveable">,
  I32EnumAttrCase<"DotsWithNoBatchDimsSaveable", 3,
                  "dots_with_no_batch_dims_saveable">,
  I32EnumAttrCase<"SaveOnlyTheseNames", 4, "save_only_these_names">,
  I32EnumAttrCase<"SaveAnyNamesButThese", 5, "save_any_names_but_these">
]> {
  let cppNamespace = "::remat";
  let genSpecializedAttr = 0;
}

def Remat_PolicyAttr : EnumAttr<Remat_Dialect, Remat_SavePolicy, "policy"> {
  let summary = "A JAX-style checkpoint policy";
  let description = [{
    Says which values computed inside a checkpointed computation may be kept
    for the backward pass; the others are recomputed. The names mirror
    `jax.checkpoint_policies`. Example: `#remat.policy<dots_saveable>`.
  }];
}

def Remat_BudgetAttr : AttrDef<Remat_Dialect, "Budget"> {
  let mnemonic = "budget";
  let summary = "A peak-memory budget";
  let description = [{
    A budget for the peak memory of a training step, written as

    * a byte count: `#remat.budget<67108864>`;
    * a size with a unit: `#remat.budget<64MiB>`, `#remat.budget<1.5GiB>`
      (binary `KiB`/`MiB`/`GiB`/`TiB`, decimal `KB`/`MB`/`GB`/`TB`, or `B`);
    * a fraction of the peak without rematerialization:
      `#remat.budget<0.5>` (a number with a decimal point and no unit, in
      (0, 1]);
    * `#remat.budget<min>`: the smallest peak the solver can reach.

    Sizes print in the largest binary unit that divides them exactly.
  }];
  let parameters = (ins "::remat::Budget":$budget);
  let hasCustomAssemblyFormat = 1;
}

#endif // REMAT_DIALECT_REMAT_REMATATTRIBUTES_TD
