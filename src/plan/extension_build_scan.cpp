// What a setup.py does to its own build, read before planning so the build helper's remedies
// (build_remedies.cpp) can be decided: GPU checks, its own arch list, -std flags, its env switches.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <re2/re2.h>

#include "core/package_name.h"
#include "plan/extension.h"

namespace ts::plan {

namespace {

// setup.py without its comment lines: a check that is commented out does not run.
std::string code_lines(const std::string& text) {
  std::string out;
  std::size_t at = 0;
  while (at < text.size()) {
    auto nl = text.find('\n', at);
    std::string line = text.substr(at, nl == std::string::npos ? std::string::npos : nl - at + 1);
    auto first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] != '#') out += line;
    if (nl == std::string::npos) break;
    at = nl + 1;
  }
  return out;
}

// setup() calls at the top of a top-level `if __name__ == "__main__":` block (crfrnn_layer's two
// distributions): setuptools' backend runs setup.py as __main__, so they run as surely as calls at
// column 0. Counted at the block's own indentation only: one nested deeper (under another if) is not.
int main_block_setup_calls(const std::string& code) {
  static const RE2 main_if(R"re(^if\s+(?:__name__\s*==\s*["']__main__["']|["']__main__["']\s*==\s*__name__)\s*:\s*$)re");
  static const RE2 setup_call(R"(^(?:setuptools\.)?setup\s*\()");
  int n = 0;
  bool in_block = false;
  std::size_t body = std::string::npos;  // the block's indentation, from its first line
  std::size_t at = 0;
  while (at < code.size()) {
    auto nl = code.find('\n', at);
    std::string line = code.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
    at = nl == std::string::npos ? code.size() : nl + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    auto first = line.find_first_not_of(" \t");
    if (first == std::string::npos) continue;  // blank lines do not end a block
    if (first == 0) {
      in_block = RE2::FullMatch(line, main_if);
      body = std::string::npos;
      continue;
    }
    if (!in_block) continue;
    if (body == std::string::npos) body = first;
    if (first == body && RE2::PartialMatch(std::string_view(line).substr(first), setup_call)) ++n;
  }
  return n;
}

// Where the line of `text` holding offset `at` begins.
std::size_t line_begin(const std::string& text, std::size_t at) {
  std::size_t begin = text.rfind('\n', at == 0 ? 0 : at - 1);
  return begin == std::string::npos || at == 0 ? 0 : begin + 1;
}

// "FILE:LINE: text" of the line of `text` holding offset `at` (its first 160 characters).
std::string line_at(const std::string& file, const std::string& text, std::size_t at) {
  const std::size_t begin = line_begin(text, at);
  std::size_t end = text.find('\n', at);
  std::string line = text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
  auto first = line.find_first_not_of(" \t");
  line = first == std::string::npos ? "" : line.substr(first, 160);
  return file + ":" + std::to_string(1 + std::count(text.begin(), text.begin() + begin, '\n')) + ": " + line;
}

std::string squashed(const std::string& s) {
  std::string out;
  for (char ch : s)
    if (std::isalnum(static_cast<unsigned char>(ch))) out += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return out;
}

// os.environ["CC"] = ..., a chained `os.environ["CC"] = os.environ["CXX"] = "gcc-8"`, or an update() of
// them (LDSHARED too: distutils links with it): the host compiler setup.py names itself. setdefault()
// is not one (the plan sets them first).
// Each name once, with the first line that writes it (a comment line runs nothing).
void scan_compiler_writes(const std::string& setup_py, SourceScan& s) {
  static const RE2 write(
      R"((?m)environ[ \t]*(?:\[[ \t]*["'](CC|CXX|CUDAHOSTCXX|NVCC_CCBIN|LDSHARED|LDCXXSHARED)["'][ \t]*\][ \t]*=(?:[^=]|$)|)"
      R"(\.[ \t]*update\([ \t]*\{?[ \t]*["']?(CC|CXX|CUDAHOSTCXX|NVCC_CCBIN|LDSHARED|LDCXXSHARED)["']?[ \t]*[:=]))");
  re2::StringPiece in(setup_py);
  std::string set, updated;
  while (RE2::FindAndConsume(&in, write, &set, &updated)) {
    const std::size_t begin = line_begin(setup_py, static_cast<std::size_t>(in.data() - setup_py.data()) - 1);
    const auto first = setup_py.find_first_not_of(" \t", begin);
    if (first != std::string::npos && setup_py[first] == '#') continue;
    const std::string& name = set.empty() ? updated : set;
    if (std::none_of(s.own_compiler_env.begin(), s.own_compiler_env.end(), [&](const auto& e) { return e.first == name; }))
      s.own_compiler_env.emplace_back(name, line_at("setup.py", setup_py, begin));
  }
}

