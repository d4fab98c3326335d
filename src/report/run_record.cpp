// run.json both ways. Reading checks every field's type and names the field that is wrong, so a
// hand-edited or truncated run.json gives one clear line instead of a bare type_error.
#include "report/run_record.h"

#include <string>
#include "util/redact_json.h"

namespace ts::report {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw json::other_error::create(501, "run.json: " + where + ": " + what, nullptr);
}

std::string kind(const json& v) {
  if (v.is_string()) return "a string";
  if (v.is_number()) return "a number";
  if (v.is_boolean()) return "a boolean";
  if (v.is_array()) return "an array";
  if (v.is_object()) return "an object";
  return "null";
}

// Reads the fields of one object; missing optional fields keep their defaults.
class Fields {
 public:
  Fields(const json& j, std::string where) : j_(j), where_(std::move(where)) {
    if (!j_.is_object()) fail(where_.empty() ? "top level" : where_, "expected an object, got " + kind(j_));
  }
  const json* find(const char* key, bool required) const {
    auto it = j_.find(key);
    if (it == j_.end() || (it->is_null() && !required)) {
      if (required) fail(at(key), "missing (required)");
      return nullptr;
    }
    return &*it;
  }
  std::string at(const char* key) const { return where_.empty() ? key : where_ + "." + key; }

  void str(const char* key, std::string& out, bool required = false) const {
    if (const json* v = find(key, required)) {
      if (!v->is_string()) fail(at(key), "expected a string, got " + kind(*v));
      out = v->get<std::string>();
    }
  }
  void num(const char* key, double& out) const {
    if (const json* v = find(key, false)) {
      if (!v->is_number()) fail(at(key), "expected a number, got " + kind(*v));
      out = v->get<double>();
    }
  }
  void integer(const char* key, int& out) const {
    if (const json* v = find(key, false)) {
      if (!v->is_number_integer()) fail(at(key), "expected an integer, got " + kind(*v));
      out = v->get<int>();
    }
  }
  void count(const char* key, std::uint64_t& out) const {
    if (const json* v = find(key, false)) {
      if (!v->is_number_unsigned())
        fail(at(key), "expected a non-negative integer, got " + (v->is_number() ? "a negative or fractional number" : kind(*v)));
      out = v->get<std::uint64_t>();
    }
  }
  void strings(const char* key, std::vector<std::string>& out) const {
    if (const json* v = find(key, false)) {
      if (!v->is_array()) fail(at(key), "expected an array of strings, got " + kind(*v));
      out.clear();
      for (std::size_t i = 0; i < v->size(); ++i) {
        if (!(*v)[i].is_string()) fail(at(key) + "[" + std::to_string(i) + "]", "expected a string, got " + kind((*v)[i]));
        out.push_back((*v)[i].get<std::string>());
      }
    }
  }
  template <class T, class Read>
  void list(const char* key, std::vector<T>& out, Read read) const {
    if (const json* v = find(key, false)) {
      if (!v->is_array()) fail(at(key), "expected an array, got " + kind(*v));
      out.clear();
      for (std::size_t i = 0; i < v->size(); ++i) {
        T t;
        read(Fields((*v)[i], at(key) + "[" + std::to_string(i) + "]"), t);
        out.push_back(std::move(t));
      }
    }
  }
  void any(const char* key, json& out) const {
    auto it = j_.find(key);
    out = it == j_.end() ? json(nullptr) : *it;
  }

 private:
  const json& j_;
  std::string where_;
};

}  // namespace

const StepRecord* RunRecord::step(std::string_view name) const {
  for (auto it = steps.rbegin(); it != steps.rend(); ++it)
    if (it->name == name) return &*it;
  return nullptr;
}

void to_json(json& j, const RunRecord& r) {
  json steps = json::array(), retries = json::array(), governor = json::array(), memory = json::array();
  for (const auto& s : r.steps)
    steps.push_back({{"name", s.name}, {"status", s.status}, {"input_hash", s.input_hash},
                     {"start", s.start}, {"seconds", s.seconds}, {"exit_code", s.exit_code},
                     {"log", s.log}, {"note", s.note}, {"cpu_seconds", s.cpu_seconds}});
  for (const auto& t : r.retries)
    retries.push_back({{"step", t.step}, {"reason", t.reason}, {"remedy", t.remedy}, {"at", t.at}});
  for (const auto& g : r.governor)
    governor.push_back({{"at", g.at}, {"action", g.action}, {"pid", g.pid}, {"reason", g.reason}});
  for (const auto& m : r.memory)
    memory.push_back({{"at", m.at}, {"used_bytes", m.used_bytes}, {"available_bytes", m.available_bytes}});
  j = json{{"schema", r.schema},
           {"torchsmith_version", r.torchsmith_version},
           {"what", r.what},
           {"outcome", r.outcome},
           {"started_at", r.started_at},
           {"seconds", r.seconds},
           {"self_cpu_seconds", r.self_cpu_seconds},
           {"plan", r.plan},
           {"steps", steps},
           {"retries", retries},
           {"governor", governor},
           {"memory", memory},
           {"cache", {{"tool", r.cache.tool}, {"hits", r.cache.hits}, {"misses", r.cache.misses}}},
           {"diagnosis", r.diagnosis},
           {"artifacts", r.artifacts},
           {"verdicts", r.verdicts},
           {"checks", r.checks},
           {"ninja_log", r.ninja_log},
           {"run_dir", r.run_dir}};
  if (!r.cache.store.empty()) {
    auto& c = j["cache"];
    c["store"] = r.cache.store;
    c["store_ok"] = r.cache.store_ok;
    c["warning"] = r.cache.warning;
    c["local_hits"] = r.cache.local_hits;
    c["remote_hits"] = r.cache.remote_hits;
    c["remote_errors"] = r.cache.remote_errors;
  }
  if (!r.distributed.engine.empty()) {
    json moved = json::array();
    for (const auto& m : r.distributed.moved) moved.push_back({{"source", m.source}, {"host", m.host}, {"why", m.why}});
    j["distributed"] = {{"engine", r.distributed.engine},         {"hosts", r.distributed.hosts},
                        {"left_out", r.distributed.left_out},     {"remote_jobs", r.distributed.remote_jobs},
                        {"local_jobs", r.distributed.local_jobs}, {"moved", moved},
                        {"log", r.distributed.log}};
  }
}

