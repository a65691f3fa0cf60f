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
  int64_t count = 1;
  for (int64_t d = 0; d < rank; ++d)
    count *= src.sizes[d];
  if (count == 0)
    return;
  std::vector<int64_t> index(rank, 0);
  for (int64_t linear = 0; linear < count; ++linear) {
    int64_t from = src.offset, to = dst.offset;
    for (int64_t d = 0; d < rank; ++d) {
      from += index[d] * src.strides[d];
      to += index[d] * dst.strides[d];
    }
    std::memcpy(dst.aligned + to * elementSize,
                src.aligned + from * elementSize, elementSize);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < src.sizes[d])
        break;
      index[d] = 0;
    }
  }
}
