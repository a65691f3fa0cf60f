//===- ConvolutionTaps.cpp - Convolutions as contractions over views ------===//
//
// All three contractions of a convolution touch, for output row oh and
// kernel row kh, input row ih = oh*s + kh*d - t; for a run of output columns
// [o0, o1) and a kernel column kw, input columns o*s' + kw*d' - l, a strided
// view. The weight adjoint runs row-major (and so does a convolution whose
// rows are shared across threads): its row and tap loops are scf.for loops
// (a row's taps bounded by affine.max/min so that ih stays inside the
// input); the runs of columns are static, so each contraction has one
// static shape for the vectorizer.
//
// The convolution and its input adjoint nest the other way, taps outside:
// per span of taps that reach the same outputs, one contraction over every
// batch element and output position they reach, the input rows and columns
// a strided view too. Their register tiles then take their rows from n, oh
// and ow, and each weight tap is read once per tile of rows instead of once
// per output row (an OIHW weight's channels are strided, so each read is a
// gather; an OHWI one's filters, so each read is a transpose).
//
//===----------------------------------------------------------------------===//

#include "ConvolutionTaps.h"

#include "remat/Tosa/WindowKernels.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace remat;

/// The k in [0, count) with 0 <= first + k*step < inputs, as [begin, end):
/// for one output the taps that reach the input (step: the dilation), or
/// for one tap the outputs it reaches (step: the stride).
static std::pair<int64_t, int64_t> inside(int64_t first, int64_t step,
                                          int64_t count, int64_t inputs) {
  return {std::max<int64_t>(0, llvm::divideCeilSigned(-first, step)),
          std::min<int64_t>(
              count, llvm::divideFloorSigned(inputs - 1 - first, step) + 1)};
}

SmallVector<TapRun> remat::tapRuns(int64_t outputs, int64_t inputs,
                                   int64_t kernel, int64_t stride,
                                   int64_t dilation, int64_t pad) {
  SmallVector<TapRun> runs;
  for (int64_t o = 0; o < outputs; ++o) {
    // 0 <= o*stride + tap*dilation - pad < inputs.
    auto [begin, end] = inside(o * stride - pad, dilation, kernel, inputs);
    if (begin >= end)
      continue;
    if (!runs.empty() && runs.back().end == o &&
        runs.back().tapBegin == begin && runs.back().tapEnd == end)
      runs.back().end = o + 1;
    else
      runs.push_back({o, o + 1, begin, end});
  }
  return runs;
}

SmallVector<TapRun> remat::tapSpans(int64_t outputs, int64_t inputs,
                                    int64_t kernel, int64_t stride,
                                    int64_t dilation, int64_t pad) {
  SmallVector<TapRun> spans;
  for (int64_t tap = 0; tap < kernel; ++tap) {
    auto [begin, end] = inside(tap * dilation - pad, stride, outputs, inputs);
    if (begin >= end)
      continue;
    if (!spans.empty() && spans.back().tapEnd == tap &&
        spans.back().begin == begin && spans.back().end == end)
      spans.back().tapEnd = tap + 1;
    else
      spans.push_back({begin, end, tap, tap + 1});
  }
  return spans;
}

