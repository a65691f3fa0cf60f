// RUN: remat-opt %s --remat-pipeline="budget=1.0 report=%t.json" -o /dev/null
// RUN: FileCheck %s --input-file=%t.json

// A recomputation of two ops of 2^63 FLOPs each costs 2^64-1 FLOPs, not 0:
// FLOP sums saturate instead of wrapping (a wrapped sum made this plan
// free), and the report prints them as unsigned counts.
// CHECK:      "extra_flops": 18446744073709551615,
// CHECK:      "recomputed": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "bytes": 16384,
// CHECK-NEXT:     "flops": 18446744073709551615,
// CHECK-NEXT:     "loc":
// CHECK-NEXT:     "op": "tosa.tanh",
// CHECK-NEXT:     "seconds": null,
// CHECK-NEXT:     "times": 1,
// CHECK-NEXT:     "value": "%1"
remat.graph @huge(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %a = tosa.tanh %x {remat.flops = 9223372036854775808 : ui64, remat.save = false} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %b = tosa.tanh %a {remat.flops = 9223372036854775808 : ui64, remat.save = false} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %f = tosa.add %b, %x : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  remat.backward
  %c = tosa.add %b, %f : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  remat.return %c : tensor<64x64xf32>
}
