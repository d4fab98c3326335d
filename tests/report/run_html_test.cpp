#include "report/run_html.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>

#include "run_sample.h"
#include "testkit/temp_dir.h"

using namespace ts::report;
using ts::build::NinjaLog;
using nlohmann::json;

namespace {

// 30 jobs on 3 lanes; job i takes (i+1)*100 ms, so the slowest are t29, t28, ...
NinjaLog thirty_jobs() {
  std::string t = "# ninja log v5\n";
  std::vector<std::string> lines;
  std::int64_t lane_end[3] = {0, 0, 0};
  for (int i = 0; i < 30; ++i) {
    std::int64_t s = lane_end[i % 3], e = s + (i + 1) * 100;
    lane_end[i % 3] = e;
    lines.push_back(std::to_string(s) + "\t" + std::to_string(e) + "\t1\tobj/t" + std::to_string(i) + ".o\t" +
                    std::to_string(100 + i) + "\n");
  }
  // ninja writes lines as jobs finish: in end order.
  std::stable_sort(lines.begin(), lines.end(), [](const std::string& a, const std::string& b) {
    return std::stoll(a.substr(a.find('\t') + 1)) < std::stoll(b.substr(b.find('\t') + 1));
  });
  for (const auto& l : lines) t += l;
  return ts::build::parse_ninja_log(t);
}

std::size_t count(const std::string& hay, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

}  // namespace

TEST(RunHtml, SlowestTargetsInOrder) {
  NinjaLog log = thirty_jobs();
  ASSERT_TRUE(log.ok());
  ASSERT_EQ(log.runs, 1);
  std::string html = render_run_html(sample::sample_record(), &log);
  std::size_t table = html.find("<table id=\"slowest\">");
  ASSERT_NE(table, std::string::npos);
  std::string rows = html.substr(table, html.find("</table>", table) - table);
  std::size_t last = 0;
  for (int i = 29; i >= 10; --i) {  // the 20 slowest, longest first
    std::size_t at = rows.find("obj/t" + std::to_string(i) + ".o<");
    ASSERT_NE(at, std::string::npos) << "t" << i << " missing";
    EXPECT_GT(at, last) << "t" << i << " out of order";
    last = at;
  }
  EXPECT_EQ(rows.find("obj/t9.o<"), std::string::npos);  // the 21st slowest is not listed
  EXPECT_NE(html.find("Slowest 20 targets"), std::string::npos);
  auto top = slowest_jobs(log, 3);
  ASSERT_EQ(top.size(), 3u);
  EXPECT_EQ(top[0].name(), "obj/t29.o");
  EXPECT_EQ(top[2].name(), "obj/t27.o");
}

TEST(RunHtml, EscapesHostileNames) {
  std::string evil = "<script>alert('x')</script>";
  std::string log_text = "# ninja log v5\n0\t10\t1\t" + evil + ".o\tab\n0\t20\t1\t\"><img src=x onerror=alert(1)>\tcd\n";
  NinjaLog log = ts::build::parse_ninja_log(log_text);
  ASSERT_EQ(log.entries.size(), 2u);
  RunRecord r = sample::sample_record();
  r.what = evil;
  r.retries[0].reason = evil;
  r.steps[0].note = evil;
  r.governor[0].reason = evil;
  r.verdicts.push_back(evil);
  r.artifacts.push_back(evil);
  r.plan["cuda"] = evil;
  r.diagnosis["root_cause"]["evidence"][0]["text"] = evil + " \xff\x01";
  std::string html = render_run_html(r, &log);
  std::string l = lower(html);
  EXPECT_EQ(l.find("<script"), std::string::npos);
  EXPECT_EQ(l.find("<img"), std::string::npos);
  EXPECT_NE(html.find("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"), std::string::npos);  // inert text
  EXPECT_GE(count(html, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"), 8u);
  EXPECT_EQ(html.find('\x01'), std::string::npos);
  EXPECT_EQ(html.find('\xff'), std::string::npos);
}

TEST(RunHtml, SelfContainedWithAnSvgPerChart) {
  NinjaLog log = thirty_jobs();
  std::string html = render_run_html(sample::sample_record(), &log);
  EXPECT_EQ(count(html, "<svg"), 2u);
  EXPECT_NE(html.find("<svg id=\"timeline\""), std::string::npos);
  EXPECT_NE(html.find("<svg id=\"memory\""), std::string::npos);
  EXPECT_EQ(count(html, "<rect "), 30u);  // one bar a job
  EXPECT_EQ(count(html, "<polyline "), 2u);  // used and available
  std::string l = lower(html);
  for (const char* outside : {"<script", "<link", "src=", "@import", "url(", "https:"})
    EXPECT_EQ(l.find(outside), std::string::npos) << outside;
  EXPECT_EQ(count(l, "http:"), 2u);  // the two SVG namespaces, which fetch nothing
  // Links only to the run's own files, relative, so the folder can be copied.
  for (std::size_t at = l.find("href=\""); at != std::string::npos; at = l.find("href=\"", at + 1)) {
    std::string target = l.substr(at + 6, l.find('"', at + 6) - at - 6);
    EXPECT_EQ(target.find(':'), std::string::npos) << target;
    EXPECT_NE(target.front(), '/') << target;
  }
  EXPECT_NE(html.find("<a href=\"logs/build.log\">logs/build.log</a>"), std::string::npos);
}

TEST(RunHtml, ShowsOutcomeDiagnosisStepsRetriesGovernorCache) {
  NinjaLog log = thirty_jobs();
  std::string html = render_run_html(sample::sample_record(), &log);
  for (const char* want : {"torch==2.4.1", "failed", "oom-killed", "lower MAX_JOBS", "812 | c++: fatal error",
                           "Retries", "OOM kill (signature oom-killed): jobs 8 -&gt; 4", "lower-jobs",
                           "Memory governor", "MemAvailable 1.1 GiB", "75% hits", "cccccccccccc<",
                           "fail libcudnn.so.9 not found", "torch-2.4.1-cp311", "peak used 12.0 GiB",
                           "What was built", "parallel jobs"})
    EXPECT_NE(html.find(want), std::string::npos) << want;
  EXPECT_EQ(html.find("cccccccccccccccccccccccc3333"), std::string::npos);  // hash shortened
}

TEST(RunHtml, DeterministicAndWorksWithoutLogOrSamples) {
  NinjaLog log = thirty_jobs();
  RunRecord r = sample::sample_record();
  EXPECT_EQ(render_run_html(r, &log), render_run_html(r, &log));
  RunRecord bare;
  bare.outcome = "ok";
  std::string html = render_run_html(bare, nullptr);
  EXPECT_NE(html.find("No memory samples"), std::string::npos);
  EXPECT_EQ(count(html, "<svg"), 0u);
  EXPECT_EQ(html.find("Diagnosis"), std::string::npos);
  NinjaLog bad = ts::build::parse_ninja_log("garbage\n");
  EXPECT_NE(render_run_html(bare, &bad).find("No timeline: not a .ninja_log"), std::string::npos);
}

TEST(RunHtml, TimelineCapsBarsForHugeBuilds) {
  NinjaLog log = thirty_jobs();
  HtmlOptions o;
  o.max_timeline_bars = 5;
  std::string html = render_run_html(sample::sample_record(), &log, o);
  EXPECT_EQ(count(html, "<rect "), 5u);
  EXPECT_NE(html.find("The 25 shortest are not drawn"), std::string::npos);
  EXPECT_NE(html.find("obj/t29.o 3.0s"), std::string::npos);  // the longest is kept
}

TEST(HtmlEscape, Entities) {
  EXPECT_EQ(html_escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  EXPECT_EQ(html_escape("caf\xc3\xa9"), "caf\xc3\xa9");         // valid UTF-8 kept
  EXPECT_EQ(html_escape("x\xc3"), "x\xEF\xBF\xBD");              // cut sequence replaced
  EXPECT_EQ(html_escape("\x1b[31m"), "\xEF\xBF\xBD[31m");        // escape sequence neutralised
}

// A verify with a failure: the verdict table puts it first, in colour; the smoke code is code; the
// "what was built" table names only what the plan has, in words.
TEST(RunHtml, VerdictTableFailuresFirstAndPlanInWords) {
  RunRecord r = sample::sample_record();
  r.plan = {{"schema", "torchsmith-plan/1"}, {"torch_version", "2.11.0"}, {"cuda", "13.0"}, {"cuda_home", ""},
            {"arch_list", "9.0"}, {"numpy_version", ""}, {"jobs", 16}, {"import_name", "simple_knn"},
            {"smoke", "x = simple_knn._C.distCUDA2(torch.rand(8, 3, device=device))\nassert x.shape[0] == 8\n"},
            {"spec", {{"package", "simple-knn"}, {"version", ""}}},
            {"source", {{"url", ""}, {"ref", ""}, {"dir", "/src/simple-knn"}, {"revision", ""}}}};
  r.checks = json::array({{{"file", ""}, {"check", "import torch"}, {"outcome", "pass"}, {"detail", "torch 2.11.0"}},
                          {{"file", ""}, {"check", "gpu"}, {"outcome", "note"}, {"detail", "skipped: not asked for"}},
                          {{"file", ""}, {"check", "dependency yapf"}, {"outcome", "fail"}, {"detail", "not installable: no match"}},
                          {{"file", ""}, {"check", "import simple_knn"}, {"outcome", "warn"}, {"detail", "needs yapf"}}});
  std::string html = render_run_html(r, nullptr);
  std::size_t t = html.find("<table id=\"verdicts\">");
  ASSERT_NE(t, std::string::npos) << html;
  std::string rows = html.substr(t, html.find("</table>", t) - t);
  std::size_t fail = rows.find("dependency yapf"), warn = rows.find("import simple_knn"), note = rows.find(">gpu<"),
              pass = rows.find("import torch");
  ASSERT_NE(fail, std::string::npos);
  EXPECT_LT(fail, warn);
  EXPECT_LT(warn, pass);
  EXPECT_LT(pass, note);  // what passed before the notes (issue 37: notes sat above the proof)
  EXPECT_NE(rows.find("<tr class=\"v-bad\"><td class=\"bad\"><b>FAIL</b></td><td>dependency yapf"), std::string::npos) << rows;
  EXPECT_NE(html.find("1 failed"), std::string::npos);
  EXPECT_LT(html.find("<h2>Verification"), html.find("<h2>What was built"));  // the proof comes first
  EXPECT_NE(html.find("<pre id=\"smoke\"><code>x = simple_knn._C.distCUDA2("), std::string::npos);
  std::size_t b = html.find("<table id=\"built\">");
  std::string built = html.substr(b, html.find("</table>", b) - b);
  for (const char* want : {"package</td><td>simple-knn<", "imported as", "/src/simple-knn", "against torch</td><td>2.11.0",
                           "CUDA</td><td>13.0<", "GPU arches</td><td>9.0", "parallel jobs</td><td>16"})
    EXPECT_NE(built.find(want), std::string::npos) << want << "\n" << built;
  for (const char* absent : {"NumPy", "source revision", "schema", "host compiler"})
    EXPECT_EQ(built.find(absent), std::string::npos) << absent;
}

// Issue 37 (4): a compile error in the user's file is named as such, at their path, with the line,
// its caret and the lines around it (read from the copy that was compiled); the artifact table
// links each file relative to the report with size, sha256 and install line; the reproducing
// command; the plan's decisions folded; sections that say nothing about a failure folded; the
// memory chart's axes named with ticks.
TEST(RunHtml, ExplainsACompileErrorInTheUsersSource) {
  ts::testkit::TempDir d;
  const std::string copy = d.path() + "/out/src";
  std::filesystem::create_directories(copy);
  std::ofstream(copy + "/hello_ext.cpp") << "#include <torch/extension.h>\n\ntorch::Tensor add_one(const torch::Tensor& t) {\n"
                                            "  return t + 1\n}\n";
  RunRecord r = sample::sample_record();
  r.what = "hello_ext against torch 1.13.1";
  r.run_dir = d.path() + "/out/runs/1";
  r.source_dir = "/home/u/hello_ext";
  r.source_copy = copy;
  r.command = {"torchsmith", "build", "/home/u/hello_ext", "--torch", "/usr/bin/python3"};
  r.plan["decisions"] = json::array({{{"topic", "jobs"}, {"value", "2"}, {"reason", "2 cores"}, {"rule", "jobs.memory"}}});
  r.diagnosis = {{"root_cause",
                  {{"id", "CXX_SYNTAX"},
                   {"cause", "a syntax error"},
                   {"fix", "correct the line"},
                   {"evidence", {{{"line", 7}, {"text", copy + "/hello_ext.cpp:4:15: error: expected ';' before '}' token"}}}},
                   {"context", {{{"line", 6}, {"text", "In function 'add_one':"}},
                                {{"line", 7}, {"text", copy + "/hello_ext.cpp:4:15: error: expected ';' before '}' token"}}}}}}};
  std::string html = render_run_html(r, nullptr);
  EXPECT_NE(html.find("Error in your source: <code>hello_ext.cpp:4</code>"), std::string::npos) << html;
  EXPECT_NE(html.find("/home/u/hello_ext/hello_ext.cpp:4:15"), std::string::npos);
  EXPECT_NE(html.find("<span class=\"hit\">    4 |   return t + 1</span>"), std::string::npos) << html;
  EXPECT_NE(html.find(std::string(8 + 14, ' ') + "<span class=\"caret\">^</span>"), std::string::npos) << html;
  EXPECT_NE(html.find("    3 | torch::Tensor add_one"), std::string::npos);  // the lines around
  EXPECT_NE(html.find("  6 | In function &#39;add_one&#39;:"), std::string::npos);  // the log's context too
  EXPECT_NE(html.find("torchsmith build /home/u/hello_ext --torch /usr/bin/python3 --resume"), std::string::npos);
  EXPECT_NE(html.find("<details id=\"decisions\"><summary>The plan's decisions (1)"), std::string::npos) << html;
  EXPECT_NE(html.find("<details><summary>Timing and memory</summary>"), std::string::npos);
  EXPECT_NE(html.find("<details><summary>What was built</summary>"), std::string::npos);
  EXPECT_LT(html.find("id=\"source-error\""), html.find("<h2>Diagnosis"));

  // Missing header: named.
  r.diagnosis["root_cause"]["evidence"][0]["text"] = copy + "/hello_ext.cpp:1:10: fatal error: cutlass/cutlass.h: No such file or directory";
  r.diagnosis["root_cause"]["context"] = json::array();
  html = render_run_html(r, nullptr);
  EXPECT_NE(html.find("Missing header <code>cutlass/cutlass.h</code>"), std::string::npos) << html;

  // Success: nothing folded; the artifact handed over with a relative link.
  r.outcome = "ok";
  r.diagnosis = nullptr;
  r.artifact_files = {{"dist/hello_ext-0.1.0+pt113cpu-cp311-cp311-linux_x86_64.whl",
                       d.path() + "/out/dist/hello_ext-0.1.0+pt113cpu-cp311-cp311-linux_x86_64.whl", 12650,
                       std::string(64, 'b'), "/usr/bin/python3 -m pip install x.whl", "torch 1.13 (CPU)"}};
  html = render_run_html(r, nullptr);
  EXPECT_EQ(html.find("<details><summary>"), std::string::npos);
  EXPECT_NE(html.find("<a href=\"../../dist/hello_ext-0.1.0+pt113cpu-cp311-cp311-linux_x86_64.whl\">"), std::string::npos)
      << html;
  EXPECT_NE(html.find("<td>12 KiB</td><td><code>" + std::string(64, 'b')), std::string::npos);
  EXPECT_NE(html.find("<code>/usr/bin/python3 -m pip install x.whl</code><br>built against torch 1.13 (CPU)"), std::string::npos);
  EXPECT_EQ(html.find("source-error"), std::string::npos);
  for (const char* axis : {"time since the run started", "memory (GiB)"})
    EXPECT_NE(html.find(axis), std::string::npos) << axis;
  EXPECT_GE(count(html, "stroke=\"#eee\""), 5u);  // the memory chart's gridlines, one a tick
}
