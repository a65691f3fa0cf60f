//===- PlanAttr.cpp - A plan recorded on the IR ---------------------------===//

#include "PlanAttr.h"

#include "PlanOutcome.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace remat;

DictionaryAttr remat::encodePlan(MLIRContext *context,
                                 const PlanOutcome &outcome) {
  Builder b(context);
  const Program &program = outcome.graph.program;
  SmallVector<Attribute> recomputes;
  for (const Recompute &r : outcome.result.plan.recomputes) {
    SmallVector<int64_t> chain(r.chain.begin(), r.chain.end());
    recomputes.push_back(b.getDictionaryAttr({
        b.getNamedAttr("value", b.getI64IntegerAttr(r.value)),
        b.getNamedAttr("before", b.getI64IntegerAttr(r.before)),
        b.getNamedAttr("chain", b.getDenseI64ArrayAttr(chain)),
    }));
  }
  return b.getDictionaryAttr({
      b.getNamedAttr("ops", b.getI64IntegerAttr(program.ops.size())),
      b.getNamedAttr("values", b.getI64IntegerAttr(program.values.size())),
      b.getNamedAttr("peak", b.getI64IntegerAttr(outcome.after.peakBytes)),
      b.getNamedAttr("count_inputs", b.getBoolAttr(outcome.countInputs)),
      b.getNamedAttr("recompute", b.getArrayAttr(recomputes)),
  });
}

static std::optional<int64_t> getInt(DictionaryAttr dict, StringRef name) {
  if (auto attr = dict.getAs<IntegerAttr>(name))
    return attr.getInt();
  return std::nullopt;
}

std::optional<DecodedPlan> remat::decodePlan(DictionaryAttr attr,
                                             const Program &program,
                                             std::string &error) {
  std::optional<int64_t> ops = getInt(attr, "ops");
  std::optional<int64_t> values = getInt(attr, "values");
  std::optional<int64_t> peak = getInt(attr, "peak");
  auto countInputs = attr.getAs<BoolAttr>("count_inputs");
  auto recomputes = attr.getAs<ArrayAttr>("recompute");
  if (!ops || !values || !peak || !countInputs || !recomputes) {
    error = "malformed remat.plan: expected ops, values, peak, count_inputs "
            "and recompute";
    return std::nullopt;
  }
  if (static_cast<uint64_t>(*ops) != program.ops.size() ||
      static_cast<uint64_t>(*values) != program.values.size()) {
    error = "stale remat.plan: it was made for a graph of " +
            std::to_string(*ops) + " ops and " + std::to_string(*values) +
            " values, this one has " + std::to_string(program.ops.size()) +
            " and " + std::to_string(program.values.size()) +
            "; run remat-plan right before remat-apply";
    return std::nullopt;
  }
  DecodedPlan decoded;
  decoded.predictedPeak = static_cast<uint64_t>(*peak);
  decoded.countInputs = countInputs.getValue();
  for (Attribute entry : recomputes) {
    auto dict = dyn_cast<DictionaryAttr>(entry);
    std::optional<int64_t> value = dict ? getInt(dict, "value") : std::nullopt;
    std::optional<int64_t> before =
        dict ? getInt(dict, "before") : std::nullopt;
    auto chain = dict ? dict.getAs<DenseI64ArrayAttr>("chain") : nullptr;
    if (!value || !before || !chain || *value < 0 || *before < 0 ||
        static_cast<uint64_t>(*value) >= program.values.size() ||
        static_cast<uint64_t>(*before) >= program.ops.size() ||
        llvm::any_of(chain.asArrayRef(), [&](int64_t op) {
          return op < 0 || static_cast<uint64_t>(op) >= program.ops.size();
        })) {
      error = "malformed remat.plan entry: expected value, before and chain "
              "ids within the graph";
      return std::nullopt;
    }
    Recompute r;
    r.value = static_cast<ValueId>(*value);
    r.before = static_cast<OpId>(*before);
    r.chain.assign(chain.asArrayRef().begin(), chain.asArrayRef().end());
    decoded.plan.recomputes.push_back(std::move(r));
  }
  error = verifyPlan(program, decoded.plan);
  if (!error.empty()) {
    error = "invalid remat.plan: " + error;
    return std::nullopt;
  }
  return decoded;
}
