// RUN: remat-opt %s --split-input-file --remat-approximate-math | FileCheck %s

// Vector and scalar f32 transcendentals become arithmetic.
// CHECK-LABEL: func.func @f32_ops
// CHECK-NOT:     math.tanh
// CHECK-NOT:     math.exp
// CHECK-NOT:     math.log
// CHECK-NOT:     math.erf
// CHECK:         return
func.func @f32_ops(%v: vector<16xf32>, %s: f32) -> (vector<16xf32>, vector<16xf32>, f32, f32) {
  %t = math.tanh %v : vector<16xf32>
  %e = math.exp %v : vector<16xf32>
  %l = math.log %s : f32
  %r = math.erf %s : f32
  return %t, %e, %l, %r : vector<16xf32>, vector<16xf32>, f32, f32
}

// -----

// What has no approximation stays: rsqrt (an LLVM intrinsic, a vector
// instruction already) and f64 (whose approximations would lose precision).
// CHECK-LABEL: func.func @kept
// CHECK:         math.rsqrt
// CHECK:         math.tanh {{.*}} : vector<8xf64>
func.func @kept(%v: vector<16xf32>, %d: vector<8xf64>) -> (vector<16xf32>, vector<8xf64>) {
  %r = math.rsqrt %v : vector<16xf32>
  %t = math.tanh %d : vector<8xf64>
  return %r, %t : vector<16xf32>, vector<8xf64>
}
