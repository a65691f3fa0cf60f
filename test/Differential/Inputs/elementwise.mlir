// arith and math ops on tensors (with an i1 comparison and a select), beside
// TOSA ops, in a step the planner can rematerialize.
remat.graph @elementwise(%x: tensor<16x32xf32>, %y: tensor<16x32xf32>) -> (tensor<16x32xf32>) {
  %a = math.tanh %x : tensor<16x32xf32>
  %b = arith.mulf %a, %y : tensor<16x32xf32>
  %c = math.exp %b : tensor<16x32xf32>
  %m = arith.cmpf ogt, %c, %a : tensor<16x32xf32>
  %d = arith.select %m, %c, %a : tensor<16x32xi1>, tensor<16x32xf32>
  %e = tosa.sigmoid %d : (tensor<16x32xf32>) -> tensor<16x32xf32>
  %f = math.absf %e : tensor<16x32xf32>
  remat.backward
  %g1 = arith.addf %f, %d : tensor<16x32xf32>
  %g2 = arith.subf %g1, %b : tensor<16x32xf32>
  %g3 = arith.mulf %g2, %a : tensor<16x32xf32>
  remat.return %g3 : tensor<16x32xf32>
}
