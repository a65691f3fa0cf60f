//===- ScatterKernels.h - The adjoint of a gather as a scatter-add -*- C++
//-*-===//
//
// The adjoint of an embedding lookup adds each position's adjoint row into
// the table row its index names. Linalg has no op that writes through an
// index, so the step holds the scatter-add as one destination-passing
// linalg.generic: its body states the result densely (every row sums the
// positions that picked it), which is what the memory model and the planner
// see, a buffer written in place into its zero-filled destination. The
// lowering never runs that dense loop nest: remat-convert-to-linalg turns
// the marked kernel into loops over the positions that add one row each,
// into the same destination, and the kernel is priced as those loops run.
//
//===----------------------------------------------------------------------===//

#ifndef REMAT_TOSA_SCATTERKERNELS_H
#define REMAT_TOSA_SCATTERKERNELS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

namespace remat {

/// Unit attribute marking the linalg.generic that buildScatterAdd makes:
/// remat-convert-to-linalg lowers it to loops over the positions.
constexpr llvm::StringLiteral kScatterAddAttrName = "remat.scatter_add";

/// values [N,K,C] (of `valuesShape`), indices [N,W] (i32), g [N,W,C]:
///   dValues[n,k,c] = sum over w with clamp(indices[n,w], 0, K-1) == k of
///                    g[n,w,c],
/// a zero fill of dValues and the kernel writing into it. An index is
/// clamped to the table as the importer clamps a gather's ids, so no index
/// writes outside the table. Priced 2*N*W*C: a read-add-write per element
/// of g.
mlir::Value buildScatterAdd(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value indices, mlir::Value g,
                            llvm::ArrayRef<int64_t> valuesShape);

/// The pattern rewriting a kernel of buildScatterAdd into scf.for loops
/// over n and w that read the clamped index once and add g's row c by c
/// into the destination (tensor.extract and tensor.insert on the loops'
/// carried tensor, which bufferization writes in place).
void populateScatterAddLoweringPatterns(mlir::RewritePatternSet &patterns);

/// Whether `op` is a kernel of buildScatterAdd, which the lowering pattern
/// must rewrite.
bool isScatterAddKernel(mlir::Operation *op);

} // namespace remat

#endif // REMAT_TOSA_SCATTERKERNELS_H
