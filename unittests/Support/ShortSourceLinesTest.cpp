//===- ShortSourceLinesTest.cpp - Echoed source lines stay short ----------===//

#include "remat/Support/ShortSourceLines.h"

#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

using namespace remat;

namespace {

/// A SourceMgr holding one line of `length` 'x's with a 'Y' at `column`.
struct OneLongLine : ::testing::Test {
  void load(size_t length, size_t column) {
    std::string text(length, 'x');
    text[column] = 'Y';
    mgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(text + "\n", "long.json"),
        llvm::SMLoc());
    at = llvm::SMLoc::getFromPointer(
        mgr.getMemoryBuffer(1)->getBufferStart() + column);
  }
  std::string print(llvm::StringRef message) {
    std::string out;
    llvm::raw_string_ostream os(out);
    shortenEchoedLines(mgr, os);
    mgr.PrintMessage(at, llvm::SourceMgr::DK_Error, message);
    return out;
  }
  llvm::SourceMgr mgr;
  llvm::SMLoc at;
};

TEST_F(OneLongLine, KeepsAWindowAroundTheCaret) {
  load(60000, 30000);
  std::string out = print("bad node");
  EXPECT_LT(out.size(), 3 * kEchoedLineWidth) << out;
  EXPECT_EQ(out.rfind("long.json:1:30001: error: bad node\n", 0), 0u) << out;
  // The caret still points at the 'Y'.
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(out).split(lines, '\n');
  ASSERT_GE(lines.size(), 3u);
  EXPECT_TRUE(lines[1].starts_with("...") && lines[1].ends_with("..."));
  size_t caret = lines[2].find('^');
  ASSERT_NE(caret, llvm::StringRef::npos);
  EXPECT_EQ(lines[1][caret], 'Y');
}

TEST_F(OneLongLine, CaretNearTheEndCutsOnlyTheFront) {
  load(5000, 4998);
  std::string out = print("late");
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(out).split(lines, '\n');
  ASSERT_GE(lines.size(), 3u);
  EXPECT_TRUE(lines[1].starts_with("..."));
  EXPECT_FALSE(lines[1].ends_with("..."));
  EXPECT_EQ(lines[1][lines[2].find('^')], 'Y');
}

TEST_F(OneLongLine, ShortLinesAreEchoedWhole) {
  load(50, 10);
  std::string out = print("short");
  EXPECT_NE(out.find(std::string(10, 'x') + "Y"), std::string::npos) << out;
  EXPECT_EQ(out.find("..."), std::string::npos) << out;
}

} // namespace
