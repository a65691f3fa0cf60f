//===- Tensors.h - Arguments and results of a step --------------*- C++ -*-===//
//
// Host buffers for the tensors a step takes and returns: deterministic
// filling from a seed and the digest (sum, FNV-1a hash) that
// remat-run prints. The ahead-of-time driver (ExecutableEmitter.cpp) emits C
// code that computes the same values bit for bit.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_TOOLS_REMATRUN_TENSORS_H
#define REMAT_TOOLS_REMATRUN_TENSORS_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <string>

namespace remat::run {

enum class DType { F32, F64, I32, I64, I8, I1 };

/// The static shape and element type of an argument or result.
struct TensorSpec {
  llvm::SmallVector<int64_t> shape;
  DType dtype;

  int64_t numElements() const;
  int64_t elementBytes() const;
  int64_t numBytes() const { return numElements() * elementBytes(); }
  std::string shapeString() const;
};

/// The spec of a statically shaped tensor or identity-layout memref type.
llvm::Expected<TensorSpec> specOfType(mlir::Type type);
const char *dtypeName(DType dtype);

/// splitmix64: the seed generator of remat-run and of emitted executables.
uint64_t nextRandom(uint64_t &state);

/// Fills `data` with `spec.numElements()` values drawn from `state`: floats
/// in [-0.5, 0.5) (24 random bits, exact in f32), integers in [-8, 8),
/// booleans 0/1.
void fillFromSeed(const TensorSpec &spec, void *data, uint64_t &state);

struct Digest {
  double sum = 0;
  uint64_t hash = 0;
};

/// Sum of the elements (in order, as doubles) and 64-bit FNV-1a of the raw
/// bytes of a dense row-major buffer.
Digest digest(const TensorSpec &spec, const void *data);

/// Writes the digest as remat-run prints it: {"shape":[...],"dtype":...,
/// "sum":...,"hash":"<16 hex digits>"}, a sum that is not finite as the
/// string "inf", "-inf" or "nan" (jsonNumber).
void writeDigestJson(llvm::json::OStream &json, const TensorSpec &spec,
                     const Digest &digest);

} // namespace remat::run

#endif // REMAT_TOOLS_REMATRUN_TENSORS_H
