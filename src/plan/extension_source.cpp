// Reading what an extension requirement names (PATH | URL@REF | NAME==VERSION) and what its tree shows.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <re2/re2.h>

#include "core/version_range.h"
#include "plan/extension.h"
#include "plan/pyproject.h"
#include "util/url.h"
#include "util/fs.h"

namespace ts::plan {

namespace {

bool looks_like_url(std::string_view t) {
  return t.find("://") != std::string_view::npos || t.rfind("git@", 0) == 0;
}

bool looks_like_path(std::string_view t) {
  return !t.empty() && (t[0] == '/' || t[0] == '.' || t[0] == '~' || t.find('/') != std::string_view::npos);
}

// "https://github.com/rusty1s/pytorch_scatter.git" -> "pytorch_scatter"
std::string repo_name(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  auto s = url.find_last_of("/:");
  std::string n = s == std::string::npos ? url : url.substr(s + 1);
  if (n.size() > 4 && n.compare(n.size() - 4, 4, ".git") == 0) n.resize(n.size() - 4);
  return n;
}

std::string read_text(const std::filesystem::path& p, std::size_t cap = 1 << 20) {
  return util::read_file_prefix(p.string(), cap).value_or("");
}

// name="x" / name='x' in setup.py or pyproject's [project]; the first literal one.
std::string literal_name(const std::string& text) {
  static const RE2 re(R"((?:^|[\s,(])name\s*=\s*["']([A-Za-z0-9_.\-]+)["'])");
  std::string m;
  return RE2::PartialMatch(text, re, &m) ? m : "";
}

// setup(name=PACKAGE_NAME) with PACKAGE_NAME = "causal_conv1d" at the top of setup.py (Dao-AILab's
// packages, mamba): the constant's literal.
std::string constant_name(const std::string& call, const std::string& text) {
  static const RE2 by_ident(R"((?:^|[\s,(])name\s*=\s*([A-Za-z_][A-Za-z0-9_]*)\s*[,)\n])");
  std::string ident, a;
  if (!RE2::PartialMatch(call, by_ident, &ident)) return "";
  const RE2 assign("(?:^|\n)" + RE2::QuoteMeta(ident) + R"(\s*=\s*["']([A-Za-z0-9_.\-]+)["'])");
  return RE2::PartialMatch(text, assign, &a) ? a : "";
}

// __version__ = '2.1.2' / version="2.1.2" (a literal release number; computed versions are unknown).
std::string literal_version(const std::string& text) {
  static const RE2 re(R"((?:^|[\s,(])(?:__version__|version)\s*=\s*["']([0-9][0-9A-Za-z.+\-]*)["'])");
  std::string m;
  return RE2::PartialMatch(text, re, &m) ? m : "";
}

// [build-system] requires = ["setuptools", "torch>=2.10"]: the quoted strings of that array.
std::vector<std::string> build_requires(const std::string& text) {
  std::vector<std::string> out;
  auto bs = text.find("[build-system]");
  if (bs == std::string::npos) return out;
  auto rq = text.find("requires", bs);
  auto next = text.find("\n[", bs + 1);
  if (rq == std::string::npos || (next != std::string::npos && rq > next)) return out;
  auto open = text.find('[', rq), close = text.find(']', open == std::string::npos ? rq : open);
  if (open == std::string::npos || close == std::string::npos) return out;
  static const RE2 str(R"(["']([^"']+)["'])");
  re2::StringPiece body(text.data() + open + 1, close - open - 1);
  for (std::string s; RE2::FindAndConsume(&body, str, &s);) out.push_back(s);
  return out;
}

}  // namespace

bool is_extension_requirement(std::string_view text) {
  if (text.empty()) return false;
  if (looks_like_url(text) || looks_like_path(text)) return true;
  if (std::isdigit(static_cast<unsigned char>(text[0]))) return false;  // "2.4.1" means torch
  auto c = Constraint::parse(text);
  return c && c->normalized_name() != "torch";
}

