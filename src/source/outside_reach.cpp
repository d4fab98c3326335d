#include "source/outside_reach.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <fstream>
#include <set>

#include <re2/re2.h>

namespace ts::source {

namespace {

namespace fs = std::filesystem;

bool is_c_source(const fs::path& p) {
  static const std::set<std::string> exts{".c", ".cc", ".cpp", ".cxx", ".cu", ".cuh", ".h", ".hh", ".hpp", ".hxx", ".inl"};
  return exts.count(p.extension().string()) > 0;
}

// Levels above `root` that `p` lies (0 when inside it); both lexically normal and absolute.
int levels_above(const fs::path& p, const fs::path& root) {
  int up = 0;
  for (const auto& part : p.lexically_relative(root)) {
    if (part != "..") break;
    ++up;
  }
  return up;
}

std::string read_prefix(const fs::path& p, std::size_t cap = 512 * 1024) {
  std::ifstream in(p, std::ios::binary);
  std::string s(cap, '\0');
  in.read(s.data(), static_cast<std::streamsize>(cap));
  s.resize(static_cast<std::size_t>(in.gcount()));
  return s;
}

// A string literal of setup.py (os.pardir counts as '..'), where it lies and in which bracket.
struct PyLiteral {
  std::string text;
  std::size_t begin = 0, end = 0;
  int line = 1;
  int frame = 0;      // the bracket it is in (0: none)
  bool join = false;  // that bracket is a call of something named ...join (os.path.join, osp.join)
};

std::vector<PyLiteral> py_literals(const std::string& code) {
  std::vector<PyLiteral> out;
  struct Frame {
    int id;
    bool join;
  };
  std::vector<Frame> frames;
  int next_frame = 0, line = 1;
  std::string last_name;  // the identifier just before, for a call's name
  auto frame = [&]() { return frames.empty() ? Frame{0, false} : frames.back(); };
  for (std::size_t i = 0; i < code.size();) {
    char c = code[i];
    if (c == '\n') {
      ++line, ++i;
      continue;
    }
    if (c == '#') {
      while (i < code.size() && code[i] != '\n') ++i;
      continue;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t b = i;
      while (i < code.size() && (std::isalnum(static_cast<unsigned char>(code[i])) || code[i] == '_' || code[i] == '.')) ++i;
      std::string name = code.substr(b, i - b);
      bool prefix = name.size() <= 2 && name.find_first_not_of("rRbBuUfF") == std::string::npos;
      if (prefix && i < code.size() && (code[i] == '"' || code[i] == '\'')) {
        if (name.find_first_of("fF") != std::string::npos) last_name = "f";  // an f-string is never a path read here
        continue;  // the string follows
      }
      if (name == "os.pardir" || name == "pardir" || name == "os.path.pardir") {
        Frame f = frame();
        out.push_back({"..", b, i, line, f.id, f.join});
      }
      last_name = name;
      continue;
    }
    if (c == '"' || c == '\'') {
      bool fstr = last_name == "f";
      last_name.clear();
      if (code.compare(i, 3, std::string(3, c)) == 0) {  // a docstring or other long text: skipped
        std::size_t e = code.find(std::string(3, c), i + 3);
        e = e == std::string::npos ? code.size() : e + 3;
        line += static_cast<int>(std::count(code.begin() + static_cast<std::ptrdiff_t>(i), code.begin() + static_cast<std::ptrdiff_t>(e), '\n'));
        i = e;
        continue;
      }
      std::size_t b = i++;
      std::string text;
      while (i < code.size() && code[i] != c && code[i] != '\n') {
        if (code[i] == '\\' && i + 1 < code.size()) ++i;
        text += code[i++];
      }
      if (i < code.size() && code[i] == c) ++i;
      Frame f = frame();
      if (!fstr) out.push_back({text, b, i, line, f.id, f.join});
      continue;
    }
    if (c == '(' || c == '[' || c == '{') {
      std::string n = c == '(' ? last_name : "";
      bool join = n.size() >= 4 && n.compare(n.size() - 4, 4, "join") == 0;
      frames.push_back({++next_frame, join});
    } else if ((c == ')' || c == ']' || c == '}') && !frames.empty()) {
      frames.pop_back();
    }
    if (!std::isspace(static_cast<unsigned char>(c))) last_name.clear();
    ++i;
  }
  return out;
}

// What lies between two literals, blanks dropped: "," or "/" joins them into one path.
std::string between(const std::string& code, std::size_t from, std::size_t to) {
  std::string g;
  for (std::size_t i = from; i < to; ++i)
    if (!std::isspace(static_cast<unsigned char>(code[i]))) g += code[i];
  return g;
}

}  // namespace

std::vector<std::pair<std::string, int>> setup_py_paths_above(const std::string& setup_py) {
  std::vector<std::pair<std::string, int>> out;
  auto lits = py_literals(setup_py);
  for (std::size_t i = 0; i < lits.size();) {
    // The run starting at lits[i]: joined by `/` anywhere, by `,` only as arguments of one join call.
    std::string path = lits[i].text;
    std::size_t j = i + 1;
    for (; j < lits.size(); ++j) {
      std::string g = between(setup_py, lits[j - 1].end, lits[j].begin);
      bool by_comma = g == "," && lits[j].frame == lits[j - 1].frame && lits[j].join;
      if (!(g == "/" || by_comma)) break;
      path += "/" + lits[j].text;
    }
    std::string norm = fs::path(path).lexically_normal().generic_string();
    if (!path.empty() && path[0] != '/' && (norm == ".." || norm.rfind("../", 0) == 0) &&
        std::none_of(out.begin(), out.end(), [&](const auto& o) { return o.first == norm; }))
      out.emplace_back(norm, lits[i].line);
    i = j;
  }
  return out;
}

std::string tail_components(const std::string& dir, int depth) {
  std::vector<std::string> parts;
  for (const auto& part : fs::path(dir).lexically_normal()) {
    std::string s = part.string();
    if (!s.empty() && s != "/") parts.push_back(s);
  }
  fs::path out;
  for (std::size_t i = parts.size() > static_cast<std::size_t>(depth) ? parts.size() - depth : 0; i < parts.size(); ++i)
    out /= parts[i];
  return out.string();
}

namespace {

// setup.py's paths above the package (setup_py_paths_above) that exist: a file, or a directory with
// every file under it (bounded: a directory that big is a checkout of something else, named in `left`).
// A C/C++/CUDA file among them goes on `queue`: what it includes is reached in turn.
void add_setup_py_reach(const fs::path& root, int max_depth, std::set<fs::path>& outside, OutsideReach& r,
                        std::deque<fs::path>& queue) {
  std::string setup_py = read_prefix(root / "setup.py");
  if (setup_py.empty()) return;
  const auto lines = [&](int n) {
    std::size_t at = 0;
    for (int l = 1; l < n && at != std::string::npos; ++l) at = setup_py.find('\n', at), at = at == std::string::npos ? at : at + 1;
    std::string t = at == std::string::npos ? "" : setup_py.substr(at, setup_py.find('\n', at) - at);
    t.erase(0, t.find_first_not_of(" \t"));
    return t.substr(0, 160);
  };
  constexpr std::size_t kMaxFiles = 5000;
  constexpr std::uintmax_t kMaxBytes = 64ull << 20;
  for (const auto& [rel, line] : setup_py_paths_above(setup_py)) {
    fs::path target = (root / rel).lexically_normal();
    int up = levels_above(target, root);
    std::error_code ec;
    const std::string why = "setup.py:" + std::to_string(line) + ": " + lines(line);
    // "../op" from op/ is the package itself, found again by its folder's name: a copy named otherwise
    // (OUT/src) finds nothing there, so the copy keeps the names the path climbs back through.
    if (target == root) {
      int climb = 0;  // rel is normal: its ".." come first
      for (const auto& part : fs::path(rel)) climb += part == "..";
      if (climb > 0 && climb <= max_depth) {
        r.depth = std::max(r.depth, climb);
        r.own_name.push_back(rel + ": the package's own folder by its name (" + why + ")");
      }
      continue;
    }
    if (up == 0 || up > max_depth || !fs::exists(target, ec)) continue;
    if (fs::is_regular_file(target, ec)) {
      if (!outside.insert(target).second) continue;
      r.depth = std::max(r.depth, up);
      r.files.push_back(target.lexically_relative(root).generic_string());
      r.why.push_back(why);
      if (is_c_source(target)) queue.push_back(target);
      continue;
    }
    if (!fs::is_directory(target, ec)) continue;
    if (!root.lexically_relative(target).empty() && root.lexically_relative(target).begin()->string() != "..") {
      r.left.push_back(rel + ": holds the package itself (" + why + ")");
      continue;
    }
    std::vector<fs::path> found;
    std::uintmax_t bytes = 0;
    bool over = false;
    for (fs::recursive_directory_iterator it(target, fs::directory_options::skip_permission_denied, ec), end;
         !ec && it != end && !over; it.increment(ec)) {
      std::error_code fec;
      if (it->is_directory(fec) && it->path().filename() == ".git") it.disable_recursion_pending();
      else if (it->is_regular_file(fec)) {
        found.push_back(it->path().lexically_normal());
        bytes += it->file_size(fec);
        over = found.size() > kMaxFiles || bytes > kMaxBytes;
      }
    }
    if (over) {
      r.left.push_back(rel + ": over " + std::to_string(kMaxFiles) + " files or 64 MiB (" + why + ")");
      continue;
    }
    std::sort(found.begin(), found.end());
    bool first = true;
    for (const auto& f : found) {
      if (!outside.insert(f).second) continue;
      r.depth = std::max(r.depth, up);
      r.files.push_back(f.lexically_relative(root).generic_string());
      r.why.push_back(first ? why + " (" + rel + "/, " + std::to_string(found.size()) + " files)" : why);
      first = false;
    }
  }
}

}  // namespace

OutsideReach find_outside_reach(const std::string& dir, int max_depth) {
  OutsideReach r;
  std::error_code ec;
  const fs::path root = fs::weakly_canonical(fs::absolute(dir, ec), ec).lexically_normal();
  if (ec || !fs::is_directory(root, ec)) return r;
  std::deque<fs::path> queue;  // files whose includes are read
  int seen = 0;
  for (fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end && seen < 20000; it.increment(ec), ++seen) {
    std::error_code fec;
    if (it->is_directory(fec) && (it->path().filename() == ".git" || it.depth() >= 8)) it.disable_recursion_pending();
    else if (it->is_regular_file(fec) && is_c_source(it->path())) queue.push_back(it->path());
  }
  static const RE2 include(R"re(^\s*#\s*include\s*"([^"]+)")re");
  std::set<fs::path> outside;
  add_setup_py_reach(root, max_depth, outside, r, queue);
  for (int read = 0; !queue.empty() && read < 5000; ++read) {
    fs::path file = queue.front();
    queue.pop_front();
    std::string text = read_prefix(file), name;
    const bool from_outside = levels_above(file, root) > 0;  // its plain "x.h" lies outside too
    std::size_t at = 0;
    for (int line = 1; at < text.size(); ++line) {
      auto nl = text.find('\n', at);
      std::string l = text.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
      at = nl == std::string::npos ? text.size() : nl + 1;
      if ((!from_outside && l.find("..") == std::string::npos) || !RE2::PartialMatch(l, include, &name)) continue;
      fs::path target = (file.parent_path() / name).lexically_normal();
      int up = levels_above(target, root);
      std::error_code tec;
      if (up == 0 || up > max_depth || !fs::is_regular_file(target, tec) || !outside.insert(target).second) continue;
      r.depth = std::max(r.depth, up);
      r.files.push_back(target.lexically_relative(root).generic_string());
      r.why.push_back(file.lexically_relative(root).generic_string() + ":" + std::to_string(line) + ": " +
                      l.substr(l.find('#'), 160));
      queue.push_back(target);  // what it includes in turn
    }
  }
  return r;
}

}  // namespace ts::source
