#include "cli/request_options.h"

#include <cctype>
#include <cstdint>

#include "cli/option_table.h"
#include "cli/plan_request.h"
#include "plan/extension.h"
#include "spec/raw_spec.h"

namespace ts::cli {

namespace {

// An option whose text is a spec field (checked with the rest of the spec, or by the extension planner);
// with `valid`, text it refuses is an error at once, worded by `hint`.
std::function<std::string(const std::string&, Request&)> to_field(spec::RawField spec::RawSpec::*f,
                                                                    const std::string& flag,
                                                                    bool (*valid)(const std::string&) = nullptr,
                                                                    const char* hint = "") {
  return [f, flag, valid, hint](const std::string& v, Request& r) {
    if (valid && !valid(v)) return std::string(hint);
    r.raw.*f = {v, flag, true};
    return std::string();
  };
}

std::function<std::string(const std::string&, Request&)> to_string(std::string Request::*f) {
  return [f](const std::string& v, Request& r) {
    r.*f = v;
    return std::string();
  };
}

// A whole number from lo to hi into an int field; `form` says what to write when it is not one.
std::function<std::string(const std::string&, Request&)> to_number(int Request::*f, int lo, int hi,
                                                                     std::string form) {
  return [f, lo, hi, form](const std::string& v, Request& r) {
    auto n = whole_number(v, lo, hi);
    if (!n) return form;
    r.*f = static_cast<int>(*n);
    return std::string();
  };
}

std::function<std::string(const std::string&, Request&)> to_flag(bool Request::*f) {
  return [f](const std::string&, Request& r) {
    r.*f = true;
    return std::string();
  };
}

// The table's rows, in the order help lists them and apply_request_options checks them.
using AddOption = std::function<void(RequestOption)>;
constexpr unsigned both = torch_request | extension_request;
constexpr unsigned any = both | locked_request;

// What is built: torch's spec fields, or the torch an extension builds against.
void build_options(const AddOption& add) {
  add({"--torch", "PYTHON",
       "For an extension: the Python whose torch it builds against (default: the first Python here with torch).",
       plan_command | build_command, extension_request, "",
       "it names the torch an extension builds against: give the extension (a directory, URL@REF or "
       "NAME==VERSION)",
       to_string(&Request::torch)});
  add({"--spec", "FILE", "Read the request from this torchsmith.toml (the command line wins).",
       plan_command | build_command, torch_request,
       "give its options on the command line (torchsmith.toml describes a torch build)", "",
       to_string(&Request::spec_file)});
  add({"--cuda", "X.Y", "CUDA toolkit to build with (default: the best installed one).", plan_command | build_command,
       both, "", "", to_field(&spec::RawSpec::cuda, "--cuda")});
  add({"--arch", "LIST",
       "GPU arches: native (default, the GPUs here), portable (the official list for the CUDA), a family "
       "(ada, ampere...), or numbers \"8.9;12.0+PTX\".",
       plan_command | build_command | matrix_command, both, "", "", to_field(&spec::RawSpec::arch, "--arch")});
  add({"--python", "PATH|X.Y", "Interpreter path, or a version among those found (3.8).",
       plan_command | build_command, torch_request,
       "give --torch PYTHON, the interpreter whose torch it builds against", "",
       to_field(&spec::RawSpec::python, "--python")});
  add({"--with", "F,...", "Features to turn on (cudnn, nccl, test, split-cuda, ...).", plan_command | build_command,
       torch_request, "its recipe (data/kb/packages/) sets what it builds; --without cuda is the one switch", "",
       to_field(&spec::RawSpec::with, "--with")});
  add({"--without", "F,...", "Features to turn off (cuda for a CPU build).", plan_command | build_command, both, "",
       "", to_field(&spec::RawSpec::without, "--without")});
  add({"--debug", "", "A Debug build (DEBUG=1: -O0 -g).", plan_command | build_command, torch_request,
       "the build type is its own setup's (set CFLAGS in the environment for a debug build)", "",
       to_flag(&Request::debug)});
  add({"--relwithdebinfo", "", "A RelWithDebInfo build.", plan_command | build_command, torch_request,
       "the build type is its own setup's (set CFLAGS in the environment for a debug build)", "",
       to_flag(&Request::relwithdebinfo)});
}

// How many compiles run at once, and in how much memory.
void speed_options(const AddOption& add) {
  add({"--jobs", "N|auto", "Parallel compile jobs (default auto: from memory).",
       plan_command | build_command | matrix_command, both, "", "",
       to_field(&spec::RawSpec::jobs, "--jobs", [](const std::string& v) { return spec::parse_jobs(v).has_value(); },
                "write a number of jobs from 1 to 9999, or auto")});
  add({"--split-compile", "auto|off|N",
       "Extensions: nvcc threads inside one CUDA compile (nvcc --split-compile). auto (default): the threads the "
       "cores and memory leave, at most 3 a core while all CUDA compiles run; off never.",
       plan_command | build_command | matrix_command, extension_request, "",
       "its own build runs its CUDA files through CMake and ninja, many at once",
       [](const std::string& v, Request& r) {
         if (v == "auto") r.split_compile = -1;
         else if (v == "off") r.split_compile = 1;
         else if (auto n = whole_number(v, 1, 256)) r.split_compile = static_cast<int>(*n);
         else return std::string("write auto, off, or a thread count from 1 to 256");
         return std::string();
       }});
  add({"--mem-budget", "SIZE", "Memory the build may use (16G); jobs and the governor keep to it.",
       plan_command | build_command | matrix_command, both, "", "",
       to_field(&spec::RawSpec::mem_budget, "--mem-budget",
                [](const std::string& v) { return spec::parse_size(v).has_value(); },
                "write a size such as 16G, 512M or 1.5T")});
}

// What is produced, and where the source and the toolkit come from.
void source_options(const AddOption& add) {
  add({"--package", "KIND,...", "What to produce: wheel (default), conda, libtorch.", plan_command | build_command,
       torch_request, "it is packaged as a wheel (`torchsmith conda WHEEL` makes a conda package of it)", "",
       to_field(&spec::RawSpec::packages, "--package")});
  add({"--source", "DIR|URL@REF|git|sdist",
       "torch: a source tree, or a git URL@REF (default: the release tag upstream). An extension NAME==VERSION: "
       "git (the recipe's tag) or sdist (the index's source archive); default the sdist when the index has one.",
       plan_command | build_command | matrix_command, both, "", "", [](const std::string& v, Request& r) {
         if (plan::is_extension_requirement(r.requirement)) {  // request_kind's rule
           auto src = plan::parse_extension_source(r.requirement, nullptr);
           if (src && src->kind != plan::ExtensionSource::Kind::name)
             return std::string("for an extension, git|sdist chooses where NAME==VERSION comes from; a directory "
                                "or URL@REF is the requirement itself");
           if (v != "git" && v != "sdist")
             return std::string("for NAME==VERSION write git (the recipe's tag) or sdist (the index's source "
                                "archive); a directory or URL@REF is given as the requirement");
         }
         r.raw.source = {v, "--source", true};
         return std::string();
       }});
  add({"--index", "URL",
       "NAME==VERSION: the package index its sdist is looked up in (default https://pypi.org: "
       "URL/pypi/NAME/VERSION/json, then URL/simple/NAME/).",
       plan_command | build_command | matrix_command, extension_request, "",
       "its source is its git tag (--source DIR|URL@REF); --index is where an extension's NAME==VERSION sdist is "
       "looked up",
       [](const std::string& v, Request& r) {
         if (v.rfind("https://", 0) != 0 && v.rfind("file://", 0) != 0)
           return std::string("write an https:// or file:// URL (the index's root: URL/pypi/NAME/VERSION/json, "
                              "URL/simple/NAME/)");
         r.index = v;
         return std::string();
       }});
  add({"--toolkit", "system|pip|redist|conda|wheelhouse:DIR|PATH",
       "Where the CUDA toolkit comes from: system (an installed one), pip (PyPI wheels into the cache), "
       "redist (NVIDIA's redistributable archives), conda (a conda channel's packages), wheelhouse:DIR (the "
       "same wheels from a local directory, offline), or a CUDA_HOME path. Default: an installed one that fits "
       "torch, else provisioned: PyPI where its wheels are whole, else redist, else conda (docs/provision.md).",
       plan_command | build_command | matrix_command, both, "", "", to_string(&Request::toolkit)});
  add({"--toolkit-mirror", "URL|DIR",
       "Where NVIDIA's redistributable archives (a copy of compute/cuda/redist/: redistrib_<release>.json and "
       "the archives under their relative paths) or a conda channel come from instead of upstream: an "
       "http(s):// or file:// URL, or a directory (offline). Default $TORCHSMITH_TOOLKIT_MIRROR, then a site's "
       "provision.toml [mirror] (docs/provision.md).",
       plan_command | build_command | matrix_command, both, "", "", to_string(&Request::toolkit_mirror)});
  add({"--cache-dir", "DIR",
       "Where provisioned toolkits, CMake and ninja (and matrix's torch venvs) live (default "
       "$XDG_CACHE_HOME/torchsmith or ~/.cache/torchsmith).",
       plan_command | build_command | matrix_command, both, "", "", to_string(&Request::cache_dir)});
}

// The machine the plan is for.
void machine_options(const AddOption& add) {
  add({"--facts", "FILE", "Plan for the machine a `doctor --json` report describes.", plan_command | build_command,
       both, "", "", to_field(&spec::RawSpec::facts, "--facts")});
  add({"--root", "DIR", "Plan for the machine under DIR (a fake or copied root).", plan_command | build_command,
       both, "", "", to_field(&spec::RawSpec::root, "--root")});
}

// A shared compile cache and more machines (docs/scale.md).
void scale_options(const AddOption& add) {
  add({"--cache", "ENGINE+STORE",
       "A shared compile cache: ccache+redis://HOST:PORT, ccache+http://HOST:PORT/PATH or "
       "sccache+redis://HOST:PORT. Checked before the build; down or slow, the build goes on without it.",
       plan_command | build_command | matrix_command, both, "", "", to_string(&Request::cache)});
  add({"--distribute", "distcc",
       "distcc: compile on the --hosts too (each checked: reachable, same compiler); jobs = their slots + what "
       "memory allows here. nvcc units run here.",
       plan_command | build_command, both, "", "", to_string(&Request::distribute)});
  add({"--hosts", "LIST", "distcc hosts, \"HOST[:PORT][/SLOTS] ...\" (default: DISTCC_HOSTS).",
       plan_command | build_command, both, "", "", to_string(&Request::hosts)});
}

// An extension's own build switches.
void switch_options(const AddOption& add) {
  add({"--env", "KEY=VALUE",
       "Extensions: one of the package's own build switches (an environment variable its setup.py reads, such as "
       "FORCE_CUDA=1; the plan lists them under 'switches'), set for the build and kept in the lock. Repeatable.",
       plan_command | build_command, extension_request, "",
       "torch's own build switches are spec fields (--with, --without, --arch, ...)",
       [](const std::string& v, Request& r) {
         auto eq = v.find('=');
         std::string key = v.substr(0, eq);
         bool name_ok = !key.empty() && !std::isdigit(static_cast<unsigned char>(key[0])) &&
                        key.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") ==
                            std::string::npos;
         if (eq == std::string::npos || !name_ok)
           return std::string("write KEY=VALUE, KEY a variable name (letters, digits, _)");
         r.env.emplace_back(key, v.substr(eq + 1));
         return std::string();
       }});
  add({"--no-fetch", "",
       "Extensions: fetch no source. A git URL@REF or NAME==VERSION (which planning would clone or download, "
       "its index looked up, to read before planning, and the build would fetch again) is refused, naming what "
       "would have been fetched; give the source as a directory.",
       plan_command | build_command, extension_request, "",
       "torch's plan fetches nothing; its build's fetch step clones --source URL@REF (give --source DIR, a tree "
       "here, instead)",
       to_flag(&Request::no_fetch)});
  add({"--wheelhouse", "DIR",
       "Extensions: the build's Python requirements (a missing build backend and what it imports, pybind11 for a "
       "CMake FetchContent of it) and verify's runtime dependencies come from this directory of wheels only "
       "(pip --no-index --find-links DIR), for a machine with no index; kept in the lock. A torch wheel other "
       "than the target's in it is refused.",
       plan_command | build_command, extension_request, "",
       "torch's own build takes no Python requirements from a wheelhouse (its toolkit can: --toolkit wheelhouse:DIR)",
       to_string(&Request::wheelhouse)});
}

// The run's own options: a lock file's plan runs with them too.
void run_options(const AddOption& add) {
  add({"--max-retries", "N", "Remedies tried per run, each one not tried before in it (default 5).", build_command | matrix_command, any, "", "",
       to_number(&Request::max_retries, 0, 99, "write a number of remedies from 0 to 99")});
  add({"--keep-going-after", "N", "Do not stop at the first fatal finding; let the build tool go on (N > 0).",
       build_command | matrix_command, any, "", "",
       to_number(&Request::keep_going_after, 0, 999999,
                 "write a number from 0 (stop at the first fatal finding) to 999999")});
  add({"--compile-cache", "TOOL", "auto (ccache or sccache when on the build's PATH; default), ccache, sccache, none.",
       build_command | matrix_command, any, "", "", [](const std::string& v, Request& r) {
         if (v != "auto" && v != "ccache" && v != "sccache" && v != "none")
           return std::string("write auto, ccache, sccache or none");
         r.compile_cache = v;
         return std::string();
       }});
}

std::vector<RequestOption> make_table() {
  std::vector<RequestOption> t;
  auto add = [&](RequestOption o) { t.push_back(std::move(o)); };
  build_options(add);
  speed_options(add);
  source_options(add);
  machine_options(add);
  scale_options(add);
  switch_options(add);
  run_options(add);
  return t;
}

}  // namespace

const std::vector<RequestOption>& request_options() {
  static const std::vector<RequestOption> table = make_table();
  return table;
}

std::string applies_to(const RequestOption& o) {
  unsigned k = o.kinds & (torch_request | extension_request);
  if (k == torch_request) return "torch builds only";
  if (k == extension_request) return "extension builds only";
  return "torch and extension builds";
}

void add_request_options(CLI::App* c, Request& r, RequestCommand command) {
  for (const auto& o : request_options()) {
    if (!(o.commands & command)) continue;
    unsigned k = o.kinds & (torch_request | extension_request);
    std::string help = o.help + (k == (torch_request | extension_request) ? "" : " [" + applies_to(o) + "]");
    std::string name = o.name;
    // The short forms every command line tool has; the row's own name is what r.given records.
    std::string names = name == "--jobs" ? "-j," + name : name;
    if (o.type.empty()) {
      c->add_flag_function(names, [&r, name](std::int64_t) { r.given.emplace_back(name, "true"); }, help);
    } else {
      c->add_option_function<std::string>(names, [&r, name](const std::string& v) { r.given.emplace_back(name, v); },
                                          help)
          ->type_name(o.type);
    }
  }
}

std::string apply_request_options(Request& r, RequestKind kind) {
  for (const auto& o : request_options())
    for (const auto& [name, value] : r.given) {
      if (name != o.name) continue;
      if (!(o.kinds & kind)) {
        if (kind == locked_request)
          return o.name + " shapes the plan, and --lock FILE is a plan already made: plan again with " + o.name +
                 " (torchsmith plan ... -o FILE) or build without --lock";
        const std::string& why = kind == extension_request ? o.not_for_extension : o.not_for_torch;
        return o.name + " applies to " + applies_to(o) + "; for " +
               (kind == extension_request ? "an extension " : "torch itself ") + why;
      }
      std::string want = o.parse(value, r);
      if (!want.empty()) return o.name + " " + value + ": " + want;
    }
  return "";
}

}  // namespace ts::cli
