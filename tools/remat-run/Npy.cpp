//===- Npy.cpp - Reading and writing .npy files ---------------------------===//

#include "Npy.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace remat::run;

namespace {

/// The numpy descr of a dtype, little-endian.
const char *npyDescr(DType dtype) {
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

constexpr llvm::StringLiteral kMagic = "\x93NUMPY";

/// The header dictionary, a Python literal, read left to right. Every
/// failure names the column it stopped at.
class HeaderParser {
public:
  explicit HeaderParser(llvm::StringRef text) : text(text) {}

  llvm::Error parse(NpyHeader &header) {
    llvm::StringSet<> seen;
    if (!consume('{'))
      return fail("expected '{' opening the header dictionary");
    while (!consume('}')) {
      std::string key;
      if (!peekQuote())
        return fail(seen.empty() ? "expected a quoted key or '}'"
                                 : "expected a quoted key or '}' after ','");
      if (llvm::Error error = parseString(key))
        return error;
      if (!seen.insert(key).second)
        return fail("the key '" + key + "' appears twice");
      if (!consume(':'))
        return fail("expected ':' after the key '" + key + "'");
      if (key == "descr") {
        if (!peekQuote())
          return fail("'descr' must be a quoted string such as '<f4'");
        if (llvm::Error error = parseString(header.descr))
          return error;
      } else if (key == "fortran_order") {
        if (consumeWord("True"))
          header.fortranOrder = true;
        else if (consumeWord("False"))
          header.fortranOrder = false;
        else
          return fail("'fortran_order' must be True or False");
      } else if (key == "shape") {
        if (llvm::Error error = parseShape(header.shape))
          return error;
      } else {
        return fail("unknown key '" + key +
                    "' (expected 'descr', 'fortran_order' and 'shape')");
      }
      if (consume(','))
        continue;
      if (!consume('}'))
        return fail("expected ',' or '}' after the value of '" + key + "'");
      break;
    }
    for (llvm::StringRef key : {"descr", "fortran_order", "shape"})
      if (!seen.contains(key))
        return llvm::createStringError(
            "malformed .npy header: the key '" + key + "' is missing");
    skipSpace();
    if (position != text.size())
      return fail("unexpected text after the header dictionary");
    return llvm::Error::success();
  }

private:
  llvm::Error fail(const llvm::Twine &why) const {
    return llvm::createStringError("malformed .npy header at column " +
                                   llvm::Twine(position + 1) + ": " + why);
  }

  void skipSpace() {
    while (position < text.size() &&
           (text[position] == ' ' || text[position] == '\t' ||
            text[position] == '\n' || text[position] == '\r'))
      ++position;
  }

  bool consume(char c) {
    skipSpace();
    if (position < text.size() && text[position] == c) {
      ++position;
      return true;
    }
    return false;
  }

  bool consumeWord(llvm::StringRef word) {
    skipSpace();
    if (!text.substr(position).starts_with(word))
      return false;
    size_t end = position + word.size();
    if (end < text.size() && (llvm::isAlnum(text[end]) || text[end] == '_'))
      return false;
    position = end;
    return true;
  }

  bool peekQuote() {
    skipSpace();
    return position < text.size() &&
           (text[position] == '\'' || text[position] == '"');
  }

  /// A quoted string without escapes (numpy writes none in a header).
  llvm::Error parseString(std::string &out) {
    char quote = text[position];
    size_t end = text.find(quote, position + 1);
    if (end == llvm::StringRef::npos)
      return fail("unterminated string");
    llvm::StringRef body = text.slice(position + 1, end);
    if (body.contains('\\') || body.contains('\n'))
      return fail("unsupported escape or line break in a string");
    out = body.str();
    position = end + 1;
    return llvm::Error::success();
  }

  /// `(4, 8)`, `(4,)` or `()`: a tuple of non-negative integers.
  llvm::Error parseShape(llvm::SmallVectorImpl<int64_t> &shape) {
    if (!consume('('))
      return fail("'shape' must be a tuple such as (4, 8) or (4,)");
    bool trailingComma = false;
    while (!consume(')')) {
      skipSpace();
      size_t start = position;
      while (position < text.size() && llvm::isDigit(text[position]))
        ++position;
      if (start == position)
        return fail(position == text.size()
                        ? "the shape tuple is not closed"
                        : "expected a non-negative integer dimension or ')' "
                          "in the shape tuple");
      int64_t dim;
      if (text.slice(start, position).getAsInteger(10, dim))
        return fail("the dimension '" + text.slice(start, position) +
                    "' does not fit in 64 bits");
      shape.push_back(dim);
      trailingComma = consume(',');
      if (trailingComma)
        continue;
      if (consume(')'))
        break;
      return fail(position == text.size()
                      ? "the shape tuple is not closed"
                      : "expected ',' or ')' after a dimension in the shape "
                        "tuple");
    }
    // Python reads (4) as the integer 4, not a tuple.
    if (shape.size() == 1 && !trailingComma)
      return fail("a shape of one dimension is written (n,), with a comma");
    return llvm::Error::success();
  }

  llvm::StringRef text;
  size_t position = 0;
};

} // namespace

llvm::Expected<NpyHeader> remat::run::parseNpyHeader(llvm::StringRef bytes) {
  if (!bytes.starts_with(kMagic))
    return llvm::createStringError(
        "not a .npy file: it does not start with \"\\x93NUMPY\"");
  if (bytes.size() < 8)
    return llvm::createStringError(
        "truncated .npy file: it ends inside the version");
  uint8_t major = bytes[6], minor = bytes[7];
  if (major < 1 || major > 3 || minor != 0)
    return llvm::createStringError("unsupported .npy version " +
                                   llvm::Twine(unsigned(major)) + "." +
                                   llvm::Twine(unsigned(minor)) +
                                   " (1.0, 2.0 and 3.0 are supported)");
  // Version 1.0 has a 2-byte header length, 2.0 and 3.0 a 4-byte one.
  size_t lengthBytes = major == 1 ? 2 : 4;
  size_t headerStart = 8 + lengthBytes;
  if (bytes.size() < headerStart)
    return llvm::createStringError(
        "truncated .npy file: it ends inside the header length");
  uint64_t headerLength = 0;
  for (size_t i = 0; i < lengthBytes; ++i)
    headerLength |= uint64_t(uint8_t(bytes[8 + i])) << (8 * i);
  if (bytes.size() - headerStart < headerLength)
    return llvm::createStringError(
        "truncated .npy file: the header length is " +
        llvm::Twine(headerLength) + " bytes, but only " +
        llvm::Twine(bytes.size() - headerStart) + " follow it");
  llvm::StringRef text = bytes.substr(headerStart, headerLength);
  if (!text.ends_with("\n"))
    return llvm::createStringError(
        "malformed .npy header: it does not end with a newline (is the "
        "header length right?)");

  NpyHeader header;
  header.dataOffset = headerStart + headerLength;
  if (llvm::Error error = HeaderParser(text).parse(header))
    return std::move(error);
  return header;
}

std::string remat::run::encodeNpy(const TensorSpec &spec, const void *data) {
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
  std::string bytes = kMagic.str();
  bytes += '\x01';
  bytes += '\x00';
  bytes += static_cast<char>(header.size() & 0xff);
  bytes += static_cast<char>(header.size() >> 8);
  bytes += header;
  bytes.append(static_cast<const char *>(data), spec.numBytes());
  return bytes;
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
  llvm::Expected<NpyHeader> header = parseNpyHeader(bytes);
  if (!header)
    return fail(llvm::toString(header.takeError()));

  // numpy writes '<i1' or '|i1' for one-byte types; the order is moot there.
  llvm::StringRef descr = header->descr;
  llvm::StringRef expected = npyDescr(spec.dtype);
  if (spec.elementBytes() == 1 && descr.size() == 3 &&
      (descr[0] == '<' || descr[0] == '|'))
    descr = descr.drop_front();
  if (spec.elementBytes() == 1)
    expected = expected.drop_front();
  if (descr != expected)
    return fail("dtype '" + header->descr + "' does not match the argument's " +
                dtypeName(spec.dtype) + " ('" + npyDescr(spec.dtype) + "')");
  if (header->fortranOrder)
    return fail("Fortran-ordered arrays are not supported");
  if (llvm::ArrayRef<int64_t>(header->shape) !=
      llvm::ArrayRef<int64_t>(spec.shape)) {
    TensorSpec found{header->shape, spec.dtype};
    return fail("shape " + found.shapeString() +
                " does not match the argument's " + spec.shapeString());
  }
  size_t dataBytes = bytes.size() - header->dataOffset;
  if (dataBytes != static_cast<size_t>(spec.numBytes()))
    return fail("holds " + llvm::Twine(dataBytes) + " data bytes, expected " +
                llvm::Twine(spec.numBytes()));
  std::memcpy(data, bytes.data() + header->dataOffset, spec.numBytes());
  return llvm::Error::success();
}
