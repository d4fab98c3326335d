#include "core/verdict_word.h"

#include <gtest/gtest.h>

namespace ts {
namespace {

TEST(VerdictWord, OneVocabularyForEveryCommand) {
  EXPECT_EQ(verdict_word(VerdictWord::ok), "ok");
  EXPECT_EQ(verdict_word(VerdictWord::note), "note");
  EXPECT_EQ(verdict_word(VerdictWord::warn), "warn");
  EXPECT_EQ(verdict_word(VerdictWord::fail), "FAIL");
  EXPECT_EQ(verdict_word(VerdictWord::skip), "skip");
  // verify's JSON outcomes and doctor's levels read as the same words.
  EXPECT_EQ(verdict_word("pass"), "ok");
  EXPECT_EQ(verdict_word("fail"), "FAIL");
  EXPECT_EQ(verdict_word("info"), "note");
  EXPECT_EQ(verdict_word("warn"), "warn");
  EXPECT_EQ(verdict_word("skip"), "skip");
}

}  // namespace
}  // namespace ts