namespace {

enum class Role { Convolution, InputAdjoint, WeightAdjoint };

/// A convolution on NHWC buffers, whichever of its contractions the op
/// computes: x [N,H,W,C] is the input (its adjoint for InputAdjoint), y
/// [N,OH,OW,F] the output (its adjoint for the adjoints), w the OHWI
/// kernel (its adjoint for WeightAdjoint) with OHWI dimension j stored as
/// dimension wDims[j].
struct ConvolutionBuffers {
  Role role;
  Value x, y, w;
  std::array<unsigned, 4> wDims = {0, 1, 2, 3};
  std::array<int64_t, 2> stride = {1, 1}, dilation = {1, 1};
  /// top, bottom, left, right.
  std::array<int64_t, 4> pad = {0, 0, 0, 0};
};

StringRef kindOf(Role role) {
  switch (role) {
  case Role::Convolution:
    return "convolution";
  case Role::InputAdjoint:
    return "input_adjoint";
  case Role::WeightAdjoint:
    return "weight_adjoint";
  }
  llvm_unreachable("unknown role");
}

template <size_t N>
bool readArray(DictionaryAttr dict, StringRef name,
               std::array<int64_t, N> &values) {
  auto array = dict.getAs<DenseI64ArrayAttr>(name);
  if (!array || array.size() != static_cast<int64_t>(N))
    return false;
  llvm::copy(array.asArrayRef(), values.begin());
  return true;
}

/// The buffer the body of `op` gathers from with memref.load, if it reads
/// exactly one such buffer from outside.
Value gatheredBuffer(linalg::GenericOp op) {
  SmallVector<memref::LoadOp> loads;
  op.getRegion().walk([&](memref::LoadOp load) { loads.push_back(load); });
  if (loads.size() != 1 ||
      op->isProperAncestor(
          loads.front().getMemRef().getParentBlock()->getParentOp()))
    return {};
  return loads.front().getMemRef();
}

/// A kernel of remat/Tosa/WindowKernels.h, by its kWindowAttrName record
/// and its loops (WindowKernels.cpp names them per kernel).
FailureOr<ConvolutionBuffers> matchWindowKernel(linalg::GenericOp op) {
  auto window = op->getAttrOfType<DictionaryAttr>(kWindowAttrName);
  if (!window || op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1)
    return failure();
  ConvolutionBuffers conv;
  auto kind = window.getAs<StringAttr>("kind");
  if (!kind || !readArray(window, "stride", conv.stride) ||
      !readArray(window, "dilation", conv.dilation) ||
      !readArray(window, "pad", conv.pad))
    return failure();
  Value gathered = gatheredBuffer(op);
  if (!gathered)
    return failure();
  OpOperand *mapped = op.getDpsInputOperand(0);
  // The operand holding the kernel (its adjoint for the weight adjoint).
  OpOperand *kernel = mapped;
  Value init = op.getDpsInitOperand(0)->get();
  // The loops walking the kernel's OHWI dimensions.
  std::array<unsigned, 4> kernelLoops;
  if (kind.getValue() == "convolution") {
    conv = {Role::Convolution, gathered,      init,    mapped->get(), {},
            conv.stride,       conv.dilation, conv.pad};
    kernelLoops = {3, 4, 5, 6};
  } else if (kind.getValue() == "input_adjoint") {
    conv = {Role::InputAdjoint, init,          gathered, mapped->get(), {},
            conv.stride,        conv.dilation, conv.pad};
    kernelLoops = {4, 5, 6, 3};
  } else if (kind.getValue() == "weight_adjoint") {
    // Loops (f, kh, kw, c, n, oh, ow): dy[n, oh, ow, f] is read by loops
    // 4, 5, 6 and 0, and the kernel's adjoint is written by the first four,
    // in whichever layout it is stored.
    AffineMap dyMap = op.getMatchingIndexingMap(mapped);
    if (dyMap.getNumDims() != 7 || dyMap.getNumResults() != 4 ||
        !dyMap.isProjectedPermutation())
      return failure();
    for (auto [r, loop] : llvm::enumerate(std::array<unsigned, 4>{4, 5, 6, 0}))
      if (dyMap.getDimPosition(r) != loop)
        return failure();
    conv = {Role::WeightAdjoint, gathered,    mapped->get(), init, {},
            conv.stride,         conv.dilation, conv.pad};
    kernel = op.getDpsInitOperand(0);
    kernelLoops = {0, 1, 2, 3};
  } else {
    return failure();
  }
  AffineMap map = op.getMatchingIndexingMap(kernel);
  if (map.getNumResults() != 4 || !map.isProjectedPermutation())
    return failure();
  for (unsigned r = 0; r < 4; ++r) {
    auto *it = llvm::find(kernelLoops, map.getDimPosition(r));
    if (it == kernelLoops.end())
      return failure();
    conv.wDims[it - kernelLoops.begin()] = r;
  }
  return conv;
}

/// An unpadded linalg.conv_2d_nhwc_fhwc, as TOSA lowers unpadded
/// convolutions.
FailureOr<ConvolutionBuffers> matchNamedConvolution(linalg::LinalgOp op) {
  auto named = dyn_cast<linalg::Conv2DNhwcFhwcOp>(op.getOperation());
  if (!named)
    return failure();
  ConvolutionBuffers conv{Role::Convolution, named.getInputs()[0],
                          named.getOutputs()[0], named.getInputs()[1]};
  auto read = [](DenseIntElementsAttr attr, std::array<int64_t, 2> &values) {
    if (attr)
      llvm::copy(attr.getValues<int64_t>(), values.begin());
  };
  read(named.getStridesAttr(), conv.stride);
  read(named.getDilationsAttr(), conv.dilation);
  return conv;
}

ArrayRef<int64_t> shapeOf(Value buffer) {
  return cast<MemRefType>(buffer.getType()).getShape();
}

/// Static float buffers of one element type whose shapes agree.
bool isWellFormed(const ConvolutionBuffers &conv) {
  for (Value buffer : {conv.x, conv.y, conv.w}) {
    auto type = dyn_cast<MemRefType>(buffer.getType());
    if (!type || !type.hasStaticShape() || type.getRank() != 4 ||
        !isa<FloatType>(type.getElementType()) ||
        type.getElementType() != getElementTypeOrSelf(conv.x.getType()))
      return false;
  }
  ArrayRef<int64_t> xs = shapeOf(conv.x), ys = shapeOf(conv.y),
                    ws = shapeOf(conv.w);
  return xs[0] == ys[0] && ws[conv.wDims[0]] == ys[3] &&
         ws[conv.wDims[3]] == xs[3] &&
         llvm::all_of(conv.stride, [](int64_t s) { return s > 0; }) &&
         llvm::all_of(conv.dilation, [](int64_t d) { return d > 0; });
}

/// The smallest chunk of output channels a nest is split into: one 512-bit
/// vector of f32, so that the chunks keep full vector tiles.
constexpr int64_t kMinChannelChunk = 16;

/// How many chunks a nest's output channels split into: 4 or 2 equal
/// chunks of kMinChannelChunk or more, else 1 (no split).
int64_t channelChunks(int64_t channels) {
  for (int64_t chunks : {4, 2})
    if (channels % chunks == 0 && channels / chunks >= kMinChannelChunk)
      return chunks;
  return 1;
}

/// Builds the loops and contractions of one convolution.
struct TapBuilder {
  RewriterBase &b;
  Location loc;
  const ConvolutionBuffers &conv;
  /// The output channels this nest covers, when it is split into chunks:
  /// [chunkBegin, chunkBegin + chunkSize) of the input channels (input
  /// adjoint) or of the filters (convolution, weight adjoint).
  Value chunkBegin;
  int64_t chunkSize = 0;