std::optional<ExtensionSource> parse_extension_source(std::string_view text, std::string* error) {
  auto fail = [&](const std::string& why) -> std::optional<ExtensionSource> {
    if (error) *error = "'" + std::string(text) + "': " + why + " (write a directory, a git URL@REF or NAME==VERSION)";
    return std::nullopt;
  };
  ExtensionSource s;
  if (looks_like_url(text)) {
    std::string t(text);
    auto at = t.rfind('@');
    auto scheme = t.find("://");
    // git@host:org/repo has an '@' before the path: the ref's '@' comes after the last '/'.
    if (at == std::string::npos || at < t.rfind('/') || (scheme == std::string::npos && at < t.find(':')))
      return fail("a git URL needs the ref to build: URL@TAG or URL@COMMIT");
    s.kind = ExtensionSource::Kind::git;
    s.url = t.substr(0, at);
    s.ref = t.substr(at + 1);
    if (s.ref.empty()) return fail("the ref after '@' is empty");
    if (auto why = util::check_git_url(s.url); !why.empty()) return fail(why);
    if (auto why = util::check_git_ref(s.ref); !why.empty()) return fail(why);
    s.name = repo_name(s.url);
    return s;
  }
  if (looks_like_path(text)) {
    s.kind = ExtensionSource::Kind::dir;
    s.dir = std::string(text);
    std::string d = s.dir;
    while (d.size() > 1 && d.back() == '/') d.pop_back();
    s.name = std::filesystem::path(d).filename().string();
    return s;
  }
  std::string err;
  auto c = Constraint::parse(text, &err);
  if (!c) return fail(err);
  const auto& sp = c->range.specifiers();
  if (sp.size() != 1 || sp[0].op != Specifier::Op::eq || sp[0].wildcard)
    return fail("names no single release: write NAME==X.Y.Z");
  s.kind = ExtensionSource::Kind::name;
  s.name = c->name;
  s.version = FactVersion(sp[0].version.str());
  return s;
}

namespace {

// The .py files of the tree's own packages (not of the nested setup.py dirs), a bounded read.
std::string package_python(const std::filesystem::path& root, const std::vector<std::string>& packages) {
  namespace fs = std::filesystem;
  std::string all;
  for (const auto& pkg : packages) {
    std::error_code ec;
    fs::path top = root / pkg;
    if (!fs::is_directory(top, ec)) { all += read_text(root / (pkg + ".py"), 256 * 1024) + "\n"; continue; }
    fs::recursive_directory_iterator it(top, fs::directory_options::skip_permission_denied, ec), end;
    for (int seen = 0; !ec && it != end && seen < 2000 && all.size() < (8u << 20); it.increment(ec), ++seen)
      if (it->path().extension() == ".py") all += read_text(it->path(), 256 * 1024) + "\n";
  }
  return all;
}

}  // namespace

void scan_sibling_extensions(const std::filesystem::path& root, const std::vector<std::filesystem::path>& setups,
                             SourceScan& s) {
  if (setups.empty() || s.py_packages.empty()) return;
  std::string code;
  bool read = false;
  for (const auto& setup : setups) {
    SourceScan other;
    scan_build_switches(read_text(setup), other);
    for (const auto& ext : other.ext_modules) {
      std::string top = ext.substr(0, ext.find('.'));
      if (std::find(s.ext_modules.begin(), s.ext_modules.end(), ext) != s.ext_modules.end()) continue;
      if (!read) { code = package_python(root, s.py_packages); read = true; }
      // `import prefix_sum` / `from prefix_sum import x` at a line's start (not a relative import).
      const RE2 imports("(?m)^[ \t]*(?:import|from)[ \t]+" + RE2::QuoteMeta(top) + "\\b");
      if (!RE2::PartialMatch(code, imports)) continue;
      std::string rel = std::filesystem::relative(setup, root).string();
      bool seen = false;
      for (const auto& [m, p] : s.sibling_extensions) seen |= m == top;
      if (!seen) s.sibling_extensions.emplace_back(top, rel);
    }
  }
}

