//===- ImportGraphJson.h - networkx node-link JSON to remat.graph -*- C++ -*-//
//
// Imports a computation graph in networkx node-link JSON, Checkmate style:
//
//   {"directed": true,
//    "nodes": [{"id": 0, "name": "conv1", "cost_cpu": 1200, "cost_ram": 256,
//               "backward": false}, ...],
//    "links": [{"source": 0, "target": 1}, ...]}
//
// or as the random layered graphs of Gagrani et al. 2022 are published (the
// benchmark of the CP study, Bartan et al. 2023):
//
//   {"directed": true, "graph": {"order": [0, 3, 2, ...], ...},
//    "nodes": [{"name": 0, "out_cost": 790, "param_cost": 0,
//               "duration": 0}, ...],
//    "links": [{"0": 0, "1": 2}, ...]}
//
// as one `remat.graph` of `remat.abstract` ops, one per node:
//  - the node's op reads its predecessors (in link order) and produces one
//    `tensor<{cost_ram}xi8>` (cost_ram or out_cost: the bytes of the node's
//    output); `cost_cpu` or `duration` becomes `flops`; the label is `name`.
//  - the id is `id`, or `name` when there is no `id`; link ends are
//    `source`/`target` or `"0"`/`"1"`.
//  - `duration` may be fractional: every cost of the graph is multiplied by
//    the least power of ten (at most 10^6) that makes all durations whole,
//    so cost ratios (and a plan's relative extra cost) are kept; beyond six
//    decimals durations are rounded.
//  - `param_cost` (bytes of the node's parameters, optional) becomes a graph
//    argument of that size the node reads: weights are resident for the
//    whole step, so the peak counts them only with count-inputs, as every
//    input, and the published fixed-order peak (which ignores them) is the
//    peak without it.
//  - ops follow `graph.order` when the file gives one (every node exactly
//    once, operands first, forward before backward nodes); otherwise a
//    topological order that keeps file order among ready nodes. Nodes with
//    `"backward": true` come after a `remat.backward` marker, and a forward
//    node may not depend on a backward one.
//  - nodes without predecessors (the input of a Checkmate graph, the source
//    of a layered one) are ops with no operands: their output counts as
//    memory like every node's, and they may be recomputed.
//  - sinks (nodes without successors) are the graph's results, live to the
//    end (the layered graphs have one sink, last in their order).
// `name` defaults to the id and `backward` to false; byte counts and
// `cost_cpu` are non-negative integers. Malformed JSON, missing or mistyped
// fields, unknown or duplicate ids, self-loops, cycles and bad orders are
// errors at the line and column of the entry at fault.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_TARGET_GRAPHJSON_IMPORTGRAPHJSON_H
#define REMAT_TARGET_GRAPHJSON_IMPORTGRAPHJSON_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

namespace remat {

/// Imports `text` (named `fileName` in diagnostics) as a module holding
/// `remat.graph @graphName`. Returns null after emitting an error.
mlir::OwningOpRef<mlir::ModuleOp>
importGraphJson(llvm::StringRef text, llvm::StringRef fileName,
                mlir::MLIRContext *context,
                llvm::StringRef graphName = "graph");

/// Registers `--import-graph-json` (option `--graph-name`) with
/// mlir-translate's registry.
void registerImportGraphJsonTranslation();

} // namespace remat

#endif // REMAT_TARGET_GRAPHJSON_IMPORTGRAPHJSON_H
