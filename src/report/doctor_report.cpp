#include "report/doctor_report.h"

#include "core/verdict_word.h"
#include "util/split.h"

#include <cstdio>
#include <sstream>

namespace ts::report {

namespace {

std::string gib(std::uint64_t b) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(b) / (1024.0 * 1024 * 1024));
  return buf;
}

std::string or_dash(const std::string& s) { return s.empty() ? "-" : s; }

// "L4T 36.4.3 (JetPack 6.2)"; the raw release line when it did not parse.
std::string jetson_release(const JetsonFacts& j) {
  if (j.l4t_version.empty()) return "L4T " + or_dash(j.l4t_release);
  return "L4T " + j.l4t_version + " (" + (j.jetpack.empty() ? "JetPack unknown to the knowledge base" : "JetPack " + j.jetpack) + ")";
}

// "  Label      value" with a fixed label column so the eye can scan down it.
void row(std::ostringstream& o, const Style& st, const std::string& label,
         const std::string& value) {
  std::string l = label;
  if (l.size() < 11) l.append(11 - l.size(), ' ');
  o << "  " << st.bold(l) << value << "\n";
}

void section(std::ostringstream& o, const Style& st, const std::string& title) {
  o << "\n" << st.cyan(st.bold(title)) << "\n";
}

std::string level_tag(const Style& st, compat::Level l) {
  switch (l) {
    // The words every command uses (core/verdict_word.h), padded to one width.
    case compat::Level::ok:
      return st.green(std::string(verdict_word(VerdictWord::ok)) + "  ");
    case compat::Level::info:
      return st.dim(std::string(verdict_word(VerdictWord::note)));
    case compat::Level::warn:
      return st.yellow(std::string(verdict_word(VerdictWord::warn)));
    case compat::Level::fail:
      return st.red(std::string(verdict_word(VerdictWord::fail)));
  }
  return "?";
}

void system_section(std::ostringstream& o, const Style& st, const HostFacts& f) {
  section(o, st, "System");
  std::string os = f.os.pretty_name.empty() ? f.os.id + " " + f.os.version_id : f.os.pretty_name;
  std::string extra;
  if (f.os.wsl) extra += ", WSL";
  if (f.os.container) extra += ", container";
  row(o, st, "OS",
      or_dash(os) + ", kernel " + or_dash(f.os.kernel_release) + ", glibc " + or_dash(f.os.glibc) +
          extra);
  std::string cores = std::to_string(f.cpu.logical_cores) + " usable";
  if (f.cpu.online_cores && f.cpu.online_cores != f.cpu.logical_cores)
    cores += " of " + std::to_string(f.cpu.online_cores);
  row(o, st, "CPU",
      or_dash(f.cpu.arch) + ", " + or_dash(f.cpu.model) + ", " + cores + " cores" +
          (f.cpu.isa_level.empty() ? "" : ", " + f.cpu.isa_level));
  std::string mem = gib(f.memory.total_bytes) + " total, " + gib(f.memory.available_bytes) +
                    " available, swap " + gib(f.memory.swap_total_bytes);
  if (f.memory.cgroup_limit_bytes) mem += ", cgroup limit " + gib(f.memory.cgroup_limit_bytes);
  row(o, st, "Memory", mem);
  for (const auto& d : f.disks)
    row(o, st, "Disk",
        d.path + " (" + d.purpose + "): " + gib(d.free_bytes) + " free of " + gib(d.total_bytes));
  if (f.jetson.present)
    row(o, st, "Jetson",
        or_dash(f.jetson.model) + ", " + or_dash(f.jetson.soc) + ", " + jetson_release(f.jetson));
}

void gpu_section(std::ostringstream& o, const Style& st, const HostFacts& f) {
  section(o, st, "GPUs and driver");
  if (f.gpus.empty()) row(o, st, "GPU", "none found");
  for (const auto& g : f.gpus) {
    std::string id = g.integrated ? "integrated" : g.vendor_id + ":" + g.device_id;
    std::string name = g.name.empty() ? "unknown to the knowledge base" : g.name;
    std::string cc = !g.compute_capability ? "compute capability unknown" : "compute " + g.compute_capability->capability();
    std::string where = g.pci_address.empty() ? "" : g.pci_address + "  ";
    std::string by = g.identified_by.empty() ? "" : " (" + g.identified_by + ")";
    std::string mem = g.memory_bytes ? ", " + gib(g.memory_bytes) : "";
    row(o, st, "GPU", where + id + " -> " + name + ", " + cc + mem + by);
  }
  if (f.jetson.present)
    row(o, st, "Driver", "part of " + jetson_release(f.jetson) +
                             (f.driver.present ? "; " + f.driver.source + " says " + f.driver.version +
                                                     (f.driver.cuda_version.empty() ? "" : ", CUDA " + f.driver.cuda_version)
                                               : ""));
  else if (f.driver.present)
    row(o, st, "Driver",
        f.driver.version +
            (f.driver.cuda_version.empty() ? "" : ", supports CUDA <= " + f.driver.cuda_version) +
            " (" + f.driver.source + ")");
  else
    row(o, st, "Driver", "not loaded");
}