// os.system('make -j%d' % os.cpu_count()), subprocess.check_call(['make', ...]), a shell line's
// `cd src && make`, or nvcc run directly: compiles torch's cpp_extension never sees. cmake is not one
// (the CMake remedies reach its compiles through its own arguments).
void scan_tool_calls(const std::string& setup_py, SourceScan& s) {
  static const RE2 call(
      R"((?:\bos\.(?:system|popen)|\b(?:subprocess\.)?(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)|\bspawn)\s*\(\s*\[?\s*[fbr]?["']((?:[^"'\n]*?(?:&&|;|\|\|)\s*)?)(make|gmake|nvcc)(?:["'\s]|$))");
  re2::StringPiece in(setup_py);
  std::string before, tool;
  while (RE2::FindAndConsume(&in, call, &before, &tool)) {
    const std::size_t begin = line_begin(setup_py, static_cast<std::size_t>(in.data() - setup_py.data()) - 1);
    const auto first = setup_py.find_first_not_of(" \t", begin);
    if (first != std::string::npos && setup_py[first] == '#') continue;  // a comment runs nothing
    if (std::none_of(s.build_tool_calls.begin(), s.build_tool_calls.end(), [&](const auto& e) { return e.first == tool; }))
      s.build_tool_calls.emplace_back(tool, line_at("setup.py", setup_py, begin));
  }
}

void add_once(std::vector<std::string>& v, const std::string& s) {
  if (std::find(v.begin(), v.end(), s) == v.end()) v.push_back(s);
}

void all_matches(const std::string& text, const RE2& re, std::vector<std::string>& out) {
  re2::StringPiece in(text);
  std::string m;
  while (RE2::FindAndConsume(&in, re, &m)) add_once(out, m);
}

}  // namespace

void scan_own_version_use(const std::string& rel, const std::string& text, SourceScan& s) {
  if (s.name.empty() || text.find("version") == std::string::npos || s.own_version_numeric.size() >= 8) return;
  // float(pkg_resources.get_distribution('X').version), int(version("X").split(...)), map(int, metadata.version('X')...
  static const RE2 numeric(
      R"((?:\b(?:float|int)\s*\(|\bmap\s*\(\s*int\s*,)\s*(?:[A-Za-z_][\w.]*\.)?(?:get_distribution|distribution|version)\s*\(\s*["']([^"']+)["'])");
  const std::string own = normalize_name(s.name);
  std::size_t at = 0;
  for (int line = 1; at < text.size(); ++line) {
    auto nl = text.find('\n', at);
    std::string l = text.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
    at = nl == std::string::npos ? text.size() : nl + 1;
    std::string dist;
    auto first = l.find_first_not_of(" \t");
    if (first == std::string::npos || l[first] == '#' || !RE2::PartialMatch(l, numeric, &dist)) continue;
    if (normalize_name(dist) == own)
      add_once(s.own_version_numeric, rel + ":" + std::to_string(line) + ": " + l.substr(first, 160));
  }
}

