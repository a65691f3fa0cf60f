//===- ImportGraphJson.cpp - networkx node-link JSON to remat.graph -------===//

#include "remat/Target/GraphJson/ImportGraphJson.h"

#include "remat/Dialect/Remat/RematDialect.h"
#include "remat/Dialect/Remat/RematOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <queue>

using namespace mlir;
using namespace remat;

namespace {

struct Node {
  std::string key;
  std::string name;
  uint64_t flops = 0;
  uint64_t bytes = 0;
  bool backward = false;
  std::vector<unsigned> preds;
  unsigned numSuccs = 0;
};

/// An id as a map key: integers and strings are distinct ("1" vs 1).
std::optional<std::string> idKey(const llvm::json::Value &value) {
  if (auto i = value.getAsInteger())
    return "i:" + std::to_string(*i);
  if (auto s = value.getAsString())
    return "s:" + s->str();
  return std::nullopt;
}

std::string idText(const llvm::json::Value &value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << value;
  return text;
}

class GraphImporter {
public:
  GraphImporter(StringRef fileName, MLIRContext *context)
      : context(context), fileName(fileName) {}

  OwningOpRef<ModuleOp> run(StringRef text, StringRef graphName);

private:
  InFlightDiagnostic error(unsigned line = 1, unsigned column = 1) {
    return emitError(FileLineColLoc::get(context, fileName, line, column));
  }
  bool readNodes(const llvm::json::Array &nodes);
  bool readLinks(const llvm::json::Array &links);
  std::optional<uint64_t> readCount(const llvm::json::Object &node,
                                    StringRef field, unsigned index);