void toolchain_section(std::ostringstream& o, const Style& st, const HostFacts& f) {
  section(o, st, "CUDA toolkits and libraries");
  if (f.cuda_toolkits.empty()) row(o, st, "CUDA", "none found");
  for (const auto& t : f.cuda_toolkits) {
    std::string arches;
    if (!t.arches.empty()) arches = ", arches " + code_name(t.arches.code().front()) + ".." + code_name(t.arches.code().back());
    row(o, st, "CUDA",
        t.path + ": " + t.version + " (" + t.version_source + ")" + arches +
            (t.nvcc.empty() ? ", no nvcc" : "") + (t.split_compile ? ", nvcc --split-compile" : "") +
            (t.found_via.empty() ? "" : ", via " + util::join(t.found_via, ", ")));
  }
  for (const auto& l : f.libraries)
    row(o, st, l.name,
        or_dash(l.version) + " at " +
            or_dash(l.include_dir.empty() ? l.library_dir : l.include_dir) + " (" + l.source + ")");
  section(o, st, "Compilers and tools");
  if (f.compilers.empty()) row(o, st, "Compiler", "none found");
  for (const auto& c : f.compilers)
    row(o, st, c.family, c.version + "  " + (c.cxx.empty() ? c.cc + " (no C++ driver)" : c.cxx) +
                             (c.from_env.empty() ? "" : "  (your $" + (c.from_env == "CC CXX" ? std::string("CC/$CXX") : c.from_env) + ")"));
  for (const auto& t : f.tools) row(o, st, t.name, or_dash(t.version) + "  " + t.path);
}

void python_section(std::ostringstream& o, const Style& st, const HostFacts& f) {
  section(o, st, "Python");
  if (f.pythons.empty()) row(o, st, "Python", "none found");
  for (const auto& p : f.pythons) {
    if (!p.error.empty()) {
      row(o, st, "Python", p.path + ": " + st.yellow("not usable: " + p.error));
      continue;
    }
    row(o, st, "Python",
        p.path + ": " + p.version + " " + p.abi_tag + " " + p.platform_tag + " (" +
            or_dash(p.env_kind) + ")");
    std::string pk;
    for (const auto& [n, v] : p.packages) pk += (pk.empty() ? "" : ", ") + n + " " + v;
    if (!pk.empty()) row(o, st, "", pk);
    const TorchFacts& t = p.torch;
    if (t.present) {
      std::string s = "torch " + t.version + (t.cuda.empty() ? ", CPU only" : ", CUDA " + t.cuda) +
                      (t.cudnn.empty() ? "" : ", cuDNN " + t.cudnn) +
                      (t.cxx11_abi ? ", CXX11 ABI" : ", pre-CXX11 ABI") +
                      (t.debug ? ", debug" : "");
      row(o, st, "", s);
      if (!t.arch_list.empty()) row(o, st, "", "arch list " + t.arch_list.joined(" "));
    } else if (!t.error.empty()) {
      row(o, st, "", "torch: import failed: " + t.error);
    }
  }
}

}  // namespace

std::string doctor_text(const HostFacts& f, const std::vector<compat::Verdict>& verdicts,
                        const Style& st) {
  std::ostringstream o;
  o << st.bold("torchsmith doctor") << "  "
    << (f.root == "/" || f.root.empty() ? "this machine" : "host root " + f.root) << "\n";
  system_section(o, st, f);
  gpu_section(o, st, f);
  toolchain_section(o, st, f);
  python_section(o, st, f);
  if (!f.notes.empty()) {
    section(o, st, "Probe notes");
    for (const auto& n : f.notes) o << "  " << n << "\n";
  }
  section(o, st, "Verdicts");
  for (const auto& v : verdicts) {
    o << "  " << level_tag(st, v.level) << " " << v.subject << (v.rule.empty() ? "" : " " + st.dim("[" + v.rule + "]"))
      << "\n";
    if (!v.reason.empty()) o << "       " << v.reason << "\n";
    if (!v.fix.empty()) o << "       " << st.bold("fix: ") << v.fix << "\n";
    // The full upstream source is in --json; the KB entry it rests on is enough to look it up.
    if (!v.where.empty()) o << "       " << st.dim("kb: " + v.where) << "\n";
  }
  auto s = compat::summarize(verdicts);
  o << "\n"
    << st.bold("Summary") << ": " << s.ok << " ok, " << s.info << " note, " << s.warn << " warn, "
    << s.fail << " FAIL\n";
  return o.str();
}

nlohmann::json doctor_json(const HostFacts& facts, const std::vector<compat::Verdict>& verdicts) {
  auto s = compat::summarize(verdicts);
  return nlohmann::json{
      {"schema", "torchsmith-doctor/1"},
      {"facts", facts},
      {"verdicts", verdicts},
      {"summary", {{"ok", s.ok}, {"info", s.info}, {"warn", s.warn}, {"fail", s.fail}}}};
}

}  // namespace ts::report
