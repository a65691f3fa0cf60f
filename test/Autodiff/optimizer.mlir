// RUN: remat-opt %s --split-input-file --remat-autodiff="loss=sum optimizer=sgd lr=0.5" | FileCheck %s --check-prefix=SGD
// RUN: remat-opt %s --split-input-file --remat-autodiff="loss=sum optimizer=momentum lr=0.5 momentum=0.25" | FileCheck %s --check-prefix=MOMENTUM
// RUN: remat-opt %s --split-input-file --remat-autodiff="loss=sum optimizer=adam lr=0.5 beta1=0.5 beta2=0.75 eps=0.125" | FileCheck %s --check-prefix=ADAM
// RUN: remat-opt %s --split-input-file --remat-autodiff="loss=sum" | FileCheck %s --check-prefix=NONE

// Two layers: each parameter is updated, into its own buffer, right after
// the rule of its first reader, where its gradient is complete: %w2's
// update comes before the backward of the first layer. The step returns the
// updated parameters (and state) instead of the gradients, each argument
// donated to its result.

// SGD-LABEL: remat.graph @two_layers(
// SGD-SAME:    %[[X:[^:]+]]: tensor<4xf32>,
// SGD-SAME:    %[[W1:[^:]+]]: tensor<4xf32> {remat.aliasing_output = 1 : i64},
// SGD-SAME:    %[[W2:[^:]+]]: tensor<4xf32> {remat.aliasing_output = 2 : i64})
// SGD-SAME:    -> (tensor<f32>, tensor<4xf32>, tensor<4xf32>)
// SGD:         remat.backward
// SGD:         %[[DH:.+]] = tosa.mul %{{.+}}, %[[W2]],
// SGD-NEXT:    %[[G2:.+]] = tosa.mul %{{.+}}, %{{.+}},
// SGD-NEXT:    %[[U2:.+]] = linalg.generic
// SGD-SAME:      ins(%[[G2]] : tensor<4xf32>) outs(%[[W2]] : tensor<4xf32>)
// SGD-SAME:      {remat.never}
// SGD:           %[[LR:.+]] = arith.constant 5.000000e-01 : f32
// SGD:           %[[STEP:.+]] = arith.mulf %[[LR]], %in
// SGD:           %[[NEW:.+]] = arith.subf %out, %[[STEP]]
// SGD:           linalg.yield %[[NEW]]
// SGD:         %[[G1:.+]] = tosa.mul %[[DH]], %[[X]],
// SGD-NEXT:    %[[U1:.+]] = linalg.generic
// SGD-SAME:      ins(%[[G1]] : tensor<4xf32>) outs(%[[W1]] : tensor<4xf32>)
// SGD:         remat.return %{{.+}}, %[[U1]], %[[U2]]

// MOMENTUM-LABEL: remat.graph @two_layers(
// MOMENTUM-SAME:    %[[W1:[^:]+]]: tensor<4xf32> {remat.aliasing_output = 1 : i64},
// MOMENTUM-SAME:    %[[W2:[^:]+]]: tensor<4xf32> {remat.aliasing_output = 2 : i64},
// MOMENTUM-SAME:    %[[B1:[^:]+]]: tensor<4xf32> {remat.aliasing_output = 3 : i64},
// MOMENTUM-SAME:    %[[B2:[^:]+]]: tensor<4xf32> {remat.aliasing_output = 4 : i64})
// MOMENTUM-SAME:    -> (tensor<f32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// MOMENTUM:         %[[U2:.+]]:2 = linalg.generic
// MOMENTUM-SAME:      outs(%[[W2]], %[[B2]] : tensor<4xf32>, tensor<4xf32>)
// MOMENTUM:           %[[MU:.+]] = arith.constant 2.500000e-01 : f32
// MOMENTUM:           %[[DECAYED:.+]] = arith.mulf %[[MU]], %out_0
// MOMENTUM:           %[[VELOCITY:.+]] = arith.addf %[[DECAYED]], %in
// MOMENTUM:           %[[STEP:.+]] = arith.mulf %{{.+}}, %[[VELOCITY]]
// MOMENTUM:           %[[NEW:.+]] = arith.subf %out, %[[STEP]]
// MOMENTUM:           linalg.yield %[[NEW]], %[[VELOCITY]]
// MOMENTUM:         %[[U1:.+]]:2 = linalg.generic
// MOMENTUM-SAME:      outs(%[[W1]], %[[B1]] : tensor<4xf32>, tensor<4xf32>)
// MOMENTUM:         remat.return %{{.+}}, %[[U1]]#0, %[[U2]]#0, %[[U1]]#1, %[[U2]]#1