  /// Offset and size of a view along the chunked channels: the chunk's
  /// where there is one and `chunked` says the dimension is the chunked
  /// one, else the whole `extent`.
  std::pair<OpFoldResult, int64_t> channels(bool chunked, int64_t extent) {
    if (chunked && chunkBegin)
      return {chunkBegin, chunkSize};
    return {b.getIndexAttr(0), extent};
  }

  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }

  /// An scf.for over [lower, upper); the builder moves into its body.
  Value loop(Value lower, Value upper) {
    auto forOp = scf::ForOp::create(b, loc, lower, upper, index(1));
    b.setInsertionPointToStart(forOp.getBody());
    return forOp.getInductionVar();
  }

  /// o*stride + tap*dilation - pad along spatial dimension `d`.
  Value inputPosition(int d, Value o, Value tap, int64_t oOffset = 0) {
    AffineExpr oe = b.getAffineDimExpr(0), te = b.getAffineDimExpr(1);
    AffineMap map = AffineMap::get(2, 0,
                                   (oe + oOffset) * conv.stride[d] +
                                       te * conv.dilation[d] - conv.pad[2 * d]);
    return affine::AffineApplyOp::create(b, loc, map, ValueRange{o, tap});
  }

  /// A view of `buffer`: [offset, offset + size) by stride in each
  /// dimension, dimensions `dropped` (of size 1) left out of its shape.
  Value view(Value buffer, ArrayRef<OpFoldResult> offsets,
             ArrayRef<int64_t> sizes, ArrayRef<int64_t> strides,
             ArrayRef<unsigned> dropped) {
    auto type = cast<MemRefType>(buffer.getType());
    SmallVector<int64_t> shape;
    SmallVector<OpFoldResult> sizeFolds, strideFolds;
    for (auto [dim, size, stride] : llvm::enumerate(sizes, strides)) {
      if (!llvm::is_contained(dropped, dim))
        shape.push_back(size);
      sizeFolds.push_back(b.getIndexAttr(size));
      strideFolds.push_back(b.getIndexAttr(stride));
    }
    MemRefType viewType = memref::SubViewOp::inferRankReducedResultType(
        shape, type, offsets, sizeFolds, strideFolds);
    return memref::SubViewOp::create(b, loc, viewType, buffer, offsets,
                                     sizeFolds, strideFolds);
  }

