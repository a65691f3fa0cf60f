//===- ImportGraphJson.cpp - networkx node-link JSON to remat.graph -------===//

#include "remat/Target/GraphJson/ImportGraphJson.h"

#include "GraphImporter.h"

#include "remat/Dialect/Remat/RematDialect.h"
#include "remat/Dialect/Remat/RematOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
using namespace remat;

namespace remat::graph_json {

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

std::string indexed(StringRef array, unsigned i) {
  return (array + "[" + Twine(i) + "]").str();
}

/// Largest double below 2^63: counts must fit an i64 attribute.
constexpr double kMaxCount = 9.2e18;

/// Arrays and objects nest at most this deep. llvm::json::parse recurses
/// once per level, so deeper text is refused before it is parsed; a graph
/// file needs four levels.
constexpr unsigned kMaxNesting = 256;

/// The most bytes a graph may hold, every `cost_ram` (`out_cost`) and
/// `param_cost` together (2^60, 1 EiB): each output is a tensor of i8 whose
/// size in bits, and every sum of sizes the planner forms, fits 64 bits.
constexpr uint64_t kMaxGraphBytes = uint64_t(1) << 60;

/// The most a graph's costs may add up to (2^62, after scaling durations):
/// the sum is the report's `base_flops`, an i64, with room for the cost of
/// recomputation on top.
constexpr uint64_t kMaxGraphCost = uint64_t(1) << 62;

/// The field a node takes a quantity from: the Checkmate name, or the name
/// the random layered graphs of Gagrani et al. use.
static const llvm::json::Value *either(const llvm::json::Object &object,
                                StringRef first, StringRef second,
                                StringRef &used) {
  used = first;
  if (const llvm::json::Value *value = object.get(first))
    return value;
  used = second;
  return object.get(second);
}

void GraphImporter::parseError(llvm::Error err) {
  // The message reads "[line:column, byte=N]: what".
  std::string message = llvm::toString(std::move(err));
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
  emitError(FileLineColLoc::get(context, fileName, line, column))
      << "malformed JSON: " << message;
}

std::optional<uint64_t> GraphImporter::readCount(const llvm::json::Value &value,
                                                 StringRef path,
                                                 StringRef field) {
  if (auto n = value.getAsInteger(); n && *n >= 0)
    return static_cast<uint64_t>(*n);
  if (auto d = value.getAsNumber();
      d && *d >= 0 && *d == std::floor(*d) && *d < kMaxCount)
    return static_cast<uint64_t>(*d);
  error(path) << path.take_until([](char c) { return c == '.'; }) << ": \""
              << field << "\" must be a non-negative integer, got "
              << idText(value);
  return std::nullopt;
}

/// A byte count that keeps the graph's bytes within kMaxGraphBytes.
std::optional<uint64_t> GraphImporter::readBytes(const llvm::json::Value &value,
                                                 StringRef path,
                                                 StringRef field) {
  std::optional<uint64_t> count = readCount(value, path, field);
  if (!count)
    return std::nullopt;
  if (*count > kMaxGraphBytes - graphBytes) {
    error(path) << path.take_until([](char c) { return c == '.'; }) << ": \""
                << field << "\" " << *count
                << " takes the graph's bytes past 2^60, the most it may hold";
    return std::nullopt;
  }
  graphBytes += *count;
  return count;
}

bool GraphImporter::readNode(const llvm::json::Object &node, unsigned i) {
  std::string path = indexed("nodes", i);
  // Checkmate names a node by "id" and labels it by "name"; the layered
  // graphs have only "name", which is then the id.
  const llvm::json::Value *id = node.get("id");
  const llvm::json::Value *name = node.get("name");
  StringRef idField = id ? "id" : "name";
  if (!id)
    id = name;
  if (!id) {
    error(path) << path << ": missing \"id\" (or \"name\")";
    return false;
  }
  std::optional<std::string> key = idKey(*id);
  if (!key) {
    error(path + "." + idField.str())
        << path << ": \"" << idField << "\" must be an integer or a string";
    return false;
  }
  Node n;
  n.key = *key;
  if (name && name != id) {
    auto s = name->getAsString();
    if (!s) {
      error(path + ".name") << path << ": \"name\" must be a string";
      return false;
    }
    n.name = s->str();
  } else {
    auto s = id->getAsString();
    n.name = s ? s->str() : idText(*id);
  }

  StringRef field;
  const llvm::json::Value *bytes = either(node, "cost_ram", "out_cost", field);
  if (!bytes) {
    error(path) << path << ": missing \"cost_ram\" (or \"out_cost\")";
    return false;
  }
  std::optional<uint64_t> count =
      readBytes(*bytes, path + "." + field.str(), field);
  if (!count)
    return false;
  n.bytes = *count;

  const llvm::json::Value *cost = either(node, "cost_cpu", "duration", field);
  if (!cost) {
    error(path) << path << ": missing \"cost_cpu\" (or \"duration\")";
    return false;
  }
  if (field == "duration") {
    // Durations are times: they may be fractional (scaleDurations).
    std::optional<double> d = cost->getAsNumber();
    if (!d || !(*d >= 0) || *d >= kMaxCount) {
      error(path + ".duration")
          << path << ": \"duration\" must be a non-negative number, got "
          << idText(*cost);
      return false;
    }
    n.duration = *d;
    n.hasDuration = true;
  } else {
    count = readCount(*cost, path + ".cost_cpu", "cost_cpu");
    if (!count)
      return false;
    if (*count > uint64_t(INT64_MAX)) {
      error(path + ".cost_cpu") << path << ": \"cost_cpu\" is too large";
      return false;
    }
    n.cost = *count;
  }

  if (const llvm::json::Value *params = node.get("param_cost")) {
    count = readBytes(*params, path + ".param_cost", "param_cost");
    if (!count)
      return false;
    n.paramBytes = *count;
  }
  if (const llvm::json::Value *backward = node.get("backward")) {
    auto b = backward->getAsBoolean();
    if (!b) {
      error(path + ".backward")
          << path << ": \"backward\" must be true or false";
      return false;
    }
    n.backward = *b;
  }
  if (!index.try_emplace(n.key, nodes.size()).second) {
    error(path + "." + idField.str())
        << path << ": duplicate id " << idText(*id);
    return false;
  }
  nodes.push_back(std::move(n));
  return true;
}

bool GraphImporter::readNodes(const llvm::json::Array &array) {
  for (unsigned i = 0; i < array.size(); ++i) {
    const llvm::json::Object *node = array[i].getAsObject();
    if (!node) {
      error(indexed("nodes", i)) << indexed("nodes", i)
                                 << ": expected an object";
      return false;
    }
    if (!readNode(*node, i))
      return false;
  }
  return scaleDurations();
}

/// `flops` are integers; durations need not be. All costs of the graph are
/// multiplied by the least power of ten (at most 10^6) that makes every
/// duration whole, so ratios between costs, and therefore the relative extra
/// cost of a plan, are kept; past six decimals durations are rounded.
bool GraphImporter::scaleDurations() {
  uint64_t scale = 1;
  auto whole = [](double value) {
    return std::abs(value - std::round(value)) <=
           1e-9 * std::max(1.0, std::abs(value));
  };
  for (; scale < 1000000; scale *= 10)
    if (llvm::all_of(nodes, [&](const Node &n) {
          return !n.hasDuration || whole(n.duration * double(scale));
        }))
      break;
  uint64_t total = 0;
  for (unsigned i = 0; i < nodes.size(); ++i) {
    Node &n = nodes[i];
    double flops = n.hasDuration ? std::round(n.duration * double(scale))
                                 : double(n.cost) * double(scale);
    // Compared as a double first: the product may not fit 64 bits.
    if (flops >= double(kMaxGraphCost) ||
        static_cast<uint64_t>(flops) > kMaxGraphCost - total) {
      StringRef field = n.hasDuration ? "duration" : "cost_cpu";
      InFlightDiagnostic diag = error(indexed("nodes", i) + "." + field.str())
                                << indexed("nodes", i) << ": \"" << field
                                << "\" takes the graph's total cost past "
                                   "2^62, the most it may add up to";
      if (scale > 1)
        diag << " (after scaling every cost by " << scale
             << " to make durations whole)";
      return false;
    }
    n.flops = n.hasDuration ? static_cast<uint64_t>(flops) : n.cost * scale;
    total += n.flops;
  }
  return true;
}

bool GraphImporter::readLinks(const llvm::json::Array &array,
                              StringRef arrayName) {
  for (unsigned i = 0; i < array.size(); ++i) {
    std::string path = indexed(arrayName, i);
    const llvm::json::Object *link = array[i].getAsObject();
    if (!link) {
      error(path) << path << ": expected an object";
      return false;
    }
    unsigned ends[2];
    // networkx names the ends "source" and "target"; the layered graphs
    // were written with attrs {"source": "0", "target": "1"}.
    const char *fields[2][2] = {{"source", "0"}, {"target", "1"}};
    for (int e = 0; e < 2; ++e) {
      StringRef field;
      const llvm::json::Value *value =
          either(*link, fields[e][0], fields[e][1], field);
      if (!value) {
        error(path) << path << ": missing \"" << fields[e][0] << "\" (or \""
                    << fields[e][1] << "\")";
        return false;
      }
      std::optional<std::string> key = idKey(*value);
      auto it = key ? index.find(*key) : index.end();
      if (it == index.end()) {
        error(path + "." + field.str())
            << path << ": unknown node id " << idText(*value);
        return false;
      }
      ends[e] = it->second;
    }
    if (ends[0] == ends[1]) {
      error(path) << path << ": node " << nodes[ends[0]].name
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


OwningOpRef<ModuleOp> GraphImporter::emit(ArrayRef<unsigned> order,
                                          StringRef graphName) {
  OpBuilder builder(context);
  Location fileLoc = locationOf("");
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  auto bytesType = [&](uint64_t bytes) {
    return RankedTensorType::get({static_cast<int64_t>(bytes)},
                                 builder.getIntegerType(8));
  };
  auto nodeLoc = [&](unsigned i, StringRef suffix = "") {
    return NameLoc::get(builder.getStringAttr(nodes[i].name + suffix.str()),
                        locationOf(indexed("nodes", i)));
  };
  // Parameters are weights the node reads: graph arguments, resident for
  // the whole step, which the peak counts only with count-inputs.
  SmallVector<Type> argTypes;
  SmallVector<Location> argLocs;
  for (unsigned i : order)
    if (nodes[i].paramBytes) {
      argTypes.push_back(bytesType(nodes[i].paramBytes));
      argLocs.push_back(nodeLoc(i, ".param"));
    }
  SmallVector<Type> resultTypes;
  for (const Node &node : nodes)
    if (node.numSuccs == 0)
      resultTypes.push_back(bytesType(node.bytes));
  builder.setInsertionPointToEnd(module->getBody());
  auto graph = GraphOp::create(builder, fileLoc, graphName,
                               builder.getFunctionType(argTypes, resultTypes));
  Block *body = graph.addEntryBlock();
  for (auto [arg, loc] : llvm::zip(body->getArguments(), argLocs))
    arg.setLoc(loc);
  builder.setInsertionPointToEnd(body);

  std::vector<Value> values(nodes.size());
  unsigned nextArg = 0;
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
    if (node.paramBytes)
      operands.push_back(body->getArgument(nextArg++));
    auto op = AbstractOp::create(
        builder, nodeLoc(i), TypeRange{bytesType(node.bytes)},
        builder.getStringAttr(node.name),
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

OwningOpRef<ModuleOp> GraphImporter::run(StringRef graphName) {
  context->loadDialect<RematDialect>();
  if (std::optional<size_t> offset = findNestingPast(text, kMaxNesting)) {
    auto [line, column] = lineAndColumn(text, *offset);
    emitError(FileLineColLoc::get(context, fileName, line, column))
        << "malformed JSON: arrays and objects nest deeper than "
        << kMaxNesting << " levels";
    return nullptr;
  }
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  if (!parsed) {
    parseError(parsed.takeError());
    return nullptr;
  }
  locations.emplace(text, /*maxDepth=*/3);
  const llvm::json::Object *root = parsed->getAsObject();
  if (!root) {
    error("") << "expected a node-link graph object at the top level";
    return nullptr;
  }
  if (auto directed = root->getBoolean("directed"); directed && !*directed) {
    error("directed") << "the graph must be directed (\"directed\": true)";
    return nullptr;
  }
  const llvm::json::Array *nodeArray = root->getArray("nodes");
  if (!nodeArray) {
    error("") << "missing \"nodes\" array";
    return nullptr;
  }
  StringRef linkName = "links";
  const llvm::json::Array *linkArray = root->getArray(linkName);
  if (!linkArray) {
    linkName = "edges"; // networkx >= 3.4 may say "edges"
    linkArray = root->getArray(linkName);
  }
  if (!linkArray) {
    error("") << "missing \"links\" array";
    return nullptr;
  }
  if (!readNodes(*nodeArray) || !readLinks(*linkArray, linkName))
    return nullptr;
  if (nodes.empty()) {
    error("nodes") << "the graph has no nodes";
    return nullptr;
  }
  for (unsigned i = 0; i < nodes.size(); ++i)
    for (unsigned pred : nodes[i].preds)
      if (!nodes[i].backward && nodes[pred].backward) {
        error(indexed("nodes", i))
            << "forward node " << nodes[i].name
            << " depends on backward node " << nodes[pred].name;
        return nullptr;
      }

  std::optional<std::vector<unsigned>> order;
  const llvm::json::Object *graph = root->getObject("graph");
  const llvm::json::Value *given = graph ? graph->get("order") : nullptr;
  if (given) {
    const llvm::json::Array *ids = given->getAsArray();
    if (!ids) {
      error("graph.order") << "graph.order: expected an array of node ids";
      return nullptr;
    }
    order = readOrder(*ids);
  } else {
    order = topologicalOrder();
  }
  if (!order)
    return nullptr;
  return emit(*order, graphName);
}

} // namespace remat::graph_json

using remat::graph_json::GraphImporter;

OwningOpRef<ModuleOp> remat::importGraphJson(StringRef text,
                                             StringRef fileName,
                                             MLIRContext *context,
                                             StringRef graphName) {
  return GraphImporter(text, fileName, context).run(graphName);
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