// Adam: first moments, second moments, then the step count, incremented
// once at the start of the backward pass and read by every update.
// ADAM-LABEL: remat.graph @two_layers(
// ADAM-SAME:    %[[W1:[^:]+]]: tensor<4xf32> {remat.aliasing_output = 1 : i64},
// ADAM-SAME:    %[[W2:[^:]+]]: tensor<4xf32> {remat.aliasing_output = 2 : i64},
// ADAM-SAME:    %[[M1:[^:]+]]: tensor<4xf32> {remat.aliasing_output = 3 : i64},
// ADAM-SAME:    %[[M2:[^:]+]]: tensor<4xf32> {remat.aliasing_output = 4 : i64},
// ADAM-SAME:    %[[V1:[^:]+]]: tensor<4xf32> {remat.aliasing_output = 5 : i64},
// ADAM-SAME:    %[[V2:[^:]+]]: tensor<4xf32> {remat.aliasing_output = 6 : i64},
// ADAM-SAME:    %[[T:[^:]+]]: tensor<f32> {remat.aliasing_output = 7 : i64})
// ADAM:         remat.backward
// ADAM:         %[[T1:.+]] = linalg.generic {{.*}} outs(%[[T]] : tensor<f32>)
// ADAM:         %[[U2:.+]]:3 = linalg.generic
// ADAM-SAME:      ins(%{{.+}}, %[[T1]] : tensor<4xf32>, tensor<f32>) outs(%[[W2]], %[[M2]], %[[V2]] :
// ADAM:           math.powf
// ADAM:           math.sqrt
// ADAM:           %[[EPS:.+]] = arith.constant 1.250000e-01 : f32
// ADAM:         %[[U1:.+]]:3 = linalg.generic
// ADAM-SAME:      outs(%[[W1]], %[[M1]], %[[V1]] :
// ADAM:         remat.return %{{.+}}, %[[U1]]#0, %[[U2]]#0, %[[U1]]#1, %[[U2]]#1, %[[U1]]#2, %[[U2]]#2, %[[T1]]

// Without an optimizer the step returns the gradients and donates nothing.
// NONE-LABEL: remat.graph @two_layers(
// NONE-NOT:     remat.aliasing_output
// NONE-NOT:     linalg.generic
// NONE:         remat.return
func.func @two_layers(%x: tensor<4xf32>, %w1: tensor<4xf32>, %w2: tensor<4xf32>) -> tensor<4xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %h = tosa.mul %x, %w1, %shift : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
  %y = tosa.mul %h, %w2, %shift : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// A parameter nothing reads is updated with a zero gradient at the end;
// argument attributes of the forward function stay.

// SGD-LABEL: remat.graph @unread(
// SGD-SAME:    %{{[^:]+}}: tensor<4xf32> {remat.aliasing_output = 1 : i64, test.name = "w"},
// SGD-SAME:    %[[U:[^:]+]]: tensor<2xf32> {remat.aliasing_output = 2 : i64})
// SGD:         %[[ZERO:.+]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<2xf32>}>
// SGD-NEXT:    %[[NEW:.+]] = linalg.generic
// SGD-SAME:      ins(%[[ZERO]] : tensor<2xf32>) outs(%[[U]] : tensor<2xf32>)
// SGD:         remat.return %{{.+}}, %{{.+}}, %[[NEW]]
func.func @unread(%x: tensor<4xf32>, %w: tensor<4xf32> {test.name = "w"}, %u: tensor<2xf32>) -> tensor<4xf32> {
  %y = tosa.add %x, %w : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
