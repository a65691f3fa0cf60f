//===- TargetMemory.cpp - How a target lays out a step's buffers ----------===//

#include "remat/Planning/TargetMemory.h"

#include "llvm/Support/MathExtras.h"

using namespace remat;

std::optional<TargetMemory> remat::lookupTargetMemory(llvm::StringRef name) {
  for (const TargetMemory &target : {kCpuTargetMemory, kGpuTargetMemory})
    if (target.name == name)
      return target;
  return std::nullopt;
}

std::string remat::checkArenaAlignment(uint64_t alignment) {
  if (!llvm::isPowerOf2_64(alignment))
    return "must be a power of two, not " + std::to_string(alignment);
  if (alignment > kMaxArenaAlignment)
    return "must be at most " + std::to_string(kMaxArenaAlignment) +
           ", not " + std::to_string(alignment);
  return "";
}
