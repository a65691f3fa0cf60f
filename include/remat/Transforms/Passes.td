//===- Passes.td - Remat passes -----------------------------*- tablegen -*-===//

#ifndef REMAT_TRANSFORMS_PASSES_TD
#define REMAT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

// The passes that model a step's memory ask bufferization what the lowered
// step writes in place (InPlaceAnalysis.h): they lower a copy of the step to
// these dialects first.
defvar InPlaceAnalysisDialects = [
  "::mlir::arith::ArithDialect", "::mlir::bufferization::BufferizationDialect",
  "::mlir::func::FuncDialect", "::mlir::linalg::LinalgDialect",
  "::mlir::math::MathDialect", "::mlir::scf::SCFDialect",
  "::mlir::tensor::TensorDialect"];

def InlineCheckpointsPass : Pass<"remat-inline-checkpoints"> {
  let summary = "Move remat.checkpoint bodies into the graph, recording the "
                "policy on each op";
  let description = [{
    The planner works on one block in program order. This pass moves the body
    of every `remat.checkpoint` into the enclosing block and records the
    checkpoint's policy on each moved op with a `remat.save` attribute:
    `false` means the op's results must not be kept for the backward pass
    (they are recomputed), `true` that they may be. Nested checkpoints are
    decided by the innermost policy.

    Runs on every function-like op (`remat.graph`, `func.func`, ...) nested
    in, or equal to, the op it is scheduled on.

    Before:
    ```mlir
    %y = remat.checkpoint policy(dots_saveable) -> tensor<4x4xf32> {
      %m = tosa.matmul %a, %b, %za, %zb : ...
      %t = tosa.tanh %m : ...
      remat.yield %t : tensor<4x4xf32>
    }
    ```
    After:
    ```mlir
    %m = tosa.matmul %a, %b, %za, %zb {remat.save = true} : ...
    %t = tosa.tanh %m {remat.save = false} : ...
    ```
  }];
  let dependentDialects = ["::remat::RematDialect"];
  let statistics = [
    Statistic<"numCheckpoints", "checkpoints", "Checkpoints inlined">,
    Statistic<"numNotSaveable", "not-saveable", "Ops whose results the "
              "policy does not let be saved">
  ];
}

def SchedulePass : Pass<"remat-schedule"> {
  let summary = "Reorder a training step to lower its peak memory, without "
                "recomputation";
  let description = [{
    A memory-aware topological reordering of the graph's block: among the
    ops whose operands are ready, it runs the one that frees the most bytes
    (or allocates the fewest). Side-effecting ops keep their relative order
    and no op crosses `remat.backward`. The new order is kept only if its
    peak is strictly lower than the original's, so the pass never raises the
    peak.

    Runs on every function-like op (`remat.graph`, `func.func`, ...) nested
    in, or equal to, the op it is scheduled on.

    Before (peak: both tanh results live at once):
    ```mlir
    %a = tosa.tanh %x ...
    %b = tosa.tanh %y ...
    %c = tosa.reduce_sum %a ...
    %d = tosa.reduce_sum %b ...
    ```
    After:
    ```mlir
    %a = tosa.tanh %x ...
    %c = tosa.reduce_sum %a ...
    %b = tosa.tanh %y ...
    %d = tosa.reduce_sum %b ...
    ```
  }];
  let options = [
    Option<"countInputs", "count-inputs", "bool", /*default=*/"false",
           "Count the step's inputs as live memory">
  ];
  let statistics = [
    Statistic<"numReordered", "reordered-graphs",
              "Graphs whose order changed">,
    Statistic<"bytesSaved", "bytes-saved", "Peak bytes saved by reordering">
  ];
  let dependentDialects = InPlaceAnalysisDialects;
}

