//===- PlanSummary.cpp - A plan in a few lines for people -----------------===//

#include "PlanOutcome.h"

#include "remat/Support/Budget.h"
#include "remat/Support/Locations.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace remat;

/// The order line of `schedule`: which order was kept and what the other
/// one planned to.
static void printOrder(llvm::raw_ostream &os, const OrderChoice &order) {
  os << "\n  order    ";
  if (!order.other) {
    os << "original (reordering does not lower the peak)";
    return;
  }
  const SolverResult &other = *order.other;
  if (order.scheduled)
    os << "scheduled (" << formatBytesShort(order.givenPeakBytes) << " -> "
       << formatBytesShort(order.scheduledPeakBytes)
       << " before planning; the original order planned ";
  else
    os << "original (reordering planned worse: ";
  os << formatBytesShort(other.peakBytes) << ", +" << other.extraFlops
     << " FLOPs" << (other.feasible ? "" : ", budget NOT met") << ")";
}

/// Seconds in the unit that reads best: s, ms or us.
static std::string formatSeconds(double seconds) {
  if (seconds >= 1)
    return llvm::formatv("{0:F2} s", seconds).str();
  if (seconds >= 1e-3)
    return llvm::formatv("{0:F2} ms", seconds * 1e3).str();
  return llvm::formatv("{0:F1} us", seconds * 1e6).str();
}

/// The arena line: the placed arena before and after, its fragmentation,
/// and, with an arena budget, how many plans it took.
static void printArena(llvm::raw_ostream &os, const PlanOutcome &outcome) {
  uint64_t after = outcome.arenaAfter.layout.arenaBytes;
  os << "  arena    " << formatBytesShort(outcome.arenaBefore.layout.arenaBytes)
     << " -> " << formatBytesShort(after)
     << llvm::format("  (%.3fx the live peak",
                     outcome.arenaAfter.fragmentation(outcome.after.peakBytes));
  if (outcome.arenaBudget && outcome.liveTargetBytes)
    os << "; " << outcome.plans << " plan(s), kept the one for "
       << formatBytesShort(*outcome.liveTargetBytes) << " live";
  os << ")" << (outcome.arenaBudget ? "" : ", not budgeted") << "\n";
}

void remat::printSummary(llvm::raw_ostream &os, const PlanOutcome &outcome) {
  const Program &program = outcome.graph.program;
  double extraPercent =
      outcome.baseFlops ? 100.0 * outcome.result.extraFlops / outcome.baseFlops
                        : 0.0;
  uint64_t givenPeak = outcome.givenPeakBytes();
  os << "@" << outcome.graphName << " (" << program.ops.size() << " ops)\n";
  os << "  peak     " << formatBytesShort(givenPeak) << " -> "
     << formatBytesShort(outcome.after.peakBytes);
  if (givenPeak)
    os << llvm::format("  (%.1f%% of the original)",
                       100.0 * outcome.after.peakBytes / givenPeak);
  if (outcome.order)
    printOrder(os, *outcome.order);
  os << "\n  budget   ";
  if (outcome.budget)
    os << formatBudget(*outcome.budget) << " = "
       << formatBytesShort(*outcome.budgetBytes)
       << (outcome.result.feasible ? ", met" : ", NOT met");
  else
    os << "none (policies only)";
  os << "\n  cost     +" << outcome.result.extraFlops << " FLOPs"
     << llvm::format(" (+%.1f%%)", extraPercent);
  std::optional<double> baseSeconds = outcome.secondsOf(outcome.baseCost);
  if (baseSeconds) {
    double extra = *outcome.secondsOf(outcome.result.extraCost);
    os << ", est. +" << formatSeconds(extra)
       << llvm::format(" (+%.1f%%)",
                       *baseSeconds > 0 ? 100.0 * extra / *baseSeconds : 0.0);
  }
  os << ", solver "
     << outcome.solver << llvm::format(", planned in %.1f ms", outcome.solveMs);
  if (outcome.result.optimal)
    os << ", proven optimal";
  else if (outcome.result.gap >= 0)
    os << llvm::format(", gap %.1f%% to its lower bound",
                       100.0 * outcome.result.gap);
  os << "\n";
  printArena(os, outcome);
  if (!outcome.result.note.empty())
    os << "  note     " << outcome.result.note << "\n";

  // Each recomputed value once, with how often it is recomputed.
  llvm::DenseMap<ValueId, unsigned> times, firstSeen;
  std::vector<ValueId> order;
  for (const Recompute &r : outcome.result.plan.recomputes)
    if (times[r.value]++ == 0) {
      firstSeen[r.value] = order.size();
      order.push_back(r.value);
    }
  os << "  recompute " << order.size() << " value(s)"
     << (order.empty() ? "\n" : ":\n");
  // The largest first; the report lists them all.
  constexpr size_t kListed = 8;
  llvm::sort(order, [&](ValueId a, ValueId b) {
    uint64_t x = program.values[a].bytes, y = program.values[b].bytes;
    return x != y ? x > y : firstSeen[a] < firstSeen[b];
  });
  for (ValueId value : llvm::ArrayRef(order).take_front(kListed)) {
    const ValueInfo &info = program.values[value];
    os << "    " << llvm::left_justify(info.name, 16) << " "
       << llvm::right_justify(formatBytesShort(info.bytes), 10) << "  "
       << outcome.graph.ops[info.def]->getName() << " at "
       << formatLoc(outcome.graph.locOfValue(value));
    if (times[value] > 1)
      os << " (x" << times[value] << ")";
    os << "\n";
  }
  if (order.size() > kListed)
    os << "    ... and " << order.size() - kListed
       << " more (report= lists every decision)\n";
  if (outcome.after.peakOp == kNone)
    return;
  os << "  peak at "
     << (outcome.isRecomputedOp(outcome.after.peakOp) ? "a recomputed "
                                                       : "")
     << outcome.plannedOp(outcome.after.peakOp)->getName()
     << " (" << formatLoc(outcome.plannedOp(outcome.after.peakOp)->getLoc())
     << "), largest live:";
  std::vector<ValueId> live =
      outcome.after.liveAt(outcome.planned, outcome.after.peakOp);
  for (size_t i = 0; i < std::min<size_t>(live.size(), 4); ++i)
    os << (i ? ", " : " ") << outcome.plannedValueName(live[i]) << " "
       << formatBytesShort(outcome.planned.values[live[i]].bytes);
  os << "\n";
}
