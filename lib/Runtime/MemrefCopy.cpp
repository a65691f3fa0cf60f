//===- MemrefCopy.cpp - Strided memref copies -----------------------------===//
//
// finalize-memref-to-llvm lowers a memref.copy between non-contiguous
// memrefs (a padded convolution input written into a subview) to a call to
// `memrefCopy`, which upstream defines in libmlir_c_runner_utils. Defining it
// here keeps lowered code dependent on this library only.
//
//===----------------------------------------------------------------------===//

#include "remat/Runtime/RematRuntime.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace {

/// A ranked descriptor seen through its unranked form.
struct Descriptor {
  char *aligned;
  int64_t offset;
  const int64_t *sizes;
  const int64_t *strides;

  explicit Descriptor(int64_t rank, void *raw) {
    auto *words = static_cast<int64_t *>(raw);
    aligned = reinterpret_cast<char *>(words[1]);
    offset = words[2];
    sizes = words + 3;
    strides = words + 3 + rank;
  }
};

struct Unranked {
  int64_t rank;
  void *descriptor;
};

} // namespace

extern "C" void memrefCopy(int64_t elementSize, void *sourceArg,
                           void *targetArg) {
  auto *source = static_cast<Unranked *>(sourceArg);
  auto *target = static_cast<Unranked *>(targetArg);
  int64_t rank = source->rank;
  Descriptor src(rank, source->descriptor);
  Descriptor dst(rank, target->descriptor);
  for (int64_t d = 0; d < rank; ++d)
    if (src.sizes[d] == 0)
      return;
  // The innermost dimensions that both sides store contiguously make one
  // run, copied with one memcpy: a concatenation along the channels of an
  // NHWC tensor writes runs of a few hundred elements, and copying them an
  // element at a time was a fifth of SqueezeNet's step. A dimension of one
  // element joins the run whatever its strides.
  int64_t run = 1, outer = rank;
  for (; outer > 0; --outer) {
    int64_t d = outer - 1;
    if (src.sizes[d] != 1 &&
        (src.strides[d] != run || dst.strides[d] != run))
      break;
    run *= src.sizes[d];
  }
  size_t runBytes = static_cast<size_t>(run * elementSize);
  // The outer dimensions, walked like an odometer; the offsets follow
  // each step instead of being recomputed from the index.
  std::vector<int64_t> index(outer, 0);
  int64_t from = src.offset, to = dst.offset;
  while (true) {
    std::memcpy(dst.aligned + to * elementSize,
                src.aligned + from * elementSize, runBytes);
    int64_t d = outer - 1;
    for (; d >= 0; --d) {
      from += src.strides[d];
      to += dst.strides[d];
      if (++index[d] < src.sizes[d])
        break;
      from -= src.sizes[d] * src.strides[d];
      to -= dst.sizes[d] * dst.strides[d];
      index[d] = 0;
    }
    if (d < 0)
      return;
  }
}
