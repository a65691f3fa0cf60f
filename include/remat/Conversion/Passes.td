//===- Passes.td - Remat conversion passes ------------------*- tablegen -*-===//

#ifndef REMAT_CONVERSION_PASSES_TD
#define REMAT_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerRematPass : Pass<"remat-lower", "mlir::ModuleOp"> {
  let summary = "Lower the remat dialect to func: graphs become functions, "
                "recomputations are inlined in place";
  let description = [{
    The last step before bufferization. Every `remat.graph` becomes a
    `func.func` with the same name, visibility, signature and argument and
    result attributes (`remat.return` becomes `func.return`; the `budget`
    and `remat.plan` attributes are dropped). Then, in every function:

    - `remat.recompute` regions are inlined where they stand: `remat-apply`
      already placed them right before their first use, so their ops run
      exactly where the memory model counted them. Nothing may merge them
      with the original computation afterwards: pipelines built on this pass
      run no CSE or canonicalization between it and bufferization.
    - leftover `remat.checkpoint` regions are inlined too: their policy only
      matters to the planner, which has run by now.
    - `remat.name` and `remat.barrier` are replaced by their operands, and
      `remat.backward` is erased.
    - planner attributes on ops (`remat.save`, `remat.never`) are dropped.
    - every op of a function body gets a location of its own (its location
      fused with its index), which `remat-free-after-last-use` uses to
      recognize the ops lowered from one op.

    `remat.abstract` nodes have no semantics to lower: the pass fails with a
    diagnostic at each of them. So does a value of static shape whose byte
    count overflows 64 bits: its allocation size would wrap.

    With `emit-c-interface` (the default), each function created from a
    graph gets `llvm.emit_c_interface`, so that its lowered form has a
    `_mlir_ciface_` wrapper taking memref descriptors by pointer. Every
    function with `llvm.emit_c_interface` also gets `remat.signature`, its
    tensor function type, which the lowering to LLVM carries over: drivers
    such as `remat-run` read it to build the arguments of a lowered module.

    Before:
    ```mlir
    remat.graph @step(%x: tensor<4xf32>) -> (tensor<4xf32>) {
      %t = tosa.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
      %n = remat.name "t" %t : tensor<4xf32>
      remat.backward
      %r = remat.recompute(%x) : (tensor<4xf32>) -> tensor<4xf32> {
      ^bb0(%a: tensor<4xf32>):
        %u = tosa.tanh %a : (tensor<4xf32>) -> tensor<4xf32>
        remat.yield %u : tensor<4xf32>
      }
      %y = tosa.mul %r, %n, %shift : ...
      remat.return %y : tensor<4xf32>
    }
    ```
    After:
    ```mlir
    func.func @step(%x: tensor<4xf32>) -> tensor<4xf32> attributes {
        llvm.emit_c_interface,
        remat.signature = (tensor<4xf32>) -> tensor<4xf32>} {
      %t = tosa.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
      %u = tosa.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
      %y = tosa.mul %u, %t, %shift : ...
      return %y : tensor<4xf32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
  let options = [
    Option<"emitCInterface", "emit-c-interface", "bool", /*default=*/"true",
           "Mark the functions made from graphs llvm.emit_c_interface">
  ];
  let statistics = [
    Statistic<"numGraphs", "graphs", "remat.graph ops lowered to func.func">,
    Statistic<"numRecomputes", "recomputes", "remat.recompute regions "
              "inlined">
  ];
}

def ConvertToLinalgPass : Pass<"remat-convert-to-linalg",
                               "mlir::func::FuncOp"> {
  let summary = "Lower TOSA, and arith and math ops on tensors, to linalg, "
                "tensor and arith, folding nothing";
  let description = [{
    Runs after `remat-lower`, before bufferization. It applies upstream's
    TOSA lowerings (`tosa-to-linalg-named`, `tosa-to-linalg`,
    `tosa-to-tensor`, `tosa-to-arith`) in one conversion, and turns every
    elementwise op on ranked tensors (`arith.addf`, `math.tanh`, ...) into a
    `linalg.generic` that applies it to scalars and writes a new
    `tensor.empty`. A `linalg.generic` marked `remat.scatter_add` (the
    gather's adjoint, `remat/Tosa/ScatterKernels.h`) becomes `scf.for` loops
    over the positions that add each adjoint row into the table row its
    index names, carrying the kernel's destination: the loops write where
    the kernel would, and visit no table row a position does not pick.

    Unlike upstream's passes, it folds nothing: the memory model counts the
    ops of the planned step as written, so `tosa.negate(tosa.negate %x)`
    must allocate both results, as predicted, rather than fold to `%x`. For
    the same reason an elementwise op never writes into one of its operands
    (upstream's `convert-elementwise-to-linalg` does, and bufferized in
    place that overwrites a buffer the model keeps, or a step argument).

    Before:
    ```mlir
    %a = tosa.negate %x, %zp, %zp : (...) -> tensor<4xf32>
    %b = tosa.negate %a, %zp, %zp : (...) -> tensor<4xf32>
    %c = math.tanh %b : tensor<4xf32>
    ```
    After:
    ```mlir
    %e0 = tensor.empty() : tensor<4xf32>
    %a = linalg.generic ... ins(%x : tensor<4xf32>) outs(%e0 : tensor<4xf32>) {
      arith.negf ...
    }
    %e1 = tensor.empty() : tensor<4xf32>
    %b = linalg.generic ... ins(%a : tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
      arith.negf ...
    }
    %e2 = tensor.empty() : tensor<4xf32>
    %c = linalg.generic ... ins(%b : tensor<4xf32>) outs(%e2 : tensor<4xf32>) {
      math.tanh ...
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def FreeAfterLastUsePass : Pass<"remat-free-after-last-use",
                                "mlir::func::FuncOp"> {
  let summary = "Free each buffer right after its last use";
  let description = [{
    Ownership-based deallocation (`buffer-deallocation-pipeline`) frees
    buffers at the end of the block that allocated them: in a training step,
    that keeps every activation alive to the end and defeats
    rematerialization. This pass moves each `memref.dealloc` of the
    function's straight-line blocks right after the last op of the block that
    uses the buffer or any view of it (as computed by
    `BufferViewFlowAnalysis`), which is where the memory model ends a
    buffer's live range. Deallocations of buffers used in other blocks stay
    where they are.

    The memory model counts the operands of an op live until the op has
    run; after lowering, an op is several (a padded convolution is an
    allocation, a fill, a copy of its input, an allocation, a bias
    broadcast and the convolution). They share the source op's location, so
    the last use is extended to the end of the run of ops that share its
    location. `remat-lower` gives every op a distinct location for this.

    Before:
    ```mlir
    %a = memref.alloc() : memref<4xf32>
    linalg.generic ... outs(%a : memref<4xf32>)
    linalg.generic ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
    %c = memref.alloc() : memref<4xf32>
    ...
    memref.dealloc %a : memref<4xf32>
    return %b : memref<4xf32>
    ```
    After:
    ```mlir
    %a = memref.alloc() : memref<4xf32>
    linalg.generic ... outs(%a : memref<4xf32>)
    linalg.generic ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
    memref.dealloc %a : memref<4xf32>
    %c = memref.alloc() : memref<4xf32>
    ...
    return %b : memref<4xf32>
    ```
  }];
  let statistics = [
    Statistic<"numMoved", "moved", "Deallocations moved up to a last use">
  ];
}

def ArenaAllocationPass : Pass<"remat-arena-allocation", "mlir::ModuleOp"> {
  let summary = "Place a step's buffers in one arena allocation";
  let description = [{
    Runs after bufferization and `remat-free-after-last-use`. In every public
    function that no op of the module calls (a step), each `memref.alloc` of
    the body's block with a static shape and an identity layout becomes a
    `memref.view` of one arena allocated at the entry, at the offset
    `placeArena` (lib/Planning/ArenaPlacement.cpp) gives it, and its
    `memref.dealloc` disappears. A buffer is live from its allocation to its
    deallocation in program order; one without a deallocation (a result)
    lives to the return. Every buffer is padded to `alignment` inside the
    arena and placed at a multiple of it; the arena is allocated without an
    alignment attribute (with one, the lowering to LLVM would allocate that
    much more and align by hand), so the allocator must return blocks
    aligned to `alignment`: the runtime's host allocator aligns to 64 bytes,
    CUDA to 256. The pipelines pass their target's alignment
    (include/remat/Planning/TargetMemory.h). A step that records the
    alignment it was planned with (`remat.arena_alignment`, set by
    `remat-plan`) must be lowered with the same, else the pass fails with an
    error on the step; an alignment that is not a power of two or exceeds
    4096, and an arena whose size overflows, are errors too.

    Results are views of the arena: the caller receives the arena through
    the allocated pointer of every result and frees it once. A step whose
    results are not in the arena frees it before returning. Allocations the
    pass cannot place (dynamic shapes, layouts, nested regions, more than one
    deallocation) stay as they are, each reported by a remark.

    Before:
    ```mlir
    func.func @step(%x: memref<4xf32>) -> memref<4xf32> {
      %a = memref.alloc() : memref<4xf32>
      linalg.generic ... ins(%x : memref<4xf32>) outs(%a : memref<4xf32>)
      %b = memref.alloc() : memref<4xf32>
      linalg.generic ... ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
      memref.dealloc %a : memref<4xf32>
      return %b : memref<4xf32>
    }
    ```
    After (alignment 64):
    ```mlir
    func.func @step(%x: memref<4xf32>) -> memref<4xf32> {
      %arena = memref.alloc() : memref<128xi8>
      %c0 = arith.constant 0 : index
      %a = memref.view %arena[%c0][] : memref<128xi8> to memref<4xf32>
      linalg.generic ... ins(%x : memref<4xf32>) outs(%a : memref<4xf32>)
      %c64 = arith.constant 64 : index
      %b = memref.view %arena[%c64][] : memref<128xi8> to memref<4xf32>
      linalg.generic ... ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
      return %b : memref<4xf32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
  let options = [
    Option<"alignment", "alignment", "uint64_t", /*default=*/"64",
           "Alignment of every offset in the arena, which the allocator "
           "gives the arena itself (64 B on the CPU, 256 B on the GPU): a "
           "power of two, at most 4096">
  ];
  let statistics = [
    Statistic<"numPlaced", "placed", "Allocations placed in an arena">,
    Statistic<"numKept", "kept", "Allocations left as they are">
  ];
}

def UncopiedResultsPass : Pass<"remat-uncopied-results", "mlir::func::FuncOp"> {
  let summary = "Return constants and arguments without the deallocation "
                "pipeline's copies";
  let description = [{
    Runs after bufferization and the deallocation pipeline, which clones a
    returned buffer the function does not own (a constant's global, an
    argument or a view of one) because a caller owns what a function
    returns. The memory model counts such a result as the constant or the
    argument, which allocate nothing: this pass returns the buffer itself
    instead of the clone. A caller must not free or write a result that is
    a constant or (a view of) one of its arguments; `remat-run` frees no
    result, and the arena lowering hands out the arena only through the
    results that are its views.

    Before:
    ```mlir
    func.func @step(%x: memref<64x64xf32>) -> (memref<64x64xf32>, memref<4096xf32>) {
      %0 = memref.get_global @__constant_64x64xf32 : memref<64x64xf32>
      %v = memref.collapse_shape %x [[0, 1]] : memref<64x64xf32> into memref<4096xf32>
      %1 = bufferization.clone %0 : memref<64x64xf32> to memref<64x64xf32>
      %2 = bufferization.clone %v : memref<4096xf32> to memref<4096xf32>
      return %1, %2 : memref<64x64xf32>, memref<4096xf32>
    }
    ```
    After:
    ```mlir
    func.func @step(%x: memref<64x64xf32>) -> (memref<64x64xf32>, memref<4096xf32>) {
      %0 = memref.get_global @__constant_64x64xf32 : memref<64x64xf32>
      %v = memref.collapse_shape %x [[0, 1]] : memref<64x64xf32> into memref<4096xf32>
      return %0, %v : memref<64x64xf32>, memref<4096xf32>
    }
    ```
  }];
  let statistics = [
    Statistic<"numUncopied", "uncopied", "Results returned without a copy">
  ];
}

def DonatedResultsPass : Pass<"remat-donated-results", "mlir::func::FuncOp"> {
  let summary = "Return donated arguments' buffers as the results they alias";
  let description = [{
    Runs after bufferization and the deallocation pipeline. An argument with
    `remat.aliasing_output = r` is donated to result `r` (the optimizer's
    parameters and state, `remat-autodiff`): result `r` must be the
    argument's own buffer. The pass checks that bufferization wrote the
    update in place (the return gives back the argument, possibly through
    the `bufferization.clone` the deallocation pipeline adds for a returned
    argument), and returns the argument itself instead of the clone, so the
    step allocates nothing for the result. A result that is a new buffer is
    an error at the return. The attribute is consumed.

    Before:
    ```mlir
    func.func @step(%p: memref<4xf32> {remat.aliasing_output = 0 : i64}, ...)
        -> memref<4xf32> {
      linalg.generic ... outs(%p : memref<4xf32>)
      %0 = bufferization.clone %p : memref<4xf32> to memref<4xf32>
      return %0 : memref<4xf32>
    }
    ```
    After:
    ```mlir
    func.func @step(%p: memref<4xf32>, ...) -> memref<4xf32> {
      linalg.generic ... outs(%p : memref<4xf32>)
      return %p : memref<4xf32>
    }
    ```
  }];
  let statistics = [
    Statistic<"numDonated", "donated", "Results returned in their argument's "
              "buffer">
  ];
}

def DeviceAllocationsPass : Pass<"remat-device-allocations",
                                 "mlir::ModuleOp"> {
  let summary = "Put the buffers of GPU-lowered functions where kernels can "
                "read them";
  let description = [{
    Runs in `remat-to-gpu` after parallel loops became `gpu.launch` ops and
    before kernel outlining. Host code allocates every buffer with
    `gpu.alloc host_shared` (CUDA managed memory: kernels and the host code
    between them both read it) and frees it with `gpu.dealloc`, so the
    runtime's `mgpuMemAlloc`/`mgpuMemFree` count device memory exactly as
    the CPU allocator counts host memory (`gpu-to-llvm` lowers only the
    asynchronous `gpu.dealloc`, hence a stream per free). Constants stay read-only globals:
    each `memref.get_global` a kernel reads is cloned into the kernel body,
    and kernel outlining then copies the global into the GPU module.

    Before:
    ```mlir
    %a = memref.alloc() : memref<4xf32>
    %c = memref.get_global @cst : memref<4xf32>
    gpu.launch ... { ... memref.load %c[%i] ... }
    memref.dealloc %a : memref<4xf32>
    ```
    After:
    ```mlir
    %a = gpu.alloc host_shared () : memref<4xf32>
    gpu.launch ... {
      %c = memref.get_global @cst : memref<4xf32>
      ... memref.load %c[%i] ...
    }
    %t0 = gpu.wait async
    %t1 = gpu.dealloc async [%t0] %a : memref<4xf32>
    gpu.wait [%t1]
    ```
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
  let statistics = [
    Statistic<"numAllocations", "allocations",
              "Allocations moved to device memory">
  ];
}

def GpuSharedContractionsPass
    : Pass<"remat-gpu-shared-contractions", "mlir::func::FuncOp"> {
  let summary = "Contractions (matrix products, convolutions by kernel "
                "tap) as GPU kernels that stage their operands in shared "
                "memory";
  let description = [{
    Every bufferized linalg contraction (`linalg.matmul`,
    `linalg.batch_matmul`, `linalg.contract`, a `linalg.generic` whose body
    is exactly `acc + lhs * rhs`, transposed or not) on floats of one type,
    with static shapes and projected-permutation indexing maps, becomes a
    `gpu.launch` of blocks of 16x16 threads. Its loops are grouped as
    upstream's `inferContractionDims` does: batch (in all three operands),
    M (left operand and output), N (right operand and output) and K (the
    reductions), each group linearized with its last loop fastest. A block
    computes a tile of the M x N outputs of one batch element, 64 along a
    dimension of more than 32 outputs, else 32 or 16 (grid: ceil(N/TN),
    ceil(M/TM), batch); per step of 16 along K its threads copy TMx16 of
    the left operand and 16xTN of the right one into two workgroup buffers
    (`#gpu.address_space<workgroup>`, on-chip shared memory), zero past the
    edges, synchronize (`gpu.barrier`), and each thread accumulates a
    register tile of (TM/16)x(TN/16) outputs (rows `ty + 16i`, columns
    `tx + 16j`): at 64x64, 16 multiply-adds per 8 shared loads, each
    operand element read from global memory once per block instead of
    once per output. A thread starts from the output's value and adds the products
    in K order, as the loops over the reductions do (K in the op's loop
    order), without fused multiply-adds.

    A 2-D convolution (`remat.window` kernels of kind `convolution` and
    `input_adjoint`, and unpadded `linalg.conv_2d_nhwc_fhwc`) is first
    split by kernel tap, as `remat-vectorize-kernels` splits it
    (`lib/Conversion/ConvolutionTaps.h`): host loops over the taps around
    one contraction on views per span of taps, each then such a kernel
    (the input adjoint then sums its taps tap-major, as on the CPU, not
    in its loops' order). The weight adjoint, which splits into a
    contraction per output row, stays for the parallel loops.

    Shared memory (at most 8 KiB per block for f32) is on the chip, not in
    the device memory the arena and the budget count, and the views of
    the split allocate nothing: the pass allocates nothing the plan sees.
    Contractions whose grid would exceed the device's limits (65,535
    blocks along y or z), and empty reductions, stay for the parallel
    loops. The output must not overlap an operand, as after one-shot
    bufferization it does not: blocks would race on it.

    Before:
    ```mlir
    linalg.batch_matmul ins(%a, %b : memref<4x128x64xf32>, memref<4x64x96xf32>)
                        outs(%c : memref<4x128x96xf32>)
    ```
    After:
    ```mlir
    gpu.launch blocks(...) in (%gx = %c2, %gy = %c2, %gz = %c4)
               threads(...) in (%sx = %c16, %sy = %c16, %sz = %c1)
               workgroup(%as : memref<64x16xf32, #gpu.address_space<workgroup>>,
                         %bs : memref<16x64xf32, #gpu.address_space<workgroup>>) {
      ... scf.for over K in steps of 16: copy, gpu.barrier,
      ... 16 x (4 + 4 shared loads, 16 mulf/addf), gpu.barrier ...
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
  let statistics = [
    Statistic<"numContractions", "contractions",
              "Contractions staged in shared memory">,
    Statistic<"numConvolutionsSplit", "convolutions-split",
              "Convolutions split into contractions by kernel tap">
  ];
}

def ShareGpuKernelsPass : Pass<"remat-share-gpu-kernels", "mlir::ModuleOp"> {
  let summary = "Launch one kernel module for outlined kernels that are "
                "the same";
  let description = [{
    Runs in `remat-to-gpu` after kernel outlining, before the kernels are
    lowered to NVVM and compiled to PTX. Outlining gives every `gpu.launch`
    a `gpu.module` of its own, and a training step launches the same
    kernel again layer after layer: the ResNet-50 step's 2,453 kernels are
    280 different ones, and compiling each module to PTX took half of the
    lowering's time. Modules whose bodies are the same op for op
    (attributes, types and constants included, locations ignored) are
    merged: every `gpu.launch_func` of a duplicate launches the first
    module's kernel, and the duplicate is erased. The kernels read only
    their arguments, so a launch computes what it computed before.
    Allocates nothing.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
  let statistics = [
    Statistic<"numModules", "modules", "Kernel modules kept">,
    Statistic<"numShared", "shared", "Duplicate kernel modules erased">
  ];
}

def ParallelDimsOutermostPass
    : Pass<"remat-parallel-dims-outermost", "mlir::func::FuncOp"> {
  let summary = "Move the parallel dimensions of bufferized linalg ops "
                "outside their reductions";
  let description = [{
    `convert-linalg-to-parallel-loops` makes one `scf.parallel` of a linalg
    op's leading parallel dimensions only: a parallel dimension after a
    reduction becomes a parallel loop nested in the reduction's `scf.for`,
    which the GPU mapping cannot spread over threads. A column sum
    (`linalg.reduce` over dimension 0 of a 1024x10 buffer) then ran on one
    GPU thread. This pass generalizes such an op and interchanges its loops
    so that every parallel dimension comes first, in their order, followed
    by the reductions, in theirs. Each output element is still accumulated
    in the same order, so the results are the same bit for bit; only the
    loop that carries the work across threads changes. Ops whose parallel
    dimensions already lead are left alone. Allocates nothing.

    Before:
    ```mlir
    linalg.reduce ins(%x : memref<1024x10xf32>) outs(%s : memref<10xf32>)
        dimensions = [0]
    ```
    After:
    ```mlir
    linalg.generic {indexing_maps = [(d0, d1) -> (d1, d0), (d0, d1) -> (d0)],
                    iterator_types = ["parallel", "reduction"]} ...
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def GpuMapLoopsPass : Pass<"remat-gpu-map-loops", "mlir::func::FuncOp"> {
  let summary = "Spread each outermost parallel loop over GPU blocks of "
                "threads";
  let description = [{
    For every `scf.parallel` not nested in another: collapse its dimensions
    into one, tile that by the block size, and map the tile loop to
    `block_x` and the loop within a tile to `thread_x`, for
    `convert-parallel-loops-to-gpu`. Consecutive threads of a warp then
    take consecutive elements of the innermost dimension (coalesced access
    to the output and to operands indexed like it), every loop of any rank
    fills whole blocks, and no dimension meets the 65,535 limit of
    `block_y` and `block_z`. A loop smaller than a block gets a block of
    its size rounded up to a warp (32). The last block's threads past the
    end do nothing (`scf.if`). Loops nested in the body stay sequential
    within a thread. Allocates nothing.

    Before:
    ```mlir
    scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c96) step (%c1, %c1) {...}
    ```
    After (6,144 iterations: 24 blocks of 256 threads):
    ```mlir
    scf.parallel (%b) = (%c0) to (%c6144) step (%c256) {
      scf.parallel (%t) = (%c0) to (%c256) step (%c1) {
        scf.if (%b + %t < 6144) { ... %i, %j from (%b + %t) ... }
      } {mapping = [#gpu.loop_dim_map<processor = thread_x, ...>]}
    } {mapping = [#gpu.loop_dim_map<processor = block_x, ...>]}
    ```
  }];
  // collapseParallelLoops computes the collapsed bounds with affine.apply.
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect"];
  let options = [
    Option<"blockSize", "block-size", "int64_t", "256",
           "Threads per block (a multiple of 32, at most 1024)">
  ];
  let statistics = [
    Statistic<"numLoops", "loops", "Parallel loops mapped to blocks">
  ];
}

def VectorizeKernelsPass
    : Pass<"remat-vectorize-kernels", "mlir::func::FuncOp"> {
  let summary = "Tile bufferized linalg ops for the vector registers and "
                "vectorize them, allocating nothing";
  let description = [{
    Runs on bufferized functions, after `remat-arena-allocation`: every
    buffer of the step is already placed, and this pass adds none. Each
    `linalg` op on memrefs with a static shape that upstream's vectorizer
    accepts is tiled with `scf.for` loops over `memref.subview`s (views:
    no allocation) into register-sized tiles, and each tile is vectorized
    (`linalg::vectorize`). Its operands are read into vector registers and
    its results written back; there are no packing buffers, promoted tiles
    or stack temporaries, so the memory the plan counted is the memory the
    step uses. Ops the vectorizer refuses (the pooling windows and the
    grouped and depthwise convolution kernels, which read their input with
    `memref.load`) stay as they are for `convert-linalg-to-loops`. Ops on
    `i1` buffers are vectorized: a memref stores an `i1` per byte where an
    LLVM vector of `i1` in memory packs bits, so a lowering that vectorizes
    them must move their vectors a byte per element, as `remat-to-cpu`
    does with `remat-byte-masks`. Each decision is a `remat` remark
    (`--remarks-filter=remat`).

    A 2-D convolution (the forward, input-adjoint and weight-adjoint
    kernels marked `remat.window`, and unpadded `linalg.conv_2d_nhwc_fhwc`)
    first becomes loops around contractions on views. The forward and the
    input adjoint run tap-major: per span of kernel rows and of kernel
    columns that reach the same outputs, an `scf.for` over its taps around
    one `linalg.contract` over the batch and every output position they
    reach, `y[n, oh, ow, f] += x[n, oh*s + kh, ow*s' + kw, c] *
    w[f, kh, kw, c]` on a strided view of `x` (the input adjoint
    `dx[...] += g[n, oh, ow, f] * w`), loops of extent 1 left out, so that
    a register tile reads a tap of the weight once for up to 8 outputs of
    the batch and both output dimensions. The weight adjoint (and a
    forward convolution whose rows run in parallel) runs row-major:
    `scf.for` loops over batch, output rows and the kernel rows that stay
    inside the input, then, for each run of output columns that read
    through the same kernel columns, a loop over those columns around one
    contraction, `dw[f, c] += g[ow, f] * x[...]`. Padding costs no work (a
    tap's loops cover only the outputs it reaches), a strided input
    adjoint does no work for the input positions a tap does not reach, and
    each contraction is then tiled and vectorized as below.

    Tiles divide the loops exactly, so every tile has the same static
    shape and no masks are needed:

    - a contraction (`linalg.matmul`, `linalg.batch_matmul`, generics of
      that form) gets a register tile of `m` rows (8 with 32 vector
      registers, 4 with 16) by `n` columns (two vectors) by `k` reduction
      steps (16), each the largest divisor of its loop up to that size
      (the rows from the innermost `m` loop, then from the next ones out
      while rows are left), and every other loop 1; the tile becomes a
      `vector.contract`,
      lowered to outer products: one broadcast and one FMA per row and
      vector, the accumulator held in registers across the `k` steps;
    - any other op (elementwise, reductions, fills, transposes) keeps its
      innermost loop as a tile of up to two vectors, other loops 1.

    With `parallel`, the work is shared across threads where that gives
    the same result element for element: the outermost tile loop of an op
    outside any loop becomes an `scf.parallel` when it runs over a
    parallel dimension that indexes every output (its tiles write disjoint
    outputs) and the op has at least 2^20 points in its iteration space
    (multiply-adds, elements); a convolution of that size and its input
    and weight adjoints, whose taps and rows add into outputs that other
    taps and rows reach, run in parallel chunks of their output channels
    (2 or 4 chunks of at least 16 channels, around the whole loop nest),
    and a forward convolution whose filters do not split so runs
    row-major, its output rows in parallel. Each output element is
    computed by the same operations in the same order whatever the number
    of threads. Nothing is allocated per thread. `convert-scf-to-openmp`
    then makes the loops OpenMP work-sharing loops.

    `vector-bits` is the vector register width; 0 (the default) detects
    the host's (512 with AVX-512, 256 with AVX, else 128). Vector ops are
    then lowered to broadcasts, FMAs and in-bounds transfers (rank-1 ones
    to loads and stores; `convert-vector-to-scf` with full unrolling takes
    the rest, without a stack buffer), ready for `convert-vector-to-llvm`.

    Before:
    ```mlir
    linalg.matmul ins(%a, %b : memref<16x8xf32>, memref<8x32xf32>)
                  outs(%c : memref<16x32xf32>)
    ```
    After (`vector-bits=512`; outer products lowered):
    ```mlir
    scf.for %i = %c0 to %c16 step %c8 {
      %sa = memref.subview %a[%i, 0] [8, 8] [1, 1]
      %sc = memref.subview %c[%i, 0] [8, 32] [1, 1]
      %va = vector.transfer_read %sa[%c0, %c0] ... : vector<8x8xf32>
      %vb = vector.transfer_read %b[%c0, %c0] ... : vector<8x32xf32>
      %vc = vector.transfer_read %sc[%c0, %c0] ... : vector<8x32xf32>
      %b0 = vector.extract %vb[0] : vector<32xf32> from vector<8x32xf32>
      %c0row = vector.extract %vc[0] : vector<32xf32> from vector<8x32xf32>
      %x = vector.extract %va[0, 0] : f32 from vector<8x8xf32>
      %s = vector.broadcast %x : f32 to vector<32xf32>
      %r = vector.fma %s, %b0, %c0row : vector<32xf32>
      ...
      vector.transfer_write %r8, %sc[%c0, %c0] ... : vector<8x32xf32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
  let options = [
    Option<"vectorBits", "vector-bits", "unsigned", /*default=*/"0",
           "Width of a vector register in bits (0: the host's)">,
    Option<"parallel", "parallel", "bool", /*default=*/"false",
           "Run the outermost tile loop of each large op, and a "
           "convolution's chunks of output channels (or rows), as "
           "scf.parallel">
  ];
  let statistics = [
    Statistic<"numVectorized", "vectorized", "Ops tiled and vectorized">,
    Statistic<"numConvolutionsSplit", "convolutions-split",
              "Convolutions run tap by tap as contractions over views">,
    Statistic<"numKept", "kept", "Ops left for convert-linalg-to-loops">,
    Statistic<"numParallel", "parallel", "Tile loops made scf.parallel">
  ];
}

def ByteMasksPass : Pass<"remat-byte-masks"> {
  let summary = "Load and store vectors of i1 as a byte per element";
  let description = [{
    On the LLVM dialect: every `llvm.load` of a vector of `i1` becomes a
    load of an `i8` vector of the same shape and an `llvm.trunc`, every
    `llvm.store` of one an `llvm.zext` and a store of the bytes. A memref
    stores an `i1` in a byte (its scalar loads and stores move a byte, and
    the memory model counts a byte), where an LLVM vector of `i1` in memory
    takes a bit per element: without this pass a vector load of a mask
    buffer would read the wrong bytes. `remat-to-cpu` runs it last, after
    `remat-vectorize-kernels` has vectorized the kernels that read and
    write masks. Allocates nothing.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def ApproximateMathPass : Pass<"remat-approximate-math"> {
  let summary = "Replace transcendental math ops with polynomial "
                "approximations that vectorize";
  let description = [{
    Rewrites `math.tanh`, `math.erf`, `math.erfc`, `math.exp`,
    `math.expm1`, `math.log`, `math.log1p`, `math.log2`, `math.sin`,
    `math.cos`, `math.atan`, `math.atan2`, `math.asin`, `math.acos` and
    `math.cbrt` on `f32` (scalars or vectors) with upstream's polynomial
    approximations (`populateMathPolynomialApproximationPatterns`): plain
    arithmetic that stays in vector registers. Without it, the CPU
    lowering turns each into a libm call per element (a vector of 16
    `tanhf` calls after vectorization): `tosa.tanh` of a million floats
    took 25 ms, 140 times a `tosa.add` of the same size. The
    approximations are accurate to a few units in the last place, not
    correctly rounded (`test/E2E/approximate-math.test` states the bound it
    checks against libm). Nothing is allocated.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::vector::VectorDialect"];
}

def ShareKernelsPass : Pass<"remat-share-kernels", "mlir::ModuleOp"> {
  let summary = "Call one function for the linalg ops of one kind";
  let description = [{
    Runs on bufferized modules, after `remat-arena-allocation`. Every
    linalg op on memrefs becomes a call of one private, `noinline` function
    per kind (`kernel_<op name>`, made unique), which runs a copy of the op
    on its arguments. Ops are of one kind when they are the same op with
    the same attributes and body, on operands of the same types, and their
    bodies read the same constants and other values from outside of the
    same types in the same pattern; those other values are passed after
    the operands, the constants made again in the function. A training
    step repeats its kernels block after block: the lowering after this
    pass tiles, vectorizes and compiles each kind once, and the step's
    function is left with views and calls, which LLVM's loop analyses,
    superlinear in a function's size, no longer walk across. The functions
    read and write only the buffers they are passed, so nothing is
    allocated that the plan did not count. A function left without any op
    with a region (no loop) is marked `optnone` for LLVM: a straight line
    of descriptor moves and calls that runs once per step, which optimizing
    cost more compile time than the kernels it calls.

    Before:
    ```mlir
    linalg.matmul ins(%a, %b : memref<8x8xf32>, memref<8x8xf32>)
                  outs(%c : memref<8x8xf32>)
    linalg.matmul ins(%c, %b : memref<8x8xf32>, memref<8x8xf32>)
                  outs(%d : memref<8x8xf32>)
    ```
    After:
    ```mlir
    call @kernel_linalg_matmul(%a, %b, %c) : (...) -> ()
    call @kernel_linalg_matmul(%c, %b, %d) : (...) -> ()
    func.func private @kernel_linalg_matmul(%0: memref<8x8xf32>,
        %1: memref<8x8xf32>, %2: memref<8x8xf32>)
        attributes {passthrough = ["noinline"]} {
      linalg.matmul ins(%0, %1 : ...) outs(%2 : ...)
      return
    }
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
  let statistics = [
    Statistic<"numKinds", "kinds", "Kinds of op given a function">,
    Statistic<"numCalls", "calls", "Ops that became calls">
  ];
}

#endif // REMAT_CONVERSION_PASSES_TD
