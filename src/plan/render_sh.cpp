// --format sh: an environment to source and the steps to run by hand.
#include <sstream>

#include <nlohmann/json.hpp>

#include "plan/render.h"

namespace ts::plan {

std::string sh_quote(const std::string& s) {
  std::string o = "'";
  for (char c : s) o += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return o + "'";
}

std::string render_sh(const Plan& p) {
  std::ostringstream o;
  o << "# torchsmith plan for torch==" << p.torch_version << " (" << p.build_version << ")\n"
    << "# Source it to get exactly the build's environment:   set -a; . ./plan.sh; set +a\n"
    << "# Run the steps by hand:                              TORCHSMITH_RUN=1 bash plan.sh\n";
  for (const auto& [k, v] : p.env) o << "export " << k << "=" << sh_quote(v) << "\n";
  o << "if [ \"${TORCHSMITH_RUN:-}\" = 1 ]; then\n"
    << "  set -eu\n"
    << "  src=" << sh_quote(p.source_dir.empty() ? "pytorch" : p.source_dir) << "\n";
  for (const auto& s : p.steps) {
    if (!s.note.empty()) o << "  # " << s.name << ": " << s.note << "\n";
    std::string line;
    for (auto a : s.argv) {
      for (auto pos = a.find("{src}"); pos != std::string::npos; pos = a.find("{src}")) a.replace(pos, 5, "\x01");
      std::string q = sh_quote(a);
      // {src} stays a shell variable so the user can move the tree.
      for (auto pos = q.find('\x01'); pos != std::string::npos; pos = q.find('\x01')) q.replace(pos, 1, "'\"$src\"'");
      for (const std::string empty : {"''\"$src\"", "\"$src\"''"})  // drop the empty quotes around it
        for (auto pos = q.find(empty); pos != std::string::npos; pos = q.find(empty))
          q.replace(pos, empty.size(), "\"$src\"");
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
  return j;
}

}  // namespace ts::plan