void scan_generated_sources(const std::filesystem::path& root, SourceScan& s) {
  namespace fs = std::filesystem;
  // open("lightconv_cuda_forward.cu", "w"): a bare file name (written beside the script), a C/C++/CUDA one.
  static const RE2 writes(R"re(\bopen\(\s*["']([\w.+-]+\.(?:cu|cuh|h|hpp|hh|cpp|cc|cxx|c|inl))["']\s*,\s*["']w)re");
  static const RE2 main_block(R"((?m)^if\s+__name__\s*==\s*["']__main__["']\s*:)");
  static const RE2 include(R"re((?m)^[ \t]*#[ \t]*include[ \t]*"([\w.+-]+)")re");
  std::vector<std::pair<std::string, std::vector<std::string>>> scripts;
  std::vector<std::string> included;
  std::error_code ec;
  for (fs::directory_iterator d(root, fs::directory_options::skip_permission_denied, ec), e; !ec && d != e;
       d.increment(ec)) {
    std::error_code ec2;
    if (!d->is_regular_file(ec2)) continue;
    const fs::path& p = d->path();
    std::string ext = p.extension().string(), name = p.filename().string();
    if (ext == ".py" && name != "setup.py") {
      std::string text = read_text(p, 256 * 1024);
      if (!RE2::PartialMatch(text, main_block)) continue;  // a module, not a script someone runs
      re2::StringPiece in(text);
      std::string out;
      std::vector<std::string> outs;
      while (RE2::FindAndConsume(&in, writes, &out))
        if (std::find(outs.begin(), outs.end(), out) == outs.end()) outs.push_back(out);
      if (!outs.empty()) scripts.emplace_back(name, std::move(outs));
    } else if (ext == ".cu" || ext == ".cuh" || ext == ".cpp" || ext == ".cc" || ext == ".h" || ext == ".hpp") {
      std::string text = read_text(p, 512 * 1024);
      re2::StringPiece in(text);
      std::string inc;
      while (RE2::FindAndConsume(&in, include, &inc)) included.push_back(inc);
    }
  }
  std::sort(scripts.begin(), scripts.end());
  for (auto& [script, outs] : scripts) {
    std::vector<std::string> needed;
    for (const auto& o : outs)
      if (std::find(included.begin(), included.end(), o) != included.end() && !fs::exists(root / o, ec)) needed.push_back(o);
    if (!needed.empty()) s.generated_sources.emplace_back(script, std::move(needed));
  }
}

