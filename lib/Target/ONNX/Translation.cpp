//===- Translation.cpp - The --import-onnx translation --------------------===//

#include "remat/Target/ONNX/ImportONNX.h"

#include "Importer.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <limits>

using namespace mlir;
using namespace remat;

OwningOpRef<ModuleOp> remat::importOnnxModel(const llvm::MemoryBuffer &buffer,
                                             MLIRContext *context,
                                             const OnnxImportOptions &options) {
  context->loadDialect<func::FuncDialect, linalg::LinalgDialect,
                      tosa::TosaDialect>();
  Location fileLoc =
      FileLineColLoc::get(context, buffer.getBufferIdentifier(), 0, 0);
  if (buffer.getBufferSize() > std::numeric_limits<int>::max()) {
    emitError(fileLoc) << "the model is larger than 2 GiB";
    return nullptr;
  }
  onnx::ModelProto model;
  if (!model.ParseFromArray(buffer.getBufferStart(),
                            static_cast<int>(buffer.getBufferSize()))) {
    emitError(fileLoc) << "not an ONNX model, or a truncated one: the "
                          "protobuf does not parse";
    return nullptr;
  }
  onnx_import::Importer importer(context, model, options);
  return importer.run();
}

void remat::registerImportOnnxTranslation() {
  static llvm::cl::OptionCategory category("ONNX import options");
  static llvm::cl::opt<int64_t> batch(
      "onnx-batch",
      llvm::cl::desc("Batch size of the data inputs, positive (default: as "
                     "the model gives it)"),
      llvm::cl::init(0), llvm::cl::cat(category));
  static llvm::cl::opt<std::string> inputShape(
      "onnx-input-shape",
      llvm::cl::desc("Dims of the data input after the batch, e.g. 3x32x32"),
      llvm::cl::init(""), llvm::cl::cat(category));
  static llvm::cl::opt<bool> batchNormTraining(
      "onnx-batchnorm-training",
      llvm::cl::desc("Import BatchNormalization in its training form (batch "
                     "statistics)"),
      llvm::cl::init(false), llvm::cl::cat(category));
  static llvm::cl::opt<bool> adapt(
      "onnx-adapt",
      llvm::cl::desc("Adapt the classifier head to a smaller input: pools "
                     "larger than their input become global, Reshape keeps "
                     "the batch and flattens the rest, Gemm weights take "
                     "their input's size"),
      llvm::cl::init(false), llvm::cl::cat(category));
  static llvm::cl::opt<std::string> functionName(
      "onnx-function", llvm::cl::desc("Name of the imported function"),
      llvm::cl::init(""), llvm::cl::cat(category));

  TranslateToMLIRRegistration registration(
      "import-onnx", "Import an ONNX model as a func.func of TOSA",
      [](llvm::SourceMgr &sourceMgr,
         MLIRContext *context) -> OwningOpRef<Operation *> {
        OnnxImportOptions options;
        options.batch = batch;
        options.batchNormTraining = batchNormTraining;
        options.adapt = adapt;
        options.functionName = functionName;
        Location cli = FileLineColLoc::get(context, "<command line>", 0, 0);
        // 0 is the internal "keep"; written out, it is a mistake.
        if (batch.getNumOccurrences() && batch <= 0) {
          emitError(cli) << "--onnx-batch: expected a positive batch size, got "
                         << batch.getValue();
          return nullptr;
        }
        if (!inputShape.empty()) {
          SmallVector<StringRef> dims;
          StringRef(inputShape).split(dims, 'x');
          for (StringRef d : dims) {
            int64_t v;
            if (d.getAsInteger(10, v) || v <= 0) {
              emitError(cli) << "--onnx-input-shape: expected dims like "
                                "3x32x32, got '"
                             << inputShape << "'";
              return nullptr;
            }
            options.inputShape.push_back(v);
          }
        }
        const llvm::MemoryBuffer *buffer =
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
        return importOnnxModel(*buffer, context, options);
      },
      [](DialectRegistry &registry) {
        registry.insert<func::FuncDialect, linalg::LinalgDialect,
                        tosa::TosaDialect>();
      });
}
