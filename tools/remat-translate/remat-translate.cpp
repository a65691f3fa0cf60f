//===- remat-translate.cpp - Importers into Remat's input IR --------------===//
//
// An mlir-translate-style driver for the formats Remat imports training
// graphs from. Each translation registers the dialects it produces. It owns
// its SourceMgr so that diagnostics echo a window of a long line (a one-line
// JSON graph), not all of it.
//
//===----------------------------------------------------------------------===//

#include "remat/Support/ShortSourceLines.h"
#include "remat/Support/ToolFiles.h"
#include "remat/Target/GraphJson/ImportGraphJson.h"
#include "remat/Target/ONNX/ImportONNX.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
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
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerTranslationCLOptions();
  llvm::cl::ParseCommandLineOptions(argc, argv, "Remat: model importers\n");

  std::optional<remat::ToolFiles> files = remat::openToolFiles(
      inputFilename, outputFilename, translation->getInputAlignment());
  if (!files)
    return 1;

  MLIRContext context;
  auto sourceMgr = std::make_shared<llvm::SourceMgr>();
  sourceMgr->AddNewSourceBuffer(std::move(files->input), llvm::SMLoc());
  remat::shortenEchoedLines(*sourceMgr);
  SourceMgrDiagnosticHandler diagnostics(*sourceMgr, &context);
  if (failed((*translation)(sourceMgr, files->output->os(), &context)))
    return 1;
  files->output->keep();
  return 0;
}
