#include "probe/host.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <deque>
#include <filesystem>

#include "util/fs.h"
#include "util/split.h"

extern char** environ;

namespace ts::probe {
namespace fs = std::filesystem;

namespace {

std::string join(const std::string& dir, const std::string& name) {
  return dir == "/" ? "/" + name : dir + "/" + name;
}

std::string parent(const std::string& p) {
  auto s = p.rfind('/');
  return (s == 0 || s == std::string::npos) ? "/" : p.substr(0, s);
}

std::map<std::string, std::string> own_environment() {
  std::map<std::string, std::string> m;
  for (char** e = environ; e && *e; ++e) {
    std::string kv = *e;
    auto eq = kv.find('=');
    if (eq != std::string::npos) m.emplace(kv.substr(0, eq), kv.substr(eq + 1));
  }
  return m;
}

}  // namespace

std::string normalize_path(const std::string& p) {
  std::vector<std::string> out;
  for (auto& c : util::split_nonempty(p, '/')) {
    if (c == ".") continue;
    if (c == "..") {
      if (!out.empty()) out.pop_back();
      continue;
    }
    out.push_back(c);
  }
  std::string s;
  for (auto& c : out) s += "/" + c;
  return s.empty() ? "/" : s;
}

Host Host::real() {
  Host h;
  h.root = "/";
  h.runner = [](const std::vector<std::string>& a, const util::RunOptions& o) { return util::run(a, o); };
  h.env = own_environment();
  return h;
}

std::optional<Host> Host::at(const std::string& dir, std::string* error) {
  if (dir.empty() || dir == "/") return real();
  std::error_code ec;
  auto abs = fs::absolute(dir, ec);
  if (ec || !fs::is_directory(abs, ec)) {
    if (error) *error = "--root " + dir + ": no such directory";
    return std::nullopt;
  }
  Host h = real();
  h.root = fs::weakly_canonical(abs, ec).string();
  if (ec) h.root = abs.lexically_normal().string();
  while (h.root.size() > 1 && h.root.ends_with('/')) h.root.pop_back();
  if (h.root == "/") return h;
  h.env.clear();
  if (auto text = util::read_file(h.root + "/.host/env")) {
    std::size_t b = 0;
    while (b < text->size()) {
      auto e = text->find('\n', b);
      if (e == std::string::npos) e = text->size();
      std::string line = util::trim(std::string_view(*text).substr(b, e - b));
      b = e + 1;
      auto eq = line.find('=');
      if (line.empty() || line[0] == '#' || eq == std::string::npos) continue;
      h.env[line.substr(0, eq)] = line.substr(eq + 1);
    }
  }
  return h;
}

std::string Host::map(const std::string& host_path) const {
  if (is_real()) return host_path;
  if (host_path.empty() || host_path[0] != '/') return root + "/" + host_path;
  return root + host_path;
}

std::string Host::unmap(const std::string& mapped) const {
  if (is_real()) return mapped;
  if (mapped == root) return "/";
  if (mapped.size() > root.size() && mapped.compare(0, root.size(), root) == 0 &&
      mapped[root.size()] == '/')
    return mapped.substr(root.size());
  return mapped;
}

std::optional<std::string> Host::read(const std::string& host_path, std::size_t max) const {
  return util::read_file_prefix(map(host_path), max);
}

bool Host::exists(const std::string& host_path) const {
  struct stat st {};
  return ::stat(map(host_path).c_str(), &st) == 0;
}

bool Host::is_dir(const std::string& host_path) const {
  struct stat st {};
  return ::stat(map(host_path).c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::vector<std::string> Host::list(const std::string& host_path) const {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(map(host_path), ec), end; !ec && it != end; it.increment(ec))
    names.push_back(it->path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string Host::readlink(const std::string& host_path) const {
  char buf[4096];
  ssize_t n = ::readlink(map(host_path).c_str(), buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : "";
}

std::string Host::canonical(const std::string& host_path) const {
  std::deque<std::string> todo;
  for (auto& c : util::split_nonempty(host_path, '/')) todo.push_back(c);
  std::string cur = "/";
  int hops = 0;
  while (!todo.empty()) {
    std::string c = todo.front();
    todo.pop_front();
    if (c == ".") continue;
    if (c == "..") {
      cur = parent(cur);
      continue;
    }
    std::string next = join(cur, c);
    struct stat st {};
    if (::lstat(map(next).c_str(), &st) != 0) return "";
    if (!S_ISLNK(st.st_mode)) {
      cur = next;
      continue;
    }
    if (++hops > 40) return "";  // a loop
    std::string target = readlink(next);
    if (target.empty()) return "";
    auto comps = util::split_nonempty(target, '/');
    todo.insert(todo.begin(), comps.begin(), comps.end());
    if (target[0] == '/') cur = "/";  // absolute targets stay inside root
  }
  return cur;
}

std::string Host::getenv(const std::string& name) const {
  auto it = env.find(name);
  return it == env.end() ? "" : it->second;
}

std::string Host::home() const {
  auto h = getenv("HOME");
  return h.empty() ? "/root" : h;
}

std::vector<std::string> Host::bin_dirs() const {
  std::vector<std::string> dirs;
  auto add = [&](const std::string& d) {
    if (d.empty() || d[0] != '/') return;  // relative PATH entries mean nothing for a probe
    std::string n = normalize_path(d);
    if (std::find(dirs.begin(), dirs.end(), n) == dirs.end() && is_dir(n)) dirs.push_back(n);
  };
  for (auto& d : util::split_path(getenv("PATH"))) add(d);
  for (auto d : {"/usr/local/bin", "/usr/bin", "/bin", "/usr/local/cuda/bin"}) add(d);
  for (auto& n : list("/usr/local"))
    if (n.starts_with("cuda-")) add("/usr/local/" + n + "/bin");
  add("/opt/conda/bin");
  add("/usr/lib/wsl/lib");  // WSL2: nvidia-smi comes from the Windows driver here
  return dirs;
}

std::string Host::find_command(const std::string& name) const {
  for (auto& d : bin_dirs()) {
    std::string p = join(d, name);
    struct stat st {};
    std::string m = map(p);
    if (::stat(m.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(m.c_str(), X_OK) == 0)
      return p;
  }
  return "";
}

util::RunResult Host::run(std::vector<std::string> argv, std::chrono::milliseconds timeout,
                          const std::map<std::string, std::string>& extra_env) const {
  util::RunOptions o;
  o.timeout = timeout;
  o.max_output = 256 * 1024;  // version outputs are small; a runaway tool is cut
  if (is_real()) {
    o.extra_env = {{"LC_ALL", "C"}};
  } else {
    // A fake host's stubs are /bin/sh scripts: they need the real system's basic tools only.
    auto env = this->env;
    env["PATH"] = "/usr/bin:/bin";
    env["LC_ALL"] = "C";
    o.env = env;
  }
  for (auto& [k, v] : extra_env) o.extra_env[k] = v;
  if (!argv.empty()) argv[0] = map(argv[0]);
  auto r = runner ? runner(argv, o) : util::run(argv, o);
  return r;
}

}  // namespace ts::probe
