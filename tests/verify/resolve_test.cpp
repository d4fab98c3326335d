// The resolver against the real loader: small trees of libraries built here with RPATH, RUNPATH,
// $ORIGIN and LD_LIBRARY_PATH, each resolved by resolve_needed() and by `ldd`, which must agree.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <sstream>

#include "util/fs.h"
#include "elf_builder.h"
#include "verify/ld_conf.h"
#include "verify/resolve.h"
#include "verify_test_util.h"

namespace ts::verify {
namespace {

namespace fs = std::filesystem;

class ResolveTree : public ::testing::Test {
 protected:
  void SetUp() override {
    cc_ = test::tool("gcc");
    ldd_ = test::tool("ldd");
    if (cc_.empty()) GTEST_SKIP() << "gcc not found";
  }

  // Builds DIR/lib<name>.so from one C function, linked against `deps` found in `link_dirs`.
  std::string lib(const std::string& dir, const std::string& name, const std::vector<std::string>& deps = {},
                  const std::vector<std::string>& flags = {}, const std::vector<std::string>& link_dirs = {}) {
    const std::string src = tmp_ / ("src_" + name + ".c");
    std::string code;
    for (const auto& d : deps) code += "int f_" + d + "(void);\n";
    code += "int f_" + name + "(void) { return 1";
    for (const auto& d : deps) code += " + f_" + d + "()";
    code += "; }\n";
    test::write(src, code);
    const std::string out = dir + "/lib" + name + ".so";
    fs::create_directories(dir);
    std::vector<std::string> argv = {cc_, "-shared", "-fPIC", "-o", out, src, "-Wl,-soname,lib" + name + ".so"};
    for (const auto& l : link_dirs) argv.push_back("-L" + l);
    for (const auto& d : deps) argv.push_back("-l" + d);
    argv.insert(argv.end(), flags.begin(), flags.end());
    auto r = test::run(argv);
    EXPECT_TRUE(r.ok()) << r.err;
    return out;
  }

  // ldd's view: NEEDED name -> canonical path ("" for not found).
  std::map<std::string, std::string> ldd(const std::string& path, const std::string& ld_library_path = "") {
    std::map<std::string, std::string> out;
    std::map<std::string, std::string> env;
    env["LD_LIBRARY_PATH"] = ld_library_path;
    auto r = test::run({ldd_, path}, env);
    std::istringstream in(r.out);
    for (std::string line; std::getline(in, line);) {
      auto arrow = line.find(" => ");
      if (arrow == std::string::npos) continue;
      std::string name = util::trim(line.substr(0, arrow));
      std::string rest = line.substr(arrow + 4);
      if (rest.starts_with("not found")) { out[name] = ""; continue; }
      std::string p = rest.substr(0, rest.find(" ("));
      out[name] = fs::canonical(p).string();
    }
    return out;
  }

  // Ours, in the same shape (the loader's own interpreter is left out, as ldd prints it without =>).
  std::map<std::string, std::string> ours(const std::string& path, const std::vector<std::string>& llp = {}) {
    ResolveOptions o;
    o.ld_library_path = llp;
    Resolution r = resolve_needed(path, o);
    EXPECT_TRUE(r.errors.empty()) << r.errors.front();
    std::map<std::string, std::string> out;
    for (const auto& l : r.libs) {
      if (l.name.starts_with("ld-linux")) continue;
      out.emplace(l.name, l.path.empty() ? "" : fs::canonical(l.path).string());
    }
    return out;
  }

  void expect_same_as_ldd(const std::string& path, const std::vector<std::string>& llp = {}) {
    if (ldd_.empty()) return;
    std::string joined;
    for (const auto& d : llp) joined += (joined.empty() ? "" : ":") + d;
    EXPECT_EQ(ours(path, llp), ldd(path, joined)) << path;
  }

