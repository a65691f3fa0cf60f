//===- remat-translate.cpp - Importers into Remat's input IR --------------===//
//
// An mlir-translate-style driver for the formats Remat imports training
// graphs from. Each translation registers the dialects it produces.
//
//===----------------------------------------------------------------------===//

#include "remat/Target/GraphJson/ImportGraphJson.h"
#include "remat/Target/ONNX/ImportONNX.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  remat::registerImportOnnxTranslation();
  remat::registerImportGraphJsonTranslation();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "Remat: model importers\n"));
}