void scan_build_switches(const std::string& setup_py, SourceScan& s) {
  const std::string code = code_lines(setup_py);
  static const RE2 gpu(R"(torch\.cuda\.(?:is_available|device_count|get_device_capability|get_device_properties)\s*\()");
  s.gpu_check = RE2::PartialMatch(code, gpu);
  // os.environ["TORCH_CUDA_ARCH_LIST"] = ..., setdefault/update of it, or nvcc arch flags of its own.
  static const RE2 arch_write(R"(TORCH_CUDA_ARCH_LIST["']\s*\]\s*=[^=]|(?:setdefault|update)\(\s*(?:\{\s*)?["']TORCH_CUDA_ARCH_LIST)");
  static const RE2 arch_flag(R"(["'](?:-gencode|--generate-code|-arch=sm_|--gpu-architecture|arch=compute_))");
  s.own_arches = RE2::PartialMatch(code, arch_write) || RE2::PartialMatch(code, arch_flag);
  // '-I_ext_src/include', "-I{}".format(...), '-isystem': include flags it passes itself.
  static const RE2 incflag(R"(["'](?:-I|-isystem))");
  s.own_includes = RE2::PartialMatch(code, incflag);
  // include_dirs=['include'], or a list of include dirs built up first (torch-mesh-isect's
  // `bvh_include_dirs = include_paths() + ['include', ...]`): a relative literal as a list element.
  static const RE2 inclist(R"(\b\w*include\w*\s*=\s*[^\n\[=]*\[([^\]]*)\])");
  static const RE2 relative(R"((?:^|,)\s*["'][^"'/$~\s][^"'$]*["']\s*(?:,|$))");
  re2::StringPiece lists(code);
  std::string list;
  // An include directory from the environment (torch-mesh-isect's osp.expandvars('$CUDA_SAMPLES_INC')):
  // unset, expandvars leaves the text as it is, which is no directory at all.
  static const RE2 env_dir(R"(\$\{?([A-Za-z_][A-Za-z0-9_]*))");
  while (RE2::FindAndConsume(&lists, inclist, &list)) {
    if (!s.own_includes) s.own_includes = RE2::PartialMatch(list, relative);
    all_matches(list, env_dir, s.include_env);
  }
  // include_dirs=_include_dirs, a list setup.py builds while it runs (SS-Conv appends
  // os.path.join('src', op) for each directory of src/): no reading tells whether an entry is
  // relative, and the helper changes only relative entries naming a directory beside setup.py.
  static const RE2 incvar(R"(\binclude_dirs\s*=\s*([A-Za-z_]\w*)\s*[,)\n])");
  std::vector<std::string> vars;
  all_matches(code, incvar, vars);
  for (const auto& v : vars) {
    if (s.own_includes) break;
    const RE2 grows("\\b" + v + R"(\s*(?:\.\s*(?:append|extend|insert)\s*\(|\+=))");
    s.own_includes = RE2::PartialMatch(code, grows);
  }
  // '--cuda-ext' in sys.argv, with its own sys.argv.remove('--cuda-ext') (a flag setup() is never shown).
  static const RE2 argv_flag(R"(["'](--[A-Za-z0-9_-]*[Cc][Uu][Dd][Aa][A-Za-z0-9_-]*)["']\s+in\s+sys\.argv)");
  std::vector<std::string> argv_flags;
  all_matches(code, argv_flag, argv_flags);
  for (const auto& f : argv_flags) {
    const RE2 removed(R"(sys\.argv\.remove\(\s*["'])" + RE2::QuoteMeta(f) + R"(["']\s*\))");
    if (RE2::PartialMatch(code, removed) &&
        std::find(s.cuda_argv_flags.begin(), s.cuda_argv_flags.end(), f) == s.cuda_argv_flags.end())
      s.cuda_argv_flags.push_back(f);
  }
  static const RE2 stdflag(R"((-std=(?:c|gnu)\+\+[0-9a-z]{2}))");
  std::vector<std::string> flags;
  all_matches(code, stdflag, flags);
  for (auto& f : flags) {
    int year = cxx_std_year(std::string_view(f).substr(f.find("++") + 2));  // the one read of the flag's standard
    s.std_flags.push_back({std::move(f), year});
  }
  static const RE2 env_read(
      R"((?:environ\.get\(\s*|getenv\(\s*|environ\[\s*)["']([A-Za-z_][A-Za-z0-9_]*)["'])");
  static const RE2 env_in(R"(["']([A-Za-z_][A-Za-z0-9_]*)["']\s+(?:not\s+)?in\s+os\.environ)");
  all_matches(code, env_read, s.env_switches);
  static const RE2 env_expand(R"(expandvars\(\s*["'][^"']*\$\{?([A-Za-z_][A-Za-z0-9_]*))");
  all_matches(code, env_expand, s.env_switches);
  // CUDAExtension("_ext", ...), CppExtension(name='pkg._C', ...), Extension("x", ...), and an alias of
  // one (DCNv2's `extension = CUDAExtension` ... `extension("_ext", ...)`): what it builds.
  static const RE2 ext_name(
      R"((?i)\b[a-z_]*extension\s*\(\s*(?:name\s*=\s*)?["']([A-Za-z_][A-Za-z0-9_.]*)["'])");
  const std::size_t ext_from = s.ext_modules.size();
  all_matches(code, ext_name, s.ext_modules);
  // setup(ext_package='srrcomp'): setuptools installs each extension as ext_package.NAME (build_ext's
  // get_ext_fullname), so CUDAExtension('eden_utils') is the module srrcomp.eden_utils, never eden_utils.
  static const RE2 ext_package(R"(\bext_package\s*=\s*["']([A-Za-z_][A-Za-z0-9_.]*)["'])");
  if (std::string pkg; RE2::PartialMatch(code, ext_package, &pkg))
    for (std::size_t i = ext_from; i < s.ext_modules.size(); ++i) s.ext_modules[i] = pkg + "." + s.ext_modules[i];
  all_matches(code, env_in, s.env_switches);
  // DSMNet's sync_bn: `setup(name='sync_bn_cpu', ...)` then `setup(name='sync_bn_gpu', ...)`, each at
  // column 0, so both run; a call under `if`/`else` or in a function is indented and not counted,
  // except at the top of an `if __name__ == "__main__":` block (main_block_setup_calls).
  static const RE2 names_cu(R"(\.cu\b|\b(?:glob|rglob|listdir|scandir|walk|iterdir)\b)");
  s.setup_names_cu = RE2::PartialMatch(code, names_cu);
  // A build_ext subclass dropping a flag from the compiler's command: list.remove raises when this
  // Python's compiler does not pass the flag (build.compiler-flag-remove).
  static const RE2 flag_remove(
      R"(\.(?:compiler_so|compiler_cxx|compiler|linker_so|linker_exe)\s*\.\s*remove\(\s*["']([^"'\n]+)["']\s*\))");
  all_matches(code, flag_remove, s.compiler_flag_removals);
  static const RE2 top_setup(R"((?m)^(?:setuptools\.)?setup\s*\()");
  re2::StringPiece calls(code);
  s.setup_calls = 0;
  while (RE2::FindAndConsume(&calls, top_setup)) ++s.setup_calls;
  s.setup_calls += main_block_setup_calls(code);
  static const RE2 builds(R"(\bext_modules\b|Extension\s*\(|\bcmdclass\b|\bnvcc\b|\bcmake\b)");
  s.no_extension = !code.empty() && s.ext_modules.empty() && !RE2::PartialMatch(code, builds);
  scan_compiler_writes(setup_py, s);
  scan_tool_calls(setup_py, s);
}


