//===- GraphPrinters.cpp - Programs as MLIR and node-link JSON ------------===//
//
// The testing library's printers: a Program as a remat.graph (or func.func)
// of remat.op ops that remat-opt reads, and as the node-link JSON that
// remat-translate --import-graph-json reads.
//
//===----------------------------------------------------------------------===//

#include "remat/Planning/Testing/Generators.h"

#include <algorithm>

using namespace remat;

std::string remat::writeGraphMlir(const Program &program,
                                  const std::string &name,
                                  const GraphMlirOptions &options) {
  std::string out;
  auto type = [&](ValueId v) {
    return "tensor<" + std::to_string(std::max<uint64_t>(
                           program.values[v].bytes, 1)) +
           "xi8>";
  };
  auto ssa = [&](ValueId v) { return "%v" + std::to_string(v); };
  std::vector<ValueId> outputs;
  for (ValueId v = 0; v < program.values.size(); ++v)
    if (program.values[v].isOutput)
      outputs.push_back(v);
  out += (options.asFunction ? "func.func @" : "remat.graph @") + name + "(";
  for (size_t i = 0; i < program.inputs.size(); ++i) {
    if (i)
      out += ", ";
    out += ssa(program.inputs[i]) + ": " + type(program.inputs[i]);
  }
  out += ") -> (";
  for (size_t i = 0; i < outputs.size(); ++i)
    out += (i ? ", " : "") + type(outputs[i]);
  out += ") {\n";
  auto escape = [](const std::string &s) {
    std::string r;
    for (char c : s)
      if (c != '"' && c != '\\')
        r += c;
    return r;
  };
  for (OpId op = 0; op < program.ops.size(); ++op) {
    if (op == program.backwardBegin)
      out += "  remat.backward\n";
    const OpInfo &info = program.ops[op];
    out += "  ";
    for (size_t i = 0; i < info.results.size(); ++i)
      out += (i ? ", " : "") + ssa(info.results[i]);
    if (!info.results.empty())
      out += " = ";
    out += "remat.abstract ";
    std::string label = info.name;
    if (options.uniqueLabels)
      label += std::to_string(op);
    if (!label.empty())
      out += "\"" + escape(label) + "\" ";
    out += "flops(" + std::to_string(info.flops) + ") (";
    for (size_t i = 0; i < info.operands.size(); ++i)
      out += (i ? ", " : "") + ssa(info.operands[i]);
    out += ")";
    if (options.policies && !info.canRecompute())
      out += " {remat.never}";
    else if (options.policies && info.mustRecompute)
      out += " {remat.save = false}";
    out += " : (";
    for (size_t i = 0; i < info.operands.size(); ++i)
      out += (i ? ", " : "") + type(info.operands[i]);
    out += ") -> ";
    if (info.results.size() == 1) {
      out += type(info.results[0]);
    } else {
      out += "(";
      for (size_t i = 0; i < info.results.size(); ++i)
        out += (i ? ", " : "") + type(info.results[i]);
      out += ")";
    }
    out += "\n";
  }
  out += options.asFunction ? "  return" : "  remat.return";
  if (!outputs.empty()) {
    out += " ";
    for (size_t i = 0; i < outputs.size(); ++i)
      out += (i ? ", " : "") + ssa(outputs[i]);
    out += " : ";
    for (size_t i = 0; i < outputs.size(); ++i)
      out += (i ? ", " : "") + type(outputs[i]);
  }
  out += "\n}\n";
  return out;
}

std::string remat::writeGraphJson(const Program &program) {
  std::string out = "{\"directed\": true, \"multigraph\": false, "
                    "\"graph\": {}, \"nodes\": [";
  auto escape = [](const std::string &s) {
    std::string r;
    for (char c : s)
      if (c != '"' && c != '\\' && static_cast<unsigned char>(c) >= 0x20)
        r += c;
    return r;
  };
  for (OpId op = 0; op < program.ops.size(); ++op) {
    const OpInfo &info = program.ops[op];
    uint64_t bytes = 0;
    for (ValueId v : info.results)
      bytes += program.values[v].bytes;
    out += op ? ",\n" : "\n";
    out += "{\"id\": " + std::to_string(op) + ", \"name\": \"" +
           escape(info.name.empty() ? "op" + std::to_string(op) : info.name) +
           "\", \"cost_cpu\": " + std::to_string(info.flops) +
           ", \"cost_ram\": " + std::to_string(bytes) + ", \"backward\": " +
           (program.backwardBegin != kNone && op >= program.backwardBegin
                ? "true"
                : "false") +
           "}";
  }
  out += "], \"links\": [";
  bool first = true;
  for (OpId op = 0; op < program.ops.size(); ++op) {
    std::vector<OpId> seen;
    for (ValueId operand : program.ops[op].operands) {
      OpId def = program.values[operand].def;
      if (def == kNone ||
          std::find(seen.begin(), seen.end(), def) != seen.end())
        continue;
      seen.push_back(def);
      out += first ? "\n" : ",\n";
      first = false;
      out += "{\"source\": " + std::to_string(def) +
             ", \"target\": " + std::to_string(op) + "}";
    }
  }
  out += "]}\n";
  return out;
}
