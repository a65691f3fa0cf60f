// One core's fp32 multiply-add peak, measured: independent chains of
// vector FMAs (16 lanes, as wide as AVX-512; narrower units split them),
// enough of them to cover the FMA latency, timed over about 0.3 s, best of 5.
// Prints GFLOP/s (a multiply-add is 2 FLOPs). bench/compiled-speed.py
// compiles it with clang -O2 -march=native -mprefer-vector-width=512
// -ffp-contract=fast (bench/fma_peak.py says why the width).
#include <stdio.h>
#include <time.h>

typedef float v16 __attribute__((vector_size(64)));

enum { kChains = 12, kSteps = 1 << 25 };

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(void) {
  v16 acc[kChains];
  v16 a, b;
  for (int l = 0; l < 16; ++l) {
    a[l] = 0.999999f;
    b[l] = 1e-7f;
  }
  for (int c = 0; c < kChains; ++c)
    for (int l = 0; l < 16; ++l)
      acc[c][l] = (float)(c + l);
  double best = 0;
  for (int trial = 0; trial < 5; ++trial) {
    double start = seconds();
    for (int s = 0; s < kSteps; ++s)
      for (int c = 0; c < kChains; ++c)
        acc[c] = acc[c] * a + b;
    double rate = 2.0 * 16 * kChains * kSteps / (seconds() - start) / 1e9;
    if (rate > best)
      best = rate;
  }
  float sum = 0;
  for (int c = 0; c < kChains; ++c)
    for (int l = 0; l < 16; ++l)
      sum += acc[c][l];
  fprintf(stderr, "checksum %g\n", sum);
  printf("%.1f\n", best);
  return 0;
}
