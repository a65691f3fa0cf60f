//===- TimelineSvg.cpp - A picture of live memory over program order ------===//
//
// Two panels per graph. Live bytes at every op before (grey) and after (blue)
// rematerialization, x scaled to each program's length so that both span the
// panel, the budget as a dashed red line, each peak marked, and the largest
// tensors live at the final peak listed beside it. Below, the planned step's
// address space: each buffer a box at its arena offset over its live ops.
//
//===----------------------------------------------------------------------===//

#include "PlanOutcome.h"

#include "remat/Support/Budget.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace remat;

namespace {

constexpr double kWidth = 960, kPanelHeight = 330, kLeft = 90, kRight = 300,
                 kTop = 50, kBottom = 40;

std::string escape(llvm::StringRef text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '&': out += "&amp;"; break;
    case '"': out += "&quot;"; break;
    default: out += c;
    }
  }
  return out;
}

class Panel {
public:
  Panel(llvm::raw_ostream &os, double y0, uint64_t maxBytes)
      : os(os), y0(y0), maxBytes(std::max<uint64_t>(maxBytes, 1)) {}

  double x(size_t index, size_t count) const {
    double plotWidth = kWidth - kLeft - kRight;
    return kLeft + plotWidth * (count <= 1 ? 0.0 : double(index) / (count - 1));
  }
  double y(uint64_t bytes) const {
    double plotHeight = kPanelHeight - kTop - kBottom;
    return y0 + kTop + plotHeight * (1.0 - double(bytes) / maxBytes);
  }

  void steps(const std::vector<uint64_t> &live, const char *color,
             double width) {
    if (live.empty())
      return;
    os << "<polyline fill='none' stroke='" << color << "' stroke-width='"
       << width << "' points='";
    for (size_t i = 0; i < live.size(); ++i)
      os << llvm::format("%.1f,%.1f ", x(i, live.size()), y(live[i]));
    os << "'/>\n";
  }

  void axes(const std::string &xLabel) {
    double bottom = y(0), top = y(maxBytes);
    os << llvm::format("<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' "
                       "stroke='black'/>\n",
                       kLeft, bottom, kWidth - kRight, bottom);
    os << llvm::format("<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' "
                       "stroke='black'/>\n",
                       kLeft, top, kLeft, bottom);
    for (int tick = 0; tick <= 4; ++tick) {
      uint64_t bytes = maxBytes * tick / 4;
      os << llvm::format("<text x='%.1f' y='%.1f' font-size='11' "
                         "text-anchor='end'>",
                         kLeft - 6, y(bytes) + 4)
         << formatBytesShort(bytes) << "</text>\n";
    }
    os << llvm::format("<text x='%.1f' y='%.1f' font-size='11' "
                       "text-anchor='middle'>",
                       (kLeft + kWidth - kRight) / 2, bottom + 28)
       << escape(xLabel) << "</text>\n";
  }

  void hline(uint64_t bytes, const char *color, const std::string &label) {
    os << llvm::format("<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' "
                       "stroke='%s' stroke-dasharray='6,4'/>\n",
                       kLeft, y(bytes), kWidth - kRight, y(bytes), color);
    // Above the line, at the plot's right end: clear of the legend.
    os << llvm::format("<text x='%.1f' y='%.1f' font-size='11' fill='%s' "
                       "text-anchor='end'>",
                       kWidth - kRight - 4, y(bytes) - 4, color)
       << escape(label) << "</text>\n";
  }

  /// A box over ops first..last (inclusive) of `count`, from `offset` up
  /// `bytes`, with a tooltip.
  void box(int64_t first, int64_t last, size_t count, uint64_t offset,
           uint64_t bytes, const char *color, const std::string &title) {
    double left = x(first, count + 1), right = x(last + 1, count + 1);
    double top = y(offset + bytes), bottom = y(offset);
    os << llvm::format("<rect x='%.2f' y='%.2f' width='%.2f' height='%.2f' "
                       "fill='%s' fill-opacity='0.75' stroke='white' "
                       "stroke-width='0.3'><title>",
                       left, top, std::max(right - left, 0.5),
                       std::max(bottom - top, 0.5), color)
       << escape(title) << "</title></rect>\n";
  }

  void marker(size_t index, size_t count, uint64_t bytes, const char *color) {
    os << llvm::format("<circle cx='%.1f' cy='%.1f' r='4' fill='%s'/>\n",
                       x(index, count), y(bytes), color);
  }

private:
  llvm::raw_ostream &os;
  double y0;
  uint64_t maxBytes;
};

