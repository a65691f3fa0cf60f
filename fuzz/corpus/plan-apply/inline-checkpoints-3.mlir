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
