// Helpers every file reader shares: the top-level entry arrays, duplicate keys, arch existence.
#include <algorithm>

#include "core/cuda_arch.h"
#include "kb/readers.h"
#include "kb/toml_reader.h"

namespace ts::kb::detail {

std::vector<const toml::table*> entries(const toml::table& root, FileCtx& c, std::string_view name,
                                        const std::vector<std::string_view>& allowed) {
  std::vector<const toml::table*> out;
  for (const auto& [k, v] : root) {
    std::string key(k.str());
    int line = static_cast<int>(k.source().begin.line);
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      std::string list;
      for (auto a : allowed) list += (list.empty() ? "" : ", ") + ("[[" + std::string(a) + "]]");
      c.errors.push_back({{c.file, line}, "unknown top-level key '" + key + "'; this file holds " + list + " entries"});
      continue;
    }
    if (key != name) continue;
    const toml::array* a = v.as_array();
    if (!a || !a->is_array_of_tables()) {
      c.errors.push_back({{c.file, line}, "'" + key + "' must be an array of tables; write [[" + key + "]] blocks"});
      continue;
    }
    for (const auto& el : *a) out.push_back(el.as_table());
  }
  return out;
}

std::string arch_in_toolkits(const Kb& base, const CudaArch& arch) {
  if (base.cuda.empty()) return "";
  for (const auto& r : base.cuda)
    if (std::find(r.arches.begin(), r.arches.end(), arch.sass_only()) != r.arches.end()) return "";
  return "'" + arch.str() + "' is a target of no CUDA toolkit in cuda.toml; write an arch nvcc has "
         "(add the toolkit to cuda.toml first if it is new)";
}

bool unique_key(std::unordered_map<std::string, int>& seen, const std::string& key, int line,
                FileCtx& c, std::string_view what, std::string_view key_name) {
  auto [it, added] = seen.emplace(key, line);
  if (added) return true;
  c.errors.push_back({{c.file, line}, std::string(what) + ": duplicate " + std::string(key_name) + " '" + key +
                                          "' (first at line " + std::to_string(it->second) +
                                          "); merge the two entries or remove one"});
  return false;
}

}  // namespace ts::kb::detail
