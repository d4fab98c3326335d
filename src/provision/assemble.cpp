// From wheel files to a tool directory: unpack, lay out, check complete, rename into place.
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "formats/mapped_file.h"
#include "formats/tar_extract.h"
#include "formats/zip.h"
#include "package/wheel_unpack.h"
#include "provision/provision.h"
#include "util/fs.h"
#include "util/held_file.h"
#include "util/scratch_dir.h"
#include "util/sha256.h"
#include "util/partial_files.h"

namespace ts::provision {

namespace fs = std::filesystem;

namespace {

// Moves every entry of `from` into `to`, descending where both have a directory of that name.
// Python package markers of the wheel layout (__init__.py, __pycache__) are left behind.
std::string merge_into(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::create_directories(to, ec);
  if (ec) return "cannot create " + to.string() + ": " + ec.message();
  for (fs::directory_iterator it(from, ec), end; !ec && it != end; it.increment(ec)) {
    auto name = it->path().filename().string();
    if (name == "__init__.py" || name == "__pycache__") continue;
    fs::path dst = to / name;
    if (it->is_directory(ec) && !it->is_symlink(ec)) {
      if (fs::is_directory(dst, ec)) {
        if (auto e = merge_into(it->path(), dst); !e.empty()) return e;
        continue;
      }
    } else if (fs::exists(fs::symlink_status(dst, ec))) {
      continue;  // the same header in two wheels (cccl and runtime): the first one stays
    }
    fs::rename(it->path(), dst, ec);
    if (ec) return "cannot move " + it->path().string() + ": " + ec.message();
  }
  return ec ? "cannot read " + from.string() + ": " + ec.message() : "";
}

// The roots inside one unpacked wheel whose children form the tool's tree:
//   CUDA 13.x  nvidia/cu13/{bin,include,lib,nvvm}    (one merged tree for every part)
//   CUDA 11/12 nvidia/<part>/{bin,include,lib,nvvm}  (nvidia/cuda_nvcc, nvidia/cuda_runtime, ...)
//   cmake         cmake/data/{bin,share}
//   ninja         ninja-X.data/scripts/ninja (the wheel's scripts, installed as bin/)
std::vector<fs::path> layout_roots(const std::string& kind, const fs::path& unpacked) {
  std::vector<fs::path> roots;
  std::error_code ec;
  if (kind == "cuda") {
    fs::path nv = unpacked / "nvidia";
    for (fs::directory_iterator it(nv, ec), end; !ec && it != end; it.increment(ec))
      if (it->is_directory(ec) && it->path().filename() != "__pycache__") roots.push_back(it->path());
  } else {
    for (fs::directory_iterator it(unpacked, ec), end; !ec && it != end; it.increment(ec)) {
      if (!it->is_directory(ec)) continue;
      std::string n = it->path().filename().string();
      if (fs::is_directory(it->path() / "data", ec)) {
        roots.push_back(it->path() / "data");  // cmake/data/{bin,share}
      } else if (n.size() > 5 && n.compare(n.size() - 5, 5, ".data") == 0 && fs::is_directory(it->path() / "scripts", ec)) {
        fs::rename(it->path() / "scripts", it->path() / "bin", ec);  // ninja-1.13.0.data/scripts/ninja
        roots.push_back(it->path());
      }
    }
  }
  std::sort(roots.begin(), roots.end());
  return roots;
}

bool ends_with(const std::string& s, const std::string& e) {
  return s.size() >= e.size() && s.compare(s.size() - e.size(), e.size(), e) == 0;
}

// A .conda package's files: the pkg-*.tar.zst member staged beside it, then extracted. "" or why not.
std::string extract_conda(const std::string& path, const fs::path& into) {
  formats::MappedFile f(path);
  if (!f.ok()) return f.error();
  std::string err;
  auto zip = formats::ZipArchive::open(f.bytes(), &err);
  if (!zip) return err;
  for (const auto& m : zip->members()) {
    if (m.name.rfind("pkg-", 0) != 0 || !ends_with(m.name, ".tar.zst") || m.name.find('/') != std::string::npos) continue;
    std::string staged = into.string() + ".pkg.tar.zst";
    if (auto e = zip->extract(m, staged); !e.empty()) return e;
    auto e = formats::extract_tar_file(staged, into.string());
    std::error_code ec;
    fs::remove(staged, ec);
    return e;
  }
  return "not a .conda package (no pkg-*.tar.zst member)";
}

// One provider's file unpacked into `into` and the roots whose children form the tool's tree:
//   a wheel (.whl)                 as layout_roots says
//   NVIDIA's archive (.tar.xz)     its one top-level folder, cuda_nvcc-linux-x86_64-12.4.131-archive/
//   a conda package (.conda, .tar.bz2)  targets/<triple>/ (include, lib of CUDA 12 packages), then
//                                  the prefix itself (bin/, nvvm/), info/ left out
std::string unpack_file(const std::string& kind, const std::string& path, const fs::path& into, std::vector<fs::path>& roots) {
  std::error_code ec;
  if (ends_with(path, ".whl")) {
    std::string err;
    if (!package::unpack_wheel(path, into.string(), &err)) return err;
    roots = layout_roots(kind, into);
    if (roots.empty()) return "not the layout of a " + kind + " wheel (no nvidia/ or <name>/data/ tree)";
    return "";
  }
  bool conda = ends_with(path, ".conda") || ends_with(path, ".tar.bz2");
  std::string e = ends_with(path, ".conda") ? extract_conda(path, into) : formats::extract_tar_file(path, into.string());
  if (!e.empty()) return e;
  if (conda) {
    fs::remove_all(into / "info", ec);
    for (fs::directory_iterator it(into / "targets", ec), end; !ec && it != end; it.increment(ec))
      if (it->is_directory(ec) && !it->is_symlink(ec)) roots.push_back(it->path());
    std::sort(roots.begin(), roots.end());
    fs::path moved = into.string() + ".targets";
    fs::rename(into / "targets", moved, ec);  // out of the prefix root, still read from above
    for (auto& r : roots) r = moved / r.filename();
    roots.push_back(into);
    return "";
  }
  std::vector<fs::path> top;
  for (fs::directory_iterator it(into, ec), end; !ec && it != end; it.increment(ec)) top.push_back(it->path());
  if (top.size() != 1 || !fs::is_directory(fs::symlink_status(top[0], ec)))
    return "not the layout of NVIDIA's redistributable archive (one top-level folder, NAME-PLATFORM-VERSION-archive/)";
  roots.push_back(top[0]);
  return "";
}

void make_executable(const fs::path& dir) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file(ec)) ::chmod(it->path().c_str(), 0755);  // wheels carry no mode bits we read
}

