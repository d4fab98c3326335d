#include "provision/fetch_file.h"

#include <cstdlib>
#include <filesystem>

#include "util/fs.h"
#include "util/process.h"
#include "util/safe_path.h"

namespace ts::provision {

namespace fs = std::filesystem;

bool Mirror::is_url() const {
  return base.rfind("https://", 0) == 0 || base.rfind("http://", 0) == 0 || base.rfind("file://", 0) == 0;
}

std::string Mirror::where(const std::string& rel) const {
  std::string b = base;
  while (b.size() > 1 && b.back() == '/') b.pop_back();
  return b + "/" + rel;
}

std::string Mirror::fetch(const std::string& rel, const std::string& dest) const {
  std::string err;
  if (!util::join_inside("/x", rel, &err)) return "'" + rel + "' is not a path inside the mirror: " + err;
  std::string src = where(rel);
  std::error_code ec;
  if (!is_url()) {
    if (!fs::is_regular_file(src, ec)) return src + ": no such file in the mirror directory " + base;
    fs::copy_file(src, dest, fs::copy_options::overwrite_existing, ec);
    if (ec) return "cannot copy " + src + " to " + dest + ": " + ec.message();
    return "";
  }
  // http is allowed for a site's own mirror: every archive is checked against the manifest's sha256.
  std::vector<std::string> argv{"curl", "--silent", "--show-error", "--location", "--fail",
                                "--proto", "=https,http,file", "--proto-redir", "=https,http",
                                "--connect-timeout", std::to_string(stall.count()),
                                "--speed-limit", "1024", "--speed-time", std::to_string(stall.count()),
                                "--max-time", std::to_string(max_time.count()), "--output", dest, "--", src};
  util::RunOptions o;
  o.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(max_time + stall + std::chrono::seconds(5));
  auto r = util::run(argv, o);
  if (!r.ok()) {
    fs::remove(dest, ec);
    std::string why = util::trim(r.err);
    if (r.exit_code == 28) why = "no data for " + std::to_string(stall.count()) + " s (the mirror stalls; curl: " + why + ")";
    if (r.exit_code == 22) why = "the mirror answers with an error (" + why + ")";
    return "downloading " + src + " failed: " + (why.empty() ? r.describe(o.timeout) : why);
  }
  return "";
}

std::string mirror_setting(const std::string& cli, const std::string& fallback) {
  if (!cli.empty()) return cli;
  if (const char* e = std::getenv("TORCHSMITH_TOOLKIT_MIRROR"); e && *e) return e;
  return fallback;
}

}  // namespace ts::provision
