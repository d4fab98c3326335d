// Every signature: its realistic excerpt gives it as the root cause (wrappers: found, never root),
// and its near miss does not trigger it at all.
#include "test_util.h"

namespace ts::triage::testing {
namespace {

std::vector<std::string> all_ids() {
  std::vector<std::string> ids;
  for (const auto& s : engine().set().signatures) ids.push_back(s.id);
  return ids;
}

class SignatureCase : public ::testing::TestWithParam<std::string> {};

TEST_P(SignatureCase, ExcerptGivesRootCause) {
  const std::string id = GetParam();
  auto path = cases_dir() / (id + ".log");
  ASSERT_TRUE(std::filesystem::exists(path)) << "no case file " << path << " (run tests/triage/gen_cases.py)";
  Diagnosis d = diagnose(read_file(path));
  const Signature* sig = engine().set().find(id);
  ASSERT_NE(sig, nullptr);
  if (sig->severity == Severity::wrapper) {
    EXPECT_TRUE(has_finding(d, id)) << id;
    EXPECT_NE(root_id(d), id) << "a wrapper must never be the root cause";
  } else {
    EXPECT_EQ(root_id(d), id);
    ASSERT_TRUE(d.root());
    EXPECT_GT(d.root()->first_line(), 0u);
    EXPECT_FALSE(d.root()->context.empty());
  }
}

TEST_P(SignatureCase, NearMissDoesNotTrigger) {
  const std::string id = GetParam();
  auto path = cases_dir() / (id + ".near.log");
  ASSERT_TRUE(std::filesystem::exists(path)) << path;
  Diagnosis d = diagnose(read_file(path));
  EXPECT_FALSE(has_finding(d, id)) << id << " matched its near miss at line "
                                   << (d.root() ? d.root()->first_line() : 0);
}

INSTANTIATE_TEST_SUITE_P(All, SignatureCase, ::testing::ValuesIn(all_ids()),
                         [](const auto& info) { return info.param; });

TEST(Signatures, AtLeastAHundredAndEveryOneHasACase) {
  EXPECT_GE(engine().set().signatures.size(), 100u);
  std::size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(cases_dir())) files += e.path().extension() == ".log";
  EXPECT_EQ(files, 2 * engine().set().signatures.size()) << "a case without a signature, or the reverse";
}

}  // namespace
}  // namespace ts::triage::testing
