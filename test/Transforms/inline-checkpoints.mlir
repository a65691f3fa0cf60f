// RUN: remat-opt %s --split-input-file --remat-inline-checkpoints | FileCheck %s

// The body moves into the graph; each op records the policy's verdict.
// CHECK-LABEL: func.func @dots
// CHECK-NOT:     remat.checkpoint
// CHECK:         %[[M:.+]] = tosa.matmul {{.*}} {remat.save = true}
// CHECK-NEXT:    %[[T:.+]] = tosa.tanh %[[M]] {remat.save = false}
// CHECK-NEXT:    return %[[T]]
func.func @dots(%x: tensor<1x8x8xf32>, %w: tensor<1x8x8xf32>, %z: tensor<1xf32>) -> tensor<1x8x8xf32> {
  %r = remat.checkpoint policy(dots_saveable) -> tensor<1x8x8xf32> {
    %m = tosa.matmul %x, %w, %z, %z : (tensor<1x8x8xf32>, tensor<1x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8xf32>
    %t = tosa.tanh %m : (tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
    remat.yield %t : tensor<1x8x8xf32>
  }
  return %r : tensor<1x8x8xf32>
}

// -----

// Without a policy nothing is saveable, as with jax.checkpoint.
// CHECK-LABEL: func.func @default_policy
// CHECK:         tosa.matmul {{.*}} {remat.save = false}
// CHECK-NEXT:    tosa.tanh {{.*}} {remat.save = false}
func.func @default_policy(%x: tensor<1x8x8xf32>, %w: tensor<1x8x8xf32>, %z: tensor<1xf32>) -> tensor<1x8x8xf32> {
  %r = remat.checkpoint -> tensor<1x8x8xf32> {
    %m = tosa.matmul %x, %w, %z, %z : (tensor<1x8x8xf32>, tensor<1x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8xf32>
    %t = tosa.tanh %m : (tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
    remat.yield %t : tensor<1x8x8xf32>
  }
  return %r : tensor<1x8x8xf32>
}

// -----

// A tosa.matmul has "no batch dims" when its batch dimension is 1.
// CHECK-LABEL: func.func @no_batch_dims
// CHECK:         tosa.matmul {{.*}} {remat.save = true} : (tensor<1x8x8xf32>
// CHECK:         tosa.matmul {{.*}} {remat.save = false} : (tensor<2x8x8xf32>
func.func @no_batch_dims(%x: tensor<1x8x8xf32>, %y: tensor<2x8x8xf32>, %z: tensor<1xf32>) -> (tensor<1x8x8xf32>, tensor<2x8x8xf32>) {
  %r:2 = remat.checkpoint policy(dots_with_no_batch_dims_saveable) -> tensor<1x8x8xf32>, tensor<2x8x8xf32> {
    %m = tosa.matmul %x, %x, %z, %z : (tensor<1x8x8xf32>, tensor<1x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8xf32>
    %n = tosa.matmul %y, %y, %z, %z : (tensor<2x8x8xf32>, tensor<2x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
    remat.yield %m, %n : tensor<1x8x8xf32>, tensor<2x8x8xf32>
  }
  return %r#0, %r#1 : tensor<1x8x8xf32>, tensor<2x8x8xf32>
}

// -----

// Name policies look at remat.name tags of an op's results.
// CHECK-LABEL: func.func @names
// CHECK:         %[[A:.+]] = tosa.tanh %arg0 {remat.save = true}
// CHECK-NEXT:    remat.name "keep" %[[A]] {remat.save = true}
// CHECK-NEXT:    %[[B:.+]] = tosa.exp %arg0 {remat.save = false}
// CHECK:         tosa.tanh %arg0 {remat.save = true}
// CHECK-NEXT:    remat.name "keep" {{.*}} {remat.save = true}
// CHECK-NEXT:    tosa.exp %arg0 {remat.save = false}
// CHECK-NEXT:    remat.name "drop" {{.*}} {remat.save = false}
func.func @names(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %r:2 = remat.checkpoint policy(save_only_these_names) names(["keep"]) -> tensor<8xf32>, tensor<8xf32> {
    %a = tosa.tanh %x : (tensor<8xf32>) -> tensor<8xf32>
    %an = remat.name "keep" %a : tensor<8xf32>
    %b = tosa.exp %x : (tensor<8xf32>) -> tensor<8xf32>
    remat.yield %an, %b : tensor<8xf32>, tensor<8xf32>
  }
  %s:2 = remat.checkpoint policy(save_any_names_but_these) names(["drop"]) -> tensor<8xf32>, tensor<8xf32> {
    %a = tosa.tanh %x : (tensor<8xf32>) -> tensor<8xf32>
    %an = remat.name "keep" %a : tensor<8xf32>
    %b = tosa.exp %x : (tensor<8xf32>) -> tensor<8xf32>
    %bn = remat.name "drop" %b : tensor<8xf32>
    remat.yield %an, %bn : tensor<8xf32>, tensor<8xf32>
  }
  return %r#0, %r#1, %s#0, %s#1 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// Nested checkpoints: the innermost policy decides for its ops.
// CHECK-LABEL: func.func @nested
// CHECK:         tosa.tanh %arg0 {remat.save = true}
// CHECK-NEXT:    tosa.exp {{.*}} {remat.save = false}
func.func @nested(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = remat.checkpoint policy(nothing_saveable) -> tensor<8xf32> {
    %i = remat.checkpoint policy(everything_saveable) -> tensor<8xf32> {
      %a = tosa.tanh %x : (tensor<8xf32>) -> tensor<8xf32>
      remat.yield %a : tensor<8xf32>
    }
    %b = tosa.exp %i : (tensor<8xf32>) -> tensor<8xf32>
    remat.yield %b : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