void scan_build_imports(const std::string& setup_py, SourceScan& s) {
  s.build_imports.clear();
  static const RE2 from_import(R"(^[ \t]*from[ \t]+([A-Za-z_][A-Za-z0-9_]*)(?:\.[A-Za-z0-9_.]*)?[ \t]+import\b)");
  static const RE2 plain_import(R"(^[ \t]*import[ \t]+([A-Za-z_][A-Za-z0-9_., \t]*))");
  static const RE2 one_name(R"(^\s*([A-Za-z_][A-Za-z0-9_]*))");
  std::size_t at = 0;
  for (int line = 1; at < setup_py.size() && s.build_imports.size() < 64; ++line) {
    auto nl = setup_py.find('\n', at);
    std::string l = setup_py.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
    at = nl == std::string::npos ? setup_py.size() : nl + 1;
    std::vector<std::string> mods;
    std::string m, list;
    if (RE2::PartialMatch(l, from_import, &m)) mods.push_back(m);
    else if (RE2::PartialMatch(l, plain_import, &list))
      for (std::size_t from = 0; from <= list.size();) {  // "a.b, c as d": a and c
        auto comma = list.find(',', from);
        std::string part = list.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
        if (RE2::PartialMatch(part, one_name, &m)) mods.push_back(m);
        if (comma == std::string::npos) break;
        from = comma + 1;
      }
    auto first = l.find_first_not_of(" \t");
    for (const auto& mod : mods)
      if (std::none_of(s.build_imports.begin(), s.build_imports.end(), [&](const auto& e) { return e.first == mod; }))
        s.build_imports.emplace_back(mod, "setup.py:" + std::to_string(line) + ": " + l.substr(first, 160));
  }
}

