// RUN: remat-opt %s --split-input-file --remat-plan="schedule=false" | FileCheck %s
// RUN: remat-opt %s --split-input-file --remat-schedule | FileCheck %s --check-prefix=SCHEDULE
// (remat-plan in the given order, schedule=false: the checks follow it.)

// Where the lowering's bufferization would copy a destination (it is read
// again after the op writes into it), remat-plan and remat-schedule make the
// copy an op of the step: a tensor.empty, filled by a linalg.copy of the
// destination when the op reads it. Destinations that die at the op stay
// written in place.

// A generic that reads its destination %b, which the add reads afterwards:
// copied.
// CHECK-LABEL: func.func @read_later
// CHECK:         %[[B:.+]] = tosa.exp
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<16x16xf32>
// CHECK:         %[[C:.+]] = linalg.copy ins(%[[B]] : tensor<16x16xf32>) outs(%[[E]] : tensor<16x16xf32>)
// CHECK:         linalg.generic
// CHECK-SAME:      outs(%[[C]] : tensor<16x16xf32>)
// CHECK:         tosa.add %[[B]]
// SCHEDULE-LABEL: func.func @read_later
// SCHEDULE:         linalg.copy
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @read_later(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %b = tosa.exp %x : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x16xf32>) outs(%b : tensor<16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.mulf %in, %out : f32
    linalg.yield %r : f32
  } -> tensor<16x16xf32>
  %d = tosa.add %b, %c : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  return %d : tensor<16x16xf32>
}

// -----

// A fill does not read its destination: a new tensor.empty, no copy.
// CHECK-LABEL: func.func @fill_read_later
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<16x16xf32>
// CHECK-NOT:     linalg.copy
// CHECK:         linalg.fill ins(%{{.+}} : f32) outs(%[[E]] : tensor<16x16xf32>)
func.func @fill_read_later(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %b = tosa.exp %x : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %cst = arith.constant 2.0 : f32
  %c = linalg.fill ins(%cst : f32) outs(%b : tensor<16x16xf32>) -> tensor<16x16xf32>
  %d = tosa.add %b, %c : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  return %d : tensor<16x16xf32>
}

// -----

// The destination dies at the insert: written in place, nothing added.
// CHECK-LABEL: func.func @dies_there
// CHECK-NOT:     tensor.empty
// CHECK-NOT:     linalg.copy
// CHECK:         tensor.insert_slice %{{.+}} into %{{.+}}[0, 0]
func.func @dies_there(%x: tensor<16x16xf32>, %y: tensor<4x16xf32>) -> tensor<16x16xf32> {
  %b = tosa.exp %x : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %i = tensor.insert_slice %y into %b[0, 0] [4, 16] [1, 1] : tensor<4x16xf32> into tensor<16x16xf32>
  return %i : tensor<16x16xf32>
}

// -----

