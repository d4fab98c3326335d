// provision.toml reader, the cache directory rule and --toolkit's spellings.
#include "plan/provision_request.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "kb/tomlpp.h"

#include "core/version.h"
#include "kb/check.h"
#include "kb/embedded.h"
#include "kb/layers.h"
#include "kb/toml_parse.h"
#include "kb/toml_reader.h"
#include "util/sha256.h"

namespace ts::plan {

namespace {

// "nvidia-cuda-nvcc==13.2.86" -> {name, version}; false when not NAME==VERSION.
bool parse_pin(const std::string& s, WheelPin& out) {
  auto eq = s.find("==");
  if (eq == std::string::npos || eq == 0 || eq + 2 >= s.size()) return false;
  out.name = s.substr(0, eq);
  out.version = s.substr(eq + 2);
  return Version::parse(out.version).has_value() &&
         out.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-_.") == std::string::npos;
}

std::vector<kb::KbError> parse_into(ProvisionCatalog& cat, const std::string& file, std::string_view text) {
  std::vector<kb::KbError> errs;
  try {
    toml::table root = kb::parse_toml(text, file);
    if (auto mt = root["mirror"].as_table()) {
      // A site's mirror per provider: a URL or an absolute directory (the user's config; --toolkit-mirror
      // and $TORCHSMITH_TOOLKIT_MIRROR come before it).
      for (auto& [k, v] : *mt) {
        std::string key(k.str());
        int line = static_cast<int>(v.source().begin.line);
        auto text = v.value<std::string>();
        if (key != "redist" && key != "conda") {
          errs.push_back({{file, line}, "[mirror] " + key + ": the keys are redist and conda"});
        } else if (!text || text->empty() ||
                   (text->rfind("https://", 0) != 0 && text->rfind("http://", 0) != 0 && text->rfind("file://", 0) != 0 &&
                    text->front() != '/')) {
          errs.push_back({{file, line}, "[mirror] " + key + ": write an http(s):// or file:// URL or an absolute directory "
                                        "(redist = \"/srv/cuda-redist\")"});
        } else {
          (key == "redist" ? cat.redist_mirror : cat.conda_mirror) = *text;
          cat.mirror_origin = file;
        }
      }
    }
    for (const char* table : {"cuda", "cmake", "ninja", "redist", "conda", "cudnn"}) {
      std::string tname = table;
      auto a = root[table].as_array();
      if (!a) continue;
      // An overlay's entry of the same kind, version and provider replaces the built-in one.
      auto put = [&](ToolRelease e) {
        auto it = std::find_if(cat.tools.begin(), cat.tools.end(), [&](const ToolRelease& x) {
          return x.kind == e.kind && x.version.original() == e.version.original() && x.via == e.via;
        });
        if (it != cat.tools.end()) *it = std::move(e);
        else cat.tools.push_back(std::move(e));
      };
      // Every table's shared keys (source, note) and the entry's place, then the entry goes in.
      auto finish = [&](kb::detail::EntryReader& r, ToolRelease e) {
        kb::Entry common;
        r.common(common);
        e.source = common.source;
        e.note = common.note;
        e.origin = r.origin();
        r.finish();
        put(std::move(e));
      };
      for (auto& n : *a) {
        auto t = n.as_table();
        if (!t) continue;
        kb::detail::EntryReader r(*t, file, table, errs);
        ToolRelease e;
        bool redist = tname == "redist", conda = tname == "conda";
        e.kind = redist || conda ? "cuda" : tname;
        e.via = redist || tname == "cudnn" ? "redist" : conda ? "conda" : "pip";
        // A bad version is reported and the file contributes nothing: no entry keeps the default.
        e.version = r.parsed_version("version", true, "\"13.2.86\"").value_or(Version{});
        if (tname == "cudnn") {  // cuDNN's own manifest: one component, "cudnn", per CUDA major
          e.release = r.text("release", true, "\"9.8.0\"");
          e.manifest = r.text("manifest", true, "\"https://developer.download.nvidia.com/compute/cudnn/redist/redistrib_9.8.0.json\"");
          e.cuda_majors = r.texts("cuda", true, "[\"11\", \"12\"]");
          for (const auto& m : e.cuda_majors)
            if (m.empty() || m.size() > 3 || m.find_first_not_of("0123456789") != std::string::npos)
              r.error(r.line(), "cuda: '" + m + "' is not a CUDA major (write [\"11\", \"12\"])");
          e.torch_min = r.parsed_version("torch_min", false, "\"2.4\"");
          e.torch_max_exclusive = r.parsed_version("torch_max_exclusive", false, "\"2.4\"");
          e.wheels = {{"cudnn", e.version.original(), "", e.manifest}};
          finish(r, std::move(e));
          continue;
        }
        auto pins = [&](const char* key, bool required, std::vector<WheelPin>& into) {
          for (const auto& w : r.texts(key, required, redist ? "[\"cuda_nvcc\", \"cuda_cudart\"]" : "[\"cuda-nvcc==12.4.131\"]")) {
            WheelPin p;
            if (redist && !w.empty() && w.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") == std::string::npos)
              into.push_back({w, w == "cuda_nvcc" ? e.version.original() : "", "", ""});  // the plan knows nvcc's version only
            else if (!redist && parse_pin(w, p)) into.push_back(p);
            else r.error(r.line(), std::string(key) + ": '" + w + "' is not " +
                                       (redist ? "a manifest component (\"cuda_nvcc\")" : "NAME==VERSION (write \"cmake==3.31.6\")"));
          }
        };
        pins(redist ? "components" : conda ? "packages" : "wheels", true, e.wheels);
        if (redist || conda) pins(redist ? "torch_components" : "torch_packages", false, e.torch_parts);
        if (redist) {
          e.release = r.text("release", true, "\"12.4.1\"");
          e.manifest = r.text("manifest", true, "\"https://developer.download.nvidia.com/compute/cuda/redist/redistrib_12.4.1.json\"");
        }
        if (conda) e.channel = r.text("channel", true, "\"https://conda.anaconda.org/nvidia/label/cuda-12.4.1\"");
        e.complete = r.flag("complete", true);
        finish(r, std::move(e));
      }
    }
  } catch (const toml::parse_error& e) {
    errs.push_back({{file, static_cast<int>(e.source().begin.line)},
                    "TOML syntax error: " + std::string(e.description())});
  }
  return errs;
}

}  // namespace

const ToolRelease* ProvisionCatalog::find(std::string_view kind, const Version& version, std::string_view via) const {
  const Version* want = &version;
  bool mm = kind == "cuda" && version.release().size() == 2;
  const ToolRelease* best = nullptr;
  for (const auto& t : tools) {
    if (t.kind != kind || t.via != via) continue;
    const Version& v = t.version;
    bool match = mm ? v.major_minor() == want->major_minor() : v == *want;
    if (match && (!best || v > best->version)) best = &t;
  }
  return best;
}

const ToolRelease* ProvisionCatalog::cudnn_for(int cuda_major, const Version& torch_version) const {
  const Version* torch = &torch_version;
  const ToolRelease* best = nullptr;
  for (const auto& t : tools) {
    if (t.kind != "cudnn" || std::find(t.cuda_majors.begin(), t.cuda_majors.end(), std::to_string(cuda_major)) == t.cuda_majors.end())
      continue;
    if (torch && t.torch_min && *torch < *t.torch_min) continue;
    if (torch && t.torch_max_exclusive && !(*torch < *t.torch_max_exclusive)) continue;
    if (!best || t.version > best->version) best = &t;
  }
  return best;
}

std::string ProvisionCatalog::mirror(std::string_view via) const {
  return via == "redist" ? redist_mirror : via == "conda" ? conda_mirror : "";
}

std::vector<const ToolRelease*> ProvisionCatalog::of_kind(std::string_view kind) const {
  std::vector<const ToolRelease*> out;
  for (const auto& t : tools)
    if (t.kind == kind && t.via == "pip") out.push_back(&t);
  std::sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->version > b->version; });
  return out;
}

