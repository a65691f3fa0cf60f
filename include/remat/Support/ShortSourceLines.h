//===- ShortSourceLines.h - Echo a window of the source line --*- C++ -*-===//
//
// A diagnostic echoes the source line it points into. A one-line JSON graph
// or an imported step's signature can be tens of kilobytes on one line, so
// every tool echoes at most a window of it around the caret.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_SUPPORT_SHORTSOURCELINES_H
#define REMAT_SUPPORT_SHORTSOURCELINES_H

#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace remat {

/// Columns of an echoed source line shown around the caret.
constexpr unsigned kEchoedLineWidth = 200;

/// Prints `diag` as llvm::SourceMgr would, except that a source line longer
/// than `width` columns is cut to the `width` columns around the caret, with
/// "..." where it was cut. The location printed stays the real one.
void printWithShortSourceLine(const llvm::SMDiagnostic &diag,
                              llvm::raw_ostream &os,
                              unsigned width = kEchoedLineWidth);

/// Makes every message printed through `mgr` (also by MLIR's
/// SourceMgrDiagnosticHandler) go to `os` through printWithShortSourceLine.
void shortenEchoedLines(llvm::SourceMgr &mgr,
                        llvm::raw_ostream &os = llvm::errs());

} // namespace remat

#endif // REMAT_SUPPORT_SHORTSOURCELINES_H
