// OS: distribution, kernel, glibc, and whether we are inside WSL or a container.
#include <gnu/libc-version.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>

#include "probe/sections.h"
#include "probe/text.h"
#include "util/fs.h"

namespace ts::probe {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// glibc of a fake root: the libc-X.Y.so file name (glibc < 2.34), else an `ldd --version` stub.
std::string fake_glibc(const Host& h) {
  for (auto dir : {"/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu", "/lib64", "/lib",
                   "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64"}) {
    for (auto& n : h.list(dir)) {
      if (n.starts_with("libc-") && n.ends_with(".so")) {
        auto v = find_version(n);
        if (!v.empty()) return v;
      }
    }
  }
  auto ldd = h.find_command("ldd");
  if (ldd.empty()) return "";
  auto r = h.run({ldd, "--version"}, std::chrono::milliseconds(5000));
  auto first = lines(r.out).empty() ? std::string() : lines(r.out)[0];
  auto paren = first.rfind(')');  // "ldd (Ubuntu GLIBC 2.35-0ubuntu3) 2.35"
  return find_version(paren == std::string::npos ? first : first.substr(paren));
}

}  // namespace

std::string probe_hostname(const Host& h) {
  if (h.is_real()) {
    char buf[256] = {};
    if (::gethostname(buf, sizeof buf - 1) == 0) return buf;
    return "";
  }
  return util::trim(h.read("/etc/hostname").value_or(""));
}

OsFacts probe_os(const Host& h, Notes& notes) {
  OsFacts os;
  os.kernel = "Linux";
  auto rel = h.read("/etc/os-release");
  if (!rel) rel = h.read("/usr/lib/os-release");
  if (rel) {
    os.id = unquote(field(*rel, "ID", '='));
    os.version_id = unquote(field(*rel, "VERSION_ID", '='));
    os.pretty_name = unquote(field(*rel, "PRETTY_NAME", '='));
  } else {
    notes.push_back("no /etc/os-release: distribution unknown");
  }
  os.kernel_release = util::trim(h.read("/proc/sys/kernel/osrelease").value_or(""));
  if (h.is_real()) {
    struct utsname u {};
    if (::uname(&u) == 0) {
      os.kernel = u.sysname;
      if (os.kernel_release.empty()) os.kernel_release = u.release;
    }
    os.glibc = gnu_get_libc_version();
  } else {
    os.glibc = fake_glibc(h);
  }
  auto version = lower(h.read("/proc/version").value_or(""));
  os.wsl = version.find("microsoft") != std::string::npos || version.find("wsl") != std::string::npos;
  os.container = h.exists("/.dockerenv") || h.exists("/run/.containerenv");
  if (!os.container) {
    auto cg = h.read("/proc/1/cgroup").value_or("");
    for (auto hint : {"docker", "kubepods", "containerd", "/lxc/", "libpod"})
      if (cg.find(hint) != std::string::npos) os.container = true;
  }
  return os;
}

}  // namespace ts::probe
