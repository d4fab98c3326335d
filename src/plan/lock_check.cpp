#include "plan/lock_check.h"

#include <algorithm>
#include <iterator>

#include "plan/build_frontend.h"
#include "util/printable.h"
#include "util/split.h"

namespace ts::plan {

namespace {

bool starts(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::string basename(const std::string& p) {
  auto s = p.rfind('/');
  return s == std::string::npos ? p : p.substr(s + 1);
}

std::string shown(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) out += (out.empty() ? "" : " ") + a;
  return util::printable(out.size() > 200 ? out.substr(0, 200) + "..." : out);
}

bool under(const std::string& path, const std::string& dir) {
  if (dir.empty() || path.find("/..") != std::string::npos) return false;
  return path == dir || starts(path, dir.back() == '/' ? dir : dir + "/");
}

// CMake variables that make CMake read a script the build did not name.
bool cmake_hook(std::string_view define) {
  auto eq = define.find_first_of("=:");
  std::string_view name = define.substr(0, eq);
  return name == "CMAKE_TOOLCHAIN_FILE" || starts(name, "CMAKE_USER_MAKE_RULES_OVERRIDE") ||
         (starts(name, "CMAKE_PROJECT_") && name.find("INCLUDE") != std::string_view::npos);
}

// The torchsmith subcommand each step name runs.
std::string subcommand_for(const std::string& step) {
  if (step == "fetch" || step == "clean" || step == "conda" || step == "verify") return step;
  if (step == "fix" || step == "fix-source") return "fix";
  if (step == "package") return "repair";
  if (starts(step, "provision-")) return "toolkit";
  return "";
}

void check_step(const Plan& p, const Step& s, std::vector<std::string>& out) {
  const std::string where = "step '" + util::printable(s.name) + "'";
  auto bad = [&](const std::string& why) { out.push_back(where + " (" + shown(s.argv) + "): " + why); };
  static constexpr std::string_view kNames[] = {"fetch", "fix", "fix-source", "clean", "configure",
                                                "build", "package", "conda", "verify", "build-requires"};
  if (std::find(std::begin(kNames), std::end(kNames), s.name) == std::end(kNames) && !starts(s.name, "provision-"))
    return bad("no plan has a step of that name");
  if (s.cwd != "" && s.cwd != "{src}") return bad("runs in " + util::printable(s.cwd) + "; a plan's steps run in {src} or the run's directory");
  if (s.argv.empty()) return bad("runs nothing");
  const std::string& prog = s.argv[0];
  if (s.name == "build-requires") {
    // The build overlay (plan/build_remedies.cpp): the plan's pip, --no-deps into a build-overlay folder.
    if (overlay_dir(p, s).empty())
      return bad("a plan's build-requires step runs `PYTHON -m pip install --no-deps --upgrade --target "
                 "CACHE/build-overlay/HASH -- REQUIREMENT...` with the plan's Python");
    return;
  }
  if (prog == "torchsmith") {
    std::string want = subcommand_for(s.name);
    if (s.argv.size() < 2 || s.argv[1] != want)
      return bad(want.empty() ? "no plan runs torchsmith in this step" : "a plan's " + s.name + " step runs `torchsmith " + want + "`");
    if (want == "toolkit" && (s.argv.size() < 3 || s.argv[2] != "add")) return bad("a plan's provision step runs `torchsmith toolkit add`");
    for (std::size_t i = 2; i + 1 < s.argv.size(); ++i)
      if (s.argv[i] == "--python" && s.argv[i + 1] != p.python)
        return bad("--python " + util::printable(s.argv[i + 1]) + " is not the plan's Python (" + util::printable(p.python) + ")");
    if (want == "fetch") {
      // Re-derived from the lock's source fields: the fetch the planner writes for them.
      std::vector<std::vector<std::string>> forms;
      if (!p.source_url.empty()) forms.push_back({"torchsmith", "fetch", p.source_url + "@" + p.source_ref, "--dir", "{src}"});
      if (!p.source_dir.empty()) forms.push_back({"torchsmith", "fetch", "--source", p.source_dir});
      if (starts(p.source_ref, "sha256:"))
        forms.push_back({"torchsmith", "fetch", "--sdist", p.source_url, "--sha256", p.source_ref.substr(7), "--dir", "{src}"});
      if (std::find(forms.begin(), forms.end(), s.argv) == forms.end())
        return bad("not the fetch of the lock's source (" + util::printable(p.source_url + "@" + p.source_ref) + ")");
    }
    return;
  }
  if (prog == "git") {
    std::vector<std::string> want{"git", "clone", "--branch", p.source_ref, "--recursive", "--shallow-submodules",
                                  "--depth", "1", "--", p.source_url, "{src}"};
    if (s.name != "fetch" || s.argv != want || p.source_url.empty() || p.source_ref.empty() || starts(p.source_ref, "-"))
      return bad("not the git clone of the lock's source (" + util::printable(p.source_url + "@" + p.source_ref) + ")");
    return;
  }
  if (s.name != "build" && s.name != "configure") return bad("a plan's " + s.name + " step runs torchsmith");
  if (!p.python.empty() && prog == p.python) {
    bool setup = s.argv.size() > 1 && s.argv[1] == "setup.py";
    bool pip_wheel = s.argv.size() > 3 && s.argv[1] == "-m" && s.argv[2] == "pip" && s.argv[3] == "wheel";
    // torchsmith's own frontend, exactly as a plan writes it: the helper it names is torchsmith's.
    if (!setup && !pip_wheel && s.argv != frontend_argv(p.python))
      return bad("a plan's Python runs `setup.py`, `-m pip wheel` or `-m " + std::string(kPep517Frontend) +
                 " -w dist .`, nothing else");
    return;
  }
  if (basename(prog) == "cmake") {
    for (std::size_t i = 1; i < s.argv.size(); ++i) {
      const std::string& a = s.argv[i];
      if (a == "-E" || a == "-P" || starts(a, "-C") || a == "--install" || starts(a, "--preset"))
        return bad("`cmake " + util::printable(a) + "` runs what the lock names, not a configure or a build");
      if (starts(a, "-D") && cmake_hook(std::string_view(a).substr(2)))
        return bad(util::printable(a) + " makes CMake read a script no plan names");
    }
    return;
  }
  bad("runs " + util::printable(prog) + ", a program no plan runs (a plan's steps run torchsmith, git, the plan's "
      "Python or cmake)");
}

std::string dir_of(const std::string& p) {
  auto s = p.rfind('/');
  return s == std::string::npos || s == 0 ? std::string(s == 0 ? "/" : "") : p.substr(0, s);
}

// The directories a plan's own fields name: where a program the lock names (CC, a PATH entry) may
// live. Anything else (the source tree, /tmp, a directory of the lock writer's) is no plan's.
bool plan_dir(const Plan& p, const std::string& dir) {
  if (dir.empty() || dir[0] != '/' || dir.find("/..") != std::string::npos) return false;
  for (const char* d : kSystemBinDirs)
    if (dir == d) return true;
  if (under(dir, p.cuda_home)) return true;
  for (const auto& t : p.provisioned)
    if (under(dir, t.dir)) return true;
  if (!p.host_compiler.empty() && dir == dir_of(p.host_compiler)) return true;
  if (!p.python.empty() && dir == dir_of(p.python)) return true;
  for (const auto& s : p.steps)  // a cmake step the step check let through names its own directory
    if (!s.argv.empty() && basename(s.argv[0]) == "cmake" && s.argv[0].find('/') != std::string::npos &&
        dir == dir_of(s.argv[0]))
      return true;
  return false;
}

// Keys whose value is a program the build runs (or flags naming one): a lock cannot point them elsewhere.
bool names_program(std::string_view k) {
  static constexpr std::string_view kKeys[] = {"CC", "CXX", "CUDAHOSTCXX", "CUDACXX", "NVCC_CCBIN",
                                               "CMAKE_C_COMPILER", "CMAKE_CXX_COMPILER", "CMAKE_CUDA_COMPILER",
                                               "CMAKE_CUDA_HOST_COMPILER", "NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS"};
  return std::find(std::begin(kKeys), std::end(kKeys), k) != std::end(kKeys);
}

bool program_ok(const Plan& p, std::string_view k, const std::string& v) {
  if (k == "NVCC_PREPEND_FLAGS" || k == "NVCC_APPEND_FLAGS") {
    auto words = util::split(v, ' ');
    for (std::size_t i = 0; i < words.size(); ++i) {
      std::string bin;
      if ((words[i] == "-ccbin" || words[i] == "--compiler-bindir") && i + 1 < words.size()) bin = words[i + 1];
      else if (starts(words[i], "-ccbin=")) bin = words[i].substr(7);
      else if (starts(words[i], "--compiler-bindir=")) bin = words[i].substr(18);
      else continue;
      if (!plan_dir(p, bin) && !plan_dir(p, dir_of(bin))) return false;
    }
    return true;
  }
  return !v.empty() && plan_dir(p, dir_of(v));
}

}  // namespace

// The overlay directory of a build-requires step in the one form the planner writes, else "".
std::string overlay_dir(const Plan& p, const Step& s) {
  std::vector<std::string> a = s.argv;
  if (s.name != "build-requires" || a.size() < 10 || p.python.empty() || a[0] != p.python) return "";
  // --wheelhouse: `--no-index --find-links DIR` after --upgrade, DIR absolute (the planner's form).
  if (a.size() > 9 && a[6] == "--no-index") {
    if (a[7] != "--find-links" || a[8].empty() || a[8][0] != '/' || a[8].find("/..") != std::string::npos) return "";
    a.erase(a.begin() + 6, a.begin() + 9);
  }
  const std::vector<std::string> head{"-m", "pip", "install", "--no-deps", "--upgrade", "--target"};
  if (a.size() < 10 || !std::equal(head.begin(), head.end(), a.begin() + 1) || a[8] != "--") return "";
  const std::string& dir = a[7];
  if (dir.empty() || dir[0] != '/' || dir.find("/..") != std::string::npos || dir.find("/build-overlay/") == std::string::npos)
    return "";
  for (std::size_t i = 9; i < a.size(); ++i)
    if (a[i].empty() || a[i][0] == '-') return "";
  return dir;
}


bool loads_code(std::string_view k) {
  static constexpr std::string_view kKeys[] = {
      "GCONV_PATH", "PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME", "PYTHONUSERBASE", "PYTHONEXECUTABLE",
      "PYTHONINSPECT", "PYTHONPLATLIBDIR", "PYTHONWARNINGS", "PYTHONBREAKPOINT", "BASH_ENV", "ENV", "SHELLOPTS",
      "BASHOPTS", "PS4", "PROMPT_COMMAND", "PERL5LIB", "PERL5OPT", "PERLLIB", "PERL5DB", "RUBYOPT", "RUBYLIB",
      "NODE_OPTIONS", "NODE_PATH", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "GIT_SSH", "GIT_SSH_COMMAND",
      "GIT_EXEC_PATH", "GIT_ASKPASS", "GIT_PROXY_COMMAND", "GIT_EXTERNAL_DIFF", "GIT_TEMPLATE_DIR",
      "CMAKE_TOOLCHAIN_FILE", "OPENSSL_CONF", "OPENSSL_ENGINES"};
  if (std::find(std::begin(kKeys), std::end(kKeys), k) != std::end(kKeys)) return true;
  for (const char* prefix : {"LD_", "DYLD_", "GIT_CONFIG", "PIP_", "CUDA_INJECTION", "NVTX_INJECTION", "BASH_FUNC_"})
    if (starts(k, prefix)) return true;
  return false;
}

std::vector<std::string> lock_problems(const Plan& p) {
  std::vector<std::string> out;
  for (const auto& s : p.steps) check_step(p, s, out);
  for (const auto& [k, v] : p.env) {
    if (k == "PATH") {
      for (const auto& d : util::split(v, ':'))
        if (!plan_dir(p, d)) {
          out.push_back("environment PATH: " + util::printable(d) +
                        " is no directory of the plan's toolkit, compiler, Python or tools, nor a system one");
          break;
        }
      continue;
    }
    if (names_program(k)) {
      if (!program_ok(p, k, v))
        out.push_back("environment " + util::printable(k) + "=" + util::printable(v) +
                      ": names a program outside the plan's toolkit, compiler, Python and system directories");
      continue;
    }
    if (!loads_code(k)) continue;
    auto parts = util::split(v, ':');
    bool ok = false;
    // The values the planner writes: its build helper on PYTHONPATH, and library directories of the
    // toolkit or tools the plan itself names.
    if (k == "PYTHONPATH") {
      ok = std::all_of(parts.begin(), parts.end(), [&](const std::string& x) {
        if (x == kPyshimPlaceholder) return true;
        for (const auto& s : p.steps)  // the build overlay a build-requires step fills
          if (auto d = overlay_dir(p, s); !d.empty() && d == x) return true;
        return false;
      });
    } else if (k == "LD_LIBRARY_PATH") {
      ok = std::all_of(parts.begin(), parts.end(), [&](const std::string& x) {
        if (under(x, p.cuda_home)) return true;
        for (const auto& t : p.provisioned)
          if (under(x, t.dir)) return true;
        return false;
      });
    }
    if (!ok)
      out.push_back("environment " + util::printable(k) + "=" + util::printable(v) +
                    ": changes which code programs load, and no plan sets it to that");
  }
  return out;
}

}  // namespace ts::plan
