// probe/parallel.h: items inspected side by side, facts and notes in the items' order.
#include "probe/parallel.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

namespace ts::probe {
namespace {

TEST(InspectEach, FactsAndNotesKeepTheItemsOrder) {
  // The first item finishes last, so an order taken from completion would show.
  std::vector<int> items{30, 0, 10};
  Notes notes{"before"};
  auto out = inspect_each(items, [](const int& ms, Notes& n) {
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    n.push_back("note " + std::to_string(ms));
    return "item " + std::to_string(ms);
  }, notes);
  EXPECT_EQ(out, (std::vector<std::string>{"item 30", "item 0", "item 10"}));
  EXPECT_EQ(notes, (Notes{"before", "note 30", "note 0", "note 10"}));
}

TEST(InspectEach, NoItemsNoFacts) {
  Notes notes;
  auto out = inspect_each(std::vector<std::string>{}, [](const std::string& s, Notes&) { return s; }, notes);
  EXPECT_TRUE(out.empty());
  EXPECT_TRUE(notes.empty());
}

}  // namespace
}  // namespace ts::probe