  /// out += lhs * rhs summed over the loops `out` does not index, on views,
  /// as a linalg.contract whose maps read the operands as they are stored:
  /// the vectorizer turns a named contraction into one vector.contract (a
  /// generic of the same maps, into broadcasts and horizontal sums).
  linalg::LinalgOp contraction(Value lhs, AffineMap lhsMap, Value rhs,
                               AffineMap rhsMap, Value out, AffineMap outMap) {
    return linalg::ContractOp::create(
        b, loc, ValueRange{lhs, rhs}, ValueRange{out},
        b.getAffineMapArrayAttr({lhsMap, rhsMap, outMap}));
  }

  /// The map from `numLoops` loops to the loops `results`.
  AffineMap loopsMap(unsigned numLoops, ArrayRef<unsigned> results) {
    SmallVector<AffineExpr> exprs;
    for (unsigned loop : results)
      exprs.push_back(b.getAffineDimExpr(loop));
    return AffineMap::get(numLoops, 0, exprs, b.getContext());
  }

  AffineMap map2(unsigned first, unsigned second) {
    return loopsMap(3, {first, second});
  }

  /// The kernel's tap (kh, kw) as a 2-D view in its stored order, and the
  /// map reading it when the contraction's loops `f` and `c` (of
  /// `numLoops`) walk F and C.
  std::pair<Value, AffineMap> kernelTap(Value kh, Value kw, unsigned f,
                                        unsigned c, unsigned numLoops = 3) {
    ArrayRef<int64_t> ws = shapeOf(conv.w);
    SmallVector<OpFoldResult> offsets(4, b.getIndexAttr(0));
    SmallVector<int64_t> sizes(ws), strides(4, 1);
    offsets[conv.wDims[1]] = kh;
    offsets[conv.wDims[2]] = kw;
    std::tie(offsets[conv.wDims[0]], sizes[conv.wDims[0]]) =
        channels(conv.role != Role::InputAdjoint, ws[conv.wDims[0]]);
    std::tie(offsets[conv.wDims[3]], sizes[conv.wDims[3]]) =
        channels(conv.role == Role::InputAdjoint, ws[conv.wDims[3]]);
    sizes[conv.wDims[1]] = sizes[conv.wDims[2]] = 1;
    Value tap =
        view(conv.w, offsets, sizes, strides, {conv.wDims[1], conv.wDims[2]});
    bool filtersFirst = conv.wDims[0] < conv.wDims[3];
    return {tap, filtersFirst ? loopsMap(numLoops, {f, c})
                              : loopsMap(numLoops, {c, f})};
  }

  /// The contraction of one run of columns [o0, o0 + width) at output row
  /// oh, kernel row kh (input row ih) and kernel column kw.
  linalg::LinalgOp runContraction(Value n, Value oh, Value ih, Value kh,
                                  Value kw, int64_t o0, int64_t width) {
    ArrayRef<int64_t> xs = shapeOf(conv.x), ys = shapeOf(conv.y);
    Value iw = inputPosition(1, index(0), kw, o0);
    auto [yBegin, yChannels] = channels(/*chunked=*/true, ys[3]);
    Value xRow = view(conv.x, {n, ih, iw, b.getIndexAttr(0)},
                      {1, 1, width, xs[3]}, {1, 1, conv.stride[1], 1}, {0, 1});
    Value yRow = view(conv.y, {n, oh, b.getIndexAttr(o0), yBegin},
                      {1, 1, width, yChannels}, {1, 1, 1, 1}, {0, 1});
    switch (conv.role) {
    case Role::Convolution: { // (ow, f, c)
      auto [tap, tapMap] = kernelTap(kh, kw, 1, 2);
      return contraction(xRow, map2(0, 2), tap, tapMap, yRow, map2(0, 1));
    }
    case Role::InputAdjoint:
      llvm_unreachable("the input adjoint is built tap-major");
    case Role::WeightAdjoint: { // (f, c, ow)
      auto [tap, tapMap] = kernelTap(kh, kw, 0, 1);
      return contraction(yRow, map2(2, 0), xRow, map2(2, 1), tap, tapMap);
    }
    }
    llvm_unreachable("unknown role");
  }

