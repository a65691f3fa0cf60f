//===- ShortSourceLines.cpp - Echo a window of the source line ------------===//

#include "remat/Support/ShortSourceLines.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>

using namespace remat;

void remat::printWithShortSourceLine(const llvm::SMDiagnostic &diag,
                                     llvm::raw_ostream &os, unsigned width) {
  llvm::StringRef line = diag.getLineContents();
  int column = diag.getColumnNo();
  if (line.size() <= width || column < 0 || !diag.getSourceMgr()) {
    diag.print(nullptr, os);
    return;
  }
  size_t caret = std::min<size_t>(column, line.size());
  size_t start = caret > width / 2 ? caret - width / 2 : 0;
  start = std::min(start, line.size() - width);
  size_t end = start + width;
  llvm::StringLiteral cut = "...";
  size_t shift = start > 0 ? cut.size() : 0;
  std::string window = (start > 0 ? cut.str() : std::string()) +
                       line.slice(start, end).str() +
                       (end < line.size() ? cut.str() : std::string());

  llvm::SmallVector<std::pair<unsigned, unsigned>> ranges;
  for (auto [first, last] : diag.getRanges()) {
    size_t from = std::max<size_t>(first, start);
    size_t to = std::min<size_t>(last, end);
    if (from < to)
      ranges.push_back({static_cast<unsigned>(from - start + shift),
                        static_cast<unsigned>(to - start + shift)});
  }
  // The location is printed here, from the real column; the copy only
  // places the caret in the window.
  if (!diag.getFilename().empty()) {
    os << (diag.getFilename() == "-" ? "<stdin>" : diag.getFilename());
    if (diag.getLineNo() != -1)
      os << ':' << diag.getLineNo() << ':' << (column + 1);
    os << ": ";
  }
  llvm::SMDiagnostic shortened(
      *diag.getSourceMgr(), diag.getLoc(), diag.getFilename(),
      diag.getLineNo(), static_cast<int>(caret - start + shift),
      diag.getKind(), diag.getMessage(), window, ranges);
  shortened.print(nullptr, os, /*ShowColors=*/true, /*ShowKindLabel=*/true,
                  /*ShowLocation=*/false);
}

void remat::shortenEchoedLines(llvm::SourceMgr &mgr, llvm::raw_ostream &os) {
  mgr.setDiagHandler(
      [](const llvm::SMDiagnostic &diag, void *stream) {
        printWithShortSourceLine(diag, *static_cast<llvm::raw_ostream *>(stream));
      },
      &os);
}
