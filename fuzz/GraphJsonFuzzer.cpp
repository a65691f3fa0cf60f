//===- GraphJsonFuzzer.cpp - libFuzzer target for the graph-JSON importer -===//
//
// Imports arbitrary bytes as networkx node-link JSON. The importer must
// either reject the input with a diagnostic or produce a module that
// verifies.
//
//===----------------------------------------------------------------------===//

#include "FuzzDiagnostics.h"

#include "remat/Target/GraphJson/ImportGraphJson.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include <cstdint>

using namespace mlir;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  MLIRContext context(MLIRContext::Threading::DISABLED);
  remat::fuzz::CollectedDiagnostics diagnostics(context);
  OwningOpRef<ModuleOp> module =
      remat::importGraphJson(text, "fuzz.json", &context);
  if (module && failed(verify(*module)))
    diagnostics.fail("the imported graph does not verify");
  return 0;
}
