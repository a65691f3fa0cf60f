//===- OnnxFuzzer.cpp - libFuzzer target for the ONNX importer ------------===//
//
// Imports arbitrary bytes as a serialized onnx.ModelProto. The importer must
// either reject the model with a diagnostic or produce a module that
// verifies. The input's length picks the import options, so that the
// training form of BatchNormalization and the head adaptation are covered
// too without spending input bytes on them.
//
// Byte mutation rarely keeps a model parseable while it changes an integer
// in it, and never found a zero stride. So three mutations in four are
// structural: the model is parsed, one attribute value, dim or tensor name
// is set to an edge case, and the model is serialized again.
//
//===----------------------------------------------------------------------===//

#include "FuzzDiagnostics.h"

#include "remat/Target/ONNX/ImportONNX.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MemoryBuffer.h"

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <random>

using namespace mlir;

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

namespace {

using Random = std::minstd_rand;

/// Values that break window arithmetic, ranges and counts.
constexpr int64_t kEdgeValues[] = {0,
                                   -1,
                                   1,
                                   2,
                                   -2,
                                   3,
                                   std::numeric_limits<int32_t>::max(),
                                   int64_t(1) << 32,
                                   std::numeric_limits<int64_t>::max(),
                                   std::numeric_limits<int64_t>::min()};

/// Integer attributes of the imported operators, added to nodes that lack
/// them.
constexpr const char *kIntAttributes[] = {
    "strides", "pads",  "dilations", "kernel_shape", "group",
    "axis",    "axes",  "perm",      "ceil_mode",    "count_include_pad",
    "size",    "start", "end",       "keepdims",     "transA"};

int64_t pick(Random &rng, int64_t n) {
  return static_cast<int64_t>(rng() % static_cast<uint64_t>(n));
}

/// Half the time one of the small values (0, -1, 1), which break the most.
int64_t edgeValue(Random &rng) {
  return kEdgeValues[pick(rng, 2) ? pick(rng, 3)
                                  : pick(rng, std::size(kEdgeValues))];
}

/// Sets one value of an existing INT or INTS attribute to an edge value, or
/// gives an INTS attribute one value more or less.
bool mutateAttribute(onnx::NodeProto &node, Random &rng) {
  llvm::SmallVector<onnx::AttributeProto *> integers;
  for (onnx::AttributeProto &a : *node.mutable_attribute())
    if (a.ints_size() > 0 || a.has_i())
      integers.push_back(&a);
  if (integers.empty())
    return false;
  onnx::AttributeProto &attr = *integers[pick(rng, integers.size())];
  if (attr.has_i()) {
    attr.set_i(edgeValue(rng));
    return true;
  }
  // Mostly values, keeping the count the rules ask for.
  switch (pick(rng, 6)) {
  case 0:
    attr.add_ints(edgeValue(rng));
    return true;
  case 1:
    attr.mutable_ints()->RemoveLast();
    return true;
  case 2:
    for (int64_t &v : *attr.mutable_ints())
      v = edgeValue(rng);
    return true;
  default:
    attr.set_ints(pick(rng, attr.ints_size()), edgeValue(rng));
    return true;
  }
}

/// Adds (or replaces) an integer attribute, of either kind, with 0 to 4
/// edge values.
bool addAttribute(onnx::NodeProto &node, Random &rng) {
  const char *name = kIntAttributes[pick(rng, std::size(kIntAttributes))];
  onnx::AttributeProto *attr = nullptr;
  for (onnx::AttributeProto &a : *node.mutable_attribute())
    if (a.name() == name)
      attr = &a;
  if (!attr)
    attr = node.add_attribute();
  attr->Clear();
  attr->set_name(name);
  if (pick(rng, 2)) {
    attr->set_type(onnx::AttributeProto::INT);
    attr->set_i(edgeValue(rng));
  } else {
    attr->set_type(onnx::AttributeProto::INTS);
    for (int64_t i = 0, n = pick(rng, 5); i < n; ++i)
      attr->add_ints(edgeValue(rng));
  }
  return true;
}

/// Sets a dim of a graph input or of an initializer to an edge value.
bool mutateDim(onnx::GraphProto &graph, Random &rng) {
  if (pick(rng, 2) && graph.input_size() > 0) {
    onnx::TensorShapeProto *shape =
        graph.mutable_input(pick(rng, graph.input_size()))
            ->mutable_type()
            ->mutable_tensor_type()
            ->mutable_shape();
    if (shape->dim_size() == 0)
      return false;
    shape->mutable_dim(pick(rng, shape->dim_size()))
        ->set_dim_value(edgeValue(rng));
    return true;
  }
  if (graph.initializer_size() == 0)
    return false;
  onnx::TensorProto &t =
      *graph.mutable_initializer(pick(rng, graph.initializer_size()));
  if (t.dims_size() == 0)
    return false;
  t.set_dims(pick(rng, t.dims_size()), edgeValue(rng));
  return true;
}

/// Gives a node's output the name of another tensor of the graph.
bool renameOutput(onnx::GraphProto &graph, Random &rng) {
  onnx::NodeProto &node = *graph.mutable_node(pick(rng, graph.node_size()));
  const onnx::NodeProto &other = graph.node(pick(rng, graph.node_size()));
  if (node.output_size() == 0 || other.input_size() + other.output_size() == 0)
    return false;
  int64_t i = pick(rng, other.input_size() + other.output_size());
  node.set_output(pick(rng, node.output_size()),
                  i < other.input_size() ? other.input(i)
                                         : other.output(i - other.input_size()));
  return true;
}

/// One structural change to `model`; false when the one picked finds
/// nothing to change.
bool mutateModel(onnx::ModelProto &model, Random &rng) {
  onnx::GraphProto &graph = *model.mutable_graph();
  if (graph.node_size() == 0)
    return mutateDim(graph, rng);
  onnx::NodeProto &node = *graph.mutable_node(pick(rng, graph.node_size()));
  switch (pick(rng, 8)) {
  case 0:
  case 1:
  case 2:
  case 3:
    return mutateAttribute(node, rng);
  case 4:
    return addAttribute(node, rng);
  case 5:
  case 6:
    return mutateDim(graph, rng);
  default:
    return renameOutput(graph, rng);
  }
}

} // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned int seed) {
  Random rng(seed);
  onnx::ModelProto model;
  if (pick(rng, 4) == 0 || size > std::numeric_limits<int>::max() ||
      !model.ParseFromArray(data, static_cast<int>(size)) ||
      !mutateModel(model, rng))
    return LLVMFuzzerMutate(data, size, maxSize);
  std::string bytes;
  if (!model.SerializeToString(&bytes) || bytes.size() > maxSize)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::memcpy(data, bytes.data(), bytes.size());
  return bytes.size();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::unique_ptr<llvm::MemoryBuffer> buffer = llvm::MemoryBuffer::getMemBuffer(
      llvm::StringRef(reinterpret_cast<const char *>(data), size), "fuzz.onnx",
      /*RequiresNullTerminator=*/false);
  remat::OnnxImportOptions options;
  options.batchNormTraining = size % 2;
  options.adapt = (size / 2) % 2;

  MLIRContext context(MLIRContext::Threading::DISABLED);
  remat::fuzz::CollectedDiagnostics diagnostics(context);
  OwningOpRef<ModuleOp> module =
      remat::importOnnxModel(*buffer, &context, options);
  if (module && failed(verify(*module)))
    diagnostics.fail("the imported model does not verify");
  return 0;
}
