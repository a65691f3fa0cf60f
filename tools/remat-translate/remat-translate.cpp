//===- remat-translate.cpp - Importers into Remat's input IR --------------===//
//
// An mlir-translate-style driver for the formats Remat imports training
// graphs from. Each translation registers the dialects it produces. It owns
// its SourceMgr so that diagnostics echo a window of a long line (a one-line
// JSON graph), not all of it. Like mlir-translate it splits its input with
// --split-input-file, so that one file holds many graphs.
//
//===----------------------------------------------------------------------===//

#include "remat/Support/ShortSourceLines.h"
#include "remat/Support/ToolFiles.h"
#include "remat/Target/GraphJson/ImportGraphJson.h"
#include "remat/Target/ONNX/ImportONNX.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/ToolUtilities.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  remat::registerImportOnnxTranslation();
  remat::registerImportGraphJsonTranslation();

  static llvm::cl::opt<std::string> inputFilename(
      llvm::cl::Positional, llvm::cl::desc("<input file>"),
      llvm::cl::init("-"));
  static llvm::cl::opt<std::string> outputFilename(
      "o", llvm::cl::desc("Output filename"),
      llvm::cl::value_desc("filename"), llvm::cl::init("-"));
  llvm::cl::opt<const Translation *, false, TranslationParser> translation(
      "", llvm::cl::desc("Translation to perform"), llvm::cl::Required);
  static llvm::cl::opt<std::string> inputSplitMarker(
      "split-input-file", llvm::cl::ValueOptional,
      llvm::cl::callback([](const std::string &marker) {
        if (marker.empty())
          inputSplitMarker.setValue(kDefaultSplitMarker);
      }),
      llvm::cl::desc("Split the input at the given marker (default "
                     "'// -----') and translate each chunk on its own"),
      llvm::cl::init(""));
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerTranslationCLOptions();
  llvm::cl::ParseCommandLineOptions(argc, argv, "Remat: model importers\n");

  std::optional<remat::ToolFiles> files = remat::openToolFiles(
      inputFilename, outputFilename, translation->getInputAlignment());
  if (!files)
    return 1;

  auto translateChunk = [&](std::unique_ptr<llvm::MemoryBuffer> chunk,
                            raw_ostream &os) -> LogicalResult {
    MLIRContext context;
    auto sourceMgr = std::make_shared<llvm::SourceMgr>();
    sourceMgr->AddNewSourceBuffer(std::move(chunk), llvm::SMLoc());
    remat::shortenEchoedLines(*sourceMgr);
    SourceMgrDiagnosticHandler diagnostics(*sourceMgr, &context);
    return (*translation)(sourceMgr, os, &context);
  };
  if (failed(splitAndProcessBuffer(std::move(files->input), translateChunk,
                                   files->output->os(), inputSplitMarker,
                                   inputSplitMarker.empty() ? ""
                                                            : "// -----")))
    return 1;
  files->output->keep();
  return 0;
}
