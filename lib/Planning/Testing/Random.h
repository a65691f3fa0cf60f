//===- Random.h - The one random source of the generators -------*- C++ -*-===//
//
// Private to lib/Planning/Testing. Deterministic across platforms: only the
// raw output of mt19937_64 is used (the standard distributions are
// implementation-defined), so a seed names the same graph everywhere.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_LIB_PLANNING_TESTING_RANDOM_H
#define REMAT_LIB_PLANNING_TESTING_RANDOM_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace remat {

class Rng {
public:
  explicit Rng(uint64_t seed) : engine(seed) {}
  /// In [lo, hi].
  uint64_t uniform(uint64_t lo, uint64_t hi) {
    return lo + engine() % (hi - lo + 1);
  }
  /// In [0, n).
  uint64_t below(uint64_t n) { return engine() % n; }
  /// In [0, 1).
  double unit() { return double(engine() >> 11) / double(1ull << 53); }
  bool chance(double p) { return unit() < p; }
  uint64_t logUniform(uint64_t lo, uint64_t hi) {
    double a = std::log(double(std::max<uint64_t>(lo, 1)));
    double b = std::log(double(std::max<uint64_t>(hi, 1)));
    return std::max<uint64_t>(lo, uint64_t(std::exp(a + (b - a) * unit())));
  }
  template <typename T>
  const T &pick(const std::vector<T> &from) {
    return from[below(from.size())];
  }

private:
  std::mt19937_64 engine;
};

} // namespace remat

#endif // REMAT_LIB_PLANNING_TESTING_RANDOM_H
