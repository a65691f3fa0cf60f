// RUN: remat-opt %s --split-input-file --verify-diagnostics --remat-autodiff="optimizer=rmsprop"
// RUN: not remat-opt %s --remat-autodiff="optimizer=sgd lr=-1" 2>&1 | FileCheck %s --check-prefix=LR
// RUN: not remat-opt %s --remat-autodiff="optimizer=momentum momentum=1" 2>&1 | FileCheck %s --check-prefix=MOMENTUM
// RUN: not remat-opt %s --remat-autodiff="optimizer=adam beta2=1.5" 2>&1 | FileCheck %s --check-prefix=BETA
// RUN: not remat-opt %s --remat-autodiff="optimizer=adam eps=0" 2>&1 | FileCheck %s --check-prefix=EPS

// LR: error: remat-autodiff: lr=-1 must be positive
// MOMENTUM: error: remat-autodiff: momentum=1 must be in [0, 1)
// BETA: error: remat-autodiff: beta2=1.5 must be in [0, 1)
// EPS: error: remat-autodiff: eps=0 must be positive

// expected-error @below {{remat-autodiff: unknown optimizer 'rmsprop' (expected sgd, momentum or adam)}}
func.func @f(%x: tensor<3xf32>, %w: tensor<3xf32>) -> tensor<3xf32> {
  %0 = tosa.add %x, %w : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
