#include "triage/render.h"

namespace ts::triage {
namespace {

struct Paint {
  bool on;
  std::string wrap(const char* code, const std::string& s) const { return on ? "\x1b[" + std::string(code) + "m" + s + "\x1b[0m" : s; }
  std::string bold(const std::string& s) const { return wrap("1", s); }
  std::string red(const std::string& s) const { return wrap("31", s); }
  std::string yellow(const std::string& s) const { return wrap("33", s); }
  std::string dim(const std::string& s) const { return wrap("2", s); }
};

void finding_text(std::string& out, const Finding& f, const Paint& p, bool root) {
  std::string sev(to_string(f.severity));
  std::string title = f.id + (f.phase.empty() ? "" : " (" + f.phase + ", " + sev + ")");
  out += root ? p.red(p.bold("root cause: ")) + p.bold(title) : p.bold(title);
  if (!f.superseded_by.empty()) out += p.dim("  [superseded by " + f.superseded_by + "]");
  out += "\n";
  if (f.count > 1) out += "  matched " + std::to_string(f.count) + " lines (first at line " + std::to_string(f.first_line()) + ")\n";
  out += "  cause: " + f.cause + "\n";
  out += "  fix:   " + f.fix + "\n";
  if (f.remedy.kind != RemedyKind::none) {
    out += "  remedy: " + std::string(to_string(f.remedy.kind));
    for (const auto& [k, v] : f.remedy.env) out += " " + k + "=" + v;
    if (!f.remedy.header.empty()) out += " <" + expand_captures(f.remedy.header, f.captures) + ">";
    out += "\n";
  }
  for (const auto& n : f.notes) out += "  note:  " + n + "\n";
  // Context with the evidence lines marked.
  std::uint64_t first = f.first_line();
  if (!f.context.empty()) {
    out += "  evidence:\n";
    for (const auto& c : f.context) {
      bool hit = false;
      for (const auto& e : f.evidence) hit |= e.line == c.line;
      std::string num = std::to_string(c.line);
      if (hit || c.line == first) out += "  " + p.yellow("> " + num + " | " + c.text) + "\n";
      else out += "  " + p.dim("  " + num + " | " + c.text) + "\n";
    }
  }
  for (const auto& e : f.evidence)
    if (e.line > (f.context.empty() ? 0 : f.context.back().line)) out += "  " + p.yellow("> " + std::to_string(e.line) + " | " + e.text) + "\n";
}

nlohmann::json finding_json(const Finding& f) {
  nlohmann::json j;
  j["id"] = f.id;
  j["known"] = f.sig != nullptr;
  j["severity"] = std::string(to_string(f.severity));
  j["phase"] = f.phase;
  j["count"] = f.count;
  j["cause"] = f.cause;
  j["fix"] = f.fix;
  j["remedy"] = {{"kind", std::string(to_string(f.remedy.kind))}, {"env", f.remedy.env}, {"note", f.remedy.note}};
  if (!f.remedy.header.empty()) j["remedy"]["header"] = expand_captures(f.remedy.header, f.captures);
  j["notes"] = f.notes;
  if (!f.superseded_by.empty()) j["superseded_by"] = f.superseded_by;
  if (!f.captures.empty()) j["captures"] = f.captures;
  if (f.sig) j["source"] = f.sig->source;
  if (f.sig && !f.sig->formerly.empty()) j["formerly"] = f.sig->formerly;  // ids merged into this one
  auto lines = [](const std::vector<Evidence>& v) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& e : v) a.push_back({{"line", e.line}, {"text", e.text}});
    return a;
  };
  j["evidence"] = lines(f.evidence);
  j["context"] = lines(f.context);
  return j;
}

}  // namespace

std::string render_text(const Diagnosis& d, bool all, bool color, const std::string& more) {
  Paint p{color};
  std::string out;
  if (!d.root()) {
    out += "no error found: no signature, compiler error, CMake error, traceback or error line in " + std::to_string(d.lines) + " lines\n";
  } else if (!d.failed()) {
    out += "no error found in " + std::to_string(d.lines) + " lines; worth knowing:\n";
    finding_text(out, d.findings.front(), p, false);
  } else {
    finding_text(out, d.findings.front(), p, true);
    if (d.error_lines > 1) out += p.dim("  (" + std::to_string(d.error_lines) + " error lines in the log; the ones after the root cause are usually its cascade)") + "\n";
  }
  std::size_t rest = d.findings.size() - d.root_count;
  if (all) {
    for (std::size_t i = d.root_count; i < d.findings.size(); ++i) {
      out += "\n";
      finding_text(out, d.findings[i], p, false);
    }
  } else if (rest > 0) {
    out += p.dim("\n" + std::to_string(rest) + " more finding(s): " + more) + "\n";
  }
  return out;
}

nlohmann::json to_json(const Diagnosis& d, bool all) {
  nlohmann::json j;
  j["schema"] = "torchsmith-diagnosis/1";
  j["lines"] = d.lines;
  j["bytes"] = d.bytes;
  j["error_lines"] = d.error_lines;
  j["known"] = d.known();
  j["error"] = d.failed();  // false: the log shows no error (at most warnings)
  j["root_cause"] = d.root() ? finding_json(*d.root()) : nlohmann::json(nullptr);
  nlohmann::json others = nlohmann::json::array();
  if (all)
    for (std::size_t i = d.root_count; i < d.findings.size(); ++i) others.push_back(finding_json(d.findings[i]));
  j["others"] = others;
  j["other_count"] = d.findings.size() - d.root_count;
  j["log_facts"] = {{"cuda_version", d.log_facts.cuda_version}, {"cxx_compiler", d.log_facts.cxx_compiler},
                    {"arch_list", d.log_facts.arch_list}};
  return j;
}

}  // namespace ts::triage
