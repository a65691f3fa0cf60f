//===- ToolFiles.cpp - The input and output of a command-line tool --------===//

#include "remat/Support/ToolFiles.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace remat;

std::optional<ToolFiles> remat::openToolFiles(llvm::StringRef input,
                                              llvm::StringRef output,
                                              std::optional<llvm::Align>
                                                  alignment) {
  ToolFiles files;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFileOrSTDIN(input, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/true,
                                         alignment);
  if (!buffer) {
    llvm::errs() << "cannot open input file '" << input
                 << "': " << buffer.getError().message() << "\n";
    return std::nullopt;
  }
  files.input = std::move(*buffer);
  std::error_code error;
  files.output = std::make_unique<llvm::ToolOutputFile>(
      output, error, llvm::sys::fs::OF_None);
  if (error) {
    llvm::errs() << "cannot open output file '" << output
                 << "': " << error.message() << "\n";
    return std::nullopt;
  }
  return files;
}
