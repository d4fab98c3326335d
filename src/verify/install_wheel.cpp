#include "verify/install_wheel.h"

#include <filesystem>

#include "util/fs.h"
#include "formats/mapped_file.h"
#include "util/safe_path.h"
#include "verify/python_run.h"
#include "formats/zip.h"

namespace ts::verify {
namespace {

namespace fs = std::filesystem;

util::RunResult run_py(const std::vector<std::string>& argv, const InstallOptions& o,
                       std::chrono::milliseconds t) {
  util::RunOptions ro = pip_run_options(o.python, o.dir, t);
  (*ro.env)["PIP_NO_CACHE_DIR"] = "1";  // and keeps no cache
  return util::run(argv, ro);
}

std::string failed(const util::RunResult& r, std::chrono::milliseconds t) {
  if (r.timed_out) return "timed out after " + std::to_string(t.count() / 1000) + " s";
  std::string why = last_line(r.err);
  if (why.empty()) why = last_line(r.out);
  return r.describe(t) + (why.empty() ? "" : ": " + why);
}

// The wheel's own files under `site`: names stay inside (the zip reader refuses '..').
std::string extract_wheel(const std::string& wheel, const std::string& site, int* skipped) {
  formats::MappedFile m(wheel);
  if (!m.ok()) return m.error();
  std::string err;
  auto zip = formats::ZipArchive::open(m.bytes(), &err);
  if (!zip) return wheel + ": " + err;
  for (const auto& mem : zip->members()) {
    if (mem.name.empty() || mem.name.back() == '/') continue;
    std::string rel = mem.name;
    std::size_t slash = rel.find('/');
    std::string top = rel.substr(0, slash);
    if (top.size() > 5 && top.compare(top.size() - 5, 5, ".data") == 0 &&
        slash != std::string::npos) {
      std::string rest = rel.substr(slash + 1);
      std::size_t s2 = rest.find('/');
      std::string cat = rest.substr(0, s2);
      if ((cat != "purelib" && cat != "platlib") || s2 == std::string::npos) {
        ++*skipped;
        continue;
      }
      rel = rest.substr(s2 + 1);
    }
    fs::path out = fs::path(site) / rel;
    std::error_code ec;
    fs::create_directories(out.parent_path(), ec);
    if (ec) return "cannot create " + out.parent_path().string() + ": " + ec.message();
    if (auto e = zip->extract(mem, out.string()); !e.empty()) return mem.name + ": " + e;
  }
  return "";
}

// True when every member goes into site-packages as it is (root, .dist-info, *.data/purelib or
// platlib): nothing for pip to place elsewhere (scripts, headers, data) or to generate.
bool only_site_files(const std::string& wheel) {
  formats::MappedFile m(wheel);
  if (!m.ok()) return false;
  std::string err;
  auto zip = formats::ZipArchive::open(m.bytes(), &err);
  if (!zip) return false;
  for (const auto& mem : zip->members()) {
    std::size_t slash = mem.name.find('/');
    std::string top = mem.name.substr(0, slash);
    if (slash == std::string::npos || !top.ends_with(".data")) continue;
    std::string cat = mem.name.substr(slash + 1, mem.name.find('/', slash + 1) - slash - 1);
    if (cat != "purelib" && cat != "platlib") return false;
  }
  return true;
}

}  // namespace

Installed install_wheel(const InstallOptions& o) {
  Installed in;
  std::error_code ec;
  fs::create_directories(o.dir, ec);
  if (ec) {
    in.detail = "cannot create " + o.dir + ": " + ec.message();
    return in;
  }
  const auto short_t = std::chrono::milliseconds(std::min<long long>(o.timeout.count(), 60000));
  in.python = o.python;
  if (o.venv) {
    std::string venv = util::as_operand(o.dir + "/venv");
    auto r = run_py({o.python, "-m", "venv", "--system-site-packages", "--without-pip", venv}, o,
                    short_t);
    if (!r.ok()) {
      in.detail = "python -m venv --system-site-packages failed: " + failed(r, short_t);
      return in;
    }
    in.python = venv + "/bin/python";
    auto s = run_py({in.python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"},
                    o, short_t);
    in.site = util::trim(s.out);
    if (!s.ok() || in.site.empty()) {
      in.detail = "cannot read the venv's site-packages: " + failed(s, short_t);
      return in;
    }
  } else {
    in.site = target_site(o.dir);
    in.pythonpath = in.site;
  }

  // A wheel of site-packages files alone is unzipped into the target here: two pip start-ups
  // (seconds with a large environment) off the path between the built wheel and the verdict.
  if (!o.venv && !o.prefer_pip && only_site_files(o.wheel)) {
    int skipped = 0;
    if (auto e = extract_wheel(o.wheel, in.site, &skipped); !e.empty()) {
      in.detail = "extracting the wheel failed: " + e;
      return in;
    }
    in.detail = "extracted into " + in.site + " by torchsmith (only site-packages files: nothing for pip to place)";
    in.ok = true;
    return in;
  }
  auto pip = run_py({o.python, "-m", "pip", "--version"}, o, short_t);
  if (pip.ok()) {
    auto r = run_py({o.python, "-m", "pip", "install", "--no-deps", "--no-index", "--no-compile",
                     "--target", in.site, "--", o.wheel},
                    o, o.timeout);
    if (!r.ok()) {
      in.detail = "pip install --target failed: " + failed(r, o.timeout);
      return in;
    }
    std::string v = util::trim(pip.out);
    in.detail = v.substr(0, v.find(" from ")) + " installed it into " + in.site;
  } else if (pip.timed_out || pip.signal != 0 || pip.not_found) {
    in.detail = "python -m pip --version: " + failed(pip, short_t);
    return in;
  } else {
    int skipped = 0;
    if (auto e = extract_wheel(o.wheel, in.site, &skipped); !e.empty()) {
      in.detail = "extracting the wheel failed: " + e;
      return in;
    }
    in.detail =
        "extracted into " + in.site + " by torchsmith (this Python has no pip)" +
        (skipped ? "; " + std::to_string(skipped) + " scripts/headers/data files skipped" : "");
  }
  in.ok = true;
  return in;
}

}  // namespace ts::verify
