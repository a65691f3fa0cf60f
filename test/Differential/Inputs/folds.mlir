// Ops that upstream's TOSA lowering would fold away (negate of a negate,
// abs of an abs, a transpose of a transpose), in a step with activations
// the planner can recompute.
remat.graph @folds(%x: tensor<16x16xf32>) -> (tensor<16x16xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %a = tosa.tanh %x : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %n1 = tosa.negate %a, %zp, %zp : (tensor<16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<16x16xf32>
  %n2 = tosa.negate %n1, %zp, %zp : (tensor<16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<16x16xf32>
  %b = tosa.sigmoid %n2 : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %a1 = tosa.abs %b : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %a2 = tosa.abs %a1 : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %c = tosa.tanh %a2 : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %t1 = tosa.transpose %c {perms = array<i32: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %t2 = tosa.transpose %t1 {perms = array<i32: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %d = tosa.exp %t2 : (tensor<16x16xf32>) -> tensor<16x16xf32>
  remat.backward
  %g1 = tosa.add %d, %t2 : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %g2 = tosa.add %g1, %a2 : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %g3 = tosa.add %g2, %n2 : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %g4 = tosa.add %g3, %a : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  remat.return %g4 : tensor<16x16xf32>
}