// What nvcc, FindCUDAToolkit and cpp_extension look for beyond the wheels' own files.
std::string finish_cuda(const fs::path& root) {
  std::error_code ec;
  if (!fs::exists(root / "lib64", ec) && fs::is_directory(root / "lib", ec)) fs::create_directory_symlink("lib", root / "lib64", ec);
  if (ec) return "cannot link lib64: " + ec.message();
  make_executable(root / "bin");
  make_executable(root / "nvvm" / "bin");
  // libcudart.so -> libcudart.so.13: the link-time name -lcudart needs (the wheels carry the SONAME only).
  for (fs::directory_iterator it(root / "lib", ec), end; !ec && it != end; it.increment(ec)) {
    auto n = it->path().filename().string();
    auto p = n.find(".so.");
    if (p == std::string::npos) continue;
    fs::path plain = root / "lib" / n.substr(0, p + 3);
    if (!fs::exists(fs::symlink_status(plain, ec))) fs::create_symlink(n, plain, ec);
  }
  // CUDA 11/12 layouts keep libnvvm in nvvm/lib64; 13.x in lib/: cicc looks in nvvm/lib64.
  if (fs::exists(root / "lib" / "libnvvm.so.4", ec) && !fs::exists(root / "nvvm" / "lib64", ec)) {
    fs::create_directories(root / "nvvm", ec);
    fs::create_directory_symlink("../lib", root / "nvvm" / "lib64", ec);
  }
  return "";
}

}  // namespace

std::vector<std::string> required_files(const std::string& kind) {
  if (kind == "cuda")
    return {"bin/nvcc", "bin/ptxas", "bin/fatbinary", "bin/nvlink", "bin/cudafe++", "nvvm/bin/cicc",
            "nvvm/libdevice/libdevice.10.bc", "include/cuda_runtime.h", "include/crt/host_config.h",
            "lib64/libcudart.so"};
  if (kind == "cmake") return {"bin/cmake"};
  if (kind == "ninja") return {"bin/ninja"};
  return {};
}

std::vector<std::string> missing_files(const std::string& kind, const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& f : required_files(kind))
    if (!fs::exists(fs::path(dir) / f, ec)) out.push_back(f);
  return out;
}

