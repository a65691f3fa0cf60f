//===- GraphOrder.cpp - The program order of an imported graph ------------===//
//
// A file may give the order its nodes run in (`graph.order`), checked to be
// topological with forward nodes first; otherwise the nodes take a
// topological order that keeps the file's order among ready nodes.
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"

#include <functional>
#include <queue>

using namespace mlir;
using namespace remat::graph_json;

/// The program order a file gives in `graph.order`: every node exactly once,
/// operands first, forward nodes before backward ones.
std::optional<std::vector<unsigned>>
GraphImporter::readOrder(const llvm::json::Array &ids) {
  std::vector<unsigned> order;
  std::vector<unsigned> position(nodes.size(), ~0u);
  int lastBackward = -1;
  for (unsigned k = 0; k < ids.size(); ++k) {
    std::string path = indexed("graph.order", k);
    std::optional<std::string> key = idKey(ids[k]);
    auto it = key ? index.find(*key) : index.end();
    if (it == index.end()) {
      error(path) << path << ": unknown node id " << idText(ids[k]);
      return std::nullopt;
    }
    unsigned i = it->second;
    if (position[i] != ~0u) {
      error(path) << path << ": node " << nodes[i].name
                  << " is already at graph.order[" << position[i] << "]";
      return std::nullopt;
    }
    for (unsigned pred : nodes[i].preds)
      if (position[pred] == ~0u) {
        error(path) << path << ": node " << nodes[i].name
                    << " comes before its operand " << nodes[pred].name
                    << " (the order is not topological)";
        return std::nullopt;
      }
    if (nodes[i].backward)
      lastBackward = static_cast<int>(i);
    else if (lastBackward >= 0) {
      error(path) << path << ": forward node " << nodes[i].name
                  << " comes after backward node " << nodes[lastBackward].name;
      return std::nullopt;
    }
    position[i] = k;
    order.push_back(i);
  }
  for (unsigned i = 0; i < nodes.size(); ++i)
    if (position[i] == ~0u) {
      error("graph.order") << "graph.order: node " << nodes[i].name
                           << " is missing from the order";
      return std::nullopt;
    }
  return order;
}

/// Kahn's algorithm, forward nodes first, file order among ready nodes.
std::optional<std::vector<unsigned>> GraphImporter::topologicalOrder() {
  std::vector<unsigned> pending(nodes.size());
  std::vector<std::vector<unsigned>> succs(nodes.size());
  for (unsigned i = 0; i < nodes.size(); ++i) {
    pending[i] = nodes[i].preds.size();
    for (unsigned pred : nodes[i].preds)
      succs[pred].push_back(i);
  }
  std::vector<unsigned> order;
  for (bool backward : {false, true}) {
    std::priority_queue<unsigned, std::vector<unsigned>, std::greater<>> ready;
    for (unsigned i = 0; i < nodes.size(); ++i)
      if (nodes[i].backward == backward && pending[i] == 0)
        ready.push(i);
    while (!ready.empty()) {
      unsigned i = ready.top();
      ready.pop();
      order.push_back(i);
      for (unsigned succ : succs[i])
        if (--pending[succ] == 0 && nodes[succ].backward == backward)
          ready.push(succ);
    }
  }
  for (unsigned i = 0; i < nodes.size(); ++i)
    if (pending[i] != 0) {
      error(indexed("nodes", i))
          << "the graph has a cycle through node " << nodes[i].name;
      return std::nullopt;
    }
  return order;
}
