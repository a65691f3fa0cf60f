//===- TimelineSvg.cpp - A picture of live memory over program order ------===//
//
// One panel per graph: live bytes at every op before (grey) and after (blue)
// rematerialization, x scaled to each program's length so that both span the
// panel, the budget as a dashed red line, each peak marked, and the largest
// tensors live at the final peak listed beside it.
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

  void axes(size_t ops) {
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
                       "text-anchor='middle'>program order (%zu ops before "
                       "rematerialization)</text>\n",
                       (kLeft + kWidth - kRight) / 2, bottom + 28, ops);
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

  void marker(size_t index, size_t count, uint64_t bytes, const char *color) {
    os << llvm::format("<circle cx='%.1f' cy='%.1f' r='4' fill='%s'/>\n",
                       x(index, count), y(bytes), color);
  }

private:
  llvm::raw_ostream &os;
  double y0;
  uint64_t maxBytes;
};

} // namespace

std::string remat::renderTimelineSvg(
    llvm::ArrayRef<const PlanOutcome *> outcomes) {
  std::string svg;
  llvm::raw_string_ostream os(svg);
  double height = kPanelHeight * std::max<size_t>(outcomes.size(), 1);
  os << llvm::format("<svg xmlns='http://www.w3.org/2000/svg' width='%.0f' "
                     "height='%.0f' font-family='sans-serif'>\n",
                     kWidth, height);
  os << "<rect width='100%' height='100%' fill='white'/>\n";
  for (auto [index, outcome] : llvm::enumerate(outcomes)) {
    double y0 = index * kPanelHeight;
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
    panel.axes(outcome->before.liveBytes.size());
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
