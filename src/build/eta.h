#pragma once
// Time left in a ninja build. Without history it is the overall rate (edges left / edges per
// second), which is badly optimistic when the slow targets come last (PyTorch's CUDA kernels,
// the final links). With a previous run's .ninja_log for the same tree, each edge is weighted by
// its recorded duration: elapsed * (work left / work done).
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "build/ninja_log.h"
#include "build/ninja_status.h"

namespace ts::build {

enum class EtaMethod {
  rate,           // no usable history: edges left at the overall rate
  history_names,  // durations of the outputs ninja reported finished (read from .ninja_log)
  history_count,  // durations in the order the previous run finished them (by count)
};
std::string_view to_string(EtaMethod m);

struct Eta {
  double seconds = 0;
  EtaMethod method = EtaMethod::rate;
  double work_fraction = 0;  // share of the expected work done (by count for rate)
  std::string text() const;  // "12m 30s (history)", "40s (rate)"
};

// Durations of a previous run, per edge: outputs of one command share one entry.
struct History {
  std::vector<double> seconds;                 // per edge, in the order that run finished them
  std::map<std::string, std::size_t> edge_of;  // output -> index into seconds
  double total = 0;
  bool empty() const { return seconds.empty(); }
};
// The history in a .ninja_log: every output's latest record. The edge order for the count method
// is that of the run that recorded the most edges (a full build rather than a small rebuild).
History history_from(const NinjaLog& log);

class EtaEstimator {
 public:
  EtaEstimator() = default;  // rate only
  explicit EtaEstimator(History h) : history_(std::move(h)) {}

  // An output ninja finished in this run (from NinjaLogTail); repeated outputs count once.
  void finished(std::string_view output);
  // nullopt until something finished (nothing to extrapolate from).
  std::optional<Eta> estimate(const NinjaProgress& p) const;

  const History& history() const { return history_; }

 private:
  std::optional<Eta> by_names(const NinjaProgress& p) const;
  std::optional<Eta> by_count(const NinjaProgress& p) const;
  History history_;
  std::set<std::size_t> done_edges_;  // known edges finished in this run
  std::set<std::string, std::less<>> outputs_seen_;
  std::size_t unknown_done_ = 0;       // finished edges that are not in the history
  double known_done_seconds_ = 0;      // recorded seconds of done_edges_
};

// "2h 05m", "12m 30s", "45s".
std::string format_duration(double seconds);

}  // namespace ts::build
