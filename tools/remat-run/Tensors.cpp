//===- Tensors.cpp - Arguments and results of a step ----------------------===//

#include "Tensors.h"

#include "remat/Support/JsonNumbers.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"


using namespace mlir;
using namespace remat::run;

int64_t TensorSpec::numElements() const {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  return count;
}

int64_t TensorSpec::elementBytes() const {
  switch (dtype) {
  case DType::F64:
  case DType::I64:
    return 8;
  case DType::F32:
  case DType::I32:
    return 4;
  case DType::I8:
  case DType::I1:
    return 1;
  }
  return 0;
}

std::string TensorSpec::shapeString() const {
  std::string text = "[";
  for (auto [i, dim] : llvm::enumerate(shape))
    text += (i ? "," : "") + std::to_string(dim);
  return text + "]";
}

const char *remat::run::dtypeName(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::I8:
    return "i8";
  case DType::I1:
    return "i1";
  }
  return "?";
}

llvm::Expected<TensorSpec> remat::run::specOfType(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  auto memref = dyn_cast<MemRefType>(type);
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  if (!shaped || !(isa<RankedTensorType>(type) || memref) ||
      !shaped.hasStaticShape() || (memref && !memref.getLayout().isIdentity()))
    return llvm::createStringError(
        "only statically shaped tensors are supported, not " + text);
  TensorSpec spec;
  spec.shape.assign(shaped.getShape().begin(), shaped.getShape().end());
  Type element = shaped.getElementType();
  if (element.isF32())
    spec.dtype = DType::F32;
  else if (element.isF64())
    spec.dtype = DType::F64;
  else if (element.isInteger(32))
    spec.dtype = DType::I32;
  else if (element.isInteger(64))
    spec.dtype = DType::I64;
  else if (element.isInteger(8))
    spec.dtype = DType::I8;
  else if (element.isInteger(1))
    spec.dtype = DType::I1;
  else
    return llvm::createStringError("unsupported element type in " + text);
  return spec;
}

uint64_t remat::run::nextRandom(uint64_t &state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

void remat::run::fillFromSeed(const TensorSpec &spec, void *data,
                              uint64_t &state) {
  int64_t count = spec.numElements();
  for (int64_t i = 0; i < count; ++i) {
    uint64_t bits = nextRandom(state);
    double real = static_cast<double>(bits >> 40) / 16777216.0 - 0.5;
    int64_t integer = static_cast<int64_t>(bits >> 60) - 8;
    switch (spec.dtype) {
    case DType::F32:
      static_cast<float *>(data)[i] = static_cast<float>(real);
      break;
    case DType::F64:
      static_cast<double *>(data)[i] = real;
      break;
    case DType::I32:
      static_cast<int32_t *>(data)[i] = static_cast<int32_t>(integer);
      break;
    case DType::I64:
      static_cast<int64_t *>(data)[i] = integer;
      break;
    case DType::I8:
      static_cast<int8_t *>(data)[i] = static_cast<int8_t>(integer);
      break;
    case DType::I1:
      static_cast<uint8_t *>(data)[i] = static_cast<uint8_t>(bits >> 63);
      break;
    }
  }
}

Digest remat::run::digest(const TensorSpec &spec, const void *data) {
  Digest result;
  result.hash = 0xcbf29ce484222325ULL;
  const auto *bytes = static_cast<const uint8_t *>(data);
  for (int64_t i = 0; i < spec.numBytes(); ++i) {
    result.hash ^= bytes[i];
    result.hash *= 0x100000001b3ULL;
  }
  for (int64_t i = 0, e = spec.numElements(); i < e; ++i) {
    switch (spec.dtype) {
    case DType::F32:
      result.sum += static_cast<const float *>(data)[i];
      break;
    case DType::F64:
      result.sum += static_cast<const double *>(data)[i];
      break;
    case DType::I32:
      result.sum += static_cast<const int32_t *>(data)[i];
      break;
    case DType::I64:
      result.sum += static_cast<double>(static_cast<const int64_t *>(data)[i]);
      break;
    case DType::I8:
      result.sum += static_cast<const int8_t *>(data)[i];
      break;
    case DType::I1:
      result.sum += static_cast<const uint8_t *>(data)[i] & 1;
      break;
    }
  }
  return result;
}

void remat::run::writeDigestJson(llvm::json::OStream &json,
                                 const TensorSpec &spec, const Digest &digest) {
  json.object([&] {
    json.attributeArray("shape", [&] {
      for (int64_t dim : spec.shape)
        json.value(dim);
    });
    json.attribute("dtype", dtypeName(spec.dtype));
    json.attribute("sum", jsonNumber(digest.sum));
    json.attribute("hash", llvm::formatv("{0:x-16}", digest.hash).str());
  });
}
