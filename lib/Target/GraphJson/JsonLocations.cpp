//===- JsonLocations.cpp - Where each JSON value starts in its text -------===//

#include "JsonLocations.h"

using namespace remat;

JsonLocations::JsonLocations(llvm::StringRef text, unsigned maxDepth)
    : text(text), maxDepth(maxDepth) {
  std::string path;
  skipSpace();
  scanValue(path, 0);
}

void JsonLocations::skipSpace() {
  while (pos < text.size() &&
         (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\n' ||
          text[pos] == '\r'))
    ++pos;
}

llvm::StringRef JsonLocations::scanString() {
  size_t begin = ++pos;
  while (pos < text.size() && text[pos] != '"')
    pos += text[pos] == '\\' ? 2 : 1;
  llvm::StringRef body = text.slice(begin, pos);
  ++pos;
  return body;
}

void JsonLocations::scanValue(std::string &path, unsigned depth) {
  if (depth <= maxDepth)
    offsets.try_emplace(path, pos);
  if (pos >= text.size())
    return;
  char c = text[pos];
  if (c == '"') {
    scanString();
    return;
  }
  if (c != '{' && c != '[') {
    // A number or a literal: it ends at the next delimiter.
    while (pos < text.size() && !llvm::StringRef(",]} \t\r\n").contains(
                                    text[pos]))
      ++pos;
    return;
  }
  bool object = c == '{';
  char close = object ? '}' : ']';
  size_t prefix = path.size();
  ++pos;
  skipSpace();
  for (unsigned index = 0; pos < text.size() && text[pos] != close; ++index) {
    if (object) {
      llvm::StringRef key = scanString();
      skipSpace();
      ++pos; // ':'
      skipSpace();
      if (depth < maxDepth)
        path += (prefix ? "." : "") + key.str();
    } else if (depth < maxDepth) {
      path += "[" + std::to_string(index) + "]";
    }
    scanValue(path, depth + 1);
    path.resize(prefix);
    skipSpace();
    if (pos < text.size() && text[pos] == ',') {
      ++pos;
      skipSpace();
    }
  }
  ++pos;
}

std::pair<unsigned, unsigned>
JsonLocations::find(llvm::StringRef path) const {
  auto it = offsets.find(path);
  return lineAndColumn(text, it == offsets.end() ? 0 : it->second);
}

std::optional<size_t> remat::findNestingPast(llvm::StringRef text,
                                             unsigned maxDepth) {
  unsigned depth = 0;
  for (size_t pos = 0; pos < text.size(); ++pos) {
    switch (text[pos]) {
    case '"':
      // Brackets inside a string are text; an escaped quote does not end it.
      for (++pos; pos < text.size() && text[pos] != '"';)
        pos += text[pos] == '\\' ? 2 : 1;
      break;
    case '[':
    case '{':
      if (++depth > maxDepth)
        return pos;
      break;
    case ']':
    case '}':
      if (depth)
        --depth;
      break;
    default:
      break;
    }
  }
  return std::nullopt;
}

std::pair<unsigned, unsigned> remat::lineAndColumn(llvm::StringRef text,
                                                   size_t offset) {
  unsigned line = 1, column = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}