/// The address-space view of the planned step: every buffer a box at its
/// arena offset over the ops it is live in, with the budget and the arena's
/// end. Recomputed copies are orange, scratch grey, the rest blue shades.
void renderArena(llvm::raw_ostream &os, const PlanOutcome &outcome,
                 double y0) {
  const StepArena &arena = outcome.arenaAfter;
  uint64_t maxBytes = arena.layout.arenaBytes;
  if (outcome.budgetBytes && outcome.arenaBudget)
    maxBytes = std::max(maxBytes, *outcome.budgetBytes);
  Panel panel(os, y0, maxBytes);
  size_t ops = outcome.planned.ops.size();
  os << llvm::format("<text x='%.1f' y='%.1f' font-size='13' "
                     "font-weight='bold'>",
                     kLeft, y0 + 22)
     << "address space: arena " << formatBytesShort(arena.layout.arenaBytes)
     << llvm::format(" = %.3fx the live peak",
                     arena.fragmentation(outcome.after.peakBytes))
     << "</text>\n";
  panel.axes("program order (" + std::to_string(ops) +
             " ops after rematerialization)");
  static const char *const kShades[] = {"#1f5fbf", "#4a86d8", "#2b4f8a",
                                        "#6fa0e0"};
  for (auto [index, buffer] : llvm::enumerate(arena.buffers)) {
    const StepBuffer &owner = arena.owners[index];
    std::string title;
    const char *color;
    if (owner.value == kNone) {
      color = "#9a9a9a";
      title = "scratch of " + outcome.plannedOp(owner.scratchOf)
                                  ->getName()
                                  .getStringRef()
                                  .str();
    } else {
      bool copy = outcome.isRecomputedValue(owner.value);
      color = copy ? "#ff7f0e" : kShades[index % 4];
      title = outcome.plannedValueName(owner.value) + (copy ? " (copy)" : "");
    }
    uint64_t offset = arena.layout.offsets[index];
    title += " @" + std::to_string(offset) + ", " +
             formatBytesShort(alignedBytes(buffer));
    panel.box(buffer.first, buffer.last, ops, offset, alignedBytes(buffer),
              color, title);
  }
  panel.hline(arena.layout.arenaBytes, "#1f5fbf",
              "arena " + formatBytesShort(arena.layout.arenaBytes));
  if (outcome.budgetBytes && outcome.arenaBudget)
    panel.hline(*outcome.budgetBytes, "#d62728",
                "budget " + formatBytesShort(*outcome.budgetBytes));
  double lx = kWidth - kRight + 60, ly = y0 + kTop + 30;
  os << llvm::format("<text x='%.1f' y='%.1f' font-size='12' "
                     "fill='#ff7f0e'>\u25a0 recomputed copy</text>\n",
                     lx, ly);
  os << llvm::format("<text x='%.1f' y='%.1f' font-size='12' "
                     "fill='#9a9a9a'>\u25a0 scratch</text>\n",
                     lx, ly + 16);
}

} // namespace

std::string remat::renderTimelineSvg(
    llvm::ArrayRef<const PlanOutcome *> outcomes) {
  std::string svg;
  llvm::raw_string_ostream os(svg);
  // Two panels per graph: live bytes, then the address space.
  double height = 2 * kPanelHeight * std::max<size_t>(outcomes.size(), 1);
  os << llvm::format("<svg xmlns='http://www.w3.org/2000/svg' width='%.0f' "
                     "height='%.0f' font-family='sans-serif'>\n",
                     kWidth, height);
  os << "<rect width='100%' height='100%' fill='white'/>\n";
  for (auto [index, outcome] : llvm::enumerate(outcomes)) {
    double y0 = 2 * index * kPanelHeight;
    uint64_t maxBytes = outcome->before.peakBytes;
    if (outcome->budgetBytes)
      maxBytes = std::max(maxBytes, *outcome->budgetBytes);
    Panel panel(os, y0, maxBytes);

    os << llvm::format("<text x='%.1f' y='%.1f' font-size='15' "
                       "font-weight='bold'>",
                       kLeft, y0 + 22)
       << "@" << escape(outcome->graphName) << ": peak "
       << formatBytesShort(outcome->before.peakBytes) << " \u2192 "
       << formatBytesShort(outcome->after.peakBytes);
    if (outcome->budgetBytes)
      os << " (budget " << formatBytesShort(*outcome->budgetBytes) << ")";
    os << ", +" << llvm::format("%.1f", outcome->baseFlops
                                            ? 100.0 *
                                                  outcome->result.extraFlops /
                                                  outcome->baseFlops
                                            : 0.0)
       << "% FLOPs</text>\n";
    panel.axes("program order (" +
               std::to_string(outcome->before.liveBytes.size()) +
               " ops before rematerialization)");
    panel.steps(outcome->before.liveBytes, "#9a9a9a", 1.5);
    panel.steps(outcome->after.liveBytes, "#1f5fbf", 2);
    if (outcome->budgetBytes)
      panel.hline(*outcome->budgetBytes, "#d62728",
                  "budget " + formatBytesShort(*outcome->budgetBytes));
    if (outcome->before.peakOp != kNone)
      panel.marker(outcome->before.peakOp, outcome->before.liveBytes.size(),
                   outcome->before.peakBytes, "#9a9a9a");
    if (outcome->after.peakOp != kNone)
      panel.marker(outcome->after.peakOp, outcome->after.liveBytes.size(),
                   outcome->after.peakBytes, "#1f5fbf");

    // Legend and the tensors at the final peak.
    double lx = kWidth - kRight + 60, ly = y0 + kTop + 70;
    os << llvm::format("<text x='%.1f' y='%.1f' font-size='12' "
                       "fill='#9a9a9a'>\u2014 before</text>\n",
                       lx, ly - 40);
    os << llvm::format("<text x='%.1f' y='%.1f' font-size='12' "
                       "fill='#1f5fbf'>\u2014 after</text>\n",
                       lx, ly - 24);
    renderArena(os, *outcome, y0 + kPanelHeight);
    if (outcome->after.peakOp == kNone)
      continue;
    os << llvm::format("<text x='%.1f' y='%.1f' font-size='12' "
                       "font-weight='bold'>at the peak:</text>\n",
                       lx, ly);
    std::vector<ValueId> live =
        outcome->after.liveAt(outcome->planned, outcome->after.peakOp);
    for (size_t i = 0; i < std::min<size_t>(live.size(), 6); ++i) {
      ValueId value = live[i];
      os << llvm::format("<text x='%.1f' y='%.1f' font-size='11'>",
                         lx, ly + 16 * (i + 1))
         << escape(outcome->plannedValueName(value)) << "  "
         << formatBytesShort(outcome->planned.values[value].bytes) << "</text>\n";
    }
  }
  os << "</svg>\n";
  return svg;
}