std::string assemble(const std::string& kind, const std::string& version, const std::vector<WheelFile>& wheels,
                     const WheelProvider& provider, const std::string& platform, const std::string& dir) {
  std::error_code ec;
  fs::path final_dir(dir);
  fs::create_directories(final_dir.parent_path(), ec);
  if (ec) return "cannot create " + final_dir.parent_path().string() + ": " + ec.message();
  // Scratch beside the final directory (same filesystem: the rename is atomic); a dot name that
  // list_cached never takes for a toolkit, removed on every way out.
  fs::path scratch = final_dir.parent_path() /
                     ("." + final_dir.filename().string() + ".partial-" + std::to_string(::getpid()));
  fs::remove_all(scratch, ec);
  util::remove_stale(final_dir.parent_path().string(), ".partial-");  // a killed `toolkit add`'s (util/partial_files.h)
  struct Cleanup {  // on a signal too (util/scratch_dir.h's registry)
    fs::path p;
    int slot;
    ~Cleanup() { std::error_code e; fs::remove_all(p, e); util::unregister_cleanup(slot); }
  } cleanup{scratch, util::register_cleanup(scratch.string())};
  fs::path tree = scratch / "tree";
  Manifest m{kind, version, provider.name(), provider.from(), platform, {}, ""};
  int n = 0;
  if (::mkdir(scratch.c_str(), 0700) != 0) return "cannot create " + scratch.string() + ": " + std::strerror(errno);
  for (const auto& w : wheels) {
    // Hash what you use: the file is copied once into the scratch while hashed; the copy is unpacked.
    fs::path into = scratch / ("w" + std::to_string(n++));
    std::string err;
    std::optional<util::HeldFile> held;
    if (!w.held_sha256.empty()) held = util::HeldFile{w.path, w.held_sha256, 0};  // staged and hashed by the provider
    else held = util::hold_file(w.path, (scratch / ("held-" + std::to_string(n) + "-" + fs::path(w.path).filename().string())).string(), &err);
    if (!held) return err;
    const std::string& sum = held->sha256;
    if (!w.pin.sha256.empty() && w.pin.sha256 != sum)
      return w.path + ": sha256 " + sum + " is not the pinned " + w.pin.sha256 + " (a different or damaged file)";
    // A provider that fetched the file names where from (an archive's URL); else the file's name.
    m.wheels.push_back({w.pin.name, w.pin.version, sum, w.pin.file.empty() ? fs::path(w.path).filename().string() : w.pin.file});
    std::vector<fs::path> roots;
    auto e = unpack_file(kind, held->path, into, roots);
    fs::remove(held->path, ec);  // a CUDA wheel is GBs: the copy goes once unpacked
    if (!e.empty()) return w.path + ": " + e;
    for (const auto& r : roots)
      if (auto e = merge_into(r, tree); !e.empty()) return e;
  }
  if (kind == "cuda")
    if (auto e = finish_cuda(tree); !e.empty()) return e;
  if (kind != "cuda") make_executable(tree / "bin");
  auto missing = missing_files(kind, tree.string());
  if (!missing.empty()) {
    std::string list;
    for (const auto& f : missing) list += (list.empty() ? "" : ", ") + f;
    return "the " + std::string(provider.name() == "pip" || provider.name() == "wheelhouse" ? "wheels" : "archives") + " of " +
           kind + " " + version + " do not make a whole " + kind + " (missing " + list + ")";
  }
  nlohmann::json j = {{"schema", "torchsmith-toolkit/1"}, {"kind", m.kind}, {"version", m.version},
                      {"provider", m.provider}, {"from", m.from}, {"platform", m.platform}, {"wheels", nlohmann::json::array()}};
  for (const auto& w : m.wheels)
    j["wheels"].push_back({{"name", w.name}, {"version", w.version}, {"sha256", w.sha256}, {"file", w.file}});
  if (auto e = util::write_file_atomic((tree / kManifest).string(), j.dump(2) + "\n"); !e.empty()) return e;
  fs::rename(tree, final_dir, ec);
  if (ec) {
    // Another torchsmith finished the same directory first: theirs is as good as ours.
    if (read_manifest(dir)) return "";
    return "cannot move the toolkit into " + dir + ": " + ec.message();
  }
  return "";
}

