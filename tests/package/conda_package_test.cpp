// make_conda_packages on wheels made here: a fake torch wheel with real ELF libraries under an
// S2-style plan, and a tiny setup.py project; packages checked after `cph x` extracts them.
#include "package/conda_package.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "conda_testkit.h"
#include "plan/build_kb.h"

namespace ts::package {
namespace {

namespace fs = std::filesystem;
using ts::testing::TempDir;

std::vector<plan::Rpath> conda_rpaths() {
  std::vector<std::string> errors;
  auto kb = plan::load_build_kb({}, errors);
  EXPECT_TRUE(errors.empty());
  std::vector<plan::Rpath> out;
  for (const auto& r : kb.rpaths)
    if (r.package == "conda") out.push_back(r);
  return out;
}

// Seed 001's package: torch 1.8.0, Python 3.8, CUDA 11.0.221, cuDNN 8.0.5.
plan::Plan s2_plan() {
  plan::Plan p;
  p.torch_version = "1.8.0";
  p.python_version = "3.8.5";
  p.cuda = plan::CudaChoice::from_text("11.0.221");
  p.numpy_version = "1.19.2";
  p.artifacts.push_back({"conda", "pytorch-1.8.0-py3.8_cuda11.0.221_cudnn8.0.5_0.tar.bz2",
                         "pytorch-1.8.0-py3.8_*.tar.bz2", ""});
  return p;
}

std::string rpath_of(const std::string& lib) {
  util::RunOptions o;
  auto r = util::run({"patchelf", "--print-rpath", lib}, o);
  EXPECT_TRUE(r.ok()) << r.err;
  return util::trim(r.out);
}

nlohmann::json read_json(const std::string& path) {
  auto t = util::read_file(path);
  EXPECT_TRUE(t) << path;
  return nlohmann::json::parse(t ? *t : "null");
}

TEST(CondaPackage, TorchWheelUnderS2PlanGivesTheOfficialNameLayoutAndRpaths) {
  TempDir t("conda-s2");
  std::string wheel = ts::testing::build_fake_torch_wheel(t.path);
  plan::Plan p = s2_plan();
  CondaOptions o;
  o.out_dir = t.path + "/chan";
  o.formats = {"tar.bz2", "conda"};
  o.plan = &p;
  o.rpaths = conda_rpaths();
  o.timestamp = 1611800000;
  auto r = make_conda_packages(wheel, o);
  ASSERT_EQ(r.exit_code, 0) << r.error;
  ASSERT_EQ(r.outputs.size(), 2u);
  EXPECT_EQ(r.outputs[0],
            o.out_dir + "/linux-64/pytorch-1.8.0-py3.8_cuda11.0.221_cudnn8.0.5_0.tar.bz2");
  EXPECT_EQ(r.outputs[1],
            o.out_dir + "/linux-64/pytorch-1.8.0-py3.8_cuda11.0.221_cudnn8.0.5_0.conda");

  for (const auto& pkg : r.outputs) {
    SCOPED_TRACE(pkg);
    std::string x = t.path + "/x-" + fs::path(pkg).extension().string().substr(1);
    auto cr = ts::testing::cph_extract(pkg, x);
    ASSERT_TRUE(cr.ok()) << cr.out << cr.err;
    auto index = read_json(x + "/info/index.json");
    EXPECT_EQ(index["name"], "pytorch");
    EXPECT_EQ(index["version"], "1.8.0");
    EXPECT_EQ(index["build"], "py3.8_cuda11.0.221_cudnn8.0.5_0");
    EXPECT_EQ(index["build_number"], 0);
    EXPECT_EQ(index["subdir"], "linux-64");
    EXPECT_EQ(index["arch"], "x86_64");
    EXPECT_EQ(index["platform"], "linux");
    EXPECT_EQ(index["license"], "BSD-3");
    EXPECT_EQ(index["timestamp"], 1611800000000LL);
    // python from the plan, NumPy it built against, the wheel's marker-free requirement; the
    // pip-only nvidia-* requirement is left out (and said so).
    EXPECT_EQ(index["depends"],
              nlohmann::json({"python 3.8.*", "numpy >=1.19.2", "typing-extensions"}));
    bool noted = false;
    for (const auto& n : r.notes) noted = noted || n.find("nvidia-cudnn-cu12") != std::string::npos;
    EXPECT_TRUE(noted);

    std::string site = x + "/lib/python3.8/site-packages";
    EXPECT_TRUE(fs::exists(site + "/torch/__init__.py"));
    EXPECT_TRUE(fs::exists(site + "/torch-1.8.0.dist-info/METADATA"));
    EXPECT_EQ(util::read_file(site + "/torch-1.8.0.dist-info/INSTALLER").value_or(""), "conda\n");
    // The conda layout's RPATHs (build.toml [[rpath]], S2).
    EXPECT_EQ(rpath_of(site + "/torch/_C.cpython-38-x86_64-linux-gnu.so"),
              "$ORIGIN:$ORIGIN/lib:$ORIGIN/../../..");
    EXPECT_EQ(rpath_of(site + "/torch/lib/libc10.so"), "$ORIGIN:$ORIGIN/../../../..");
    // The console script with conda's prefix placeholder, listed in has_prefix.
    auto script = util::read_file(x + "/bin/torchrun").value_or("");
    EXPECT_EQ(script.rfind("#!/opt/anaconda1anaconda2anaconda3/bin/python3.8\n", 0), 0u) << script;
    EXPECT_NE(script.find("from torch.distributed.run import main"), std::string::npos);
    EXPECT_EQ(util::read_file(x + "/info/has_prefix").value_or(""),
              "/opt/anaconda1anaconda2anaconda3 text bin/torchrun\n");

    // paths.json and files list exactly the extracted payload, with hashlib's sha256 and sizes.
    auto paths = read_json(x + "/info/paths.json");
    EXPECT_EQ(paths["paths_version"], 1);
    std::set<std::string> listed, on_disk;
    for (const auto& e : paths["paths"]) {
      std::string rel = e["_path"];
      listed.insert(rel);
      auto d = ts::testing::hashlib_digest(x + "/" + rel);
      EXPECT_EQ(e["sha256"], d[0]) << rel;
      EXPECT_EQ(e["size_in_bytes"].get<std::uint64_t>(), std::stoull(d[2])) << rel;
      EXPECT_EQ(e["path_type"], "hardlink");
    }
    for (const auto& e : fs::recursive_directory_iterator(x))
      if (e.is_regular_file()) {
        std::string rel = fs::relative(e.path(), x).generic_string();
        if (rel.rfind("info/", 0) != 0) on_disk.insert(rel);
      }
    EXPECT_EQ(listed, on_disk);
    std::string files;
    for (const auto& f : listed) files += f + "\n";
    EXPECT_EQ(util::read_file(x + "/info/files").value_or(""), files);
    auto about = read_json(x + "/info/about.json");
    EXPECT_EQ(about["home"], "https://pytorch.org/");
    EXPECT_EQ(about["summary"], "Tensors and Dynamic neural networks");
  }
  // The .conda is a stored zip with the v2 metadata.
  auto ls = ts::testing::py({"-c",
                             "import zipfile,sys; z=zipfile.ZipFile(sys.argv[1]); "
                             "print(z.read('metadata.json').decode()); "
                             "print(sorted(i.filename for i in z.infolist())); "
                             "print(set(i.compress_type for i in z.infolist()))",
                             r.outputs[1]});
  ASSERT_TRUE(ls.ok()) << ls.err;
  EXPECT_NE(ls.out.find("{\"conda_pkg_format_version\": 2}"), std::string::npos) << ls.out;
  EXPECT_NE(
      ls.out.find("['info-pytorch-1.8.0-py3.8_cuda11.0.221_cudnn8.0.5_0.tar.zst', 'metadata.json', "
                  "'pkg-pytorch-1.8.0-py3.8_cuda11.0.221_cudnn8.0.5_0.tar.zst']"),
      std::string::npos)
      << ls.out;
  EXPECT_NE(ls.out.find("{0}"), std::string::npos) << ls.out;
}

TEST(CondaPackage, TarBz2IsDeterministicSortedWithFixedOwnersAndTime) {
  TempDir t("conda-det");
  std::string wheel = ts::testing::build_fake_torch_wheel(t.path);
  plan::Plan p = s2_plan();
  CondaOptions o;
  o.plan = &p;
  o.rpaths = conda_rpaths();
  o.timestamp = 1611800000;
  o.build_number = 3;
  o.out_dir = t.path + "/a";
  auto a = make_conda_packages(wheel, o);
  o.out_dir = t.path + "/b";
  auto b = make_conda_packages(wheel, o);
  ASSERT_EQ(a.exit_code, 0) << a.error;
  ASSERT_EQ(b.exit_code, 0) << b.error;
  EXPECT_EQ(fs::path(a.outputs[0]).filename(),
            "pytorch-1.8.0-py3.8_cuda11.0.221_cudnn8.0.5_3.tar.bz2");
  EXPECT_EQ(util::read_file(a.outputs[0]), util::read_file(b.outputs[0]));
  // Python's tarfile: info/ first, each part sorted, uid/gid 0, the one mtime.
  auto r = ts::testing::py(
      {"-c",
       "import tarfile,sys\n"
       "t=tarfile.open(sys.argv[1],'r:bz2')\n"
       "m=t.getmembers()\n"
       "n=[x.name for x in m]\n"
       "i=[x for x in n if x.startswith('info/')]; p=[x for x in n if not x.startswith('info/')]\n"
       "assert n==i+p and i==sorted(i) and p==sorted(p), n\n"
       "assert {(x.uid,x.gid,x.mtime) for x in m}=={(0,0,1611800000)}\n"
       "print(len(n))",
       a.outputs[0]});
  EXPECT_TRUE(r.ok()) << r.out << r.err;
}

TEST(CondaPackage, PureWheelNeedsAPythonThenBuildsCpuPackage) {
  TempDir t("conda-pure");
  std::string wheel = ts::testing::build_tiny_wheel(t.path);
  CondaOptions o;
  o.out_dir = t.path + "/chan";
  auto r = make_conda_packages(wheel, o);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.error.find("--python X.Y"), std::string::npos) << r.error;

