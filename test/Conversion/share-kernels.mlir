// RUN: remat-opt %s --split-input-file --remat-share-kernels | FileCheck %s

// Every linalg op on buffers becomes a call of its kind's function: the two
// matmuls of one kind call one, the third, of other types, another; the
// fill its own.
// CHECK-LABEL: func.func @repeated
// CHECK-SAME:    (%[[A:.+]]: memref<8x8xf32>, %[[B:.+]]: memref<8x8xf32>, %[[C:.+]]: memref<8x8xf32>, %[[D:.+]]: memref<8x8xf32>, %[[E:.+]]: memref<8x4xf32>, %[[F:.+]]: memref<8x4xf32>)
// CHECK:         %[[ZERO:.+]] = arith.constant 0.0
// CHECK-NEXT:    call @kernel_linalg_fill(%[[ZERO]], %[[C]])
// CHECK-NEXT:    call @kernel_linalg_matmul(%[[A]], %[[B]], %[[C]])
// CHECK-NEXT:    call @kernel_linalg_matmul(%[[C]], %[[B]], %[[D]])
// CHECK-NEXT:    call @kernel_linalg_matmul_0(%[[D]], %[[E]], %[[F]])
// CHECK-NEXT:    return
// CHECK:       func.func private @kernel_linalg_fill(%{{.+}}: f32, %{{.+}}: memref<8x8xf32>)
// CHECK:       func.func private @kernel_linalg_matmul(%[[X:[a-z0-9]+]]: memref<8x8xf32>, %[[Y:[a-z0-9]+]]: memref<8x8xf32>, %[[Z:[a-z0-9]+]]: memref<8x8xf32>)
// CHECK-SAME:      attributes {passthrough = ["noinline"]}
// CHECK-NEXT:    linalg.matmul ins(%[[X]], %[[Y]] : memref<8x8xf32>, memref<8x8xf32>) outs(%[[Z]] : memref<8x8xf32>)
// CHECK-NEXT:    return
// CHECK:       func.func private @kernel_linalg_matmul_0(%{{.+}}: memref<8x8xf32>, %{{.+}}: memref<8x4xf32>, %{{.+}}: memref<8x4xf32>)
func.func @repeated(%a: memref<8x8xf32>, %b: memref<8x8xf32>, %c: memref<8x8xf32>, %d: memref<8x8xf32>, %e: memref<8x4xf32>, %f: memref<8x4xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<8x8xf32>)
  linalg.matmul ins(%a, %b : memref<8x8xf32>, memref<8x8xf32>) outs(%c : memref<8x8xf32>)
  linalg.matmul ins(%c, %b : memref<8x8xf32>, memref<8x8xf32>) outs(%d : memref<8x8xf32>)
  linalg.matmul ins(%d, %e : memref<8x8xf32>, memref<8x4xf32>) outs(%f : memref<8x4xf32>)
  return
}

// -----

// Generics share a function only where their bodies agree: the two adds
// do, the multiply is another kind.
// CHECK-LABEL: func.func @bodies
// CHECK:         call @kernel_linalg_generic(%arg0, %arg1)
// CHECK-NEXT:    call @kernel_linalg_generic_0(%arg0, %arg2)
// CHECK-NEXT:    call @kernel_linalg_generic(%arg1, %arg2)
// CHECK:       func.func private @kernel_linalg_generic(
// CHECK:         arith.addf
// CHECK:       func.func private @kernel_linalg_generic_0(
// CHECK:         arith.mulf
#id = affine_map<(d0) -> (d0)>
func.func @bodies(%a: memref<16xf32>, %b: memref<16xf32>, %c: memref<16xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : memref<16xf32>) outs(%b : memref<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : memref<16xf32>) outs(%c : memref<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %out : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%b : memref<16xf32>) outs(%c : memref<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// A body that reads values from outside: constants are made again in the
// kernel, other values are passed after the operands. The first two
// generics read their scalars in one pattern and share a kernel; the third
// reads one scalar twice where they read two, the fourth another
// constant: each is a kind of its own.
// CHECK-LABEL: func.func @captured
// CHECK-SAME:    (%[[A:.+]]: memref<16xf32>, %[[B:.+]]: memref<16xf32>, %[[S:.+]]: f32, %[[T:.+]]: f32)
// CHECK:         call @kernel_linalg_generic(%[[A]], %[[B]], %[[S]], %[[T]])
// CHECK-NEXT:    call @kernel_linalg_generic(%[[B]], %[[A]], %[[T]], %[[S]])
// CHECK-NEXT:    call @kernel_linalg_generic_0(%[[A]], %[[B]], %[[S]])
// CHECK-NEXT:    call @kernel_linalg_generic_1(%[[A]], %[[B]], %[[S]], %[[T]])
// CHECK:       func.func private @kernel_linalg_generic(%[[X:.+]]: memref<16xf32>, %[[Y:.+]]: memref<16xf32>, %[[P:.+]]: f32, %[[Q:.+]]: f32)
// CHECK-NEXT:    %[[TWO:.+]] = arith.constant 2.0
// CHECK-NEXT:    linalg.generic
// CHECK-SAME:      ins(%[[X]] : memref<16xf32>) outs(%[[Y]] : memref<16xf32>)
// CHECK:           arith.addf %{{.+}}, %[[P]]
// CHECK:           arith.mulf %{{.+}}, %[[Q]]
// CHECK:           arith.mulf %{{.+}}, %[[TWO]]
// CHECK:       func.func private @kernel_linalg_generic_0(
// CHECK:       func.func private @kernel_linalg_generic_1(
// CHECK:         arith.constant 3.0
#id = affine_map<(d0) -> (d0)>
func.func @captured(%a: memref<16xf32>, %b: memref<16xf32>, %s: f32, %t: f32) {
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : memref<16xf32>) outs(%b : memref<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %s : f32
    %1 = arith.mulf %0, %t : f32
    %2 = arith.mulf %1, %two : f32
    linalg.yield %2 : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%b : memref<16xf32>) outs(%a : memref<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %t : f32
    %1 = arith.mulf %0, %s : f32
    %2 = arith.mulf %1, %two : f32
    linalg.yield %2 : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : memref<16xf32>) outs(%b : memref<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %s : f32
    %1 = arith.mulf %0, %s : f32
    %2 = arith.mulf %1, %two : f32
    linalg.yield %2 : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : memref<16xf32>) outs(%b : memref<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %s : f32
    %1 = arith.mulf %0, %t : f32
    %2 = arith.mulf %1, %three : f32
    linalg.yield %2 : f32
  }
  return
}