void scan_unshipped_includes(const std::filesystem::path& root, SourceScan& s) {
  namespace fs = std::filesystem;
  // #include "a/b.h" or <a/b.h>: a path with a folder, the kind a vendored library's headers have.
  static const RE2 include(R"re((?m)^[ \t]*#[ \t]*include[ \t]*["<]([\w.+-]+(?:/[\w.+-]+)+)[">])re");
  auto is_source = [](const std::string& ext) {
    return ext == ".cu" || ext == ".cuh" || ext == ".cpp" || ext == ".cc" || ext == ".cxx" || ext == ".c" ||
           ext == ".h" || ext == ".hpp" || ext == ".hh" || ext == ".inl";
  };
  std::vector<std::string> files;  // every C/C++/CUDA file of the tree, '/'-separated, third_party/ included
  std::vector<std::pair<std::string, std::string>> uses;  // (include, "FILE:LINE: text"), first use of each
  std::error_code ec;
  int seen = 0, read = 0;
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end && seen < 40000; it.increment(ec), ++seen) {
    const auto& p = it->path();
    std::string n = p.filename().string();
    if (it->is_directory(ec)) {
      if (it.depth() >= 10 || n == ".git" || n == "node_modules") it.disable_recursion_pending();
      continue;
    }
    if (!is_source(p.extension().string())) continue;
    std::error_code ec2;
    std::string rel = fs::relative(p, root, ec2).generic_string();
    files.push_back(rel);
    if (rel.starts_with("third_party/") || ++read > 600) continue;  // a vendored library's own includes are its own
    std::string text = read_text(p, 512 * 1024);
    re2::StringPiece in(text);
    std::string inc;
    while (RE2::FindAndConsume(&in, include, &inc)) {
      if (uses.size() >= 256) break;
      bool again = false;
      for (const auto& u : uses) again |= u.first == inc;
      if (again) continue;
      // The line of the match: what was consumed so far, counted.
      const char* begin = text.data();
      int line = 1 + static_cast<int>(std::count(begin, in.data(), '\n'));
      uses.emplace_back(inc, rel + ":" + std::to_string(line) + ": #include " + inc);
    }
  }
  for (const auto& [inc, where] : uses) {
    bool shipped = false;
    for (const auto& f : files)
      if (f == inc || (f.size() > inc.size() && f.ends_with(inc) && f[f.size() - inc.size() - 1] == '/')) {
        shipped = true;
        break;
      }
    if (!shipped) s.unshipped_includes.emplace_back(inc, where);
  }
}

