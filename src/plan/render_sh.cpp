// --format sh: an environment to source and the steps to run by hand.
#include <cctype>
#include <sstream>

#include <nlohmann/json.hpp>

#include "plan/build_frontend.h"
#include "plan/render.h"
#include "util/printable.h"
#include "util/redact_json.h"

namespace ts::plan {

std::string sh_quote(const std::string& s) {
  std::string o = "'";
  for (char c : s) o += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return o + "'";
}

namespace {

bool shell_name(const std::string& k) {
  if (k.empty() || std::isdigit(static_cast<unsigned char>(k[0]))) return false;
  for (char c : k)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

}  // namespace

std::string render_sh(const Plan& p) {
  std::ostringstream o;
  // Comments carry text from the plan: escaped, so a newline in it never starts a command line.
  o << "# torchsmith plan for torch==" << util::printable(p.torch_version) << " (" << util::printable(p.build_version) << ")\n"
    << "# Source it to get exactly the build's environment:   set -a; . ./plan.sh; set +a\n"
    << "# Run the steps by hand:                              TORCHSMITH_RUN=1 bash plan.sh\n";
  for (const auto& [k, v] : p.env) {
    // {pyshim}: the helper only `torchsmith build` writes; by hand the extensions build in turn.
    std::string val = v;
    const std::string ph = kPyshimPlaceholder;
    for (const std::string& cut : {ph + ":", ph})
      if (auto at = val.find(cut); at != std::string::npos) val.erase(at, cut.size());
    if (!shell_name(k)) {
      o << "# not exported: " << util::printable(k) << " is not a shell variable name\n";
      continue;
    }
    if (val != v) o << "# " << k << " names torchsmith's build helper, which only `torchsmith build` writes\n";
    if (!val.empty()) o << "export " << k << "=" << sh_quote(val) << "\n";
  }
  o << "if [ \"${TORCHSMITH_RUN:-}\" = 1 ]; then\n"
    << "  set -eu\n"
    << "  src=" << sh_quote(p.source_dir.empty() ? "pytorch" : p.source_dir) << "\n"
    << "  dist=torchsmith-dist lock=plan.lock.json  # the lock: torchsmith plan ... -o plan.lock.json\n";
  // Placeholders stay shell variables, so the user can move the tree; wheels are found when made.
  const std::pair<const char*, const char*> vars[] = {
      {"{built_wheel}", "built_wheel"}, {"{wheel}", "wheel"}, {"{src}", "src"}, {"{dist}", "dist"}, {"{lock}", "lock"}};
  for (const auto& s : p.steps) {
    if (!s.note.empty()) o << "  # " << util::printable(s.name) << ": " << util::printable(by_hand_note(s.argv, s.note)) << "\n";
    std::string line;
    for (auto a : by_hand(s.argv)) {
      std::string q;
      std::size_t at = 0;
      while (at < a.size()) {
        std::size_t best = std::string::npos;
        const std::pair<const char*, const char*>* var = nullptr;
        for (const auto& v : vars)
          if (auto f = a.find(v.first, at); f < best) { best = f; var = &v; }
        if (at < std::min(best, a.size())) q += sh_quote(a.substr(at, std::min(best, a.size()) - at));
        if (!var) break;
        q += std::string("\"$") + var->second + "\"";
        at = best + std::string(var->first).size();
      }
      if (q.empty()) q = "''";
      if (a.find("{built_wheel}") != std::string::npos)
        o << "  built_wheel=$(ls -t \"$src\"/dist/*.whl | head -n 1)\n";
      if (a.find("{wheel}") != std::string::npos) o << "  wheel=$(ls -t \"$dist\"/*.whl | head -n 1)\n";
      line += (line.empty() ? "" : " ") + q;
    }
    if (s.cwd == "{src}") line = "(cd \"$src\" && " + line + ")";
    o << "  " << line << "\n";
  }
  o << "fi\n";
  return o.str();
}

nlohmann::json lock_json(const Plan& p) {
  nlohmann::json j = p;
  j["lock"] = {{"fix_hashes", nlohmann::json::object()}, {"source_revision", p.source_revision}};
  for (const auto& f : p.fixes) j["lock"]["fix_hashes"][f.id] = f.hash;
  // A lock is shared and kept: credentials in the source URL never go into it (the run passes the
  // URL it was given to git; a build from the lock asks for them again).
  util::redact_json(j);
  return j;
}

}  // namespace ts::plan
