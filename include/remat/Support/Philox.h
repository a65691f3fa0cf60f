//===- Philox.h - The Philox4x32-10 counter-based generator -----*- C++ -*-===//
//
// Philox4x32 with 10 rounds (Salmon, Moraes, Dror, Shaw: "Parallel random
// numbers: as easy as 1, 2, 3", SC 2011): the random bits are a pure
// function of a 128-bit counter and a 64-bit key, so any element of a
// stream can be computed alone, and computing it again gives the same
// bits. This is the reference the dropout kernels (Tosa/RandomKernels.h)
// emit in IR, round for round.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_SUPPORT_PHILOX_H
#define REMAT_SUPPORT_PHILOX_H

#include <array>
#include <cstdint>

namespace remat::philox {

constexpr uint32_t kMultiplier0 = 0xD2511F53, kMultiplier1 = 0xCD9E8D57;
/// The key increments ("Weyl" constants: the golden ratio, sqrt(3) - 1).
constexpr uint32_t kWeyl0 = 0x9E3779B9, kWeyl1 = 0xBB67AE85;
constexpr int kRounds = 10;

using Counter = std::array<uint32_t, 4>;
using Key = std::array<uint32_t, 2>;

constexpr Counter round(const Counter &c, const Key &k) {
  uint64_t p0 = uint64_t(kMultiplier0) * c[0];
  uint64_t p1 = uint64_t(kMultiplier1) * c[2];
  return {uint32_t(p1 >> 32) ^ c[1] ^ k[0], uint32_t(p1),
          uint32_t(p0 >> 32) ^ c[3] ^ k[1], uint32_t(p0)};
}

/// The 128 random bits of `counter` under `key`.
constexpr Counter philox4x32(Counter counter, Key key) {
  for (int r = 0; r < kRounds; ++r) {
    if (r > 0)
      key = {key[0] + kWeyl0, key[1] + kWeyl1};
    counter = round(counter, key);
  }
  return counter;
}

/// Element `index` of a dropout stream: counter (index, 0, 0) split into
/// 32-bit words, key (seed, 0); the first output word.
constexpr uint32_t streamBits(uint32_t seed, uint64_t index) {
  return philox4x32({uint32_t(index), uint32_t(index >> 32), 0, 0},
                    {seed, 0})[0];
}

/// Whether dropout with `ratio` keeps an element whose bits are `bits`:
/// P(keep) = 1 - ratio, to 2^-32.
constexpr uint32_t keepThreshold(double ratio) {
  double t = ratio * 4294967296.0;
  return t >= 4294967295.0 ? 0xFFFFFFFFu : uint32_t(t);
}

} // namespace remat::philox

#endif // REMAT_SUPPORT_PHILOX_H