def PlanPass : Pass<"remat-plan", "mlir::ModuleOp"> {
  let summary = "Decide which activations to recompute under a memory budget";
  let description = [{
    For every function-like op with a body (`remat.graph` or `func.func`),
    builds the memory model of the step, resolves the budget, and asks the
    solver which values to recompute. The plan is recorded on the function as
    a `remat.plan` attribute that `remat-apply` materializes; nothing else
    changes. Every decision is reported as an MLIR remark (category
    `remat`), and optionally as a JSON report and an SVG memory timeline.

    Every planned step records the arena alignment it was planned with
    (`remat.arena_alignment`, the target's unless `arena-alignment`
    overrides it); `remat-arena-allocation` refuses to place the step with
    another.

    The solver minimizes what the recomputations cost: with
    `cost-model=flops` (the default), their FLOPs; with `cost-model=time`,
    each op's estimated time on the target, a roofline of its FLOPs and
    bytes per kind of kernel (`TargetTime.h`, docs/time-model.md; the cpu
    has a built-in model, `time-model=<file>` reads a calibrated one).

    The budget comes from the `budget` option, else from the graph's
    `budget` attribute; without either, only the policies act. An
    infeasible budget is an error that gives the smallest peak reached and
    the tensors live there, unless `best-effort` is set.

    With `budget-kind=arena` (the default) the budget bounds the arena the
    step's buffers occupy once placed (each buffer rounded up to the
    target's alignment, or `arena-alignment`): after planning against the budget as live bytes,
    the pass places the planned buffers and, while the arena exceeds the
    budget, plans again against a lower live target (scaled by budget /
    arena, then narrowed to recompute no more than needed). A fraction is
    then of the unrematerialized arena, and errors speak in arena bytes.
    `budget-kind=live` bounds the sum of live bytes, as solvers see it.

    `time-limit` bounds the planning of each graph as a whole: every solve
    gets a share of what is left of it (under an arena budget, half, so
    that re-plans have time too), and no arena re-plan starts once it has
    run out.

    With `schedule` (the default), the solver also plans the graph in the
    order `remat-schedule` would give it: that order first, with half of
    `time-limit`, then the given order with what is left. The better plan
    wins by the solvers' rule: meeting the budget first, then (for `min`, or when
    neither meets it) the smaller peak, then fewer extra FLOPs; a tie keeps
    the memory-aware order. Only when that order wins are the graph's ops
    moved. A fractional budget is a fraction of the peak in the order given,
    for both, so the result is never worse than with `schedule=false`, which
    plans the given order only.

    Before:
    ```mlir
    remat.graph @g(...) attributes {budget = #remat.budget<0.5>} { ... }
    ```
    After:
    ```mlir
    remat.graph @g(...) attributes {budget = #remat.budget<0.5>,
        remat.arena_alignment = 64 : i64,
        remat.plan = {count_inputs = false, ops = 12 : i64, peak = 4096 : i64,
                      recompute = [
                        {before = 9 : i64, chain = array<i64: 2, 3>,
                         value = 3 : i64}
                      ], values = 20 : i64}} { ... }
    ```
  }];
  let options = [
    Option<"budget", "budget", "std::string", /*default=*/"\"\"",
           "Peak-memory budget: bytes (67108864), a size (64MiB, 1.5GiB), a "
           "fraction of the unrematerialized peak (0.5), or 'min'">,
    Option<"solver", "solver", "std::string", /*default=*/"\"greedy\"",
           "Solver deciding what to recompute">,
    Option<"policy", "policy", "std::string", /*default=*/"\"\"",
           "Checkpoint policy for the whole graph (everything_saveable, "
           "nothing_saveable, dots_saveable, "
           "dots_with_no_batch_dims_saveable, save_only_these_names, "
           "save_any_names_but_these)">,
    ListOption<"names", "names", "std::string",
               "Names (remat.name tags) for the name-based policies">,
    Option<"countInputs", "count-inputs", "bool", /*default=*/"false",
           "Count the step's inputs as live memory">,
    Option<"minRematBytes", "min-remat-bytes", "uint64_t", /*default=*/"0",
           "Never recompute values smaller than this many bytes">,
    Option<"bestEffort", "best-effort", "bool", /*default=*/"false",
           "Warn instead of failing when the budget cannot be met">,
    Option<"budgetKind", "budget-kind", "std::string", /*default=*/"\"arena\"",
           "What the budget bounds: 'arena' (the step's buffers placed in "
           "one arena, alignment padding and fragmentation included) or "
           "'live' (the sum of live bytes)">,
    Option<"target", "target", "std::string", /*default=*/"\"cpu\"",
           "The target the step is lowered for, whose memory description "
           "(TargetMemory.h) gives the arena's alignment: 'cpu' (64 bytes) "
           "or 'gpu' (256 bytes)">,
    Option<"arenaAlignment", "arena-alignment", "uint64_t",
           /*default=*/"0",
           "Overrides the target's arena alignment: a power of two, at most "
           "4096 (0: the target's)">,
    Option<"costModel", "cost-model", "std::string", /*default=*/"\"\"",
           "What a recomputation costs: 'flops', or 'time' (each op's "
           "estimated time on the target, TargetTime.h; the target's "
           "built-in model, cpu's, or time-model's); empty: 'time' when "
           "time-model is given, else 'flops'">,
    Option<"timeModel", "time-model", "std::string", /*default=*/"\"\"",
           "A JSON time model (bench/calibrate-time.py writes one) in place "
           "of the target's built-in one">,
    Option<"timeLimit", "time-limit", "double", /*default=*/"60",
           "Seconds the planning of each graph may take, all of it: both "
           "orders with schedule and every arena re-plan share them; a "
           "searching solver (ilp) returns its best plan when they run out">,
    Option<"schedule", "schedule", "bool", /*default=*/"true",
           "Also plan the memory-aware order of remat-schedule and keep the "
           "order that plans better (the IR is reordered only then)">,
    Option<"isolateSearch", "isolate-search", "bool", /*default=*/"true",
           "Run the ilp solver's CBC search in a forked child killed at the "
           "time limit; false runs it in this process (for hosts that must "
           "not fork), where CBC's own limit applies">,
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "Write a JSON report of every decision to this file">,
    Option<"timeline", "timeline", "std::string", /*default=*/"\"\"",
           "Write an SVG memory timeline (before/after) to this file">,
    Option<"summary", "summary", "bool", /*default=*/"false",
           "Print a human-readable summary of each graph's plan to stderr">
  ];
  let statistics = [
    Statistic<"numGraphs", "graphs", "Graphs planned">,
    Statistic<"numReordered", "reordered-graphs",
              "Graphs kept in the memory-aware order (with schedule)">,
    Statistic<"numRecomputed", "recomputations", "Recomputations planned">,
    Statistic<"extraFlops", "extra-flops", "FLOPs added by recomputation">,
    Statistic<"bytesSaved", "bytes-saved", "Peak bytes saved">
  ];
  let dependentDialects = InPlaceAnalysisDialects;
}