void from_json(const json& j, RunRecord& r) {
  Fields f(j, "");
  RunRecord out;
  f.str("schema", out.schema, true);
  if (out.schema.rfind("torchsmith-run/", 0) != 0)
    fail("schema", "'" + out.schema + "' is not a torchsmith run record (torchsmith-run/1)");
  if (out.schema != "torchsmith-run/1")
    fail("schema", "'" + out.schema + "' is newer than this torchsmith reads (torchsmith-run/1); update torchsmith");
  f.str("torchsmith_version", out.torchsmith_version);
  f.str("what", out.what);
  f.str("outcome", out.outcome, true);
  f.str("started_at", out.started_at);
  f.num("seconds", out.seconds);
  f.num("self_cpu_seconds", out.self_cpu_seconds);
  f.any("plan", out.plan);
  f.list("steps", out.steps, [](const Fields& s, StepRecord& t) {
    s.str("name", t.name, true);
    s.str("status", t.status);
    s.str("input_hash", t.input_hash);
    s.num("start", t.start);
    s.num("seconds", t.seconds);
    s.integer("exit_code", t.exit_code);
    s.str("log", t.log);
    s.str("note", t.note);
    s.num("cpu_seconds", t.cpu_seconds);
  });
  f.list("retries", out.retries, [](const Fields& s, RetryRecord& t) {
    s.str("step", t.step);
    s.str("reason", t.reason);
    s.str("remedy", t.remedy);
    s.num("at", t.at);
  });
  f.list("governor", out.governor, [](const Fields& s, GovernorAction& t) {
    s.num("at", t.at);
    s.str("action", t.action, true);
    s.integer("pid", t.pid);
    s.str("reason", t.reason);
  });
  f.list("memory", out.memory, [](const Fields& s, MemorySample& t) {
    s.num("at", t.at);
    s.count("used_bytes", t.used_bytes);
    s.count("available_bytes", t.available_bytes);
  });
  if (f.find("cache", false)) {
    Fields c(j.at("cache"), "cache");
    c.str("tool", out.cache.tool);
    c.count("hits", out.cache.hits);
    c.count("misses", out.cache.misses);
    c.str("store", out.cache.store);
    if (const json* v = c.find("store_ok", false)) {
      if (!v->is_boolean()) fail(c.at("store_ok"), "expected a boolean, got " + kind(*v));
      out.cache.store_ok = v->get<bool>();
    }
    c.str("warning", out.cache.warning);
    c.count("local_hits", out.cache.local_hits);
    c.count("remote_hits", out.cache.remote_hits);
    c.count("remote_errors", out.cache.remote_errors);
  }
  if (f.find("distributed", false)) {
    Fields d(j.at("distributed"), "distributed");
    d.str("engine", out.distributed.engine);
    d.str("hosts", out.distributed.hosts);
    d.strings("left_out", out.distributed.left_out);
    if (const json* v = d.find("remote_jobs", false)) {
      if (!v->is_object()) fail(d.at("remote_jobs"), "expected an object, got " + kind(*v));
      for (const auto& [host, n] : v->items()) {
        if (!n.is_number_integer()) fail(d.at("remote_jobs") + "." + host, "expected an integer, got " + kind(n));
        out.distributed.remote_jobs[host] = n.get<int>();
      }
    }
    d.integer("local_jobs", out.distributed.local_jobs);
    d.list("moved", out.distributed.moved, [](const Fields& s, MovedJob& m) {
      s.str("source", m.source);
      s.str("host", m.host);
      s.str("why", m.why);
    });
    d.str("log", out.distributed.log);
  }
  f.any("diagnosis", out.diagnosis);
  f.strings("artifacts", out.artifacts);
  f.strings("verdicts", out.verdicts);
  f.any("checks", out.checks);
  f.str("ninja_log", out.ninja_log);
  f.str("run_dir", out.run_dir);
  r = std::move(out);
}

// Invalid UTF-8 (a compiler line in a reason) becomes U+FFFD instead of throwing.
std::string run_json_text(const RunRecord& r) {
  json j = r;
  util::redact_json(j);
  return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

RunRecord parse_run_json(std::string_view text) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw json::other_error::create(
        501, std::string("run.json is not valid JSON (") + e.what() + "); the run that wrote it was cut off?",
        nullptr);
  }
  return j.get<RunRecord>();
}

}  // namespace ts::report