  MLIRContext *context;
  std::string fileName;
  std::vector<Node> nodes;
  llvm::StringMap<unsigned> index;
};

std::optional<uint64_t> GraphImporter::readCount(const llvm::json::Object &node,
                                                 StringRef field,
                                                 unsigned i) {
  const llvm::json::Value *value = node.get(field);
  if (!value) {
    error() << "nodes[" << i << "]: missing \"" << field << "\"";
    return std::nullopt;
  }
  if (auto n = value->getAsInteger(); n && *n >= 0)
    return static_cast<uint64_t>(*n);
  if (auto d = value->getAsNumber(); d && *d >= 0 && *d == std::floor(*d) &&
                                     *d < 9.2e18)
    return static_cast<uint64_t>(*d);
  error() << "nodes[" << i << "]: \"" << field
          << "\" must be a non-negative integer, got " << idText(*value);
  return std::nullopt;
}

bool GraphImporter::readNodes(const llvm::json::Array &array) {
  for (unsigned i = 0; i < array.size(); ++i) {
    const llvm::json::Object *node = array[i].getAsObject();
    if (!node) {
      error() << "nodes[" << i << "]: expected an object";
      return false;
    }
    const llvm::json::Value *id = node->get("id");
    if (!id) {
      error() << "nodes[" << i << "]: missing \"id\"";
      return false;
    }
    std::optional<std::string> key = idKey(*id);
    if (!key) {
      error() << "nodes[" << i << "]: \"id\" must be an integer or a string";
      return false;
    }
    Node n;
    n.key = *key;
    if (const llvm::json::Value *name = node->get("name")) {
      auto s = name->getAsString();
      if (!s) {
        error() << "nodes[" << i << "]: \"name\" must be a string";
        return false;
      }
      n.name = s->str();
    } else {
      auto s = id->getAsString();
      n.name = s ? s->str() : idText(*id);
    }
    std::optional<uint64_t> flops = readCount(*node, "cost_cpu", i);
    if (!flops)
      return false;
    std::optional<uint64_t> bytes = readCount(*node, "cost_ram", i);
    if (!bytes)
      return false;
    if (*flops > uint64_t(INT64_MAX)) {
      error() << "nodes[" << i << "]: \"cost_cpu\" is too large";
      return false;
    }
    n.flops = *flops;
    n.bytes = *bytes;
    if (const llvm::json::Value *backward = node->get("backward")) {
      auto b = backward->getAsBoolean();
      if (!b) {
        error() << "nodes[" << i << "]: \"backward\" must be true or false";
        return false;
      }
      n.backward = *b;
    }
    if (!index.try_emplace(n.key, nodes.size()).second) {
      error() << "nodes[" << i << "]: duplicate id " << idText(*id);
      return false;
    }
    nodes.push_back(std::move(n));
  }
  return true;
}

bool GraphImporter::readLinks(const llvm::json::Array &array) {
  for (unsigned i = 0; i < array.size(); ++i) {
    const llvm::json::Object *link = array[i].getAsObject();
    if (!link) {
      error() << "links[" << i << "]: expected an object";
      return false;
    }
    unsigned ends[2];
    const char *fields[2] = {"source", "target"};
    for (int e = 0; e < 2; ++e) {
      const llvm::json::Value *value = link->get(fields[e]);
      if (!value) {
        error() << "links[" << i << "]: missing \"" << fields[e] << "\"";
        return false;
      }
      std::optional<std::string> key = idKey(*value);
      auto it = key ? index.find(*key) : index.end();
      if (it == index.end()) {
        error() << "links[" << i << "]: unknown node id " << idText(*value);
        return false;
      }
      ends[e] = it->second;
    }
    if (ends[0] == ends[1]) {
      error() << "links[" << i << "]: node " << nodes[ends[0]].name
              << " depends on itself (cycle)";
      return false;
    }
    // A repeated link is one dependence.
    if (llvm::is_contained(nodes[ends[1]].preds, ends[0]))
      continue;
    nodes[ends[1]].preds.push_back(ends[0]);
    ++nodes[ends[0]].numSuccs;
  }
  return true;
}

OwningOpRef<ModuleOp> GraphImporter::run(StringRef text, StringRef graphName) {
  context->loadDialect<RematDialect>();
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  if (!parsed) {
    // The message reads "[line:column, byte=N]: what".
    std::string message = llvm::toString(parsed.takeError());
    unsigned line = 1, column = 1;
    StringRef rest = message;
    if (rest.consume_front("[")) {
      StringRef lineText = rest.take_until([](char c) { return c == ':'; });
      rest = rest.drop_front(lineText.size() + 1);
      StringRef columnText = rest.take_until([](char c) { return c == ','; });
      lineText.getAsInteger(10, line);
      columnText.getAsInteger(10, column);
      size_t colon = message.find("]: ");
      if (colon != std::string::npos)
        message = message.substr(colon + 3);
    }
    error(line, column) << "malformed JSON: " << message;
    return nullptr;
  }
  const llvm::json::Object *root = parsed->getAsObject();
  if (!root) {
    error() << "expected a node-link graph object at the top level";
    return nullptr;
  }
  if (auto directed = root->getBoolean("directed"); directed && !*directed) {
    error() << "the graph must be directed (\"directed\": true)";
    return nullptr;
  }
  const llvm::json::Array *nodeArray = root->getArray("nodes");
  if (!nodeArray) {
    error() << "missing \"nodes\" array";
    return nullptr;
  }
  const llvm::json::Array *linkArray = root->getArray("links");
  if (!linkArray)
    linkArray = root->getArray("edges"); // networkx >= 3.4 may say "edges"
  if (!linkArray) {
    error() << "missing \"links\" array";
    return nullptr;
  }
  if (!readNodes(*nodeArray) || !readLinks(*linkArray))
    return nullptr;
  if (nodes.empty()) {
    error() << "the graph has no nodes";
    return nullptr;
  }
  for (const Node &node : nodes)
    for (unsigned pred : node.preds)
      if (!node.backward && nodes[pred].backward) {
        error() << "forward node " << node.name << " depends on backward node "
                << nodes[pred].name;
        return nullptr;
      }

  // Kahn's algorithm, forward nodes first, file order among ready nodes.
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
  if (order.size() != nodes.size()) {
    for (unsigned i = 0; i < nodes.size(); ++i)
      if (pending[i] != 0) {
        error() << "the graph has a cycle through node " << nodes[i].name;
        return nullptr;
      }
  }

  OpBuilder builder(context);
  Location fileLoc = FileLineColLoc::get(context, fileName, 1, 1);
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  auto typeOf = [&](const Node &node) {
    return RankedTensorType::get({static_cast<int64_t>(node.bytes)},
                                 builder.getIntegerType(8));
  };
  SmallVector<Type> resultTypes;
  for (const Node &node : nodes)
    if (node.numSuccs == 0)
      resultTypes.push_back(typeOf(node));
  builder.setInsertionPointToEnd(module->getBody());
  auto graph = GraphOp::create(builder, 
      fileLoc, graphName, builder.getFunctionType({}, resultTypes));
  Block *body = graph.addEntryBlock();
  builder.setInsertionPointToEnd(body);

  std::vector<Value> values(nodes.size());
  bool inBackward = false;
  for (unsigned i : order) {
    const Node &node = nodes[i];
    if (node.backward && !inBackward) {
      BackwardOp::create(builder, fileLoc);
      inBackward = true;
    }
    SmallVector<Value> operands;
    for (unsigned pred : node.preds)
      operands.push_back(values[pred]);
    Location loc = NameLoc::get(builder.getStringAttr(node.name), fileLoc);
    auto op = AbstractOp::create(builder, 
        loc, TypeRange{typeOf(node)}, builder.getStringAttr(node.name),
        builder.getI64IntegerAttr(static_cast<int64_t>(node.flops)),
        ValueRange(operands));
    values[i] = op->getResult(0);
  }
  SmallVector<Value> results;
  for (unsigned i = 0; i < nodes.size(); ++i)
    if (nodes[i].numSuccs == 0)
      results.push_back(values[i]);
  ReturnOp::create(builder, fileLoc, results);
  return module;
}

} // namespace

OwningOpRef<ModuleOp> remat::importGraphJson(StringRef text,
                                             StringRef fileName,
                                             MLIRContext *context,
                                             StringRef graphName) {
  return GraphImporter(fileName, context).run(text, graphName);
}

void remat::registerImportGraphJsonTranslation() {
  static llvm::cl::opt<std::string> graphName(
      "graph-name",
      llvm::cl::desc("Name of the remat.graph --import-graph-json creates"),
      llvm::cl::init("graph"));
  TranslateToMLIRRegistration registration(
      "import-graph-json",
      "Import a networkx node-link JSON graph as a remat.graph of "
      "remat.abstract ops",
      [](llvm::SourceMgr &sourceMgr,
         MLIRContext *context) -> OwningOpRef<Operation *> {
        const llvm::MemoryBuffer *buffer =
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
        return importGraphJson(buffer->getBuffer(),
                               buffer->getBufferIdentifier(), context,
                               graphName);
      },
      [](DialectRegistry &registry) { registry.insert<RematDialect>(); });
}