  test::TempDir tmp_;
  std::string cc_, ldd_;
};

TEST_F(ResolveTree, RunpathOriginAndRpathChain) {
  const std::string app = tmp_ / "app";
  lib(app + "/lib", "leaf");
  lib(app + "/lib", "mid", {"leaf"}, {"-Wl,-rpath,$ORIGIN", "-Wl,--disable-new-dtags"}, {app + "/lib"});
  const std::string top =
      lib(app, "top", {"mid"}, {"-Wl,-rpath,$ORIGIN/lib", "-Wl,--enable-new-dtags"}, {app + "/lib"});
  Resolution r = resolve_needed(top);
  EXPECT_TRUE(r.ok());
  std::map<std::string, std::string> via;
  for (const auto& l : r.libs) via[l.name] = l.via;
  EXPECT_EQ(via["libmid.so"], "RUNPATH");
  EXPECT_EQ(via["libleaf.so"], "RPATH");
  expect_same_as_ldd(top);
}

TEST_F(ResolveTree, RunpathIsNotInheritedButRpathIs) {
  const std::string app = tmp_ / "app";
  lib(app + "/lib", "leaf");
  lib(app + "/lib", "mid2", {"leaf"}, {}, {app + "/lib"});  // no search path of its own
  const std::string runpath =
      lib(app, "top2", {"mid2"}, {"-Wl,-rpath,$ORIGIN/lib", "-Wl,--enable-new-dtags"}, {app + "/lib"});
  const std::string rpath =
      lib(app, "top3", {"mid2"}, {"-Wl,-rpath,$ORIGIN/lib", "-Wl,--disable-new-dtags"}, {app + "/lib"});

  Resolution r2 = resolve_needed(runpath);
  ASSERT_EQ(r2.missing.size(), 1u);
  EXPECT_EQ(r2.missing[0].name, "libleaf.so");
  EXPECT_EQ(fs::path(r2.missing[0].needed_by).filename(), "libmid2.so");
  expect_same_as_ldd(runpath);

  EXPECT_TRUE(resolve_needed(rpath).ok());
  expect_same_as_ldd(rpath);

  // LD_LIBRARY_PATH (given, not inherited) finds what RUNPATH did not pass down.
  ResolveOptions o;
  o.ld_library_path = {app + "/lib"};
  EXPECT_TRUE(resolve_needed(runpath, o).ok());
  expect_same_as_ldd(runpath, {app + "/lib"});
}

TEST_F(ResolveTree, RpathBeforeLdLibraryPathBeforeRunpath) {
  const std::string a = tmp_ / "a", b = tmp_ / "b";
  lib(a, "leaf");
  lib(b, "leaf");
  const std::string r = lib(tmp_ / "r", "userp", {"leaf"}, {"-Wl,-rpath," + a, "-Wl,--disable-new-dtags"}, {a});
  const std::string u = lib(tmp_ / "u", "userun", {"leaf"}, {"-Wl,-rpath," + a, "-Wl,--enable-new-dtags"}, {a});
  EXPECT_EQ(ours(r, {b})["libleaf.so"], fs::canonical(a + "/libleaf.so").string());
  EXPECT_EQ(ours(u, {b})["libleaf.so"], fs::canonical(b + "/libleaf.so").string());
  expect_same_as_ldd(r, {b});
  expect_same_as_ldd(u, {b});
}

// ld.so passes over an ELF of another class, but stops at a file that is no ELF at all.
TEST_F(ResolveTree, SkipsOtherClassesStopsAtNonElf) {
  const std::string a = tmp_ / "a", z = tmp_ / "z";
  lib(a, "leaf");
  test::ElfSpec spec;
  spec.wide = false;  // ELF32
  test::write(z + "/libleaf.so", test::ElfBuilder(spec).build());
  const std::string s =
      lib(tmp_ / "s", "skip", {"leaf"}, {"-Wl,-rpath," + z + ":" + a, "-Wl,--disable-new-dtags"}, {a});
  EXPECT_EQ(ours(s)["libleaf.so"], fs::canonical(a + "/libleaf.so").string());
  expect_same_as_ldd(s);

  test::write(z + "/libleaf.so", "INPUT(-lleaf)\n");  // a linker script, as some -dev packages ship
  Resolution r = resolve_needed(s);
  ASSERT_EQ(r.missing.size(), 1u);
  EXPECT_NE(r.missing[0].error.find("not an ELF file"), std::string::npos);
  if (!ldd_.empty()) {
    auto real = test::run({ldd_, s});
    EXPECT_FALSE(real.ok());
    EXPECT_NE((real.out + real.err).find(z + "/libleaf.so"), std::string::npos);
  }
}

TEST_F(ResolveTree, PreloadedLibrariesAnswerByName) {
  const std::string hidden = tmp_ / "hidden";
  const std::string pre = lib(hidden, "pre");
  const std::string ext = lib(tmp_ / "ext", "ext", {"pre"}, {}, {hidden});
  EXPECT_FALSE(resolve_needed(ext).ok());
  ResolveOptions o;
  o.preload = {pre};
  Resolution r = resolve_needed(ext, o);
  EXPECT_TRUE(r.ok());
  ASSERT_FALSE(r.libs.empty());
  EXPECT_EQ(r.libs[0].via, "preload");
}

TEST(Resolve, ExpandsOrigin) {
  EXPECT_EQ(expand_search_path("$ORIGIN:${ORIGIN}/../lib::/opt/x:$LIB/y", "/w/t"),
            (std::vector<std::string>{"/w/t", "/w/t/../lib", "/opt/x"}));
}

TEST(Resolve, NotAnElfIsAnError) {
  test::TempDir t;
  test::write(t / "libfake.so", "not a library");
  Resolution r = resolve_needed(t / "libfake.so");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].find("not an ELF file"), std::string::npos);
}

TEST(LdConf, FollowsIncludesInOrder) {
  test::TempDir root;
  test::write(root / "etc/ld.so.conf", "# comment\ninclude /etc/ld.so.conf.d/*.conf\n/opt/last\n");
  test::write(root / "etc/ld.so.conf.d/b.conf", "/usr/lib/b-arch  # trailing comment\n/opt/shared:/opt/other\n");
  test::write(root / "etc/ld.so.conf.d/a.conf", "include nested.inc\n/usr/local/lib/a-arch/\n");
  test::write(root / "etc/ld.so.conf.d/nested.inc", "/opt/nested\n");
  EXPECT_EQ(ld_so_conf_dirs(root.path()),
            (std::vector<std::string>{"/opt/nested", "/usr/local/lib/a-arch", "/usr/lib/b-arch", "/opt/shared",
                                      "/opt/other", "/opt/last"}));
  auto sys = system_library_dirs(root.path());
  EXPECT_EQ(sys.back(), "/usr/lib");
}

}  // namespace
}  // namespace ts::verify

namespace ts::verify {
namespace {

// Real libraries with deep dependency trees (Debian's torch: MPI, BLAS, protobuf, ...), system
// directories from the real ld.so.conf: every name ldd resolves, we resolve to the same file.
TEST_F(ResolveTree, DebianTorchLibrariesAgreeWithLdd) {
  const std::string dir = "/usr/lib/python3/dist-packages/torch/lib";
  if (!fs::exists(dir) || ldd_.empty()) GTEST_SKIP() << "python3-torch or ldd missing";
  int n = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    // Some are dangling symlinks into packages that are not installed.
    if (!e.path().filename().string().ends_with(".so") || !fs::exists(e.path())) continue;
    expect_same_as_ldd(fs::canonical(e.path()).string());
    ++n;
  }
  EXPECT_GT(n, 0);
}

}  // namespace
}  // namespace ts::verify