bool read_provision_text(ProvisionCatalog& cat, std::string_view file, std::string_view text,
                         std::vector<std::string>& errors) {
  ProvisionCatalog staged = cat;
  auto errs = parse_into(staged, std::string(file), text);
  for (const auto& e : errs) errors.push_back(e.str());
  if (!errs.empty()) return false;  // a file with errors contributes nothing
  cat = std::move(staged);
  return true;
}

ProvisionCatalog load_provision_catalog(const std::vector<std::string>& overlay_dirs,
                                        std::vector<std::string>& errors) {
  return kb::read_layers<ProvisionCatalog>("provision.toml", overlay_dirs, errors, read_provision_text);
}

void validate_provision_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors) {
  ProvisionCatalog scratch;
  for (auto& e : parse_into(scratch, std::string(file), text)) errors.push_back(std::move(e));
}

std::string provisioned_dir(const std::string& cache_root, const std::string& kind, const std::string& version,
                            const std::vector<WheelPin>& wheels, const std::string& platform) {
  std::vector<std::string> lines;
  for (const auto& w : wheels) lines.push_back(w.name + "==" + w.version + (w.sha256.empty() ? "" : " " + w.sha256));
  std::sort(lines.begin(), lines.end());
  std::string text = kind + "\n" + version + "\n" + platform + "\n";
  for (const auto& l : lines) text += l + "\n";
  util::Sha256 h;
  h.update(text.data(), text.size());
  return cache_root + "/toolkits/" + kind + "-" + version + "-" + util::hex(h.digest()).substr(0, 12);
}

std::string wheel_platform(const std::string& machine) {
  if (machine == "x86_64" || machine == "aarch64") return "manylinux2014_" + machine;
  return "";
}

std::optional<ToolkitChoice> parse_toolkit_choice(std::string_view text, std::string* error) {
  ToolkitChoice c;
  std::string t(text);
  if (t.empty() || t == "auto") return c;
  if (t == "system") c.kind = ToolkitChoice::Kind::system;
  else if (t == "pip") c.kind = ToolkitChoice::Kind::pip;
  else if (t == "redist") c.kind = ToolkitChoice::Kind::redist;
  else if (t == "conda") c.kind = ToolkitChoice::Kind::conda;
  else if (t.rfind("wheelhouse:", 0) == 0 && t.size() > 11) {
    c.kind = ToolkitChoice::Kind::wheelhouse;
    c.dir = std::filesystem::absolute(t.substr(11)).lexically_normal().string();
  } else if (t.find('/') != std::string::npos) {
    c.kind = ToolkitChoice::Kind::path;
    c.dir = std::filesystem::absolute(t).lexically_normal().string();
  } else {
    if (error) *error = "--toolkit '" + t + "': write system, pip, redist, conda, wheelhouse:DIR or a CUDA_HOME path (with a '/')";
    return std::nullopt;
  }
  return c;
}

}  // namespace ts::plan