void scan_env_without_default(const std::string& setup_py, SourceScan& s) {
  s.env_no_default.clear();
  const std::string code = code_lines(setup_py);
  // getenv('X') / environ.get('X') closed right after the name; environ['X'] unless it is written to.
  static const RE2 read(
      R"(((?:getenv|environ\.get)\(\s*["']([A-Za-z_][A-Za-z0-9_]*)["']\s*\)|environ\[\s*["']([A-Za-z_][A-Za-z0-9_]*)["']\s*\])(\s*=[^=])?)");
  re2::StringPiece in(code);
  std::string whole, call, index, written;
  while (RE2::FindAndConsume(&in, read, &whole, &call, &index, &written)) {
    const std::string& name = call.empty() ? index : call;
    if (!written.empty() || name.empty()) continue;
    if (std::any_of(s.env_no_default.begin(), s.env_no_default.end(), [&](const auto& e) { return e.first == name; }))
      continue;
    // The line in setup.py as written (code_lines dropped the comment lines, and with them the numbering).
    std::size_t at = 0;
    for (std::size_t from = 0; (at = setup_py.find(whole, from)) != std::string::npos; from = at + 1) {
      std::size_t bol = setup_py.rfind('\n', at == 0 ? 0 : at - 1);
      bol = at == 0 || bol == std::string::npos ? 0 : bol + 1;
      auto first = setup_py.find_first_not_of(" \t", bol);
      if (first == std::string::npos || setup_py[first] != '#') break;
    }
    s.env_no_default.emplace_back(name, line_at("setup.py", setup_py, at == std::string::npos ? 0 : at));
  }
}

void scan_parent_library(const std::string& parent_cmake, const std::string& setup_py, SourceScan& s) {
  s.parent_library.reset();
  const std::string code = code_lines(setup_py);
  if (parent_cmake.empty() || code.empty()) return;
  // add_library(NAME ...), cuda_add_library(NAME ...), any case; a ${VAR} name is not guessed at.
  static const RE2 lib(R"((?im)^[ \t]*(?:cuda_)?add_library\s*\(\s*([A-Za-z_][A-Za-z0-9_.+-]*)(?:\s|\))([^)\n]*))");
  std::vector<std::pair<std::string, std::size_t>> libs;  // (name, offset of its line in parent_cmake)
  re2::StringPiece in(parent_cmake);
  std::string name, rest;
  while (RE2::FindAndConsume(&in, lib, &name, &rest)) {
    if (rest.find("IMPORTED") != std::string::npos || rest.find("ALIAS") != std::string::npos ||
        rest.find("INTERFACE") != std::string::npos)
      continue;
    std::size_t at = static_cast<std::size_t>(in.data() - parent_cmake.data());
    at = parent_cmake.rfind(name, at);
    if (std::none_of(libs.begin(), libs.end(), [&](const auto& l) { return l.first == name; })) libs.emplace_back(name, at);
  }
  if (libs.empty()) return;
  static const RE2 build_dir(R"(["'](\.\./[A-Za-z0-9_./-]*build[A-Za-z0-9_./-]*)["'])");
  std::string dir;
  RE2::PartialMatch(code, build_dir, &dir);
  for (const auto& [n, at] : libs) {
    // "lib" NAME as a word start (libwarprnnt.so, "libwarprnnt" + ext), or NAME among libraries=[...].
    const RE2 by_file("\\blib" + RE2::QuoteMeta(n) + "\\b");
    const RE2 by_list("libraries\\s*=\\s*\\[[^\\]]*[\"']" + RE2::QuoteMeta(n) + "[\"']");
    re2::StringPiece where(code);
    bool named = RE2::FindAndConsume(&where, by_file) || RE2::PartialMatch(code, by_list);
    // The parent builds one library and setup.py looks for libraries in ../build: that one.
    if (!named && !(libs.size() == 1 && !dir.empty())) continue;
    SourceScan::ParentLibrary p;
    p.target = n;
    p.declared = line_at("../CMakeLists.txt", parent_cmake, at);
    std::size_t ref = named ? setup_py.find("lib" + n) : setup_py.find(dir);
    if (ref == std::string::npos) ref = setup_py.find(n);
    p.referenced = line_at("setup.py", setup_py, ref == std::string::npos ? 0 : ref);
    p.lib_dir = dir;
    // The variable it takes the directory from: one of its env reads that names the library
    // (WARP_RNNT_PATH for warprnnt), ending in PATH, DIR, ROOT or HOME.
    for (const auto& v : s.env_switches) {
      std::string sq = squashed(v);
      bool dir_var = false;
      for (const char* end : {"PATH", "DIR", "ROOT", "HOME"})
        dir_var |= v.size() > std::strlen(end) && v.compare(v.size() - std::strlen(end), std::string::npos, end) == 0;
      if (dir_var && sq.find(squashed(n)) != std::string::npos) { p.env_var = v; break; }
    }
    s.parent_library = p;
    return;
  }
}

