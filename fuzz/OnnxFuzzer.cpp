//===- OnnxFuzzer.cpp - libFuzzer target for the ONNX importer ------------===//
//
// Imports arbitrary bytes as a serialized onnx.ModelProto. The importer must
// either reject the model with a diagnostic or produce a module that
// verifies. The input's length picks the import options, so that the
// training form of BatchNormalization and the head adaptation are covered
// too without spending input bytes on them.
//
//===----------------------------------------------------------------------===//

#include "FuzzDiagnostics.h"

#include "remat/Target/ONNX/ImportONNX.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>

using namespace mlir;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::unique_ptr<llvm::MemoryBuffer> buffer = llvm::MemoryBuffer::getMemBuffer(
      llvm::StringRef(reinterpret_cast<const char *>(data), size), "fuzz.onnx",
      /*RequiresNullTerminator=*/false);
  remat::OnnxImportOptions options;
  options.batchNormTraining = size % 2;
  options.adapt = (size / 2) % 2;

  MLIRContext context(MLIRContext::Threading::DISABLED);
  remat::fuzz::CollectedDiagnostics diagnostics(context);
  OwningOpRef<ModuleOp> module =
      remat::importOnnxModel(*buffer, &context, options);
  if (module && failed(verify(*module)))
    diagnostics.fail("the imported model does not verify");
  return 0;
}
