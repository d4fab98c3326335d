#include "run/journal.h"

#include <nlohmann/json.hpp>

#include "source/hash.h"
#include "util/fs.h"

namespace ts::run {

const JournalStep* Journal::find(const std::string& name) const {
  for (const auto& s : steps)
    if (s.name == name) return &s;
  return nullptr;
}

JournalStep& Journal::upsert(const std::string& name) {
  for (auto& s : steps)
    if (s.name == name) return s;
  steps.push_back({name});
  return steps.back();
}

Journal load_journal(const std::string& path, std::string* error) {
  return parse_journal(util::read_file(path), path, error);
}

Journal parse_journal(const std::optional<std::string>& text, const std::string& path, std::string* error) {
  Journal j;
  if (!text) return j;
  try {
    auto d = nlohmann::json::parse(*text);
    if (d.value("schema", "") != "torchsmith-journal/1") throw std::runtime_error("unknown schema");
    j.plan_hash = d.value("plan_hash", "");
    j.active_pgid = d.value("active_pgid", 0);
    j.active_run = d.value("active_run", "");
    for (const auto& s : d.at("steps"))
      j.steps.push_back({s.at("name").get<std::string>(), s.value("input_hash", ""), s.value("status", ""),
                         s.value("seconds", 0.0), s.value("finished_at", "")});
  } catch (const std::exception& e) {
    if (error) *error = path + ": unreadable journal (" + e.what() + "); every step will run again";
    return Journal{};
  }
  return j;
}

std::string save_journal(const std::string& path, const Journal& j) {
  return util::write_file_atomic(path, journal_text(j));
}

std::string journal_text(const Journal& j) {
  nlohmann::json d{{"schema", "torchsmith-journal/1"}, {"plan_hash", j.plan_hash},
                   {"active_pgid", j.active_pgid}, {"active_run", j.active_run},
                   {"steps", nlohmann::json::array()}};
  for (const auto& s : j.steps)
    d["steps"].push_back({{"name", s.name}, {"input_hash", s.input_hash}, {"status", s.status},
                          {"seconds", s.seconds}, {"finished_at", s.finished_at}});
  return d.dump(2) + "\n";
}

std::string hash_parts(const std::vector<std::string>& parts) {
  std::string all;
  for (const auto& p : parts) all += std::to_string(p.size()) + ":" + p + ";";
  return source::sha256_hex(all);
}

}  // namespace ts::run