// pyronn-torch: setup(use_pyscaffold=True) with setup.cfg's setup_requires = pyscaffold>=3.2a0,<3.3a0;
// PyScaffold 3's keyword hands the version to its vendored setuptools_scm, which reads git.
void scan_scm_use(const std::string& setup_py, const std::string& pyproject, const std::vector<std::string>& setup_requires,
                  SourceScan& s) {
  const std::string code = code_lines(setup_py);
  static const RE2 setup_kw(R"((?:^|[\s,(])(use_scm_version|use_pyscaffold)\s*=\s*([^\s,)]+))");
  static const RE2 setup_req(R"(setup_requires\s*=\s*[\[(][^\])]*setuptools[_-]scm)");
  static const RE2 table(R"((?m)^[ \t]*(\[tool\.setuptools_scm\])[ \t]*(?:#.*)?$)");
  static const RE2 fallback(R"((?m)^[^#\n]*\bfallback_version\b)");
  // The line of setup.py that holds `word` outside a comment line (code_lines' offsets are not setup.py's).
  auto line_of = [&](const std::string& word) {
    for (std::size_t at = setup_py.find(word); at != std::string::npos; at = setup_py.find(word, at + 1)) {
      const auto first = setup_py.find_first_not_of(" \t", line_begin(setup_py, at));
      if (first == std::string::npos || setup_py[first] != '#') return line_at("setup.py", setup_py, at);
    }
    return line_at("setup.py", setup_py, 0);
  };
  re2::StringPiece in(code), kw, value;
  if (RE2::PartialMatch(in, setup_kw, &kw, &value) && value != "False" && value != "None") {
    s.scm_use = line_of(std::string(kw.data(), kw.size()));
  } else if (RE2::PartialMatch(code, setup_req)) {
    s.scm_use = line_of("setup_requires");
  } else if (re2::StringPiece t; RE2::PartialMatch(pyproject, table, &t)) {
    s.scm_use = line_at("pyproject.toml", pyproject, static_cast<std::size_t>(t.data() - pyproject.data()));
  } else {
    for (const auto& r : setup_requires)
      if (normalize_name(r.substr(0, r.find_first_of("<>=!~;[ "))) == "setuptools-scm") {
        s.scm_use = "setup.cfg [options] setup_requires: " + r;
        break;
      }
  }
  s.scm_fallback = !s.scm_use.empty() && (RE2::PartialMatch(pyproject, fallback) || RE2::PartialMatch(code, fallback));
}

}  // namespace ts::plan
