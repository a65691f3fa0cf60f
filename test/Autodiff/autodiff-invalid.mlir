// RUN: remat-opt %s --split-input-file --verify-diagnostics --remat-autodiff

func.func @no_rule(%x: tensor<3xf32>, %w: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @below {{remat-autodiff: no derivative rule for 'tosa.cos'}}
  %0 = tosa.cos %w : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// An op off the parameters' path needs no rule.
func.func @inactive(%x: tensor<3xf32>, %w: tensor<3xf32>) -> tensor<3xf32> {
  %0 = tosa.cos %x : (tensor<3xf32>) -> tensor<3xf32>
  %1 = tosa.add %0, %w : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %1 : tensor<3xf32>
}

// -----

// expected-error @below {{remat-autodiff: parameter 1 is not a statically shaped float tensor}}
func.func @dynamic(%x: tensor<3xf32>, %w: tensor<?xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}

// -----

// expected-error @below {{remat-autodiff: several functions; choose one with function=<name>}}
module {
  func.func @a(%x: tensor<3xf32>) -> tensor<3xf32> {
    return %x : tensor<3xf32>
  }
  func.func @b(%x: tensor<3xf32>) -> tensor<3xf32> {
    return %x : tensor<3xf32>
  }
}