// -----

// An operand passed twice stays two arguments: an op of the kind that
// passes two buffers there shares the kernel. Ops on tensors, which have
// results, stay.
// CHECK-LABEL: func.func @aliased
// CHECK:         call @kernel_linalg_add(%arg0, %arg0, %arg1)
// CHECK-NEXT:    call @kernel_linalg_add(%arg0, %arg1, %arg1)
// CHECK-NEXT:    linalg.matmul ins(%arg2, %arg2 : tensor<4x4xf32>, tensor<4x4xf32>)
// CHECK:       func.func private @kernel_linalg_add(%[[X:.+]]: memref<16xf32>, %[[Y:.+]]: memref<16xf32>, %[[Z:.+]]: memref<16xf32>)
// CHECK-NEXT:    linalg.add ins(%[[X]], %[[Y]] : memref<16xf32>, memref<16xf32>) outs(%[[Z]] : memref<16xf32>)
func.func @aliased(%a: memref<16xf32>, %b: memref<16xf32>, %t: tensor<4x4xf32>) -> tensor<4x4xf32> {
  linalg.add ins(%a, %a : memref<16xf32>, memref<16xf32>) outs(%b : memref<16xf32>)
  linalg.add ins(%a, %b : memref<16xf32>, memref<16xf32>) outs(%b : memref<16xf32>)
  %m = linalg.matmul ins(%t, %t : tensor<4x4xf32>, tensor<4x4xf32>) outs(%t : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}

// -----

// Kinds that occur in several functions share one function, and a name
// already taken in the module is not reused.
// CHECK-LABEL: func.func @first
// CHECK:         call @kernel_linalg_copy_0(%arg0, %arg1)
// CHECK-LABEL: func.func @second
// CHECK:         call @kernel_linalg_copy_0(%arg1, %arg0)
// CHECK-LABEL: func.func private @kernel_linalg_copy(
// CHECK:       func.func private @kernel_linalg_copy_0(
// CHECK-NEXT:    linalg.copy
func.func @first(%a: memref<4xf32>, %b: memref<4xf32>) {
  linalg.copy ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
  return
}
func.func @second(%a: memref<4xf32>, %b: memref<4xf32>) {
  linalg.copy ins(%b : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}
func.func private @kernel_linalg_copy(memref<4xf32>)

// -----

// A function left without loops is compiled without optimization
// (`optnone`, which LLVM requires with `noinline`); one that keeps a loop
// around its calls is optimized as before.
// CHECK-LABEL: func.func @straight
// CHECK-SAME:    attributes {passthrough = ["noinline", "optnone"]}
// CHECK:         call @kernel_linalg_copy
// CHECK-LABEL: func.func @looped
// CHECK-NOT:     optnone
// CHECK:         scf.for
// CHECK:           call @kernel_linalg_copy
func.func @straight(%a: memref<16xf32>, %b: memref<16xf32>) {
  linalg.copy ins(%a : memref<16xf32>) outs(%b : memref<16xf32>)
  return
}

func.func @looped(%a: memref<16xf32>, %b: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c4 step %c1 {
    linalg.copy ins(%a : memref<16xf32>) outs(%b : memref<16xf32>)
  }
  return
}
