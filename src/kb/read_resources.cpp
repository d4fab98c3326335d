// resources.toml: [memory] and [disk], the inputs of the job-count and disk-space model.
#include "kb/readers.h"
#include "kb/toml_reader.h"

namespace ts::kb::detail {

void read_resources(const toml::table& root, FileCtx& c, Kb& out) {
  ResourceModel m = c.base.resources;  // an overlay may set only some numbers
  std::string sources;
  for (const auto& [k, v] : root) {
    std::string key(k.str());
    const toml::table* t = v.as_table();
    if ((key != "memory" && key != "disk") || !t) {
      c.errors.push_back({{c.file, static_cast<int>(k.source().begin.line)},
                          "unknown top-level key '" + key + "'; this file holds [memory] and [disk] tables"});
      continue;
    }
    EntryReader r(*t, c.file, key, c.errors);
    auto set = [&](std::string_view name, double& field, std::string_view example) {
      if (t->get(name)) field = r.number(name, false, example);
      else r.number(name, false, example);  // records the key as allowed
    };
    if (key == "memory") {
      if (!m.origin.line || m.origin.file != c.file) m.origin = r.origin();
      set("cxx_job_gib", m.cxx_job_gib, "2.5");
      set("nvcc_job_gib", m.nvcc_job_gib, "3.0");
      set("nvcc_arch_gib", m.nvcc_arch_gib, "0.5");
      set("nvcc_thread_factor", m.nvcc_thread_factor, "1.0");
      set("nvcc_split_thread_factor", m.nvcc_split_thread_factor, "0.25");
    } else {
      set("torch_build_gib", m.torch_build_disk_gib, "20");
      set("tmp_gib", m.tmp_disk_gib, "5");
    }
    std::string src = r.text("source", true, "\"<where these numbers come from>\"");
    if (!src.empty()) sources += (sources.empty() ? "" : "; ") + key + ": " + src;
    r.finish();
  }
  if (!sources.empty()) m.source = sources;
  out.resources = m;
}

}  // namespace ts::kb::detail
