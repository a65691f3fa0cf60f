//===- RematOps.td - remat dialect operations ---------------*- tablegen -*-===//

#ifndef REMAT_DIALECT_REMAT_REMATOPS_TD
#define REMAT_DIALECT_REMAT_REMATOPS_TD

include "remat/Dialect/Remat/RematDialect.td"
include "remat/Dialect/Remat/RematAttributes.td"
include "mlir/IR/SymbolInterfaces.td"
include "remat/Interfaces/CostOpInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

//===----------------------------------------------------------------------===//
// remat.graph, remat.return, remat.backward
//===----------------------------------------------------------------------===//

def Remat_GraphOp : Remat_Op<"graph", [
    FunctionOpInterface, IsolatedFromAbove, AutomaticAllocationScope]> {
  let summary = "One training step, in program order";
  let description = [{
    A function-like symbol holding a forward pass and its backward pass in a
    single block. The order of the operations is the schedule the memory
    model measures. The arguments are the step's inputs (parameters and
    batch); the results are what the caller receives (loss, gradients).
    An optional `budget` bounds the peak memory of the step; the
    `remat-plan` pass reads it when no budget is given on the command line.

    ```mlir
    remat.graph @step(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>)
        -> (tensor<4x8xf32>) attributes {budget = #remat.budget<16KiB>} {
      ...
      remat.backward
      ...
      remat.return %g : tensor<4x8xf32>
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs,
                       OptionalAttr<Remat_BudgetAttr>:$budget);
  let regions = (region AnyRegion:$body);
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name,
                                 "::mlir::FunctionType":$type)>];
  let extraClassDeclaration = [{
    /// Returns the argument types of this function.
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    /// Returns the result types of this function.
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    ::mlir::Region *getCallableRegion() { return &getBody(); }
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Remat_ReturnOp : Remat_Op<"return", [
    Pure, HasParent<"GraphOp">, ReturnLike, Terminator]> {
  let summary = "Returns the results of a training step";
  let description = [{
    Terminates a `remat.graph`. Its operands match the graph's result types.

    ```mlir
    remat.return %loss, %grad : tensor<f32>, tensor<8x8xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$operands);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
  let hasVerifier = 1;
}

