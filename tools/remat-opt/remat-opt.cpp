//===- remat-opt.cpp - The Remat optimizer driver -------------------------===//
//
// An mlir-opt-style driver: the remat dialect, the upstream dialects a
// training step and its lowering use, the upstream passes the lowering
// pipelines are built from, and every Remat pass and pipeline. Diagnostics
// from the parser and the passes echo a window of a long source line (an
// imported step's signature), not all of it. The passes' output files are
// written only when the whole run succeeds (remat/Support/ToolFiles.h).
//
//===----------------------------------------------------------------------===//

#include "remat/InitRemat.h"
#include "remat/Support/ShortSourceLines.h"
#include "remat/Support/ToolFiles.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

namespace {

/// Prints the diagnostics of one pass manager's run through a SourceMgr that
/// shortens echoed lines. Owned by the pass manager, so the handler goes
/// before the context does.
struct ShortLineDiagnostics final : PassInstrumentation {
  ShortLineDiagnostics(llvm::SourceMgr &sources, MLIRContext *context)
      : handler(sources, context) {}
  SourceMgrDiagnosticHandler handler;
};

bool hasLongLine(llvm::StringRef text) {
  return llvm::any_of(llvm::split(text, '\n'), [](llvm::StringRef line) {
    return line.size() > remat::kEchoedLineWidth;
  });
}

/// Parses `sources` once with shortened echoes. The parser reports through
/// MlirOptMain's own SourceMgr, which echoes whole lines; parsing first here
/// makes a syntax error on a long line echo a window of it.
LogicalResult parsesWithShortLines(llvm::SourceMgr &sources,
                                   const DialectRegistry &registry,
                                   const MlirOptMainConfig &config) {
  MLIRContext context(registry);
  context.allowUnregisteredDialects(config.shouldAllowUnregisteredDialects());
  SourceMgrDiagnosticHandler handler(sources, &context);
  ParserConfig parserConfig(&context, config.shouldVerifyOnParsing());
  return success(static_cast<bool>(
      parseSourceFile<ModuleOp>(sources, parserConfig)));
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  DialectRegistry registry;
  remat::registerRematDialects(registry);
  remat::registerUpstreamDialects(registry);
  remat::registerUpstreamPasses();
  remat::registerRematPasses();
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "Remat: rematerialization for training steps\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  bool readsInput = !config.shouldShowDialects() && !config.shouldListPasses();

  // The passes' outputs (report=, timeline=) are written only when the
  // whole run succeeds, and no two outputs may be the same file.
  remat::OutputFiles &outputs = remat::OutputFiles::get();
  outputs.hold();
  std::optional<remat::ToolFiles> files = remat::openToolFiles(
      readsInput ? llvm::StringRef(inputFilename) : "/dev/null",
      outputFilename);
  if (!files)
    return 1;
  std::unique_ptr<llvm::MemoryBuffer> input = std::move(files->input);

  // The parser's own diagnostics go through MlirOptMain's SourceMgr; the
  // passes' through a copy of the input whose echoed lines are shortened.
  llvm::SourceMgr sources;
  sources.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(input->getBuffer(),
                                           input->getBufferIdentifier()),
      llvm::SMLoc());
  remat::shortenEchoedLines(sources);
  if (readsInput && !config.shouldVerifyDiagnostics() &&
      config.inputSplitMarker().empty() && hasLongLine(input->getBuffer()) &&
      failed(parsesWithShortLines(sources, registry, config)))
    return 1;
  if (!config.shouldVerifyDiagnostics()) {
    MlirOptMainConfig fromCommandLine = config;
    config.setPassPipelineSetupFn([&sources, fromCommandLine](PassManager &pm) {
      pm.addInstrumentation(
          std::make_unique<ShortLineDiagnostics>(sources, pm.getContext()));
      return fromCommandLine.setupPassPipeline(pm);
    });
  }
  if (failed(MlirOptMain(files->output->os(), std::move(input), registry,
                         config))) {
    outputs.discard();
    return 1;
  }
  if (llvm::Error error = outputs.commit()) {
    llvm::errs() << llvm::toString(std::move(error)) << "\n";
    return 1;
  }
  files->output->keep();
  return 0;
}
