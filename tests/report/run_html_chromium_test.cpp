// report.html as a person sees it: rendered by Debian's headless Chromium into a screenshot (not
// blank, the failing check's red drawn) and a DOM dump (the failing check is the table's first row).
// Skips when chromium is not installed (tools/bootstrap.sh installs it).
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "report/run_html.h"
#include "run_sample.h"
#include "testkit/temp_dir.h"
#include "util/process.h"

namespace ts::report {
namespace {

using nlohmann::json;

std::string chromium() {
  for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser"})
    if (std::filesystem::exists(p)) return p;
  return "";
}

util::RunResult headless(const std::string& home, std::vector<std::string> args) {
  std::vector<std::string> argv{chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                                "--no-first-run", "--user-data-dir=" + home + "/profile"};
  argv.insert(argv.end(), args.begin(), args.end());
  util::RunOptions o;
  o.timeout = std::chrono::seconds(120);
  o.max_output = 8 << 20;
  o.env = std::map<std::string, std::string>{{"HOME", home}, {"PATH", "/usr/bin:/bin"}, {"LANG", "C.UTF-8"}};
  return util::run(argv, o);
}

struct Image {
  std::uint32_t w = 0, h = 0;
  int channels = 0;
  std::vector<unsigned char> px;  // rows of w * channels bytes
  std::string error;
};

std::uint32_t be32(const std::string& s, std::size_t at) {
  return (std::uint32_t((unsigned char)s[at]) << 24) | (std::uint32_t((unsigned char)s[at + 1]) << 16) |
         (std::uint32_t((unsigned char)s[at + 2]) << 8) | std::uint32_t((unsigned char)s[at + 3]);
}

// An 8-bit RGB or RGBA PNG (what Chromium writes), decoded with its row filters undone.
Image read_png(const std::string& path) {
  Image im;
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  std::string s = ss.str();
  if (s.size() < 33 || s.compare(1, 3, "PNG") != 0) { im.error = "not a PNG"; return im; }
  std::string idat;
  for (std::size_t at = 8; at + 8 <= s.size();) {
    std::uint32_t len = be32(s, at);
    std::string type = s.substr(at + 4, 4);
    if (at + 12 + len > s.size()) { im.error = "truncated chunk"; return im; }
    if (type == "IHDR") {
      im.w = be32(s, at + 8), im.h = be32(s, at + 12);
      int depth = (unsigned char)s[at + 16], colour = (unsigned char)s[at + 17];
      if (depth != 8 || (colour != 2 && colour != 6)) { im.error = "not 8-bit RGB(A)"; return im; }
      im.channels = colour == 2 ? 3 : 4;
    } else if (type == "IDAT") {
      idat += s.substr(at + 8, len);
    }
    at += 12 + len;
  }
  std::size_t stride = std::size_t(im.w) * im.channels;
  std::vector<unsigned char> raw((stride + 1) * im.h);
  uLongf n = raw.size();
  if (uncompress(raw.data(), &n, reinterpret_cast<const Bytef*>(idat.data()), idat.size()) != Z_OK || n != raw.size()) {
    im.error = "bad image data";
    return im;
  }
  im.px.assign(stride * im.h, 0);
  const int bpp = im.channels;
  for (std::uint32_t y = 0; y < im.h; ++y) {
    unsigned char filter = raw[y * (stride + 1)];
    const unsigned char* in = &raw[y * (stride + 1) + 1];
    unsigned char* out = &im.px[y * stride];
    const unsigned char* up = y ? &im.px[(y - 1) * stride] : nullptr;
    for (std::size_t x = 0; x < stride; ++x) {
      int a = x >= std::size_t(bpp) ? out[x - bpp] : 0, b = up ? up[x] : 0, c = up && x >= std::size_t(bpp) ? up[x - bpp] : 0;
      int pred = 0;
      switch (filter) {
        case 0: pred = 0; break;
        case 1: pred = a; break;
        case 2: pred = b; break;
        case 3: pred = (a + b) / 2; break;
        case 4: {
          int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
          pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          break;
        }
        default: im.error = "bad filter"; return im;
      }
      out[x] = static_cast<unsigned char>(in[x] + pred);
    }
  }
  return im;
}

RunRecord failing_verify() {
  RunRecord r = sample::sample_record();
  r.what = "simple-knn against torch 2.11.0";
  r.plan = {{"torch_version", "2.11.0"}, {"cuda", "13.0"}, {"arch_list", "9.0"}, {"jobs", 16},
            {"import_name", "simple_knn"}, {"smoke", "simple_knn._C.distCUDA2(torch.rand(8, 3, device=device))\n"},
            {"spec", {{"package", "simple-knn"}}}};
  r.checks = json::array();
  for (int i = 0; i < 6; ++i)
    r.checks.push_back({{"file", ""}, {"check", "passing check " + std::to_string(i)}, {"outcome", "pass"}, {"detail", "fine"}});
  r.checks.push_back({{"file", ""}, {"check", "dependency yapf"}, {"outcome", "fail"},
                      {"detail", "not installable from the package index: No matching distribution found for yapf==99"}});
  return r;
}

TEST(RunHtmlChromium, ScreenshotShowsTheFailureFirstInRed) {
  if (chromium().empty()) GTEST_SKIP() << "chromium is not installed (apt-get install chromium; tools/bootstrap.sh does)";
  testkit::TempDir t;
  const std::string page = t / "report.html", shot = t / "shot.png";
  {
    std::ofstream f(page);
    f << render_run_html(failing_verify(), nullptr);
  }
  auto dom = headless(t.path(), {"--dump-dom", "file://" + page});
  ASSERT_EQ(dom.exit_code, 0) << dom.err;
  std::size_t table = dom.out.find("id=\"verdicts\"");
  ASSERT_NE(table, std::string::npos) << dom.out.substr(0, 2000);
  std::size_t first_row = dom.out.find("<tr class=", table);
  ASSERT_NE(first_row, std::string::npos);
  EXPECT_EQ(dom.out.compare(first_row, 22, "<tr class=\"v-bad\"><td "), 0) << dom.out.substr(first_row, 200);
  EXPECT_LT(dom.out.find("dependency yapf", table), dom.out.find("passing check 0", table));

  auto r = headless(t.path(), {"--screenshot=" + shot, "--window-size=1200,900", "file://" + page});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Image im = read_png(shot);
  ASSERT_TRUE(im.error.empty()) << im.error;
  ASSERT_GE(im.w, 800u);
  ASSERT_GE(im.h, 600u);
  std::size_t ink = 0, red = 0, pixels = std::size_t(im.w) * im.h;
  for (std::size_t i = 0; i < pixels; ++i) {
    const unsigned char* p = &im.px[i * im.channels];
    if (p[0] < 200 || p[1] < 200 || p[2] < 200) ++ink;
    if (p[0] > 150 && p[1] < 90 && p[2] < 90) ++red;  // the FAIL text and badge (#c62828)
  }
  EXPECT_GT(ink, pixels / 200) << "the screenshot is blank: " << shot;
  EXPECT_GT(red, 50u) << "no failure red in the screenshot";
  if (const char* keep = std::getenv("TS_REPORT_SCREENSHOT")) std::filesystem::copy_file(shot, keep, std::filesystem::copy_options::overwrite_existing);
}

// A compile error in the user's file: the first thing drawn under the title is the red box that
// names the file and shows the line (Chromium's DOM puts it before the diagnosis and the checks).
TEST(RunHtmlChromium, CompileErrorInTheUsersFileComesFirst) {
  if (chromium().empty()) GTEST_SKIP() << "chromium is not installed (apt-get install chromium; tools/bootstrap.sh does)";
  testkit::TempDir t;
  std::filesystem::create_directories(t / "out/src");
  std::ofstream(t / "out/src/hello_ext.cpp") << "#include <torch/extension.h>\n\ntorch::Tensor add_one(const torch::Tensor& t) {\n"
                                                "  return t + 1\n}\n";
  RunRecord r = failing_verify();
  r.run_dir = t / "out/runs/1";
  r.source_dir = "/home/u/hello_ext";
  r.source_copy = t / "out/src";
  r.diagnosis = {{"root_cause",
                  {{"id", "unrecognised"}, {"cause", "the first error line"}, {"fix", "read it"},
                   {"evidence", {{{"line", 9}, {"text", t / "out/src/hello_ext.cpp" + ":4:15: error: expected ';' before '}' token"}}}}}}};
  const std::string page = t / "report.html";
  std::ofstream(page) << render_run_html(r, nullptr);
  auto dom = headless(t.path(), {"--dump-dom", "file://" + page});
  ASSERT_EQ(dom.exit_code, 0) << dom.err;
  std::size_t box = dom.out.find("id=\"source-error\"");
  ASSERT_NE(box, std::string::npos) << dom.out.substr(0, 3000);
  EXPECT_NE(dom.out.find("Error in your source: <code>hello_ext.cpp:4</code>", box), std::string::npos);
  EXPECT_LT(box, dom.out.find("<h2>Diagnosis"));
  EXPECT_LT(box, dom.out.find("id=\"verdicts\""));
}

}  // namespace
}  // namespace ts::report
