// RUN: remat-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{requires a body: a training step cannot be external}}
remat.graph @external(%x: tensor<4xf32>)

// -----

// expected-error @+1 {{entry block must have 0 arguments to match function signature}}
"remat.graph"() ({
^bb0(%a: i32):
  "remat.return"() : () -> ()
}) {function_type = () -> (), sym_name = "g"} : () -> ()

// -----

// expected-error @+1 {{type of entry block argument #0('i32') must match the type of the corresponding argument in function signature('i64')}}
"remat.graph"() ({
^bb0(%a: i32):
  "remat.return"() : () -> ()
}) {function_type = (i64) -> (), sym_name = "g"} : () -> ()

// -----

// expected-error @+1 {{must have a single block}}
"remat.graph"() ({
  "remat.return"() : () -> ()
^bb1:
  "remat.return"() : () -> ()
}) {function_type = () -> (), sym_name = "g"} : () -> ()

// -----

remat.graph @return_count(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // expected-error @+1 {{operands must match the graph results: expected 2 values, got 1}}
  remat.return %x : tensor<4xf32>
}

// -----

remat.graph @return_type(%x: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{type of value #0 is 'tensor<4xf32>', expected 'tensor<8xf32>'}}
  remat.return %x : tensor<4xf32>
}

// -----

func.func @return_outside() {
  // expected-error @+1 {{expects parent op 'remat.graph'}}
  remat.return
}

// -----

remat.graph @two_boundaries() {
  remat.backward
  // expected-error @+1 {{a training step has one forward/backward boundary}}
  remat.backward
  remat.return
}

// -----

func.func @nested_boundary(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = remat.checkpoint -> tensor<4xf32> {
    // expected-error @+1 {{must be directly inside a remat.graph or another function-like op, not in 'remat.checkpoint'}}
    remat.backward
    remat.yield %x : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @empty_name(%x: tensor<4xf32>) {
  // expected-error @+1 {{tag must not be empty}}
  %0 = remat.name "" %x : tensor<4xf32>
  return
}

// -----

func.func @name_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "remat.name"(%x) {tag = "a"} : (tensor<4xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @checkpoint_args(%x: tensor<4xf32>) {
  // expected-error @+1 {{region must not have arguments}}
  "remat.checkpoint"() ({
  ^bb0(%a: tensor<4xf32>):
    "remat.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @checkpoint_no_yield(%x: tensor<4xf32>) {
  // expected-error @+1 {{region must end with remat.yield}}
  "remat.checkpoint"() ({
    remat.backward
  }) : () -> ()
  return
}

// -----

func.func @checkpoint_yield_types(%x: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{remat.yield operands must match the results: type of value #0 is 'tensor<4xf32>', expected 'tensor<8xf32>'}}
  %0 = remat.checkpoint -> tensor<8xf32> {
    remat.yield %x : tensor<4xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

func.func @checkpoint_missing_names(%x: tensor<4xf32>) {
  // expected-error @+1 {{policy 'save_only_these_names' requires a names(...) list}}
  remat.checkpoint policy(save_only_these_names) {
    remat.yield
  }
  return
}

// -----

func.func @checkpoint_stray_names(%x: tensor<4xf32>) {
  // expected-error @+1 {{names(...) only applies to the policies 'save_only_these_names' and 'save_any_names_but_these', not 'dots_saveable'}}
  remat.checkpoint policy(dots_saveable) names(["a"]) {
    remat.yield
  }
  return
}

// -----

func.func @checkpoint_default_policy_names(%x: tensor<4xf32>) {
  // expected-error @+1 {{not 'nothing_saveable'}}
  remat.checkpoint names(["a"]) {
    remat.yield
  }
  return
}

// -----

func.func @unknown_policy(%x: tensor<4xf32>) {
  // expected-error @+1 {{unknown checkpoint policy 'save_everything'}}
  remat.checkpoint policy(save_everything) {
    remat.yield
  }
  return
}

// -----

func.func @recompute_no_results(%x: tensor<4xf32>) {
  // expected-error @+1 {{must recompute at least one value}}
  remat.recompute(%x) : (tensor<4xf32>) -> () {
  ^bb0(%a: tensor<4xf32>):
    remat.yield
  }
  return
}

// -----

func.func @recompute_arg_types(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{region arguments must match the operands: type of value #0 is 'tensor<8xf32>', expected 'tensor<4xf32>'}}
  %0 = remat.recompute(%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<8xf32>):
    remat.yield %x : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @recompute_yield_count(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{remat.yield operands must match the results: expected 1 values, got 2}}
  %0 = remat.recompute(%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    remat.yield %a, %a : tensor<4xf32>, tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @recompute_not_isolated(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @+1 {{required by region isolation constraints}}
  %0 = remat.recompute() : () -> tensor<4xf32> {
    // expected-error @+1 {{using value defined outside the region}}
    %e = math.exp %x : tensor<4xf32>
    remat.yield %e : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @recompute_no_yield(%x: tensor<4xf32>) {
  // expected-error @+1 {{region must end with remat.yield}}
  "remat.recompute"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    remat.backward
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @yield_parent() {
  // expected-error @+1 {{expects parent op to be one of 'remat.checkpoint, remat.recompute'}}
  remat.yield
}

// -----

func.func @barrier_types(%x: tensor<4xf32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<8xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = "remat.barrier"(%x) : (tensor<4xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @abstract_flops(%x: tensor<4xi8>) {
  // expected-error @+1 {{flops must not be negative, got -5}}
  %0 = remat.abstract flops(-5) (%x) : (tensor<4xi8>) -> tensor<4xi8>
  return
}

// -----

func.func @abstract_results(%x: tensor<4xi8>) {
  // expected-error @+1 {{must produce at least one value}}
  remat.abstract "sink" flops(1) (%x) : (tensor<4xi8>) -> ()
  return
}

// -----

// expected-error @+1 {{budget must not be negative}}
func.func @budget_negative() attributes {b = #remat.budget<-1>} {
  return
}

// -----

// expected-error @+1 {{budget must not be negative}}
func.func @budget_negative_fraction() attributes {b = #remat.budget<-0.5>} {
  return
}

// -----

// expected-error @+1 {{budget does not fit in 64 bits}}
func.func @budget_too_big() attributes {b = #remat.budget<18446744073709551616>} {
  return
}

// -----

// expected-error @+1 {{budget '17179869184GiB' overflows 64-bit byte counts}}
func.func @budget_overflow() attributes {b = #remat.budget<17179869184GiB>} {
  return
}

// -----

// expected-error @+1 {{unknown budget unit 'MiBs'}}
func.func @budget_unit() attributes {b = #remat.budget<64MiBs>} {
  return
}

// -----

// expected-error @+1 {{a budget fraction must be in (0, 1]}}
func.func @budget_fraction() attributes {b = #remat.budget<1.5>} {
  return
}

// -----

// expected-error @+1 {{is not a whole number of bytes}}
func.func @budget_partial_byte() attributes {b = #remat.budget<0.3B>} {
  return
}

// -----

// expected-error @+1 {{expected floating point literal}}
func.func @budget_garbage() attributes {b = #remat.budget<lots>} {
  return
}

// -----

// expected-error @below {{'remat.graph' op argument #0: 'remat.aliasing_output' must be the index of a result (0 to 0), got 1 : i64}}
remat.graph @aliasing_out_of_range(%p: tensor<4xf32> {remat.aliasing_output = 1 : i64}) -> (tensor<4xf32>) {
  remat.return %p : tensor<4xf32>
}

// -----

// expected-error @below {{'remat.graph' op argument #0 of type 'tensor<4xf32>' is donated to result #0 of another type, 'tensor<2xf32>'}}
remat.graph @aliasing_type(%p: tensor<4xf32> {remat.aliasing_output = 0 : i64}, %q: tensor<2xf32>) -> (tensor<2xf32>) {
  remat.return %q : tensor<2xf32>
}

// -----

// expected-error @below {{'remat.graph' op arguments #0 and #1 are both donated to result #0}}
remat.graph @aliasing_twice(%p: tensor<4xf32> {remat.aliasing_output = 0 : i64}, %q: tensor<4xf32> {remat.aliasing_output = 0 : i64}) -> (tensor<4xf32>) {
  remat.return %p : tensor<4xf32>
}
