//===- ScratchBuffersOpInterface.td - Buffers an op's lowering needs -*- tablegen -*-===//

#ifndef REMAT_INTERFACES_SCRATCHBUFFERSOPINTERFACE_TD
#define REMAT_INTERFACES_SCRATCHBUFFERSOPINTERFACE_TD

include "mlir/IR/OpBase.td"

def Remat_ScratchBuffersOpInterface : OpInterface<"ScratchBuffersOpInterface"> {
  let description = [{
    The temporary buffers the lowering of an operation allocates beyond its
    results and frees once the operation has run: a padded copy of an input,
    an accumulator, a pooling's window tensor, a transposed kernel. Each is
    a separate allocation, so the memory model counts each one (and, in an
    arena, pads each one to the target's alignment).

    The description belongs to the lowering: upstream ops get this
    interface through external models written next to the conversion that
    lowers them (`remat::registerScratchBufferModels`), and a model that
    depends on how Remat lowers an op asks the same predicate the lowering
    asks (e.g. `remat::lowersWithoutPaddedCopy`).
  }];
  let cppNamespace = "::remat";
  let methods = [
    InterfaceMethod<
      /*desc=*/"Returns the types of the buffers the op's lowering allocates "
               "and frees around the op, in the order it allocates them; "
               "empty when it needs none.",
      /*retTy=*/"::llvm::SmallVector<::mlir::RankedTensorType>",
      /*methodName=*/"getScratchBufferTypes">
  ];
}

#endif // REMAT_INTERFACES_SCRATCHBUFFERSOPINTERFACE_TD