def ApplyPass : Pass<"remat-apply"> {
  let summary = "Materialize a rematerialization plan as remat.recompute "
                "regions";
  let description = [{
    Reads the `remat.plan` attribute written by `remat-plan` and rewrites the
    graph: each recomputation becomes a `remat.recompute` region right before
    the first op that needs the value, and later uses read the recomputed
    copy, so that the original's live range ends early. The region is
    isolated from above and has no memory-effect interface, so
    canonicalization and CSE cannot merge it back. The pass re-analyses the
    rewritten graph and fails if its peak differs from the planner's
    prediction.

    Runs on every function-like op (`remat.graph`, `func.func`, ...) nested
    in, or equal to, the op it is scheduled on.

    Before:
    ```mlir
    %a = tosa.tanh %x ...      // value 0, kept until the backward pass
    ...
    remat.backward
    %g = tosa.mul %a, %d ...
    ```
    After:
    ```mlir
    %a = tosa.tanh %x ...
    ...
    remat.backward
    %r = remat.recompute(%x) : (tensor<...>) -> tensor<...> {
    ^bb0(%x0: tensor<...>):
      %a0 = tosa.tanh %x0 ...
      remat.yield %a0 : tensor<...>
    }
    %g = tosa.mul %r, %d ...
    ```
  }];
  let dependentDialects =
      !listconcat(["::remat::RematDialect"], InPlaceAnalysisDialects);
  let statistics = [
    Statistic<"numRegions", "recompute-regions",
              "remat.recompute regions created">
  ];
}

def PrintPeakPass : Pass<"remat-print-peak"> {
  let summary = "Print the memory peak of each graph and the tensors live "
                "there";
  let description = [{
    Prints, for each function-like op, the peak of live bytes under the
    memory model, the op where it occurs, the buffers live there (largest
    first, with bytes and locations), and the live bytes at every op. The IR
    is not changed. Useful to see where memory goes before choosing a
    budget.

    Runs on every function-like op (`remat.graph`, `func.func`, ...) nested
    in, or equal to, the op it is scheduled on.
  }];
  let options = [
    Option<"countInputs", "count-inputs", "bool", /*default=*/"false",
           "Count the step's inputs as live memory">,
    Option<"timeline", "timeline", "bool", /*default=*/"true",
           "Also print the live bytes at every op">
  ];
  let dependentDialects = InPlaceAnalysisDialects;
}

#endif // REMAT_TRANSFORMS_PASSES_TD
