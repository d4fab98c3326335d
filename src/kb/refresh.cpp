// kb refresh: PyPI metadata + the KB -> overlay TOML (see refresh.h).
#include "kb/refresh.h"

#include <algorithm>
#include <set>

#include "core/version.h"
#include "core/version_range.h"

namespace ts::kb {

namespace {

std::string q(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    if (c == '\n') { o += "\\n"; continue; }
    o += c;
  }
  return o + "\"";
}

std::string list(const std::vector<std::string>& v) {
  std::string o = "[";
  for (std::size_t i = 0; i < v.size(); ++i) o += (i ? ", " : "") + q(v[i]);
  return o + "]";
}

std::string where(const Origin& o) { return o.file + ":" + std::to_string(o.line); }

bool vless(const std::string& a, const std::string& b) {
  auto pa = Version::parse(a), pb = Version::parse(b);
  return pa && pb ? *pa < *pb : a < b;
}

// A KB release against a line read from PyPI (its text parsed here, at the edge).
bool vless(const Version& a, const std::string& b) {
  auto pb = Version::parse(b);
  return pb ? a < *pb : a.original() < b;
}

std::string python_range(const std::vector<int>& minors) {
  return ">=3." + std::to_string(minors.front()) + ",<3." + std::to_string(minors.back() + 1);
}

struct TorchFields {
  std::string version, released, python, cmake_min, cmake_max_exclusive, gcc_min, cxx_standard, numpy,
      torchvision, torchaudio;
  std::vector<std::string> cuda, arch_names, recalled;
  std::string source, note;
};

std::string render(const TorchFields& f) {
  std::string o = "[[release]]\nversion = " + q(f.version) + "\n";
  if (!f.released.empty()) o += "released = " + q(f.released) + "\n";
  o += "python = " + q(f.python) + "\ncuda = " + list(f.cuda) + "\ncmake_min = " + q(f.cmake_min) + "\n";
  if (!f.cmake_max_exclusive.empty()) o += "cmake_max_exclusive = " + q(f.cmake_max_exclusive) + "\n";
  if (!f.gcc_min.empty()) o += "gcc_min = " + q(f.gcc_min) + "\n";
  o += "cxx_standard = " + q(f.cxx_standard) + "\nnumpy = " + q(f.numpy) + "\ntorchvision = " + q(f.torchvision) +
       "\ntorchaudio = " + q(f.torchaudio) + "\narch_names = " + list(f.arch_names) + "\nstatus = \"refreshed\"\n";
  if (!f.recalled.empty()) o += "recalled = " + list(f.recalled) + "\n";
  return o + "source = " + q(f.source) + "\nnote = " + q(f.note) + "\n\n";
}

TorchFields from(const TorchRelease& t) {
  TorchFields f;
  f.version = t.version.original();
  f.released = t.released;
  f.python = t.python.str();
  f.cmake_min = t.cmake_min.original();
  f.cmake_max_exclusive = t.cmake_max_exclusive ? t.cmake_max_exclusive->original() : "";
  f.gcc_min = t.gcc_min ? t.gcc_min->original() : "";
  f.cxx_standard = t.cxx_standard ? std::to_string(t.cxx_standard) : "";
  f.numpy = t.numpy.str();
  f.torchvision = t.torchvision;
  f.torchaudio = t.torchaudio;
  f.cuda = spelled(t.cuda);
  f.arch_names = spelled(t.arch_names);
  f.recalled = t.recalled;
  return f;
}

const pypi::Response* project_response(const std::vector<pypi::Response>& rs) {
  for (const auto& r : rs)
    if (r.body.contains("releases")) return &r;
  return rs.empty() ? nullptr : &rs.front();
}

// The toolkits on PyPI the KB lacks, as cuda.toml entries where their nvcc was read here. First, since a
// torch line may name a CUDA that only the refreshed cuda.toml has; each one written joins known_cuda.
void add_toolkits(const Kb& base, const RefreshInput& in, std::set<std::string>& known_cuda, Overlay& out,
                  std::vector<KbError>& errors) {
  for (const auto& r : in.toolkits) {
    for (const auto& t : pypi::toolkit_lines(r, errors)) {
      if (known_cuda.count(t.minor)) continue;
      auto read = std::find_if(in.read.begin(), in.read.end(), [&](const ReadToolkit& x) { return x.version == t.minor; });
      const CudaFamily* fam = base.find_cuda_family(t.minor);
      if (read == in.read.end() || read->arches.empty() || read->gcc_max.empty() || read->clang_max.empty() || !fam) {
        out.notes.push_back("CUDA " + t.minor + " is on PyPI (" + t.project + " " + t.newest + ", " + t.released +
                            ") but not in the KB, and its nvcc was not read here: its arches and host compilers are "
                            "unknown (provision it, or add it to cuda.toml in an overlay)");
        continue;
      }
      std::string from;
      auto bound = driver_lower_bound(base, t.minor, &from);
      std::string driver = bound ? bound->original() : "";
      out.cuda_toml += "[[release]]\nversion = " + q(t.minor) + "\narches = " + list(read->arches) + "\ngcc_max = " +
                       q(read->gcc_max) + "\nclang_max = " + q(read->clang_max) + "\ndriver_min_linux = " +
                       q(driver) + "\nstatus = \"refreshed\"\nrecalled = [\"driver_min_linux\"]\n" +
                       "source = " + q(t.url + " (read " + r.read + "); " + read->source) + "\nnote = " +
                       q("released " + t.released + "; driver_min_linux is " + from + ", not this release's own driver") +
                       "\n\n";
      ++out.cuda_entries;
      known_cuda.insert(t.minor);
    }
  }
}

// What every torch line's entry or note says about it.
struct LineSeen {
  const pypi::TorchLine& l;
  std::string source, versions, cuda_note;
  bool cuda_usable = false;
};

// A line newer than the KB's newest: that entry's fields, the ones PyPI does not carry marked recalled.
void add_new_line(const LineSeen& t, const TorchRelease& newest_base, Overlay& out) {
  const pypi::TorchLine& l = t.l;
  TorchFields f = from(newest_base);
  f.version = l.minor;
  f.released = l.released;
  f.recalled = {"cmake_min", "gcc_min", "cxx_standard", "numpy", "torchvision", "torchaudio", "arch_names"};
  if (!l.python_minors.empty()) f.python = python_range(l.python_minors);
  else f.recalled.push_back("python");
  if (t.cuda_usable) f.cuda = {l.default_cuda};
  else f.recalled.push_back("cuda");
  f.source = t.source;
  f.note = "versions " + t.versions + "; " + t.cuda_note + "; python from the wheels' cpXY tags; " +
           "fields PyPI does not carry (listed in recalled) are those of torch " + newest_base.version.original() + " (" +
           where(newest_base.origin) + ")";
  out.torch_toml += render(f);
  ++out.torch_entries;
}

// A line the KB has: its released day, Pythons and default CUDA against PyPI's; the entry is written
// where they differ, and always for the newest line.
void compare_line(const LineSeen& t, const TorchRelease& built_in, const std::string& latest, Overlay& out) {
  const pypi::TorchLine& l = t.l;
  const TorchRelease* b = &built_in;
  const std::string &source = t.source, &versions = t.versions, &cuda_note = t.cuda_note;
  const bool cuda_usable = t.cuda_usable;
  std::vector<std::string> differ;
  TorchFields f = from(*b);
  bool refines = !b->released.empty() && l.released.size() > b->released.size() &&
                 l.released.rfind(b->released, 0) == 0;  // "2024-10" -> "2024-10-17": more precise, not other
  if (refines) {
    out.notes.push_back("torch " + l.minor + " released: built-in " + b->released + " (" + where(b->origin) +
                        "), PyPI gives the day: " + l.released);
    f.released = l.released;
    differ.push_back("released (day)");
  } else if (!l.released.empty() && l.released != b->released) {
    out.conflicts.push_back("torch " + l.minor + " released: built-in " + (b->released.empty() ? "(none)" : b->released) +
                            " (" + where(b->origin) + "), PyPI " + l.released + " (" + source + ")");
    f.released = l.released;
    differ.push_back("released");
  }
  std::vector<int> outside;
  for (int m : l.python_minors)
    if (!b->python.contains(*Version::parse("3." + std::to_string(m)))) outside.push_back(m);
  if (!outside.empty()) {
    std::string ms;
    for (int m : outside) ms += (ms.empty() ? "3." : ", 3.") + std::to_string(m);
    out.conflicts.push_back("torch " + l.minor + " python: built-in " + b->python.str() + " (" + where(b->origin) +
                            ") excludes " + ms + ", which PyPI has wheels for (" + source + ")");
    std::vector<int> all = l.python_minors;
    // The built-in lower bound (">=3.8") stays the range's start.
    for (const auto& s : b->python.specifiers())
      if (s.op == Specifier::Op::ge && s.version.major() == 3 && s.version.release().size() >= 2) {
        all.push_back(s.version.minor());
        break;
      }
    std::sort(all.begin(), all.end());
    f.python = python_range(all);
    differ.push_back("python");
  }
  const std::vector<std::string> built_in_cuda = spelled(b->cuda);
  if (cuda_usable && std::find(built_in_cuda.begin(), built_in_cuda.end(), l.default_cuda) == built_in_cuda.end()) {
    out.conflicts.push_back("torch " + l.minor + " cuda: built-in " + list(built_in_cuda) + " (" + where(b->origin) +
                            ") lacks " + l.default_cuda + ", the CUDA of the default wheel on PyPI (" + source + ")");
    f.cuda.push_back(l.default_cuda);
    std::sort(f.cuda.begin(), f.cuda.end(), [](const std::string& x, const std::string& y) { return vless(x, y); });
    differ.push_back("cuda");
  }
  // The newest line is always written: it is the one whose default CUDA PyPI states.
  bool newest = std::find(l.versions.begin(), l.versions.end(), latest) != l.versions.end();
  if (differ.empty() && !newest) return;
  std::string d;
  for (const auto& x : differ) d += (d.empty() ? "" : ", ") + x;
  f.source = source + "; built-in entry " + b->source;
  f.note = differ.empty()
               ? "the newest release on PyPI, which agrees with the built-in entry (" + where(b->origin) + "); versions " +
                     versions + "; " + cuda_note
               : "replaces the built-in entry (" + where(b->origin) + ") for " + d + " (PyPI, the newer source); versions " +
                     versions + "; " + cuda_note;
  out.torch_toml += render(f);
  ++out.torch_entries;
}

}  // namespace

