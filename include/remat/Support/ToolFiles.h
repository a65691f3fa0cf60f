//===- ToolFiles.h - The input and output of a command-line tool -*- C++ -*-===//
//
// A tool reads one input and writes one output, and its passes may write
// more files (a report, a timeline, result arrays). Every output path is
// claimed before any work, so that two outputs naming the same file, or one
// in a directory that does not exist, fail at once; and every output is
// staged and written at the end, so that a run that fails writes nothing.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_SUPPORT_TOOLFILES_H
#define REMAT_SUPPORT_TOOLFILES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Alignment.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace remat {

struct ToolFiles {
  std::unique_ptr<llvm::MemoryBuffer> input;
  std::unique_ptr<llvm::ToolOutputFile> output;
};

/// Opens `input` ("-": stdin) and `output` ("-": stdout) for a tool, the
/// output claimed in OutputFiles as "the output file"; prints why to stderr
/// and returns std::nullopt when either cannot be opened.
std::optional<ToolFiles>
openToolFiles(llvm::StringRef input, llvm::StringRef output,
              std::optional<llvm::Align> alignment = std::nullopt);

/// The output files of this process other than a tool's main output.
class OutputFiles {
public:
  /// The process's one instance: a tool and the passes it runs share it.
  static OutputFiles &get();

  /// Claims `path` ("-": standard output) for `what` ("the report"). Fails
  /// when another claimed output is the same file (also through another
  /// spelling, a symbolic link or a hard link), when its directory does
  /// not exist or cannot be written, or when it is a directory.
  llvm::Error claim(llvm::StringRef path, llvm::StringRef what);

  /// Ends a claim, as a pass does when its run ends.
  void release(llvm::StringRef path);

  /// Writes `contents` to a temporary file beside `path` (standard output:
  /// keeps them in memory), replacing what was staged for `path` before.
  llvm::Error stage(llvm::StringRef path, llvm::StringRef contents);

  /// From now on, only the holder commits: a tool holds the outputs of
  /// the passes it runs and commits them when the whole run succeeded.
  void hold();
  bool isHeld() const;

  /// Moves every staged output to its path; on a failure the remaining
  /// ones are discarded.
  llvm::Error commit();
  /// Deletes every staged output.
  void discard();

  ~OutputFiles();

private:
  OutputFiles() = default;

  struct Claim {
    std::string path;
    std::string what;
    /// "-", or the absolute path with its directory's symbolic links
    /// resolved.
    std::string key;
    std::optional<llvm::sys::fs::UniqueID> id;
  };
  struct Staged {
    std::string path;
    std::optional<llvm::sys::fs::TempFile> file;
    /// Without `file`: what goes to stdout ("-") or to a device or FIFO
    /// (/dev/null), which is written in place, never renamed over.
    std::string contents;
  };

  mutable std::mutex mutex;
  std::vector<Claim> claims;
  std::vector<Staged> staged;
  bool held = false;
};

/// The claims of one run of a pass: released when it goes out of scope.
class OutputClaims {
public:
  OutputClaims() = default;
  OutputClaims(const OutputClaims &) = delete;
  OutputClaims &operator=(const OutputClaims &) = delete;
  ~OutputClaims();

  /// OutputFiles::claim, remembered for release; an empty path claims
  /// nothing.
  llvm::Error claim(llvm::StringRef path, llvm::StringRef what);

private:
  std::vector<std::string> paths;
};

} // namespace remat

#endif // REMAT_SUPPORT_TOOLFILES_H
