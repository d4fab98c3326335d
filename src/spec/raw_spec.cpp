// Checking a RawSpec field by field; the first problem is the one reported, with its origin.
#include "spec/raw_spec.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

#include "core/arch_list.h"
#include "core/version.h"
#include "core/version_range.h"
#include "spec/build_spec.h"
#include "util/url.h"

namespace ts::spec {

namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s + ",") {
    if (c == ',' || c == ';' || std::isspace(static_cast<unsigned char>(c))) {
      if (!cur.empty()) out.push_back(lower(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  return out;
}

// "torchsmith.toml:4: cuda: ..." or "--cuda: ...".
std::string at(const RawField& f, const std::string& key, const std::string& problem) {
  if (f.where.empty() || f.where.rfind("--", 0) == 0) return (f.where.empty() ? key : f.where) + ": " + problem;
  return f.where + ": " + key + ": " + problem;
}

void pick(RawField& into, const RawField& over) {
  if (over.set) into = over;
}

// The torch requirement must name one release: "torch==2.4.1" (or "torch 2.4.1", or "2.4.1").
bool check_requirement(const RawField& f, BuildSpec& s, std::string& error) {
  std::string text = f.value;
  if (!text.empty() && std::isdigit(static_cast<unsigned char>(text[0]))) text = "torch==" + text;
  std::string err;
  auto c = Constraint::parse(text, &err);
  if (!c) {
    error = at(f, "torch", "'" + f.value + "': " + err + " (write torch==2.4.1)");
    return false;
  }
  if (c->normalized_name() != "torch") {
    error = at(f, "torch", "'" + c->name + "': only torch can be planned so far (write torch==2.4.1)");
    return false;
  }
  const auto& sp = c->range.specifiers();
  if (sp.size() != 1 || sp[0].op != Specifier::Op::eq || sp[0].wildcard) {
    error = at(f, "torch", "'" + f.value + "' names no single release: write torch==X.Y.Z (e.g. torch==2.4.1)");
    return false;
  }
  s.version = FactVersion(sp[0].version.str());
  return true;
}

// Where a field given was set, for the plan's decisions and errors.
void note(BuildSpec& s, const char* field, const RawField& f) {
  if (f.set) s.origin[field] = f.where.empty() ? field : f.where;
}

// Each field's check: false with `error` naming the field, its origin and what to write.
bool check_cuda(const RawField& f, BuildSpec& s, std::string& error) {
  if (!f.set) return true;
  s.cuda = parse_cuda(f, error);
  if (!s.cuda) return false;
  note(s, "cuda", f);
  return true;
}

bool check_arch(const RawField& f, BuildSpec& s, std::string& error) {
  s.arch = "native";
  if (!f.set) return true;
  // Names are resolved by the plan (it holds the KB); here only the numbers' spelling is checked.
  std::string err;
  auto any_name = [](std::string_view, std::string*) -> std::optional<std::vector<CudaArch>> {
    return std::vector<CudaArch>{};
  };
  auto numbers = f.value.empty() ? std::nullopt : ArchList::parse(f.value, any_name, &err);
  if (!numbers) {
    error = at(f, "arch", "'" + f.value + "': " +
                              (err.empty() ? "empty" : err) +
                              " (write native, portable, a family such as ada, or 8.9;12.0+PTX)");
    return false;
  }
  s.arch = f.value;
  s.arch_numbers = numbers->arches();
  note(s, "arch", f);
  return true;
}

bool check_python(const RawField& f, BuildSpec& s, std::string& error) {
  if (!f.set) return true;
  const std::string& p = f.value;
  if (p.find('/') == std::string::npos && !Version::parse(p)) {
    error = at(f, "python", "'" + p + "' is neither an interpreter path nor a version (write 3.8 or /usr/bin/python3.8)");
    return false;
  }
  s.python = PythonAsk::of(p);
  note(s, "python", f);
  return true;
}

}  // namespace

std::optional<Version> parse_cuda(const RawField& f, std::string& error) {
  auto v = Version::parse(f.value);
  bool digits = !f.value.empty() &&
                std::all_of(f.value.begin(), f.value.end(),
                            [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '.'; });
  if (!v || !digits || v->release().size() < 2) {
    error = at(f, "cuda", "'" + f.value + "' is not a CUDA version (write 12.8)");
    return std::nullopt;
  }
  return v;
}

namespace {

bool check_build_type(const RawField& f, BuildSpec& s, std::string& error) {
  if (!f.set) return true;
  std::string b = lower(f.value);
  if (b == "release") s.build_type = BuildType::release;
  else if (b == "debug") s.build_type = BuildType::debug;
  else if (b == "relwithdebinfo") s.build_type = BuildType::relwithdebinfo;
  else {
    error = at(f, "build_type", "'" + f.value + "' (write release, debug or relwithdebinfo)");
    return false;
  }
  note(s, "build_type", f);
  return true;
}

// "auto" is the default: not noted as set.
bool check_jobs(const RawField& f, BuildSpec& s, std::string& error) {
  if (!f.set || lower(f.value) == "auto") return true;
  const std::string& j = f.value;
  auto n = parse_jobs(j);
  if (!n) {
    error = at(f, "jobs", "'" + j + "' (write a number of jobs >= 1, or auto)");
    return false;
  }
  s.jobs = *n;
  note(s, "jobs", f);
  return true;
}

bool check_mem_budget(const RawField& f, BuildSpec& s, std::string& error) {
  if (!f.set) return true;
  auto b = parse_size(f.value);
  if (!b) {
    error = at(f, "mem_budget", "'" + f.value + "' is not a size (write 16G)");
    return false;
  }
  s.mem_budget_bytes = *b;
  note(s, "mem_budget", f);
  return true;
}

bool check_packages(const RawField& f, BuildSpec& s, std::string& error) {
  if (!f.set) return true;
  static const std::set<std::string> kinds{"wheel", "conda", "libtorch"};
  s.packages = split_list(f.value);
  for (const auto& p : s.packages)
    if (!kinds.count(p)) {
      error = at(f, "packages", "'" + p + "' (write wheel, conda or libtorch)");
      return false;
    }
  if (s.packages.empty()) {
    error = at(f, "packages", "empty (write wheel, conda or libtorch)");
    return false;
  }
  note(s, "packages", f);
  return true;
}

// --with and --without: a feature is named by one of them at most.
bool check_features(const RawField& with, const RawField& without, BuildSpec& s, std::string& error) {
  s.with = with.set ? split_list(with.value) : std::vector<std::string>{};
  s.without = without.set ? split_list(without.value) : std::vector<std::string>{};
  for (const auto& w : s.with)
    if (std::find(s.without.begin(), s.without.end(), w) != s.without.end()) {
      error = at(without, "without", "'" + w + "' is also asked for with --with; name it once");
      return false;
    }
  note(s, "with", with);
  note(s, "without", without);
  return true;
}

bool check_source(const RawField& f, BuildSpec& s, std::string& error) {
  s.source = f.value;
  if (SourceRef ref = parse_source(s.source); !ref.url.empty()) {
    // Checked before anything uses them: a ref starting with '-' would be an option to git.
    std::string why = util::check_git_url(ref.url);
    if (why.empty() && !ref.ref.empty()) why = util::check_git_ref(ref.ref);
    if (!why.empty()) {
      error = at(f, "source", why);
      return false;
    }
  }
  note(s, "source", f);
  return true;
}

}  // namespace

RawSpec merge(const RawSpec& base, const RawSpec& over) {
  RawSpec r = base;
  pick(r.requirement, over.requirement);
  for (auto m : {&RawSpec::cuda, &RawSpec::arch, &RawSpec::python, &RawSpec::build_type, &RawSpec::jobs,
                 &RawSpec::mem_budget, &RawSpec::source, &RawSpec::facts, &RawSpec::root, &RawSpec::with,
                 &RawSpec::without, &RawSpec::packages})
    pick(r.*m, over.*m);
  return r;
}

std::optional<std::uint64_t> parse_size(const std::string& text) {
  std::string t = lower(text);
  std::size_t i = 0;
  while (i < t.size() && (std::isdigit(static_cast<unsigned char>(t[i])) || t[i] == '.')) ++i;
  if (i == 0) return std::nullopt;
  double n = 0;
  try {
    n = std::stod(t.substr(0, i));
  } catch (...) {
    return std::nullopt;
  }
  std::string unit = t.substr(i);
  double mult = 1;
  if (unit.empty() || unit == "b") mult = 1;
  else if (unit == "k" || unit == "kb" || unit == "kib") mult = 1024.0;
  else if (unit == "m" || unit == "mb" || unit == "mib") mult = 1024.0 * 1024;
  else if (unit == "g" || unit == "gb" || unit == "gib") mult = 1024.0 * 1024 * 1024;
  else if (unit == "t" || unit == "tb" || unit == "tib") mult = 1024.0 * 1024 * 1024 * 1024;
  else return std::nullopt;
  if (!(n > 0)) return std::nullopt;
  return static_cast<std::uint64_t>(std::llround(n * mult));
}

std::optional<int> parse_jobs(const std::string& text) {
  if (lower(text) == "auto") return 0;
  bool num = !text.empty() && text.size() < 5 &&
             std::all_of(text.begin(), text.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  if (!num || std::stoi(text) < 1) return std::nullopt;
  return std::stoi(text);
}

std::optional<BuildSpec> check(const RawSpec& raw, std::string& error) {
  BuildSpec s;
  if (!raw.requirement.set || raw.requirement.value.empty()) {
    error = "no release named: write torchsmith plan torch==X.Y.Z (or torch = \"X.Y.Z\" in torchsmith.toml)";
    return std::nullopt;
  }
  if (!check_requirement(raw.requirement, s, error)) return std::nullopt;
  note(s, "version", raw.requirement);
  if (!check_cuda(raw.cuda, s, error) || !check_arch(raw.arch, s, error) || !check_python(raw.python, s, error) ||
      !check_build_type(raw.build_type, s, error) || !check_jobs(raw.jobs, s, error) ||
      !check_mem_budget(raw.mem_budget, s, error) || !check_packages(raw.packages, s, error) ||
      !check_features(raw.with, raw.without, s, error) || !check_source(raw.source, s, error))
    return std::nullopt;
  s.facts_file = raw.facts.value;
  note(s, "facts", raw.facts);
  if (raw.root.set && !raw.root.value.empty()) s.root = raw.root.value;
  note(s, "root", raw.root);
  if (!s.facts_file.empty() && raw.root.set) {
    error = "--facts and --root both name the machine to plan for; give one";
    return std::nullopt;
  }
  return s;
}

}  // namespace ts::spec
