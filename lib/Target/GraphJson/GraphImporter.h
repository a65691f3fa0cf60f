//===- GraphImporter.h - Reading a networkx node-link graph ------*- C++ -*-===//
//
// The importer's state, shared by the file that reads nodes and links
// (ImportGraphJson.cpp) and the one that puts them in program order
// (GraphOrder.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_TARGET_GRAPHJSON_GRAPHIMPORTER_H
#define REMAT_TARGET_GRAPHJSON_GRAPHIMPORTER_H

#include "JsonLocations.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <vector>

namespace remat::graph_json {

using mlir::ArrayRef;
using mlir::FileLineColLoc;
using mlir::InFlightDiagnostic;
using mlir::Location;
using mlir::MLIRContext;
using mlir::ModuleOp;
using mlir::OwningOpRef;
using mlir::StringRef;

struct Node {
  std::string key;
  std::string name;
  /// `cost_cpu` (an integer) or `duration` (any non-negative number), before
  /// the graph-wide duration scale is applied.
  uint64_t cost = 0;
  double duration = 0;
  bool hasDuration = false;
  uint64_t flops = 0;
  uint64_t bytes = 0;
  uint64_t paramBytes = 0;
  bool backward = false;
  std::vector<unsigned> preds;
  unsigned numSuccs = 0;
};

/// An id as a map key: integers and strings are distinct ("1" vs 1).
std::optional<std::string> idKey(const llvm::json::Value &value);
/// An id as the file writes it, for diagnostics.
std::string idText(const llvm::json::Value &value);
/// `array[i]`, a path into the file.
std::string indexed(StringRef array, unsigned i);

class GraphImporter {
public:
  GraphImporter(StringRef text, StringRef fileName, MLIRContext *context)
      : context(context), text(text), fileName(fileName) {}

  OwningOpRef<ModuleOp> run(StringRef graphName);

private:
  /// Where the value at `path` starts (the file's start before the text
  /// is known to be valid JSON).
  Location locationOf(StringRef path) {
    auto [line, column] =
        locations ? locations->find(path) : std::make_pair(1u, 1u);
    return FileLineColLoc::get(context, fileName, line, column);
  }
  InFlightDiagnostic error(StringRef path) {
    return emitError(locationOf(path));
  }
  void parseError(llvm::Error error);
  bool readNodes(const llvm::json::Array &nodes);
  bool readNode(const llvm::json::Object &node, unsigned i);
  std::optional<uint64_t> readCount(const llvm::json::Value &value,
                                    StringRef path, StringRef field);
  std::optional<uint64_t> readBytes(const llvm::json::Value &value,
                                    StringRef path, StringRef field);
  bool scaleDurations();
  bool readLinks(const llvm::json::Array &links, StringRef array);
  std::optional<std::vector<unsigned>> readOrder(const llvm::json::Array &ids);
  std::optional<std::vector<unsigned>> topologicalOrder();
  OwningOpRef<ModuleOp> emit(ArrayRef<unsigned> order, StringRef graphName);

  MLIRContext *context;
  StringRef text;
  std::string fileName;
  /// Scanned once the text parsed: the scanner assumes valid JSON.
  std::optional<JsonLocations> locations;
  std::vector<Node> nodes;
  llvm::StringMap<unsigned> index;
  /// Bytes of the nodes read so far, at most kMaxGraphBytes.
  uint64_t graphBytes = 0;
};

} // namespace remat::graph_json

#endif // REMAT_TARGET_GRAPHJSON_GRAPHIMPORTER_H
