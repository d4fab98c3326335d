// run.json both ways. Reading checks every field's type and names the field that is wrong, so a
// hand-edited or truncated run.json gives one clear line instead of a bare type_error.
#include "report/run_record.h"

#include <map>
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
  static constexpr bool kWrites = false;
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
  void boolean(const char* key, bool& out) const {
    if (const json* v = find(key, false)) {
      if (!v->is_boolean()) fail(at(key), "expected a boolean, got " + kind(*v));
      out = v->get<bool>();
    }
  }
  void int_map(const char* key, std::map<std::string, int>& out) const {
    if (const json* v = find(key, false)) {
      if (!v->is_object()) fail(at(key), "expected an object, got " + kind(*v));
      for (const auto& [name, n] : v->items()) {
        if (!n.is_number_integer()) fail(at(key) + "." + name, "expected an integer, got " + kind(n));
        out[name] = n.get<int>();
      }
    }
  }
  template <class T, class Each>
  void list(const char* key, std::vector<T>& out, Each each) const {
    if (const json* v = find(key, false)) {
      if (!v->is_array()) fail(at(key), "expected an array, got " + kind(*v));
      out.clear();
      for (std::size_t i = 0; i < v->size(); ++i) {
        T t;
        Fields item((*v)[i], at(key) + "[" + std::to_string(i) + "]");
        each(item, t);
        out.push_back(std::move(t));
      }
    }
  }
  // An object's fields, when the object is there (`written` is the writer's business).
  template <class T, class Each>
  void object(const char* key, T& out, Each each, bool /*written*/ = true) const {
    if (const json* v = find(key, false)) {
      Fields sub(*v, at(key));
      each(sub, out);
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

// Writes the fields the tables below name; run.json's key order is the json object's (sorted).
class Writer {
 public:
  static constexpr bool kWrites = true;
  explicit Writer(json& j) : j_(j) { j_ = json::object(); }
  void str(const char* key, const std::string& v, bool /*required*/ = false) { j_[key] = v; }
  void num(const char* key, double v) { j_[key] = v; }
  void integer(const char* key, int v) { j_[key] = v; }
  void count(const char* key, std::uint64_t v) { j_[key] = v; }
  void boolean(const char* key, bool v) { j_[key] = v; }
  void strings(const char* key, const std::vector<std::string>& v) { j_[key] = v; }
  void int_map(const char* key, const std::map<std::string, int>& v) { j_[key] = v; }
  void any(const char* key, const json& v) { j_[key] = v; }
  template <class T, class Each>
  void list(const char* key, const std::vector<T>& v, Each each) {
    json a = json::array();
    for (const auto& x : v) {
      json o;
      Writer w(o);
      each(w, x);
      a.push_back(std::move(o));
    }
    j_[key] = std::move(a);
  }
  template <class T, class Each>
  void object(const char* key, const T& x, Each each, bool written = true) {
    if (!written) return;
    json o;
    Writer w(o);
    each(w, x);
    j_[key] = std::move(o);
  }

 private:
  json& j_;
};

// run.json's fields, one table per record: the writer (V = Writer, R const) and the reader (V =
// Fields) walk the same list, so a field added here is written and read back.
constexpr bool kRequired = true;

template <class V, class R>
void step_fields(V& v, R& t) {
  v.str("name", t.name, kRequired);
  v.str("status", t.status);
  v.str("input_hash", t.input_hash);
  v.num("start", t.start);
  v.num("seconds", t.seconds);
  v.integer("exit_code", t.exit_code);
  v.str("log", t.log);
  v.str("note", t.note);
  v.num("cpu_seconds", t.cpu_seconds);
}

template <class V, class R>
void retry_fields(V& v, R& t) {
  v.str("step", t.step);
  v.str("reason", t.reason);
  v.str("remedy", t.remedy);
  v.num("at", t.at);
  v.str("diff", t.diff);
}

template <class V, class R>
void governor_fields(V& v, R& t) {
  v.num("at", t.at);
  v.str("action", t.action, kRequired);
  v.integer("pid", t.pid);
  v.str("reason", t.reason);
}

template <class V, class R>
void memory_fields(V& v, R& t) {
  v.num("at", t.at);
  v.count("used_bytes", t.used_bytes);
  v.count("available_bytes", t.available_bytes);
}

template <class V, class R>
void cache_fields(V& v, R& c) {
  v.str("tool", c.tool);
  v.count("hits", c.hits);
  v.count("misses", c.misses);
  if (V::kWrites && c.store.empty()) return;  // a shared store's fields are written only with a store
  v.str("store", c.store);
  v.boolean("store_ok", c.store_ok);
  v.str("warning", c.warning);
  v.count("local_hits", c.local_hits);
  v.count("remote_hits", c.remote_hits);
  v.count("remote_errors", c.remote_errors);
}

template <class V, class R>
void moved_fields(V& v, R& m) {
  v.str("source", m.source);
  v.str("host", m.host);
  v.str("why", m.why);
}

template <class V, class R>
void distributed_fields(V& v, R& d) {
  v.str("engine", d.engine);
  v.str("hosts", d.hosts);
  v.strings("left_out", d.left_out);
  v.int_map("remote_jobs", d.remote_jobs);
  v.integer("local_jobs", d.local_jobs);
  v.list("moved", d.moved, [](auto& w, auto& m) { moved_fields(w, m); });
  v.str("log", d.log);
}

template <class V, class R>
void artifact_fields(V& v, R& a) {
  v.str("file", a.file);
  v.str("path", a.path);
  v.count("size", a.size);
  v.str("sha256", a.sha256);
  v.str("install", a.install);
  v.str("torch", a.torch);
}

template <class V, class R>
void record_fields(V& v, R& r) {
  v.str("schema", r.schema, kRequired);
  v.str("torchsmith_version", r.torchsmith_version);
  v.str("what", r.what);
  v.str("outcome", r.outcome, kRequired);
  v.str("started_at", r.started_at);
  v.num("seconds", r.seconds);
  v.num("self_cpu_seconds", r.self_cpu_seconds);
  v.any("plan", r.plan);
  v.list("steps", r.steps, [](auto& w, auto& t) { step_fields(w, t); });
  v.list("retries", r.retries, [](auto& w, auto& t) { retry_fields(w, t); });
  v.list("governor", r.governor, [](auto& w, auto& t) { governor_fields(w, t); });
  v.list("memory", r.memory, [](auto& w, auto& t) { memory_fields(w, t); });
  v.object("cache", r.cache, [](auto& w, auto& c) { cache_fields(w, c); });
  v.object("distributed", r.distributed, [](auto& w, auto& d) { distributed_fields(w, d); },
           !r.distributed.engine.empty());  // only for a distributed build
  v.any("diagnosis", r.diagnosis);
  v.strings("artifacts", r.artifacts);
  v.list("artifact_files", r.artifact_files, [](auto& w, auto& a) { artifact_fields(w, a); });
  v.strings("command", r.command);
  v.str("source_dir", r.source_dir);
  v.str("source_copy", r.source_copy);
  v.strings("verdicts", r.verdicts);
  v.any("checks", r.checks);
  v.str("ninja_log", r.ninja_log);
  v.str("run_dir", r.run_dir);
}

}  // namespace

const StepRecord* RunRecord::step(std::string_view name) const {
  for (auto it = steps.rbegin(); it != steps.rend(); ++it)
    if (it->name == name) return &*it;
  return nullptr;
}

void to_json(json& j, const RunRecord& r) {
  Writer w(j);
  record_fields(w, r);
}

void from_json(const json& j, RunRecord& r) {
  Fields f(j, "");
  RunRecord out;
  f.str("schema", out.schema, true);  // checked before any other field: another file is named as such
  if (out.schema.rfind("torchsmith-run/", 0) != 0)
    fail("schema", "'" + out.schema + "' is not a torchsmith run record (torchsmith-run/1)");
  if (out.schema != "torchsmith-run/1")
    fail("schema", "'" + out.schema + "' is newer than this torchsmith reads (torchsmith-run/1); update torchsmith");
  record_fields(f, out);
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