Overlay make_overlay(const Kb& base, const RefreshInput& in, std::vector<KbError>& errors) {
  Overlay out;
  std::set<std::string> known_cuda;
  for (const auto& c : base.cuda) known_cuda.insert(c.version.major_minor());
  add_toolkits(base, in, known_cuda, out, errors);

  const pypi::Response* proj = project_response(in.torch);
  if (!proj) return out;
  std::string source = proj->url + " (read " + proj->read + ")";
  std::string latest = proj->body.contains("info") && proj->body["info"].is_object() ? proj->body["info"].value("version", "") : "";
  const TorchRelease* newest_base = nullptr;
  for (const auto& t : base.torch)
    if (!newest_base || newest_base->version < t.version) newest_base = &t;

  for (const auto& l : pypi::torch_lines(in.torch, errors)) {
    LineSeen t{l, source, "", "", false};
    for (const auto& v : l.versions) t.versions += (t.versions.empty() ? "" : ", ") + v;
    t.cuda_usable = !l.default_cuda.empty() && known_cuda.count(l.default_cuda);
    t.cuda_note = l.default_cuda.empty() ? "default wheel's CUDA not read"
                  : "default wheel CUDA " + l.default_cuda + " (Requires-Dist " + l.cuda_from + ")";
    if (!l.default_cuda.empty() && !t.cuda_usable) t.cuda_note += ", a toolkit the KB does not have";
    if (const TorchRelease* b = base.find_torch(l.minor)) compare_line(t, *b, latest, out);
    else if (newest_base && vless(newest_base->version, l.minor)) add_new_line(t, *newest_base, out);
    // else: older than the KB's first line, not ours
  }
  std::string head = "# Written by `torchsmith kb refresh` from " + source +
                     ". Do not edit: run it again, or override in another overlay.\n\n";
  if (!out.torch_toml.empty()) out.torch_toml = head + out.torch_toml;
  if (!out.cuda_toml.empty()) out.cuda_toml = "# Written by `torchsmith kb refresh`. Do not edit: run it again.\n\n" + out.cuda_toml;
  return out;
}

}  // namespace ts::kb
