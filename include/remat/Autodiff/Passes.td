//===- Passes.td - Remat autodiff passes --------------------*- tablegen -*-===//

#ifndef REMAT_AUTODIFF_PASSES_TD
#define REMAT_AUTODIFF_PASSES_TD

include "mlir/Pass/PassBase.td"

def AutodiffPass : Pass<"remat-autodiff", "::mlir::ModuleOp"> {
  let summary = "Differentiate a forward function into a training step";
  let description = [{
    Reverse-mode automatic differentiation of a forward `func.func` (TOSA,
    linalg named ops, elementwise arith/math on tensors) into a
    `remat.graph` with the same name: the forward pass, the loss, a
    `remat.backward` marker, and the backward pass. The graph takes the
    function's arguments (the first `num-batch-args` are the batch, the
    others the parameters), plus one target per result for the
    mean-squared-error loss, and returns the loss followed by the gradient
    of every parameter, in argument order. With `loss=cross-entropy` the
    graph takes the labels (i32 class ids over the last axis of the first
    result) right after the batch arguments; the loss is their mean
    log-sum-exp minus the labels' logits, and its gradient makes no one-hot
    tensor.

    With `optimizer=sgd|momentum|adam` the step updates the parameters
    itself (PyTorch's update rules, no weight decay) and returns the updated
    parameters instead of the gradients; each parameter is updated right
    after the rule of its first forward reader, where its gradient is
    complete, so that the gradient dies there. The optimizer state follows
    the graph's other arguments: for `momentum` one buffer per parameter,
    for `adam` the first moments of all parameters, then the second
    moments, then the step count (`tensor<f32>`, incremented before any
    update); the results are the loss, the updated parameters and the
    updated state in the same order. Each parameter and state argument
    carries `remat.aliasing_output = <result index>`: the caller donates
    its buffer, the update (one `linalg.generic` per parameter whose outputs
    are the parameter and its state) is written into it, and the memory
    model counts no new buffer for it.

    Each op's derivative is one rule in a table keyed by the op's name
    (lib/Autodiff/Rules/*.cpp). Only values that depend on a parameter
    are differentiated. An op on that path without a rule is an error
    naming it.

    Before:
    ```mlir
    func.func @f(%x: tensor<2x3xf32>, %w: tensor<2x3xf32>) -> tensor<2x3xf32> {
      %y = tosa.tanh %w : (tensor<2x3xf32>) -> tensor<2x3xf32>
      return %y : tensor<2x3xf32>
    }
    ```
    After (`loss=sum`):
    ```mlir
    remat.graph @f(%x: tensor<2x3xf32>, %w: tensor<2x3xf32>)
        -> (tensor<f32>, tensor<2x3xf32>) {
      %y = tosa.tanh %w : (tensor<2x3xf32>) -> tensor<2x3xf32>
      ... %loss = sum of %y ...
      remat.backward
      ... %gw = (1 - %y * %y) ...
      remat.return %loss, %gw : tensor<f32>, tensor<2x3xf32>
    }
    ```
  }];
  let options = [
    Option<"function", "function", "std::string", /*default=*/"\"\"",
           "The forward function (default: the module's only func.func "
           "with a body)">,
    Option<"numBatchArgs", "num-batch-args", "unsigned", /*default=*/"1",
           "Leading arguments that are the batch, not parameters">,
    Option<"loss", "loss", "std::string", /*default=*/"\"sum\"",
           "Loss over the results: `sum` (of every element), `mse` "
           "(mean squared error against a target argument per result) or "
           "`cross-entropy` (softmax cross-entropy of the first result's "
           "last axis against i32 labels, an argument after the batch)">,
    Option<"optimizer", "optimizer", "std::string", /*default=*/"\"\"",
           "Update the parameters inside the step: `sgd`, `momentum` or "
           "`adam` (default: none, the step returns the gradients)">,
    Option<"lr", "lr", "double", /*default=*/"0.01",
           "Learning rate of the optimizer">,
    Option<"momentum", "momentum", "double", /*default=*/"0.9",
           "Momentum factor of `optimizer=momentum`">,
    Option<"beta1", "beta1", "double", /*default=*/"0.9",
           "Decay of Adam's first moment">,
    Option<"beta2", "beta2", "double", /*default=*/"0.999",
           "Decay of Adam's second moment">,
    Option<"eps", "eps", "double", /*default=*/"1.0e-8",
           "Adam's epsilon, added to the root of the second moment">
  ];
  let dependentDialects = [
    "::remat::RematDialect",
    "::mlir::tosa::TosaDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect"
  ];
  let statistics = [
    Statistic<"numForwardOps", "forward-ops", "Ops of the forward pass">,
    Statistic<"numBackwardOps", "backward-ops", "Ops of the backward pass">
  ];
}

#endif // REMAT_AUTODIFF_PASSES_TD