  /// The contraction for kernel taps (kh, kw) of `rows` and `columns`
  /// (tapSpans) over every n and the outputs (oh, ow) of the spans, with
  /// x[n, oh*s + kh*d - t, ow*s' + kw*d' - l, c] a strided view: y[.., f]
  /// += x[.., c] * w[f, kh, kw, c] for a convolution, x[.., c] += y[.., f]
  /// * w[f, kh, kw, c] for its input adjoint. Its loops are n, oh, ow (less
  /// those of extent 1), the output's channels, then the summed ones; the
  /// rows of a register tile span n, oh and ow, so a tile of the weight's
  /// tap read into registers serves all of them.
  linalg::LinalgOp tapContraction(Value kh, Value kw, TapRun rows,
                                  TapRun columns) {
    ArrayRef<int64_t> xs = shapeOf(conv.x), ys = shapeOf(conv.y);
    SmallVector<int64_t> extents = {xs[0], rows.end - rows.begin,
                                    columns.end - columns.begin};
    SmallVector<unsigned> dropped;
    for (unsigned d = 0; d < extents.size(); ++d)
      if (extents[d] == 1)
        dropped.push_back(d);
    // A contraction keeps one row loop even when every extent is 1.
    if (dropped.size() == extents.size())
      dropped.pop_back();
    unsigned rowLoops = extents.size() - dropped.size();
    unsigned outChannel = rowLoops, inChannel = rowLoops + 1;
    unsigned numLoops = rowLoops + 2;
    SmallVector<unsigned> rowsThenOut = llvm::to_vector(llvm::seq(rowLoops));
    SmallVector<unsigned> rowsThenIn(rowsThenOut);
    rowsThenOut.push_back(outChannel);
    rowsThenIn.push_back(inChannel);

    bool adjoint = conv.role == Role::InputAdjoint;
    Value ih = inputPosition(0, index(0), kh, rows.begin);
    Value iw = inputPosition(1, index(0), kw, columns.begin);
    auto [xBegin, xChannels] = channels(adjoint, xs[3]);
    auto [yBegin, yChannels] = channels(!adjoint, ys[3]);
    Value xTaps = view(conv.x, {b.getIndexAttr(0), ih, iw, xBegin},
                       {extents[0], extents[1], extents[2], xChannels},
                       {1, conv.stride[0], conv.stride[1], 1}, dropped);
    Value yTaps = view(conv.y,
                       {b.getIndexAttr(0), b.getIndexAttr(rows.begin),
                        b.getIndexAttr(columns.begin), yBegin},
                       {extents[0], extents[1], extents[2], yChannels},
                       {1, 1, 1, 1}, dropped);
    AffineMap outMap = loopsMap(numLoops, rowsThenOut),
              inMap = loopsMap(numLoops, rowsThenIn);
    if (adjoint) {
      auto [tap, tapMap] =
          kernelTap(kh, kw, /*f=*/inChannel, /*c=*/outChannel, numLoops);
      return contraction(yTaps, inMap, tap, tapMap, xTaps, outMap);
    }
    auto [tap, tapMap] =
        kernelTap(kh, kw, /*f=*/outChannel, /*c=*/inChannel, numLoops);
    return contraction(xTaps, inMap, tap, tapMap, yTaps, outMap);
  }

  /// A convolution or its input adjoint tap-major: per span of kernel rows
  /// and of kernel columns (taps that reach the same outputs), loops over
  /// its taps around one contraction over every output they reach. Each
  /// weight tap is read once per register tile of outputs, not once per
  /// output row: with the weight stored OIHW its channels are strided and
  /// each read a gather; else a transpose in registers.
  void buildTapMajor(SplitConvolution &split) {
    ArrayRef<int64_t> xs = shapeOf(conv.x), ys = shapeOf(conv.y),
                      ws = shapeOf(conv.w);
    for (TapRun rows : tapSpans(ys[1], xs[1], ws[conv.wDims[1]], conv.stride[0],
                                conv.dilation[0], conv.pad[0])) {
      OpBuilder::InsertionGuard rowGuard(b);
      Value kh = loop(index(rows.tapBegin), index(rows.tapEnd));
      for (TapRun columns :
           tapSpans(ys[2], xs[2], ws[conv.wDims[2]], conv.stride[1],
                    conv.dilation[1], conv.pad[2])) {
        OpBuilder::InsertionGuard columnGuard(b);
        Value kw = loop(index(columns.tapBegin), index(columns.tapEnd));
        split.contractions.push_back(tapContraction(kh, kw, rows, columns));
      }
    }
  }

