//===- Frontend.h - What the CPU and GPU pipelines share --------*- C++ -*-===//

#ifndef REMAT_LIB_PIPELINES_FRONTEND_H
#define REMAT_LIB_PIPELINES_FRONTEND_H

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace remat {

/// remat-lower, TOSA to linalg/arith/tensor, one-shot bufferization,
/// ownership-based deallocation, and deallocations moved up to right after
/// each buffer's last use: the part of the lowering the memory model
/// describes. No CSE or canonicalization runs between remat-lower and
/// bufferization, so every recomputation stays a separate computation, and
/// buffers are allocated unaligned (the runtime aligns them) so that an
/// allocation's size is exactly its tensor's.
void buildBufferizedFrontend(mlir::OpPassManager &pm, bool emitCInterface);

/// On a function: bufferized linalg ops to scf.parallel loops with their
/// parallel dimensions outermost, each collapsed and tiled into blocks of
/// threads mapped to `block_x` and `thread_x`. remat-to-gpu makes kernels
/// of them; remat-to-cpu{gpu-loops=true} runs them block after block,
/// thread after thread, to check the GPU's loop structure where there is
/// no GPU.
void addGpuLoopMapping(mlir::OpPassManager &funcPm);

} // namespace remat

#endif // REMAT_LIB_PIPELINES_FRONTEND_H
