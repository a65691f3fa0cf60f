//===- Npy.h - Reading and writing .npy files -------------------*- C++ -*-===//
//
// The NumPy array format of remat-run's --input and --output-dir: a magic
// string, a version, the length of a header that is a Python dict literal
// ({'descr': '<f4', 'fortran_order': False, 'shape': (4, 8), }), then the
// data. The reader checks every part and says which one is wrong.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_TOOLS_REMATRUN_NPY_H
#define REMAT_TOOLS_REMATRUN_NPY_H

#include "Tensors.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace remat::run {

/// What the header of a .npy file says.
struct NpyHeader {
  std::string descr;
  bool fortranOrder = false;
  llvm::SmallVector<int64_t> shape;
  /// Where the data starts in the file.
  size_t dataOffset = 0;
};

/// Parses the magic string, version, header length and header dictionary of
/// the .npy file `bytes`: the dictionary must have exactly the keys `descr`
/// (a string), `fortran_order` (True or False) and `shape` (a tuple of
/// non-negative integers). Fails with a message naming the part that is
/// wrong.
llvm::Expected<NpyHeader> parseNpyHeader(llvm::StringRef bytes);

/// Reads a little-endian, C-ordered .npy file into `data`, which holds
/// `spec.numBytes()` bytes; fails unless its dtype and shape are `spec`'s
/// and it holds exactly that many data bytes.
llvm::Error readNpy(llvm::StringRef path, const TensorSpec &spec, void *data);

/// The bytes of a .npy file (format 1.0, C order) holding `data` (dense,
/// row-major, `spec.numBytes()` bytes), which readNpy and numpy read back.
std::string encodeNpy(const TensorSpec &spec, const void *data);

} // namespace remat::run

#endif // REMAT_TOOLS_REMATRUN_NPY_H