  /// With `shareable`, a loop over chunks of the output's channels first.
  /// Then a convolution and its input adjoint tap-major (buildTapMajor),
  /// the weight adjoint row-major: loops n, oh, kh (the taps keeping ih
  /// inside the input), then per run of columns a loop over its kernel
  /// columns around its contraction. A shareable convolution whose filters
  /// do not split into chunks runs row-major too, its rows shared: each
  /// output element sums its taps in the same order either way.
  SplitConvolution build(bool shareable) {
    ArrayRef<int64_t> xs = shapeOf(conv.x), ys = shapeOf(conv.y),
                      ws = shapeOf(conv.w);
    int64_t kernelRows = ws[conv.wDims[1]], kernelColumns = ws[conv.wDims[2]];
    SplitConvolution split;
    split.kind = kindOf(conv.role).str();
    int64_t outputChannels = conv.role == Role::InputAdjoint ? xs[3] : ys[3];
    int64_t chunks = channelChunks(outputChannels);
    bool chunked = shareable && chunks > 1;
    if (chunked) {
      chunkSize = outputChannels / chunks;
      Value chunk = loop(index(0), index(chunks));
      split.shareableLoop = scf::getForInductionVarOwner(chunk);
      chunkBegin = affine::AffineApplyOp::create(
          b, loc, AffineMap::get(1, 0, b.getAffineDimExpr(0) * chunkSize),
          ValueRange{chunk});
    }
    split.sharesRows = shareable && !chunked && conv.role == Role::Convolution;
    if (conv.role != Role::WeightAdjoint && !split.sharesRows) {
      buildTapMajor(split);
      return split;
    }
    Value n = loop(index(0), index(xs[0]));
    Value oh = loop(index(0), index(ys[1]));
    if (split.sharesRows)
      split.shareableLoop = scf::getForInductionVarOwner(oh);
    // 0 <= oh*s + kh*d - t < H.
    AffineExpr o = b.getAffineDimExpr(0);
    AffineExpr first = o * conv.stride[0] - conv.pad[0];
    int64_t d = conv.dilation[0];
    MLIRContext *context = b.getContext();
    Value lower = affine::AffineMaxOp::create(
        b, loc,
        AffineMap::get(1, 0,
                       {getAffineConstantExpr(0, context), (-first).ceilDiv(d)},
                       context),
        ValueRange{oh});
    Value upper = affine::AffineMinOp::create(
        b, loc,
        AffineMap::get(1, 0,
                       {getAffineConstantExpr(kernelRows, context),
                        (xs[1] - 1 - first).floorDiv(d) + 1},
                       context),
        ValueRange{oh});
    Value kh = loop(lower, upper);
    Value ih = inputPosition(0, oh, kh);
    for (TapRun run : tapRuns(ys[2], xs[2], kernelColumns, conv.stride[1],
                              conv.dilation[1], conv.pad[2])) {
      OpBuilder::InsertionGuard guard(b);
      Value kw = loop(index(run.tapBegin), index(run.tapEnd));
      split.contractions.push_back(
          runContraction(n, oh, ih, kh, kw, run.begin, run.end - run.begin));
    }
    return split;
  }
};

} // namespace

FailureOr<SplitConvolution> remat::splitConvolution(RewriterBase &rewriter,
                                                    linalg::LinalgOp op,
                                                    bool shareable) {
  if (!op.hasPureBufferSemantics())
    return failure();
  FailureOr<ConvolutionBuffers> conv = failure();
  if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation()))
    conv = matchWindowKernel(generic);
  else
    conv = matchNamedConvolution(op);
  if (failed(conv) || !isWellFormed(*conv))
    return failure();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  SplitConvolution split =
      TapBuilder{rewriter, op->getLoc(), *conv, {}, 0}.build(shareable);
  rewriter.eraseOp(op);
  return split;
}
