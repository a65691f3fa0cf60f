//===- ImportGraphJson.h - networkx node-link JSON to remat.graph -*- C++ -*-//
//
// Imports a Checkmate-style computation graph in networkx node-link JSON:
//
//   {"directed": true,
//    "nodes": [{"id": 0, "name": "conv1", "cost_cpu": 1200, "cost_ram": 256,
//               "backward": false}, ...],
//    "links": [{"source": 0, "target": 1}, ...]}
//
// as one `remat.graph` of `remat.abstract` ops, one per node:
//  - the node's op reads its predecessors (in link order) and produces one
//    `tensor<{cost_ram}xi8>` (cost_ram is the bytes of the node's output);
//    `cost_cpu` becomes `flops`; `name` the label.
//  - ops are in a topological order that keeps file order among ready nodes;
//    nodes with `"backward": true` come after a `remat.backward` marker, and
//    a forward node may not depend on a backward one.
//  - nodes without predecessors (the input of a Checkmate graph) are ops with
//    no operands: their output counts as memory like every node's, and they
//    may be recomputed. The graph has no arguments.
//  - sinks (nodes without successors) are the graph's results.
// `id`s are integers or strings; `name` defaults to the id and `backward` to
// false; `cost_cpu` and `cost_ram` are required non-negative integers.
// Malformed JSON, missing or mistyped fields, unknown or duplicate ids,
// self-loops and cycles are errors, reported at the file (with the line and
// column for syntax errors, the JSON path for the others).
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
