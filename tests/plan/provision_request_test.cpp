#include <gtest/gtest.h>

#include <algorithm>

#include "plan/provision_choice.h"
#include "plan/provision_request.h"
#include "testkit/version_of.h"

namespace ts::plan {
namespace {

TEST(ProvisionCatalog, EmbeddedCatalogReadsAndFindsBySeries) {
  std::vector<std::string> errors;
  auto cat = load_provision_catalog({}, errors);
  ASSERT_TRUE(errors.empty()) << errors.front();
  const ToolRelease* t = cat.find("cuda", testkit::version_of("13.0"));
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->version.original().rfind("13.0.", 0), 0u);
  EXPECT_TRUE(t->complete);
  ASSERT_NE(cat.find("cuda", testkit::version_of("12.4")), nullptr);
  EXPECT_FALSE(cat.find("cuda", testkit::version_of("12.4"))->complete);  // PyPI's cu12 nvcc wheels carry ptxas only
  EXPECT_FALSE(cat.of_kind("cmake").empty());
  for (const auto* c : cat.of_kind("cmake")) EXPECT_FALSE(c->source.empty());
}

// find() takes a Version: two numbers name a CUDA series (its newest release), more name one release
// exactly; provisionable_cuda orders typed series newest first, whatever order they come in.
TEST(ProvisionCatalog, FindTakesASeriesOrOneRelease) {
  std::vector<std::string> errors;
  auto cat = load_provision_catalog({}, errors);
  ASSERT_TRUE(errors.empty()) << errors.front();
  const ToolRelease* series = cat.find("cuda", testkit::version_of("13.0"));
  ASSERT_NE(series, nullptr);
  EXPECT_GT(series->version.release().size(), 2u);
  EXPECT_EQ(cat.find("cuda", series->version), series);                  // its own full version, exactly
  EXPECT_EQ(cat.find("cuda", testkit::version_of("13.0.99999")), nullptr);  // near miss: no such release
  EXPECT_EQ(cat.find("cuda", testkit::version_of("13.99")), nullptr);       // near miss: no such series
  ProvisionContext pc;
  pc.catalog = &cat;
  EXPECT_EQ(provisionable_cuda(pc, {testkit::version_of("12.4"), testkit::version_of("13.0")}), series);
}

TEST(ProvisionCatalog, BadPinIsAFileLineError) {
  ProvisionCatalog cat;
  std::vector<std::string> errors;
  EXPECT_FALSE(read_provision_text(cat, "p.toml", "[[cmake]]\nversion = \"3.31.6\"\nwheels = [\"cmake 3.31\"]\nsource = \"x\"\n", errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("p.toml:"), std::string::npos) << errors[0];
  EXPECT_NE(errors[0].find("NAME==VERSION"), std::string::npos) << errors[0];
}

// Versions are typed when provision.toml loads: entries order as versions (3.31.10 after 3.31.9, not
// as text) and a version that is none is a file:line error, the file contributing nothing.
TEST(ProvisionCatalog, VersionsAreTypedWhenTheCatalogLoads) {
  ProvisionCatalog cat;
  std::vector<std::string> errors;
  ASSERT_TRUE(read_provision_text(cat, "p.toml",
                                  "[[cmake]]\nversion = \"3.31.9\"\nwheels = [\"cmake==3.31.9\"]\ncomplete = true\nsource = \"x\"\n"
                                  "[[cmake]]\nversion = \"3.31.10\"\nwheels = [\"cmake==3.31.10\"]\ncomplete = true\nsource = \"x\"\n",
                                  errors))
      << errors.front();
  ASSERT_EQ(cat.of_kind("cmake").size(), 2u);
  EXPECT_EQ(cat.of_kind("cmake").front()->version, Version::parse("3.31.10"));  // newest first, as versions
  EXPECT_EQ(cat.of_kind("cmake").front()->version.original(), "3.31.10");
  ProvisionCatalog bad;
  EXPECT_FALSE(read_provision_text(bad, "p.toml",
                                   "[[cmake]]\nversion = \"three\"\nwheels = [\"cmake==3.31.9\"]\ncomplete = true\nsource = \"x\"\n",
                                   errors));
  EXPECT_NE(errors.back().find("p.toml:2:"), std::string::npos) << errors.back();
  EXPECT_TRUE(bad.tools.empty());
  errors.clear();
  EXPECT_FALSE(read_provision_text(bad, "p.toml",
                                   "[[cudnn]]\nversion = \"9.8.0.87\"\nrelease = \"9.8.0\"\nmanifest = \"m\"\n"
                                   "cuda = [\"12\"]\ntorch_min = \"two\"\nsource = \"m\"\n",
                                   errors));
  EXPECT_NE(errors.back().find("torch_min"), std::string::npos) << errors.back();
}

TEST(ProvisionRequest, DirIsContentAddressedByPinsAndPlatform) {
  std::vector<WheelPin> a{{"cmake", "3.31.6", ""}}, b{{"cmake", "3.31.5", ""}};
  auto da = provisioned_dir("/c", "cmake", "3.31.6", a, "manylinux2014_x86_64");
  EXPECT_EQ(da.rfind("/c/toolkits/cmake-3.31.6-", 0), 0u) << da;
  EXPECT_EQ(da, provisioned_dir("/c", "cmake", "3.31.6", a, "manylinux2014_x86_64"));
  EXPECT_NE(da, provisioned_dir("/c", "cmake", "3.31.6", b, "manylinux2014_x86_64"));
  EXPECT_NE(da, provisioned_dir("/c", "cmake", "3.31.6", a, "manylinux2014_aarch64"));
}

TEST(ProvisionRequest, ToolkitChoiceSpellings) {
  std::string err;
  EXPECT_EQ(parse_toolkit_choice("pip", &err)->kind, ToolkitChoice::Kind::pip);
  EXPECT_EQ(parse_toolkit_choice("system", &err)->kind, ToolkitChoice::Kind::system);
  auto w = parse_toolkit_choice("wheelhouse:/w", &err);
  EXPECT_EQ(w->kind, ToolkitChoice::Kind::wheelhouse);
  EXPECT_EQ(w->dir, "/w");
  EXPECT_EQ(parse_toolkit_choice("/opt/cuda-13.0", &err)->kind, ToolkitChoice::Kind::path);
  EXPECT_EQ(parse_toolkit_choice("redist", &err)->kind, ToolkitChoice::Kind::redist);
  EXPECT_EQ(parse_toolkit_choice("conda", &err)->kind, ToolkitChoice::Kind::conda);
  EXPECT_FALSE(parse_toolkit_choice("brew", &err));
  EXPECT_NE(err.find("redist, conda"), std::string::npos) << err;
}

// Every series a torch of 11.8-13.x was built with has a [[redist]] entry: its manifest URL is its
// source, nvcc's version is the catalog's, the components name a whole compiler and runtime.
TEST(ProvisionCatalog, RedistEntriesFromTheirManifests) {
  std::vector<std::string> errors;
  auto cat = load_provision_catalog({}, errors);
  ASSERT_TRUE(errors.empty()) << errors.front();
  for (const char* mm : {"11.8", "12.1", "12.4", "12.6", "12.8", "13.0"}) {
    const ToolRelease* t = cat.find("cuda", testkit::version_of(mm), "redist");
    ASSERT_NE(t, nullptr) << mm;
    EXPECT_EQ(t->via, "redist");
    EXPECT_EQ(t->source, t->manifest);
    EXPECT_EQ(t->manifest, "https://developer.download.nvidia.com/compute/cuda/redist/redistrib_" + t->release + ".json");
    EXPECT_EQ(t->release.rfind(mm, 0), 0u) << t->release;
    ASSERT_FALSE(t->wheels.empty());
    EXPECT_EQ(t->wheels[0].name, "cuda_nvcc");
    EXPECT_EQ(t->wheels[0].version, t->version.original());  // the one version a plan knows before the manifest
    bool cudart = false, cublas = false;
    for (const auto& w : t->wheels) cudart |= w.name == "cuda_cudart";
    for (const auto& w : t->torch_parts) cublas |= w.name == "libcublas";
    EXPECT_TRUE(cudart && cublas) << mm;
  }
  // find() keeps to one provider: PyPI's 12.4 stays the incomplete wheel set.
  EXPECT_EQ(cat.find("cuda", testkit::version_of("12.4"))->via, "pip");
}

TEST(ProvisionCatalog, RedistEntryErrorsAreFileLineErrors) {
  ProvisionCatalog cat;
  std::vector<std::string> errors;
  EXPECT_FALSE(read_provision_text(cat, "p.toml", "[[redist]]\nversion = \"12.4.131\"\ncomponents = [\"cuda nvcc\"]\nsource = \"x\"\n", errors));
  ASSERT_FALSE(errors.empty());
  std::string all;
  for (const auto& e : errors) all += e + "\n";
  EXPECT_NE(all.find("p.toml:"), std::string::npos) << all;
  EXPECT_NE(all.find("a manifest component"), std::string::npos) << all;
  EXPECT_NE(all.find("manifest"), std::string::npos) << all;
}

// cuDNN comes from its own manifests (compute/cudnn/redist/), one entry per release with the CUDA
// majors it has archives for and the torch releases it is for (cuDNN 8 up to torch 2.3, 9 after).
TEST(ProvisionCatalog, CudnnEntriesFromTheirOwnManifests) {
  std::vector<std::string> errors;
  auto cat = load_provision_catalog({}, errors);
  ASSERT_TRUE(errors.empty()) << errors.front();
  int n = 0;
  for (const auto& t : cat.tools) {
    if (t.kind != "cudnn") continue;
    ++n;
    EXPECT_EQ(t.via, "redist");
    EXPECT_EQ(t.manifest, "https://developer.download.nvidia.com/compute/cudnn/redist/redistrib_" +
                              (t.release == "8.9.7" ? t.version.original() : t.release) + ".json");
    EXPECT_EQ(t.source.rfind(t.manifest, 0), 0u) << t.source;
    EXPECT_EQ(t.version.original().rfind(t.release, 0), 0u) << t.version.original();
    ASSERT_EQ(t.wheels.size(), 1u);
    EXPECT_EQ(t.wheels[0].name, "cudnn");  // the manifest's component key
    EXPECT_EQ(t.wheels[0].file, t.manifest);
    EXPECT_FALSE(t.cuda_majors.empty());
  }
  EXPECT_GE(n, 3);
  auto v = [&](int major, const char* torch) { auto* t = cat.cudnn_for(major, testkit::version_of(torch)); return t ? t->version.original() : std::string(); };
  EXPECT_EQ(v(12, "2.4.1"), "9.13.0.50");
  EXPECT_EQ(v(13, "2.9.0"), "9.13.0.50");
  EXPECT_EQ(v(11, "2.4.1"), "9.8.0.87");  // the newest with a CUDA 11 archive
  EXPECT_EQ(v(11, "1.13.1"), "8.9.7.29");
  EXPECT_EQ(v(12, "2.3.1"), "8.9.7.29");
  EXPECT_EQ(v(13, "2.3.1"), "");  // no cuDNN 8 for CUDA 13
  EXPECT_FALSE(read_provision_text(cat, "p.toml",
                                   "[[cudnn]]\nversion = \"9.8.0.87\"\nrelease = \"9.8.0\"\nmanifest = \"m\"\n"
                                   "cuda = [\"twelve\"]\nsource = \"m\"\n",
                                   errors));
  ASSERT_FALSE(errors.empty());
  EXPECT_NE(errors.back().find("cuda: 'twelve' is not a CUDA major"), std::string::npos) << errors.back();
}

// A torch build from NVIDIA's archives with cuDNN: the plan's parts, lock entry and step name it, and
// its toolkit has its own cache directory (an extension's toolkit has no cuDNN).
TEST(ProvisionChoice, TorchBuildFromRedistTakesCudnnFromItsManifest) {
  std::vector<std::string> errors;
  auto cat = load_provision_catalog({}, errors);
  ASSERT_TRUE(errors.empty()) << errors.front();
  ProvisionContext pc;
  pc.catalog = &cat;
  pc.cache_root = "/c";
  pc.platform = "manylinux2014_x86_64";
  const ToolRelease* rel = cat.find("cuda", testkit::version_of("12.4"), "redist");
  ASSERT_NE(rel, nullptr);
  std::string extension = provisioned_path(pc, *rel);
  pc.torch_build = true;
  std::string torch = provisioned_path(pc, *rel);
  pc.cudnn = cat.cudnn_for(12, testkit::version_of("2.4.1"));
  ASSERT_NE(pc.cudnn, nullptr);
  auto parts = provisioned_parts(pc, *rel);
  auto it = std::find_if(parts.begin(), parts.end(), [](const WheelPin& w) { return w.name == "cudnn"; });
  ASSERT_NE(it, parts.end());
  EXPECT_EQ(it->version, pc.cudnn->version.original());
  EXPECT_EQ(it->file, pc.cudnn->manifest);
  EXPECT_NE(std::find_if(parts.begin(), parts.end(), [](const WheelPin& w) { return w.name == "libcusparse"; }), parts.end());
  std::string with = provisioned_path(pc, *rel);
  EXPECT_NE(with, torch);
  EXPECT_NE(torch, extension);
  auto step = provision_step(pc, *rel);
  auto at = std::find(step.argv.begin(), step.argv.end(), "--cudnn");
  ASSERT_NE(at, step.argv.end());
  EXPECT_EQ(*(at + 1), pc.cudnn->version.original());
  auto entry = provisioned_entry(pc, *rel);
  EXPECT_EQ(entry.dir, with);
  EXPECT_EQ(entry.wheels.back().name, "cudnn");
  // Only NVIDIA's archives carry it: a PyPI toolkit is not given cuDNN's archive.
  const ToolRelease* pip = cat.find("cuda", testkit::version_of("13.0"));
  for (const auto& w : provisioned_parts(pc, *pip)) EXPECT_NE(w.name, "cudnn");
}

// The mirror's config equivalent: a [mirror] table in provision.toml (a site's overlay in
// ~/.config/torchsmith/kb), per provider; --toolkit-mirror (or its environment variable) comes first.
TEST(ProvisionCatalog, MirrorTableIsTheSitesDefaultMirror) {
  ProvisionCatalog cat;
  std::vector<std::string> errors;
  ASSERT_TRUE(read_provision_text(cat, "site.toml",
                                  "[mirror]\nredist = \"/srv/cuda-redist\"\nconda = \"https://mirror.example/conda\"\n"
                                  "[[redist]]\nversion = \"12.4.131\"\nrelease = \"12.4.1\"\n"
                                  "manifest = \"https://developer.download.nvidia.com/compute/cuda/redist/redistrib_12.4.1.json\"\n"
                                  "components = [\"cuda_nvcc\"]\nsource = \"x\"\n",
                                  errors))
      << errors.front();
  EXPECT_EQ(cat.mirror("redist"), "/srv/cuda-redist");
  EXPECT_EQ(cat.mirror("conda"), "https://mirror.example/conda");
  EXPECT_EQ(cat.mirror("pip"), "");
  ProvisionContext pc;
  pc.catalog = &cat;
  const ToolRelease* rel = cat.find("cuda", testkit::version_of("12.4"), "redist");
  ASSERT_NE(rel, nullptr);
  EXPECT_EQ(provision_from(pc, *rel), "redist:/srv/cuda-redist");
  EXPECT_NE(provision_where(pc, *rel).find("the mirror /srv/cuda-redist"), std::string::npos);
  EXPECT_EQ(provisioned_entry(pc, *rel).from, "/srv/cuda-redist");
  pc.mirror = "/media/usb/redist";  // --toolkit-mirror / $TORCHSMITH_TOOLKIT_MIRROR
  EXPECT_EQ(provision_from(pc, *rel), "redist:/media/usb/redist");
  // Without a [mirror]: upstream.
  ProvisionCatalog plain;
  ASSERT_TRUE(read_provision_text(plain, "p.toml",
                                  "[[redist]]\nversion = \"12.4.131\"\nrelease = \"12.4.1\"\nmanifest = \"https://h/r/redistrib_12.4.1.json\"\n"
                                  "components = [\"cuda_nvcc\"]\nsource = \"x\"\n",
                                  errors));
  pc.catalog = &plain;
  pc.mirror.clear();
  EXPECT_EQ(provision_from(pc, *plain.find("cuda", testkit::version_of("12.4"), "redist")), "redist");
  for (const char* bad : {"[mirror]\nredist = \"relative/dir\"\n", "[mirror]\npip = \"/srv\"\n", "[mirror]\nredist = 3\n"}) {
    errors.clear();
    EXPECT_FALSE(read_provision_text(plain, "p.toml", bad, errors)) << bad;
    ASSERT_FALSE(errors.empty()) << bad;
    EXPECT_EQ(errors[0].rfind("p.toml:", 0), 0u) << errors[0];
  }
}

}  // namespace
}  // namespace ts::plan
