//===- Tensors.cpp - Arguments and results of a step ----------------------===//

#include "Tensors.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

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

/// The numpy descr of a dtype, little-endian.
static const char *npyDescr(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return "<f4";
  case DType::F64:
    return "<f8";
  case DType::I32:
    return "<i4";
  case DType::I64:
    return "<i8";
  case DType::I8:
    return "|i1";
  case DType::I1:
    return "|b1";
  }
  return "";
}

llvm::Error remat::run::writeNpy(llvm::StringRef path, const TensorSpec &spec,
                                 const void *data) {
  std::string shape = "(";
  for (int64_t dim : spec.shape)
    shape += std::to_string(dim) + ",";
  shape += ")";
  std::string header = std::string("{'descr': '") + npyDescr(spec.dtype) +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Magic (6) + version (2) + length (2) + header, padded with spaces and a
  // newline to a multiple of 64 bytes.
  header.append(63 - (10 + header.size()) % 64, ' ');
  header += '\n';
  return llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
    os << "\x93NUMPY" << '\x01' << '\x00';
    os << static_cast<char>(header.size() & 0xff)
       << static_cast<char>(header.size() >> 8);
    os << header;
    os.write(static_cast<const char *>(data), spec.numBytes());
    return llvm::Error::success();
  });
}

/// The text after `'key':` in a .npy header dictionary.
static std::optional<llvm::StringRef> headerField(llvm::StringRef header,
                                                  llvm::StringRef key) {
  std::string quoted = "'" + key.str() + "'";
  size_t at = header.find(quoted);
  if (at == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef rest = header.drop_front(at + quoted.size()).ltrim();
  if (!rest.consume_front(":"))
    return std::nullopt;
  return rest.ltrim();
}

llvm::Error remat::run::readNpy(llvm::StringRef path, const TensorSpec &spec,
                                void *data) {
  auto fail = [&](const llvm::Twine &why) {
    return llvm::createStringError(path + ": " + why);
  };
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!file)
    return fail("cannot read: " + file.getError().message());
  llvm::StringRef bytes = (*file)->getBuffer();
  if (!bytes.starts_with("\x93NUMPY") || bytes.size() < 10)
    return fail("not a .npy file");
  uint8_t major = bytes[6];
  size_t headerLength, headerStart;
  if (major == 1) {
    headerLength = uint8_t(bytes[8]) | uint8_t(bytes[9]) << 8;
    headerStart = 10;
  } else if ((major == 2 || major == 3) && bytes.size() >= 12) {
    headerLength =
        uint32_t(uint8_t(bytes[8])) | uint32_t(uint8_t(bytes[9])) << 8 |
        uint32_t(uint8_t(bytes[10])) << 16 | uint32_t(uint8_t(bytes[11])) << 24;
    headerStart = 12;
  } else {
    return fail("unsupported .npy version " + llvm::Twine(major));
  }
  if (bytes.size() < headerStart + headerLength)
    return fail("truncated header");
  llvm::StringRef header = bytes.substr(headerStart, headerLength);

  std::optional<llvm::StringRef> descr = headerField(header, "descr");
  std::optional<llvm::StringRef> fortran = headerField(header, "fortran_order");
  std::optional<llvm::StringRef> shapeText = headerField(header, "shape");
  if (!descr || !fortran || !shapeText)
    return fail("malformed header");
  llvm::StringRef descrValue = descr->drop_front().split('\'').first;
  // numpy writes '<i1' or '|i1' for one-byte types; the order is moot there.
  if (spec.elementBytes() == 1 && descrValue.size() == 3 &&
      descrValue[0] == '<')
    descrValue = descrValue.drop_front();
  llvm::StringRef expected = npyDescr(spec.dtype);
  if (spec.elementBytes() == 1)
    expected = expected.drop_front();
  if (descrValue != expected)
    return fail("dtype '" + descrValue + "' does not match the argument's " +
                dtypeName(spec.dtype) + " ('" + npyDescr(spec.dtype) + "')");
  if (!fortran->starts_with("False"))
    return fail("Fortran-ordered arrays are not supported");

  llvm::SmallVector<int64_t> shape;
  llvm::StringRef dims = shapeText->drop_front().split(')').first;
  llvm::SmallVector<llvm::StringRef> parts;
  dims.split(parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef part : parts) {
    int64_t dim;
    if (part.trim().getAsInteger(10, dim))
      return fail("malformed shape");
    shape.push_back(dim);
  }
  if (llvm::ArrayRef<int64_t>(shape) != llvm::ArrayRef<int64_t>(spec.shape)) {
    TensorSpec found{shape, spec.dtype};
    return fail("shape " + found.shapeString() +
                " does not match the argument's " + spec.shapeString());
  }
  size_t payload = headerStart + headerLength;
  if (bytes.size() - payload != static_cast<size_t>(spec.numBytes()))
    return fail("holds " + llvm::Twine(bytes.size() - payload) +
                " data bytes, expected " + llvm::Twine(spec.numBytes()));
  std::memcpy(data, bytes.data() + payload, spec.numBytes());
  return llvm::Error::success();
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

std::string remat::run::digestJson(const TensorSpec &spec,
                                   const Digest &digest) {
  char text[128];
  std::snprintf(text, sizeof(text),
                "\"dtype\":\"%s\",\"sum\":%.17g,\"hash\":\"%016" PRIx64 "\"}",
                dtypeName(spec.dtype), digest.sum, digest.hash);
  return "{\"shape\":" + spec.shapeString() + "," + text;
}