// Two writes into one destination: the first, whose result the second's
// reader does not see, is copied; the last writes in place.
// CHECK-LABEL: func.func @written_twice
// CHECK:         %[[B:.+]] = tosa.exp
// CHECK:         %[[E:.+]] = tensor.empty()
// CHECK:         %[[F1:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[E]] : tensor<16x16xf32>)
// CHECK:         %[[F2:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[B]] : tensor<16x16xf32>)
func.func @written_twice(%x: tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>) {
  %b = tosa.exp %x : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %f1 = linalg.fill ins(%one : f32) outs(%b : tensor<16x16xf32>) -> tensor<16x16xf32>
  %f2 = linalg.fill ins(%two : f32) outs(%b : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %f1, %f2 : tensor<16x16xf32>, tensor<16x16xf32>
}

// -----

// A returned slice that does not start at its source's first byte: the
// identity-layout result cannot hold it, so it is copied right after the
// slice (bufferization would copy it at the return, uncounted).
// CHECK-LABEL: func.func @returned_offset_slice
// CHECK:         %[[S:.+]] = tosa.slice
// CHECK-NEXT:    %[[E:.+]] = tensor.empty() : tensor<8x16xf32>
// CHECK-NEXT:    %[[C:.+]] = linalg.copy ins(%[[S]] : tensor<8x16xf32>) outs(%[[E]] : tensor<8x16xf32>)
// CHECK:         return %[[C]]
func.func @returned_offset_slice(%x: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %e = tosa.exp %x : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %start = tosa.const_shape {values = dense<[8, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[8, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s = tosa.slice %e, %start, %size : (tensor<16x16xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<8x16xf32>
  return %s : tensor<8x16xf32>
}

// -----

// Not contiguous (the inner dimension is cut), and collapsed: a strided
// buffer cannot always be collapsed (bufferization copies it there), so the
// slice is copied before the collapse, whose result is then returned as it
// is.
// CHECK-LABEL: func.func @returned_strided_reshape
// CHECK:         %[[S:.+]] = tensor.extract_slice
// CHECK-NEXT:    %[[E:.+]] = tensor.empty() : tensor<16x8xf32>
// CHECK-NEXT:    %[[C:.+]] = linalg.copy ins(%[[S]] : tensor<16x8xf32>)
// CHECK-NEXT:    %[[R:.+]] = tensor.collapse_shape %[[C]]
// CHECK-NOT:     linalg.copy
// CHECK:         return %[[R]]
func.func @returned_strided_reshape(%x: tensor<16x16xf32>) -> tensor<128xf32> {
  %e = tosa.exp %x : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %s = tensor.extract_slice %e[0, 0] [16, 8] [1, 1] : tensor<16x16xf32> to tensor<16x8xf32>
  %r = tensor.collapse_shape %s [[0, 1]] : tensor<16x8xf32> into tensor<128xf32>
  return %r : tensor<128xf32>
}

// -----

// A leading slice starting at the first byte is the identity layout:
// returned as it is. So is a slice only used inside the step.
// CHECK-LABEL: func.func @returned_prefix_slice
// CHECK-NOT:     linalg.copy
// CHECK:         return
func.func @returned_prefix_slice(%x: tensor<16x16xf32>) -> (tensor<8x16xf32>, tensor<8x8xf32>) {
  %e = tosa.exp %x : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %s = tensor.extract_slice %e[0, 0] [8, 16] [1, 1] : tensor<16x16xf32> to tensor<8x16xf32>
  %t = tensor.extract_slice %e[4, 4] [8, 8] [1, 1] : tensor<16x16xf32> to tensor<8x8xf32>
  %u = tosa.exp %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %s, %u : tensor<8x16xf32>, tensor<8x8xf32>
}

// -----

// A slice of an argument and a fill written into a strided slice, both
// returned from a remat.graph: each copied. A strided slice reshaped
// inside the step is copied before the reshape.
// CHECK-LABEL: remat.graph @graph_strided_results
// CHECK:         %[[S:.+]] = tensor.extract_slice %{{.+}}[2, 0]
// CHECK-NEXT:    %[[E:.+]] = tensor.empty() : tensor<4x16xf32>
// CHECK-NEXT:    %[[C:.+]] = linalg.copy ins(%[[S]]
// CHECK:         %[[T:.+]] = tensor.extract_slice
// CHECK-NEXT:    %[[E3:.+]] = tensor.empty() : tensor<16x4xf32>
// CHECK-NEXT:    %[[C3:.+]] = linalg.copy ins(%[[T]] : tensor<16x4xf32>) outs(%[[E3]]
// CHECK:         %[[F:.+]] = linalg.fill
// CHECK-NEXT:    %[[E2:.+]] = tensor.empty() : tensor<16x4xf32>
// CHECK-NEXT:    %[[C2:.+]] = linalg.copy ins(%[[F]]
// CHECK-NEXT:    tensor.collapse_shape %[[C3]]
// CHECK:         remat.return %[[C]], %[[C2]], %{{.+}}
remat.graph @graph_strided_results(%x: tensor<16x16xf32>) -> (tensor<4x16xf32>, tensor<16x4xf32>, tensor<64xf32>) {
  %s = tensor.extract_slice %x[2, 0] [4, 16] [1, 1] : tensor<16x16xf32> to tensor<4x16xf32>
  %e = tosa.exp %x : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %t = tensor.extract_slice %e[0, 4] [16, 4] [1, 1] : tensor<16x16xf32> to tensor<16x4xf32>
  %cst = arith.constant 1.0 : f32
  %f = linalg.fill ins(%cst : f32) outs(%t : tensor<16x4xf32>) -> tensor<16x4xf32>
  %r = tensor.collapse_shape %t [[0, 1]] : tensor<16x4xf32> into tensor<64xf32>
  %n = tosa.exp %r : (tensor<64xf32>) -> tensor<64xf32>
  remat.return %s, %f, %n : tensor<4x16xf32>, tensor<16x4xf32>, tensor<64xf32>
}

// -----

// A slice of %a, returned, and a fill into %a after it: bufferization
// copies the slice, so remat-plan copies it right after it is made and the
// return reads the copy; the fill writes into %a.
// CHECK-LABEL: func.func @copied_view
// CHECK:         %[[A:.+]] = tosa.exp
// CHECK-NEXT:    %[[S:.+]] = tensor.extract_slice %[[A]]
// CHECK-NEXT:    %[[E:.+]] = tensor.empty() : tensor<3x8xf32>
// CHECK-NEXT:    %[[C:.+]] = linalg.copy ins(%[[S]] : tensor<3x8xf32>) outs(%[[E]] : tensor<3x8xf32>)
// CHECK:         linalg.fill ins(%{{.+}} : f32) outs(%[[A]] : tensor<4x8xf32>)
// CHECK:         return %[[C]]
func.func @copied_view(%x: tensor<4x8xf32>) -> (tensor<3x8xf32>, tensor<4x8xf32>) {
  %a = tosa.exp %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = tensor.extract_slice %a[0, 0] [3, 8] [1, 1] : tensor<4x8xf32> to tensor<3x8xf32>
  %cst = arith.constant 0.0 : f32
  %f = linalg.fill ins(%cst : f32) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  %g = tosa.add %f, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %s, %g : tensor<3x8xf32>, tensor<4x8xf32>
}

// -----

// A reshape of a constant is folded into a constant of its own by the
// lowering: a global, neither a view to copy nor a buffer.
// CHECK-LABEL: func.func @constant_view
// CHECK-NOT:     linalg.copy
// CHECK:         return
func.func @constant_view(%x: tensor<1x4x4xf32>) -> tensor<1x4x4xf32> {
  %m = "tosa.const"() <{values = dense<[[true, false, true, false], [false, true, false, true], [true, true, false, false], [false, false, true, true]]> : tensor<4x4xi1>}> : () -> tensor<4x4xi1>
  %shape = tosa.const_shape {values = dense<[1, 4, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %r = tosa.reshape %m, %shape : (tensor<4x4xi1>, !tosa.shape<3>) -> tensor<1x4x4xi1>
  %e = tosa.exp %x : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %cst = arith.constant 0.0 : f32
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %s = tosa.select %r, %x, %f : (tensor<1x4x4xi1>, tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  return %s : tensor<1x4x4xf32>
}
