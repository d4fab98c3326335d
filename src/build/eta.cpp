#include "build/eta.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ts::build {

std::string_view to_string(EtaMethod m) {
  switch (m) {
    case EtaMethod::rate: return "rate";
    case EtaMethod::history_names: return "history";
    case EtaMethod::history_count: return "history by count";
  }
  return "?";
}

std::string format_duration(double s) {
  if (!(s >= 0) || !std::isfinite(s)) return "?";
  long t = std::lround(s);
  char buf[32];
  if (t >= 3600) std::snprintf(buf, sizeof buf, "%ldh %02ldm", t / 3600, (t % 3600) / 60);
  else if (t >= 60) std::snprintf(buf, sizeof buf, "%ldm %02lds", t / 60, t % 60);
  else std::snprintf(buf, sizeof buf, "%lds", t);
  return buf;
}

std::string Eta::text() const {
  return format_duration(seconds) + " (" + std::string(to_string(method)) + ")";
}

History history_from(const NinjaLog& log) {
  History h;
  auto jobs = log.jobs(false);
  if (jobs.empty()) return h;
  std::map<int, std::size_t> per_run;
  for (const auto& j : jobs) ++per_run[j.run];
  int fullest = std::max_element(per_run.begin(), per_run.end(), [](auto& a, auto& b) {
                  return a.second < b.second;
                })->first;
  // The fullest run's edges in the order they finished, then the rest (their place is unknown).
  std::stable_sort(jobs.begin(), jobs.end(), [&](const NinjaJob& a, const NinjaJob& b) {
    return std::make_tuple(a.run != fullest, a.run, a.end_ms) <
           std::make_tuple(b.run != fullest, b.run, b.end_ms);
  });
  for (const auto& j : jobs) {
    for (const auto& o : j.outputs) h.edge_of[o] = h.seconds.size();
    h.seconds.push_back(double(j.duration_ms()) / 1000.0);
    h.total += h.seconds.back();
  }
  return h;
}

void EtaEstimator::finished(std::string_view output) {
  if (!outputs_seen_.emplace(output).second) return;
  auto it = history_.edge_of.find(std::string(output));
  if (it == history_.edge_of.end()) {
    ++unknown_done_;
  } else if (done_edges_.insert(it->second).second) {
    known_done_seconds_ += history_.seconds[it->second];
  }
}

std::optional<Eta> EtaEstimator::by_names(const NinjaProgress& p) const {
  std::size_t known = done_edges_.size(), n = history_.seconds.size();
  // Mostly unknown outputs: the history is of another tree or configuration.
  if (known == 0 || known < unknown_done_) return std::nullopt;
  double mean = history_.total / double(n);
  double done_work = known_done_seconds_ + double(unknown_done_) * mean;
  std::size_t unfinished = n - known;
  double unfinished_work = history_.total - known_done_seconds_;
  double left = double(std::max(0L, p.total - p.done));
  double left_work = left <= double(unfinished)
                         ? (unfinished ? unfinished_work * left / double(unfinished) : 0)
                         : unfinished_work + (left - double(unfinished)) * mean;
  if (done_work <= 0) return std::nullopt;
  return Eta{p.elapsed * left_work / done_work, EtaMethod::history_names,
             done_work / (done_work + left_work)};
}

std::optional<Eta> EtaEstimator::by_count(const NinjaProgress& p) const {
  double n = double(history_.seconds.size());
  // A build of a very different size is not the one the history describes.
  if (double(p.total) < 0.5 * n || double(p.total) > 2 * n) return std::nullopt;
  double k = double(p.done) * n / double(p.total);  // edges of the history done so far
  double done_work = 0;
  std::size_t whole = std::size_t(k);
  for (std::size_t i = 0; i < whole && i < history_.seconds.size(); ++i)
    done_work += history_.seconds[i];
  if (whole < history_.seconds.size()) done_work += (k - double(whole)) * history_.seconds[whole];
  double left_work = std::max(0.0, history_.total - done_work);
  if (done_work <= 0) return std::nullopt;
  return Eta{p.elapsed * left_work / done_work, EtaMethod::history_count,
             done_work / history_.total};
}

std::optional<Eta> EtaEstimator::estimate(const NinjaProgress& p) const {
  if (p.done <= 0 || p.total <= 0) return std::nullopt;
  if (p.done >= p.total) return Eta{0, EtaMethod::rate, 1};
  if (!history_.empty() && history_.total > 0) {
    bool have_names = !done_edges_.empty() || unknown_done_ > 0;
    if (auto e = have_names ? by_names(p) : by_count(p)) return e;
  }
  auto s = p.eta();
  if (!s) return std::nullopt;
  return Eta{*s, EtaMethod::rate, p.fraction()};
}

}  // namespace ts::build