  o.python = "3.11";
  o.depends = {"numpy >=1.24", "zlib"};
  o.formats = {"conda"};
  r = make_conda_packages(wheel, o);
  ASSERT_EQ(r.exit_code, 0) << r.error;
  ASSERT_EQ(r.outputs.size(), 1u);
  EXPECT_EQ(fs::path(r.outputs[0]).filename(), "tiny-pkg-0.1.0-py3.11_cpu_0.conda");
  // --depends replaces the wheel's numpy>=1.20 rather than listing numpy twice.
  EXPECT_EQ(r.index["depends"], nlohmann::json({"python 3.11.*", "numpy >=1.24", "zlib"}));
  std::string x = t.path + "/x";
  auto cr = ts::testing::cph_extract(r.outputs[0], x);
  ASSERT_TRUE(cr.ok()) << cr.err;
  EXPECT_TRUE(fs::exists(x + "/lib/python3.11/site-packages/tinypkg/__init__.py"));
  EXPECT_TRUE(fs::exists(x + "/bin/tiny-hello"));
  EXPECT_EQ(read_json(x + "/info/index.json")["license"], "MIT");
  // RECORD lists the installed files relative to site-packages, bin script included.
  auto record = util::read_file(x + "/lib/python3.11/site-packages/tiny_pkg-0.1.0.dist-info/RECORD")
                    .value_or("");
  EXPECT_NE(record.find("../../../bin/tiny-hello,sha256="), std::string::npos) << record;
  EXPECT_NE(record.find("tinypkg/__init__.py,sha256="), std::string::npos) << record;
}

// An extension's package depends on the pytorch it was built against (the plan's torch), once,
// though its wheel pins torch too.
TEST(CondaPackage, ExtensionPackageDependsOnThePytorchItWasBuiltAgainst) {
  TempDir t("conda-ext");
  std::string wheel = ts::testing::build_tiny_wheel(t.path);
  plan::Plan p;
  p.torch_version = "2.6.0+cu124";
  p.python_version = "3.11.2";
  p.import_name = "tinypkg";
  CondaOptions o;
  o.out_dir = t.path + "/chan";
  o.plan = &p;
  o.formats = {"conda"};
  auto r = make_conda_packages(wheel, o);
  ASSERT_EQ(r.exit_code, 0) << r.error;
  EXPECT_EQ(r.index["depends"], nlohmann::json({"python 3.11.*", "pytorch 2.6.*", "numpy >=1.20"}));
}

TEST(CondaPackage, BadInputIsExit2WithTheReason) {
  TempDir t("conda-bad");
  CondaOptions o;
  o.out_dir = t.path + "/chan";
  // Not a zip at all, under a wheel's name.
  std::string fake = t.path + "/torch-1.8.0-cp38-cp38-linux_x86_64.whl";
  util::write_file_atomic(fake, "this is not a zip file\n");
  auto r = make_conda_packages(fake, o);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.error.find("is not a wheel"), std::string::npos) << r.error;
  // A truncated real wheel.
  std::string wheel = ts::testing::build_fake_torch_wheel(t.path);
  auto bytes = util::read_file(wheel).value();
  std::string cut = t.path + "/cut/torch-1.8.0-cp38-cp38-linux_x86_64.whl";
  fs::create_directories(t.path + "/cut");
  util::write_file_atomic(cut, bytes.substr(0, bytes.size() / 2));
  r = make_conda_packages(cut, o);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.error.find("truncated or corrupt"), std::string::npos) << r.error;
  // Not a wheel's file name.
  r = make_conda_packages(t.path + "/notes.txt", o);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.error.find("not a wheel file name"), std::string::npos) << r.error;
  // A missing file.
  r = make_conda_packages(t.path + "/torch-9.9-cp38-cp38-linux_x86_64.whl", o);
  EXPECT_EQ(r.exit_code, 2);
  // Nothing was left behind in the channel: no package, no staging directory.
  std::size_t left = 0;
  if (fs::exists(o.out_dir))
    for (const auto& e : fs::recursive_directory_iterator(o.out_dir)) left += e.is_regular_file();
  EXPECT_EQ(left, 0u);
}

}  // namespace
}  // namespace ts::package