SourceScan scan_source_dir(const std::string& dir, std::string* error) {
  namespace fs = std::filesystem;
  SourceScan s;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    if (error) *error = dir + ": not a directory (give the package's source tree, a git URL@REF or NAME==VERSION)";
    return s;
  }
  s.scanned = true;
  fs::path root(dir);
  std::string setup = read_text(root / "setup.py"), pyproject = read_text(root / "pyproject.toml");
  s.setup_py = fs::exists(root / "setup.py", ec);
  s.pyproject = fs::exists(root / "pyproject.toml", ec);
  s.cmake_lists = fs::exists(root / "CMakeLists.txt", ec);
  s.cuda_extension = setup.find("CUDAExtension") != std::string::npos;
  s.cpp_extension = setup.find("CppExtension") != std::string::npos;
  // BuildExtension.with_options(use_ninja = False) or BuildExtension(..., use_ninja=False): the
  // keyword with a literal False, not in a comment (a computed value is not guessed at).
  static const RE2 ninja_off(R"((?:^|\n)[^#\n]*[\s,(]use_ninja\s*=\s*False\b)");
  s.ninja_off = RE2::PartialMatch(setup, ninja_off);
  scan_build_switches(setup, s);
  scan_build_imports(setup, s);
  scan_env_without_default(setup, s);
  // A binding in a subdirectory (pytorch_binding/) may link what its parent's CMake project builds.
  if (s.setup_py && fs::exists(root / ".." / "CMakeLists.txt", ec))
    scan_parent_library(read_text(root / ".." / "CMakeLists.txt", 256 * 1024), setup, s);
  // The name in the last setup( call: Extension(name=...) may come first (apex's setup.py).
  if (auto call = setup.rfind("setup("); call != std::string::npos) {
    s.name = literal_name(setup.substr(call));
    if (s.name.empty()) s.name = constant_name(setup.substr(call), setup);
  }
  if (s.name.empty()) s.name = literal_name(setup);
  // pyproject.toml and setup.cfg by their own grammars; a pyproject that is not TOML is read for literals.
  std::optional<PackageMetadata> pp = s.pyproject ? read_pyproject(pyproject) : std::nullopt;
  PackageMetadata cfg = read_setup_cfg(read_text(root / "setup.cfg", 256 * 1024));
  if (s.name.empty()) s.name = pp ? pp->name : literal_name(pyproject);
  if (s.name.empty()) s.name = cfg.name;
  std::string version = literal_version(setup);
  if (version.empty()) version = pp ? pp->version : literal_version(pyproject);
  if (version.empty()) version = cfg.version;
  // A setup.py that reads its version from the package (causal-conv1d, flash-attn, detectron2):
  // the literal __version__ in NAME/__init__.py or NAME/version.py.
  if (version.empty() && !s.name.empty()) {
    std::string pkg = s.name;
    std::replace(pkg.begin(), pkg.end(), '-', '_');
    static const RE2 dunder(R"((?:^|\n)__version__\s*=\s*["']([0-9][0-9A-Za-z.+\-]*)["'])");
    for (const char* f : {"__init__.py", "version.py", "_version.py"}) {
      std::string text = read_text(root / pkg / f, 64 * 1024);
      if (RE2::PartialMatch(text, dunder, &version)) break;
    }
  }
  s.version = FactVersion(version);  // the one parse of what the tree's files say
  s.pyproject_requires = pp ? pp->build_requires : build_requires(pyproject);
  s.setup_requires = cfg.build_requires;
  scan_scm_use(setup, pyproject, s.setup_requires, s);
  // setuptools_scm reads the VCS metadata at the tree's top (its default root), else an sdist's PKG-INFO.
  s.vcs_metadata = fs::exists(root / ".git", ec) || fs::exists(root / ".hg", ec);
  {
    static const RE2 pkg_version(R"((?m)^Version:[ \t]*([0-9][0-9A-Za-z.+!\-]*)[ \t]*\r?$)");
    RE2::PartialMatch(read_text(root / "PKG-INFO", 64 * 1024), pkg_version, &s.pkg_info_version);
  }
  scan_cmake_build(dir, setup, pp ? pp->build_backend : "", pyproject, s);
  // pyproject's [tool.setuptools] ext-modules (setuptools 74) or a CMake build make compiled code setup.py does not name.
  if (!s.setup_py || !s.cmake_driver.empty() || s.cmake_lists || pyproject.find("ext-modules") != std::string::npos)
    s.no_extension = false;
  s.smoke = read_text(root / "smoke.py", 64 * 1024);
  // Top-level packages and modules: what `import NAME` can find once the wheel is installed.
  for (fs::directory_iterator d(root, fs::directory_options::skip_permission_denied, ec), e; !ec && d != e;
       d.increment(ec)) {
    const auto& p = d->path();
    std::error_code ec2;
    if (d->is_directory(ec2) && fs::exists(p / "__init__.py", ec2)) s.py_packages.push_back(p.filename().string());
    else if (p.extension() == ".py" && p.filename() != "setup.py") s.py_packages.push_back(p.stem().string());
  }
  // .cu sources, a few levels down, skipping VCS and build output; counted for nvcc --split-compile.
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
  int seen = 0, py_read = 0;
  std::error_code ec2;
  std::vector<fs::path> nested_setups;
  for (; !ec && it != end && seen < 20000; it.increment(ec), ++seen) {
    const auto& p = it->path();
    std::string n = p.filename().string();
    if (it->is_directory(ec)) {
      if (it.depth() >= 6 || n == ".git" || n == "build" || n == "dist" || n == "third_party" || n == "node_modules")
        it.disable_recursion_pending();
      continue;
    }
    auto ext = p.extension().string();
    if (ext == ".cu" || ext == ".cuh") s.cuda_sources = true;
    if (ext == ".cu") ++s.cu_files;
    if (n == "setup.py" && it.depth() > 0 && nested_setups.size() < 16) nested_setups.push_back(p);
    if (ext == ".py" && n != "setup.py" && py_read < 400 && ++py_read)
      scan_own_version_use(fs::relative(p, root, ec2).string(), read_text(p, 256 * 1024), s);
  }
  scan_sibling_extensions(root, nested_setups, s);
  if (s.setup_py) scan_generated_sources(root, s);
  scan_unshipped_includes(root, s);
  return s;
}

}  // namespace ts::plan
