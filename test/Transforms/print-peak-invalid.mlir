// RUN: not remat-opt %s --remat-print-peak -o /dev/null 2>&1 | FileCheck %s

// CHECK: print-peak-invalid.mlir:[[@LINE+1]]:20: error: the memory model needs static shapes: argument #0 has type 'tensor<?xf32>'
func.func @dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  %a = tosa.tanh %x : (tensor<?xf32>) -> tensor<?xf32>
  return %a : tensor<?xf32>
}