def Remat_BackwardOp : Remat_Op<"backward"> {
  let summary = "Marks where the backward pass begins";
  let description = [{
    Splits a training step into its forward pass (the operations before) and
    its backward pass (the operations after). A forward value used after the
    marker is a *residual*: the values checkpoint policies act on and the
    ones rematerialization saves memory on. At most one per block; the
    scheduler never moves an operation across it.

    It has no memory effects interface on purpose: the marker must survive
    dead-code elimination, and nothing may be reordered across it.

    ```mlir
    remat.backward
    ```
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// User controls: remat.name, remat.checkpoint, remat.barrier
//===----------------------------------------------------------------------===//

def Remat_NameOp : Remat_Op<"name", [Pure, SameOperandsAndResultType]> {
  let summary = "Tags a value with a name for name-based policies";
  let description = [{
    Identity that gives a value a name, like
    `jax.ad_checkpoint.checkpoint_name`. Policies
    `save_only_these_names` and `save_any_names_but_these` select values by
    these names, and reports use them. The result is a view of the operand:
    it allocates nothing.

    ```mlir
    %h = remat.name "layer1.pre" %x : tensor<16x128xf32>
    ```
  }];
  let arguments = (ins StrAttr:$tag, AnyType:$input);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$tag $input attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def Remat_CheckpointOp : Remat_Op<"checkpoint", [
    RecursiveMemoryEffects, SingleBlock]> {
  let summary = "A computation whose intermediates are recomputed";
  let description = [{
    Like `jax.checkpoint`: the values computed inside the region are not
    kept for the backward pass unless `policy` says they may be saved; the
    others are recomputed when the backward pass needs them. Without a
    policy nothing is saveable (the default of `jax.checkpoint`). The
    name-based policies take the list of names in `names`.

    The region may use values from above; its results are what
    `remat.yield` returns. `remat-inline-checkpoints` moves the body into
    the parent block and records the policy on each operation.

    ```mlir
    %y = remat.checkpoint policy(save_only_these_names) names(["h1"])
           -> tensor<16x128xf32> {
      ...
      remat.yield %r : tensor<16x128xf32>
    }
    ```
  }];
  let arguments = (ins OptionalAttr<Remat_PolicyAttr>:$policy,
                       OptionalAttr<StrArrayAttr>:$names);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    (`policy` `(` custom<Policy>($policy)^ `)`)? (`names` `(` $names^ `)`)?
    (`->` type($results)^)? attr-dict-with-keyword $body
  }];
  let extraClassDeclaration = [{
    /// The policy in effect (nothing_saveable when none is given).
    ::remat::SavePolicy getEffectivePolicy();
  }];
  let hasVerifier = 1;
}

def Remat_BarrierOp : Remat_Op<"barrier", [
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "An optimization barrier over values";
  let description = [{
    Returns its operands unchanged, but no pass may look through it: values
    computed before it are not merged with, moved past or folded into values
    after it. Like `jax.lax.optimization_barrier`. It has no memory effects
    interface on purpose, so that CSE and DCE leave it alone. Results are
    views of the operands: a barrier allocates nothing.

    ```mlir
    %a2, %b2 = remat.barrier %a, %b : tensor<4xf32>, tensor<8xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$inputs);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = "$inputs attr-dict `:` type($inputs)";
}

//===----------------------------------------------------------------------===//
// Planner output: remat.recompute, remat.yield
//===----------------------------------------------------------------------===//

def Remat_RecomputeOp : Remat_Op<"recompute", [
    IsolatedFromAbove, SingleBlock]> {
  let summary = "Recomputes values from kept ones, right before a late use";
  let description = [{
    Produced by `remat-apply`. The region re-executes a chain of operations
    from the operands (values that are live at this point anyway) and yields
    the recomputed values. Because the region is isolated from above and the
    op has no memory effects interface, canonicalization and CSE cannot merge
    the recomputation back into the original computation or into another
    recomputation. The region is inlined during lowering, as the last step
    before bufferization.

    ```mlir
    %r = remat.recompute(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ^bb0(%a: tensor<4x8xf32>):
      %t = tosa.tanh %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
      remat.yield %t : tensor<4x8xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$inputs);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inputs `)` attr-dict `:` functional-type($inputs, $results) $body
  }];
  let hasVerifier = 1;
}

def Remat_YieldOp : Remat_Op<"yield", [
    Pure, ReturnLike, Terminator,
    ParentOneOf<["CheckpointOp", "RecomputeOp"]>]> {
  let summary = "Returns values from a checkpoint or recompute region";
  let description = [{
    ```mlir
    remat.yield %v : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$operands);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
}

//===----------------------------------------------------------------------===//
// Planning-only graphs: remat.abstract
//===----------------------------------------------------------------------===//

def Remat_AbstractOp : Remat_Op<"abstract", [
    Pure, DeclareOpInterfaceMethods<Remat_CostOpInterface>]> {
  let summary = "An opaque node with explicit cost and size";
  let description = [{
    A node of a graph that exists only to be planned: an imported
    Checkmate-style graph or a generated benchmark graph. `flops` is the
    cost of executing it once; the size of each result comes from its type
    (use `tensor<Nxi8>` for N bytes). It cannot be lowered: the lowering
    pipelines reject it with a diagnostic.

    ```mlir
    %y = remat.abstract "conv1" flops(1200) (%x) : (tensor<64xi8>) -> tensor<256xi8>
    ```
  }];
  let arguments = (ins OptionalAttr<StrAttr>:$label, I64Attr:$flops,
                       Variadic<AnyType>:$inputs);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    ($label^)? `flops` `(` $flops `)` `(` $inputs `)` attr-dict `:`
    functional-type($inputs, $results)
  }];
  let hasVerifier = 1;
}

#endif // REMAT_DIALECT_REMAT_REMATOPS_TD
