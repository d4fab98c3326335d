#pragma once
// Several things of one kind (compilers, CUDA toolkits) inspected side by side: each inspection
// waits on its own commands, so they run on their own threads.
#include <cstddef>
#include <future>
#include <utility>
#include <vector>

#include "probe/sections.h"

namespace ts::probe {

// inspect(item, item_notes) for every item at once; the facts in the items' order, and each
// item's notes appended to `notes` in that order too (so the output is the same run to run).
template <class Item, class Inspect>
auto inspect_each(const std::vector<Item>& items, Inspect inspect, Notes& notes) {
  using Facts = decltype(inspect(std::declval<const Item&>(), std::declval<Notes&>()));
  std::vector<Notes> sub(items.size());
  std::vector<std::future<Facts>> jobs;
  for (std::size_t i = 0; i < items.size(); ++i)
    jobs.push_back(std::async(std::launch::async, [&, i] { return inspect(items[i], sub[i]); }));
  std::vector<Facts> out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    out.push_back(jobs[i].get());
    notes.insert(notes.end(), sub[i].begin(), sub[i].end());
  }
  return out;
}

}  // namespace ts::probe
