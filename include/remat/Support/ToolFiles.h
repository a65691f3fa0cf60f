//===- ToolFiles.h - The input and output of a command-line tool -*- C++ -*-===//

#ifndef REMAT_SUPPORT_TOOLFILES_H
#define REMAT_SUPPORT_TOOLFILES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Alignment.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

#include <memory>
#include <optional>

namespace remat {

struct ToolFiles {
  std::unique_ptr<llvm::MemoryBuffer> input;
  std::unique_ptr<llvm::ToolOutputFile> output;
};

/// Opens `input` ("-": stdin) and `output` ("-": stdout) for a tool; prints
/// why to stderr and returns std::nullopt when either cannot be opened.
std::optional<ToolFiles>
openToolFiles(llvm::StringRef input, llvm::StringRef output,
              std::optional<llvm::Align> alignment = std::nullopt);

} // namespace remat

#endif // REMAT_SUPPORT_TOOLFILES_H
