//===- FuzzDiagnostics.h - Diagnostics and findings in fuzz targets -*- C++ -*-//
//
// A fuzz target feeds mostly invalid input, so errors are expected and must
// stay quiet (printing them would dominate the run). They are kept, though:
// when a target finds a broken contract (a tool producing IR that does not
// verify), it prints what was diagnosed and aborts, and libFuzzer saves the
// input as a crash.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_FUZZ_FUZZDIAGNOSTICS_H
#define REMAT_FUZZ_FUZZDIAGNOSTICS_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <string>

namespace remat::fuzz {

/// Collects every diagnostic of `context` while in scope instead of printing.
class CollectedDiagnostics {
public:
  explicit CollectedDiagnostics(mlir::MLIRContext &context)
      : handler(&context, [this](mlir::Diagnostic &diag) {
          llvm::raw_string_ostream os(text);
          os << diag.getLocation() << ": " << diag << "\n";
          for (const mlir::Diagnostic &note : diag.getNotes())
            os << "  note: " << note << "\n";
          return mlir::success();
        }) {}

  /// Prints `what` and the diagnostics so far, then aborts.
  [[noreturn]] void fail(llvm::StringRef what) const {
    llvm::errs() << "fuzz finding: " << what << "\n" << text;
    llvm::errs().flush();
    std::abort();
  }

private:
  std::string text;
  mlir::ScopedDiagnosticHandler handler;
};

} // namespace remat::fuzz

#endif // REMAT_FUZZ_FUZZDIAGNOSTICS_H
