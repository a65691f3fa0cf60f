// RUN: remat-opt %s --split-input-file --verify-diagnostics

// `remat.flops` is a count: a negative one would make recomputing an op gain
// FLOPs.
func.func @negative(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'math.tanh' op 'remat.flops' must be a non-negative integer of at most 64 bits, got -5 : i64}}
  %y = math.tanh %x {remat.flops = -5} : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @string(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'remat.flops' must be a non-negative integer of at most 64 bits, got "lots"}}
  %y = math.tanh %x {remat.flops = "lots"} : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @fraction(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'remat.flops' must be a non-negative integer of at most 64 bits, got 1.500000e+00 : f32}}
  %y = math.tanh %x {remat.flops = 1.5 : f32} : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @too_wide(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'remat.flops' must be a non-negative integer of at most 64 bits, got 18446744073709551616 : i128}}
  %y = math.tanh %x {remat.flops = 18446744073709551616 : i128} : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// The largest count there is: 2^64-1, spelled as an unsigned integer.
func.func @largest(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = math.tanh %x {remat.flops = 18446744073709551615 : ui64} : tensor<4xf32>
  %z = math.tanh %y {remat.flops = 0 : index} : tensor<4xf32>
  return %z : tensor<4xf32>
}