std::optional<Manifest> read_manifest(const std::string& dir) {
  auto text = util::read_file(dir + "/" + kManifest);
  if (!text) return std::nullopt;
  try {
    auto j = nlohmann::json::parse(*text);
    Manifest m;
    m.kind = j.at("kind").get<std::string>();
    m.version = j.at("version").get<std::string>();
    m.provider = j.value("provider", "");
    m.from = j.value("from", "");
    m.platform = j.value("platform", "");
    for (const auto& w : j.value("wheels", nlohmann::json::array()))
      m.wheels.push_back({w.value("name", ""), w.value("version", ""), w.value("sha256", ""), w.value("file", "")});
    m.dir = dir;
    return m;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::vector<Manifest> list_cached(const std::string& cache_root) {
  std::vector<Manifest> out;
  std::error_code ec;
  for (fs::directory_iterator it(cache_root + "/toolkits", ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().filename().string().rfind('.', 0) == 0) continue;  // scratch of a provision under way
    if (auto m = read_manifest(it->path().string())) out.push_back(*m);
  }
  std::sort(out.begin(), out.end(), [](const Manifest& a, const Manifest& b) {
    return a.kind != b.kind ? a.kind < b.kind : a.dir < b.dir;
  });
  return out;
}

std::string hash_mismatch(const std::vector<plan::WheelPin>& have, const std::vector<plan::WheelPin>& expect) {
  for (const auto& e : expect) {
    if (e.sha256.empty()) continue;
    auto it = std::find_if(have.begin(), have.end(),
                           [&](const plan::WheelPin& h) { return h.name == e.name && h.version == e.version; });
    if (it == have.end()) return e.name + "==" + e.version + ": not among the wheels used, the lock pins it";
    if (it->sha256 != e.sha256) return e.name + "==" + e.version + ": sha256 " + it->sha256 + ", the lock pins " + e.sha256;
  }
  return "";
}

std::optional<Result> ensure(const plan::ToolRelease& rel, const WheelProvider& provider,
                             const std::string& cache_root, const std::string& platform, std::string* error,
                             const std::vector<plan::WheelPin>& expect) {
  auto t0 = std::chrono::steady_clock::now();
  auto secs = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  std::string dir = plan::provisioned_dir(cache_root, rel.kind, rel.version.original(), rel.wheels, platform);
  if (auto m = read_manifest(dir)) {
    auto missing = missing_files(rel.kind, dir);
    if (auto bad = hash_mismatch(m->wheels, expect); !bad.empty()) {
      if (error)
        *error = dir + " was made from other files than the lock pins (" + bad +
                 "): torchsmith toolkit remove it and build again, or plan again for these files";
      return std::nullopt;
    }
    if (missing.empty()) return Result{dir, true, secs(), *m};
    if (error) *error = dir + " lacks " + missing.front() + " (changed after it was provisioned): torchsmith toolkit remove it and add it again";
    return std::nullopt;
  }
  if (!rel.complete) {
    if (error)
      *error = rel.kind + " " + rel.version.original() + "'s wheels do not carry a whole compiler (" + rel.source +
               "): it cannot be provisioned from wheels";
    return std::nullopt;
  }
  std::error_code ec;
  fs::path downloads = fs::path(cache_root) / "downloads" / (".get-" + std::to_string(::getpid()));
  util::remove_stale(downloads.parent_path().string(), ".get-");  // a killed `toolkit add`'s (util/partial_files.h)
  fs::create_directories(downloads, ec);
  if (!ec) fs::permissions(downloads, fs::perms::owner_all, ec);  // providers stage files here privately
  if (ec) {
    if (error) *error = "cannot create " + downloads.string() + ": " + ec.message();
    return std::nullopt;
  }
  struct Cleanup {  // on a signal too (util/scratch_dir.h's registry)
    fs::path p;
    int slot;
    ~Cleanup() { std::error_code e; fs::remove_all(p, e); util::unregister_cleanup(slot); }
  } cleanup{downloads, util::register_cleanup(downloads.string())};
  std::vector<WheelFile> files;
  if (!provider.get(rel.wheels, platform, downloads.string(), files, error)) return std::nullopt;
  // The lock's hashes: assemble refuses a file that hashes otherwise (pip checked PyPI's own). A
  // pinned part the provider gave no file of that version for (a mirror's manifest that moved on) is refused too.
  for (const auto& e : expect) {
    bool found = false;
    for (auto& f : files)
      if (e.name == f.pin.name && e.version == f.pin.version) {
        if (!e.sha256.empty()) f.pin.sha256 = e.sha256;
        found = true;
      }
    if (!found && !e.sha256.empty()) {
      std::string have;
      for (const auto& f : files)
        if (f.pin.name == e.name) have = f.pin.version;
      if (error)
        *error = e.name + "==" + e.version + " is pinned by the lock, but " + provider.name() + " " + provider.from() +
                 " gives " + (have.empty() ? "none" : e.name + "==" + have) + ": plan again for these files, or mirror the pinned ones";
      return std::nullopt;
    }
  }
  if (auto e = assemble(rel.kind, rel.version.original(), files, provider, platform, dir); !e.empty()) {
    if (error) *error = e;
    return std::nullopt;
  }
  auto m = read_manifest(dir);
  if (!m) {
    if (error) *error = dir + ": no manifest after provisioning";
    return std::nullopt;
  }
  return Result{dir, false, secs(), *m};
}

std::string host_platform() {
  struct utsname u {};
  if (::uname(&u) != 0) return "";
  return plan::wheel_platform(u.machine);
}

}  // namespace ts::provision
