// A diagnostic at a long one-line signature (as an imported step has) echoes a
// window of the line around the caret, not the whole line.
// RUN: %python -c "print('func.func @wide(' + ', '.join('%%a' + str(i) + ': tensor<4xf32>' for i in range(400)) + ') -> tensor<4xf32> { %%t = tosa.tanh %%a0 : (tensor<4xf32>) -> tensor<4xf32>\nreturn %%t : tensor<4xf32>\n}')" > %t.mlir
// RUN: not remat-opt %t.mlir --remat-plan="budget=1B" 2>%t.err
// RUN: FileCheck %s < %t.err
// RUN: wc -c < %t.err | %python -c "import sys; n = int(sys.stdin.read()); assert n < 2000, n"
// CHECK: long-line-diagnostics.mlir.tmp.mlir:1:1: error: arena budget of 1 B for @wide cannot be met
// CHECK-NEXT: {{^func.func @wide\(%a0: tensor<4xf32>.*\.\.\.$}}
// CHECK-NEXT: {{^\^$}}

// A syntax error on such a line is echoed the same way.
// RUN: %python -c "print('func.func @wide(' + ', '.join('%%a' + str(i) + (': tensr<4xf32>' if i == 200 else ': tensor<4xf32>') for i in range(400)) + ') {\nreturn\n}')" > %t.bad.mlir
// RUN: not remat-opt %t.bad.mlir --remat-plan 2>%t.bad.err
// RUN: FileCheck %s --check-prefix=PARSE < %t.bad.err
// RUN: wc -c < %t.bad.err | %python -c "import sys; n = int(sys.stdin.read()); assert n < 2000, n"
// PARSE: long-line-diagnostics.mlir.tmp.bad.mlir:1:{{[0-9]+}}: error:
// PARSE-NEXT: {{^\.\.\..*%a200: tensr<4xf32>.*\.\.\.$}}
