//===- RematAttributes.cpp - remat dialect attributes ---------------------===//

#include "remat/Dialect/Remat/RematAttributes.h"
#include "remat/Dialect/Remat/RematDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace remat;

#include "remat/Dialect/Remat/RematEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "remat/Dialect/Remat/RematAttributes.cpp.inc"

void RematDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "remat/Dialect/Remat/RematAttributes.cpp.inc"
      >();
}

// The lexer splits "64MiB" into the integer 64 and the keyword MiB, and
// "1.5GiB" into the float 1.5 and GiB; the budget parser shared with the pass
// options then gives both forms the same meaning.
Attribute BudgetAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess())
    return {};
  if (succeeded(parser.parseOptionalKeyword("min"))) {
    if (parser.parseGreater())
      return {};
    return BudgetAttr::get(parser.getContext(), Budget::min());
  }

  if (succeeded(parser.parseOptionalMinus())) {
    parser.emitError(loc, "budget must not be negative");
    return {};
  }
  std::string number;
  APInt integer;
  OptionalParseResult parsedInteger = parser.parseOptionalInteger(integer);
  if (parsedInteger.has_value()) {
    if (failed(*parsedInteger))
      return {};
    if (integer.getActiveBits() > 64) {
      parser.emitError(loc, "budget does not fit in 64 bits");
      return {};
    }
    number = std::to_string(integer.getZExtValue());
  } else {
    double value;
    if (parser.parseFloat(value))
      return {};
    std::string s;
    llvm::raw_string_ostream os(s);
    os << llvm::format("%.17g", value);
    number = s;
    if (number.find_first_of(".eE") == std::string::npos)
      number += ".0";
  }

  StringRef unit;
  (void)parser.parseOptionalKeyword(&unit);
  std::string error;
  std::optional<Budget> budget = parseBudget(number, unit, error);
  if (!budget) {
    parser.emitError(loc, error);
    return {};
  }
  if (parser.parseGreater())
    return {};
  return BudgetAttr::get(parser.getContext(), *budget);
}

void BudgetAttr::print(AsmPrinter &printer) const {
  printer << "<" << formatBudget(getBudget()) << ">";
}
