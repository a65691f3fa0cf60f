//===- JsonLocations.h - Where each JSON value starts in its text -*- C++ -*-=//
//
// llvm::json keeps values, not their positions. A diagnostic about one node,
// link or order entry of a graph file should point at that entry, so this
// scanner walks text that llvm::json::parse has already accepted and records
// where each value begins, keyed by its path: "nodes[3]",
// "links[0].source", "graph.order[7]".
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_LIB_TARGET_GRAPHJSON_JSONLOCATIONS_H
#define REMAT_LIB_TARGET_GRAPHJSON_JSONLOCATIONS_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <utility>

namespace remat {

/// The offset of the first `[` or `{` that opens the (maxDepth + 1)-th
/// level of nesting in `text`, outside string literals; std::nullopt if no
/// value nests that deep. A linear scan that needs no valid JSON, so that
/// text a recursive parser would overflow the stack on is refused first.
std::optional<size_t> findNestingPast(llvm::StringRef text, unsigned maxDepth);

/// 1-based line and column of byte `offset` in `text`.
std::pair<unsigned, unsigned> lineAndColumn(llvm::StringRef text,
                                            size_t offset);

class JsonLocations {
public:
  /// `text` must be valid JSON. Values nested deeper than `maxDepth` (the
  /// top-level value is at depth 0) are skipped, not recorded.
  JsonLocations(llvm::StringRef text, unsigned maxDepth);

  /// 1-based line and column where the value at `path` starts; the file's
  /// start for a path that does not exist.
  std::pair<unsigned, unsigned> find(llvm::StringRef path) const;

private:
  void skipSpace();
  void scanValue(std::string &path, unsigned depth);
  /// Scans a string literal and returns its text between the quotes (escapes
  /// are kept as written: paths use keys as they appear in the file).
  llvm::StringRef scanString();

  llvm::StringRef text;
  size_t pos = 0;
  unsigned maxDepth;
  llvm::StringMap<size_t> offsets;
};

} // namespace remat

#endif // REMAT_LIB_TARGET_GRAPHJSON_JSONLOCATIONS_H
