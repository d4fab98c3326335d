#include "scale/hosts.h"

#include <cstdint>
#include <cstring>
#include <filesystem>

#include "util/fs.h"
#include "util/process.h"

namespace ts::scale {

namespace fs = std::filesystem;

namespace {

constexpr const char* kProbe =
    "// torchsmith: which compiler compiled this (its .comment section says)\n"
    "int ts_probe(int x) { return x + 1; }\n";

template <class T>
bool read_at(const std::string& b, std::size_t off, T& out) {
  if (off > b.size() || b.size() - off < sizeof(T)) return false;
  std::memcpy(&out, b.data() + off, sizeof(T));
  return true;
}

}  // namespace

int HostsCheck::kept_slots() const {
  int n = 0;
  for (const auto& h : hosts)
    if (h.kept) n += h.host.slots;
  return n;
}

std::vector<DistccHost> HostsCheck::kept() const {
  std::vector<DistccHost> v;
  for (const auto& h : hosts)
    if (h.kept) v.push_back(h.host);
  return v;
}

std::string identity_in_object(const std::string& b) {
  // ELF64 little-endian only: the section headers, then the one named ".comment".
  if (b.size() < 64 || b.compare(0, 4, "\x7f" "ELF") != 0 || b[4] != 2 || b[5] != 1) return "";
  std::uint64_t shoff = 0;
  std::uint16_t shentsize = 0, shnum = 0, shstrndx = 0;
  if (!read_at(b, 0x28, shoff) || !read_at(b, 0x3a, shentsize) || !read_at(b, 0x3c, shnum) ||
      !read_at(b, 0x3e, shstrndx) || shentsize < 64 || shstrndx >= shnum)
    return "";
  auto section = [&](std::uint16_t i, std::uint32_t& name, std::uint64_t& off, std::uint64_t& size) {
    std::size_t h = shoff + std::size_t(i) * shentsize;
    return read_at(b, h, name) && read_at(b, h + 0x18, off) && read_at(b, h + 0x20, size) && off <= b.size() &&
           size <= b.size() - off;
  };
  std::uint32_t n = 0;
  std::uint64_t stroff = 0, strsize = 0;
  if (!section(shstrndx, n, stroff, strsize)) return "";
  for (std::uint16_t i = 0; i < shnum; ++i) {
    std::uint64_t off = 0, size = 0;
    if (!section(i, n, off, size) || n >= strsize) continue;
    if (std::strncmp(b.data() + stroff + n, ".comment", strsize - n) != 0) continue;
    std::string out;
    for (std::size_t at = off; at < off + size;) {
      std::size_t end = b.find('\0', at);
      if (end == std::string::npos || end > off + size) end = off + size;
      if (end > at) out += (out.empty() ? "" : "; ") + b.substr(at, end - at);
      at = end + 1;
    }
    return out.size() > 300 ? out.substr(0, 300) : out;
  }
  return "";
}

HostsCheck check_hosts(const std::vector<DistccHost>& hosts, const std::string& compiler, const std::string& path_var,
                       const std::string& work_dir, std::chrono::milliseconds timeout) {
  HostsCheck out;
  auto dirs = util::split_path(path_var);
  out.distcc = util::find_program("distcc", dirs);
  if (out.distcc.empty()) {
    out.error = "distcc is not on the build's PATH (Debian: apt-get install distcc)";
    return out;
  }
  std::string cxx = util::find_program(compiler.empty() ? "c++" : compiler, dirs);
  if (cxx.empty()) {
    out.error = "the compiler " + compiler + " is not on the build's PATH";
    return out;
  }
  std::error_code ec;
  fs::create_directories(work_dir + "/distcc", ec);
  std::string src = work_dir + "/probe.cpp";
  if (auto e = util::write_file_atomic(src, kProbe); !e.empty() || ec) {
    out.error = ec ? work_dir + ": " + ec.message() : e;
    return out;
  }
  util::RunOptions o;
  o.timeout = timeout;
  o.cwd = work_dir;
  o.env = std::map<std::string, std::string>{{"PATH", path_var}, {"DISTCC_DIR", work_dir + "/distcc"}};
  auto local = util::run({cxx, "-c", "probe.cpp", "-o", "local.o"}, o);
  if (local.ok()) out.local_compiler = identity_in_object(util::read_file(work_dir + "/local.o").value_or(""));
  if (out.local_compiler.empty()) {
    out.error = "the compiler " + cxx + " could not compile a probe here: " + local.err.substr(0, 200);
    return out;
  }
  for (const auto& h : hosts) {
    HostCheck c;
    c.host = h;
    Health port = check_port(h.host, h.port, std::chrono::milliseconds(2000));
    if (!port.ok) {
      c.why = "not reachable on port " + std::to_string(h.port) + ": " + port.detail;
      out.hosts.push_back(c);
      continue;
    }
    c.reachable = true;
    std::string obj = "host-" + std::to_string(out.hosts.size()) + ".o";
    fs::remove(work_dir + "/" + obj, ec);
    util::RunOptions ro = o;
    (*ro.env)["DISTCC_HOSTS"] = h.spec;
    (*ro.env)["DISTCC_FALLBACK"] = "0";  // a failed remote compile fails instead of running here
    (*ro.env)["DISTCC_SKIP_LOCAL_RETRY"] = "1";
    (*ro.env)["DISTCC_IO_TIMEOUT"] = std::to_string(std::max<long>(1, timeout.count() / 1000));
    (*ro.env)["DISTCC_BACKOFF_PERIOD"] = "0";
    auto r = util::run({out.distcc, cxx, "-c", "probe.cpp", "-o", obj}, ro);
    c.ms = r.seconds * 1000;
    if (r.ok()) c.compiler = identity_in_object(util::read_file(work_dir + "/" + obj).value_or(""));
    if (!r.ok() || c.compiler.empty()) {
      std::string e = r.err;
      if (auto nl = e.find('\n'); nl != std::string::npos) e = e.substr(0, nl);
      c.why = "answers, but the probe compile failed there (" + (r.timed_out ? std::string("timed out") : e.substr(0, 160)) + ")";
    } else if (c.compiler != out.local_compiler) {
      c.why = "compiler " + c.compiler + " there, " + out.local_compiler + " here: objects would differ";
    } else {
      c.kept = true;
    }
    out.hosts.push_back(c);
  }
  return out;
}

}  // namespace ts::scale
