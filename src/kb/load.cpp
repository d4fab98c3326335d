// Loading: parse a file into a staging Kb, keep it only when it has no errors, then merge it
// (an entry with the same key replaces the earlier one). Nothing here throws.
#include <algorithm>
#include "kb/toml_parse.h"
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <type_traits>

#include "core/version.h"
#include "kb/embedded.h"
#include "kb/files.h"
#include "kb/readers.h"

namespace ts::kb {

namespace {

using detail::FileCtx;

std::string lower(std::string s) {
  for (auto& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

std::string minor_key(const std::string& v) {
  auto p = Version::parse(v);
  return p ? p->major_minor() : v;
}

// Replaces the entry with the same key, or appends; keys looked up in a map, so an overlay of
// 100k entries loads in n log n (a scan per entry took 28.9 s).
template <class T, class Key>
void merge(std::vector<T>& into, std::vector<T>& from, Key key) {
  std::map<std::decay_t<decltype(key(into.front()))>, std::size_t> at;
  for (std::size_t i = 0; i < into.size(); ++i) at.emplace(key(into[i]), i);
  for (auto& e : from) {
    auto [it, added] = at.emplace(key(e), into.size());
    if (added) into.push_back(std::move(e));
    else into[it->second] = std::move(e);
  }
}

void merge_all(Kb& kb, Kb& s, int order) {
  merge(kb.gpus, s.gpus, [](const Gpu& g) { return lower(g.pci_id); });
  merge(kb.tegra, s.tegra, [](const TegraSoc& t) { return lower(t.compatible); });
  merge(kb.families, s.families, [](const ArchFamily& f) { return lower(f.name); });
  merge(kb.cuda, s.cuda, [](const CudaRelease& r) { return r.version.major_minor(); });
  merge(kb.cuda_families, s.cuda_families, [](const CudaFamily& f) { return minor_key(f.major); });
  merge(kb.torch, s.torch, [](const TorchRelease& r) { return r.version.major_minor(); });
  merge(kb.arch_support, s.arch_support, [](const ArchSupport& a) { return a.arch; });
  merge(kb.jetpack, s.jetpack, [](const JetpackRelease& j) { return j.l4t; });
  merge(kb.tegra_features_off, s.tegra_features_off, [](const TegraFeatureOff& f) { return f.feature; });
  merge(kb.tegra_gpu_access, s.tegra_gpu_access, [](const TegraGpuAccess&) { return 0; });
  if (order == detail::load_order("resources.toml")) kb.resources = s.resources;
}

void read_by_kind(int order, const toml::table& root, FileCtx& c, Kb& staged) {
  switch (order) {
    case 0: detail::read_cuda(root, c, staged); break;
    case 1: detail::read_families(root, c, staged); break;
    case 2: detail::read_tegra(root, c, staged); break;
    case 3: detail::read_torch(root, c, staged); break;
    case 4: detail::read_gpus(root, c, staged); break;
    case 5: detail::read_resources(root, c, staged); break;
    default: break;
  }
}

}  // namespace

void load_text(Kb& kb, std::string_view file_name, std::string_view text, std::vector<KbError>& errors) {
  int order = detail::load_order(file_name);
  if (order < 0) return;  // another stage's file (signatures.toml, packages/...): not ours to read
  std::string file(file_name);
  std::vector<KbError> local;
  try {
    toml::table root = parse_toml(text, file);
    Kb staged;
    FileCtx ctx{file, kb, local};
    read_by_kind(order, root, ctx, staged);
    if (local.empty()) {
      merge_all(kb, staged, order);
      kb.files.push_back(file);
      return;
    }
  } catch (const toml::parse_error& e) {
    local.push_back({{file, static_cast<int>(e.source().begin.line)},
                     "TOML syntax error: " + std::string(e.description()) +
                         "; fix the line (strings need double quotes, lists [\"a\", \"b\"], tables [[name]])"});
  } catch (const std::exception& e) {
    local.push_back({{file, 0}, std::string("cannot load: ") + e.what()});
  }
  local.push_back({{file, 0}, "file skipped: it has " + std::to_string(local.size()) +
                                  " error(s); nothing from it was loaded"});
  errors.insert(errors.end(), local.begin(), local.end());
}

Kb load_embedded(std::vector<KbError>& errors) {
  Kb kb;
  std::vector<EmbeddedFile> files(embedded_files().begin(), embedded_files().end());
  auto rank = [](const EmbeddedFile& f) { int o = detail::load_order(f.path); return o < 0 ? 100 : o; };
  std::stable_sort(files.begin(), files.end(),
                   [&](const EmbeddedFile& a, const EmbeddedFile& b) { return rank(a) < rank(b); });
  for (const auto& f : files) load_text(kb, f.path, std::string_view(f.data, f.size), errors);
  return kb;
}

void load_dir(Kb& kb, const std::string& dir, std::vector<KbError>& errors) {
  std::vector<detail::KbFile> files;
  std::string err;
  if (!detail::list_toml_files(dir, files, err)) {
    errors.push_back({{dir, 0}, "overlay directory: " + err});
    return;
  }
  for (const auto& f : files) {
    if (detail::load_order(f.relative) < 0) continue;
    std::string text;
    if (!detail::read_text_file(f.path, text)) {
      errors.push_back({{f.path, 0}, "cannot read the file; check its permissions"});
      continue;
    }
    load_text(kb, f.path, text, errors);
  }
}

Kb load(const std::vector<std::string>& overlay_dirs, std::vector<KbError>& errors) {
  Kb kb = load_embedded(errors);
  for (const auto& d : overlay_dirs) load_dir(kb, d, errors);
  return kb;
}

std::vector<std::string> default_overlay_dirs() {
  std::vector<std::string> out;
  std::string base;
  if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x) base = x;
  else if (const char* h = std::getenv("HOME"); h && *h) base = std::string(h) + "/.config";
  if (base.empty()) return out;
  std::string dir = base + "/torchsmith/kb";
  std::error_code ec;
  if (std::filesystem::is_directory(dir, ec)) out.push_back(dir);
  return out;
}

}  // namespace ts::kb
