// PyPI metadata recordings (tests/fixtures/pypi, trimmed from real responses): parsing, the facts
// kb refresh takes from them, and file:line errors for damaged files.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "kb/pypi.h"

namespace ts::kb::pypi {
namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(TS_SOURCE_DIR) + "/tests/fixtures/pypi/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string all(const std::vector<KbError>& e) {
  std::string o;
  for (const auto& x : e) o += x.str() + "\n";
  return o;
}

TEST(PypiRecording, ReadsUrlDateAndBody) {
  std::vector<KbError> errors;
  auto rs = parse_recording(fixture("torch.txt"), "torch.txt", errors);
  ASSERT_TRUE(errors.empty()) << all(errors);
  ASSERT_EQ(rs.size(), 1u);
  EXPECT_EQ(rs[0].url, "https://pypi.org/pypi/torch/json");
  EXPECT_EQ(rs[0].read, "2026-11-26");
  EXPECT_EQ(rs[0].origin.line, 1);
  EXPECT_EQ(rs[0].body["info"]["version"], "2.15.0");
}

TEST(PypiRecording, SeveralResponsesInOneFileAndRoundTrip) {
  std::vector<KbError> errors;
  std::string text = fixture("torch.txt") + fixture("nvidia-cuda-nvcc.txt");
  auto rs = parse_recording(text, "both.txt", errors);
  ASSERT_TRUE(errors.empty()) << all(errors);
  ASSERT_EQ(rs.size(), 2u);
  EXPECT_EQ(rs[1].url, "https://pypi.org/pypi/nvidia-cuda-nvcc/json");
  auto again = parse_recording(to_recording(rs[1]), "x", errors);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].body, rs[1].body);
}

TEST(PypiRecording, TruncatedFileNamesItsLastLine) {
  std::string text = fixture("torch.txt");
  text = text.substr(0, text.size() / 2);
  int lines = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
  std::vector<KbError> errors;
  auto rs = parse_recording(text, "cut.txt", errors);
  EXPECT_TRUE(rs.empty());
  ASSERT_EQ(errors.size(), 1u) << all(errors);
  EXPECT_EQ(errors[0].origin.file, "cut.txt");
  EXPECT_EQ(errors[0].origin.line, lines) << all(errors);
  EXPECT_NE(errors[0].message.find("JSON ends early (truncated?)"), std::string::npos) << all(errors);
}

TEST(PypiRecording, SyntaxErrorNamesItsLine) {
  std::string text = "# url: https://pypi.org/pypi/torch/json\n# read: 2026-11-26\n{\n \"info\": {},\n \"releases\": {\"2.0.0\": [}\n}\n";
  std::vector<KbError> errors;
  EXPECT_TRUE(parse_recording(text, "bad.txt", errors).empty());
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].str().rfind("bad.txt:5: JSON syntax error", 0), 0u) << errors[0].str();
}

TEST(PypiRecording, HeaderProblemsAreNamed) {
  std::vector<KbError> errors;
  parse_recording("{\"info\": {}}\n", "nohead.txt", errors);
  EXPECT_NE(all(errors).find("nohead.txt:1: text before the first '# url:' line"), std::string::npos) << all(errors);
  errors.clear();
  parse_recording("# url: https://pypi.org/pypi/torch/json\n# read: yesterday\n{}\n", "date.txt", errors);
  EXPECT_NE(all(errors).find("date.txt:2: read: 'yesterday' is not a date"), std::string::npos) << all(errors);
  errors.clear();
  parse_recording("# url: https://pypi.org/pypi/torch/json\n# read: 2026-11-26\n", "empty.txt", errors);
  EXPECT_NE(all(errors).find("empty.txt:1: no JSON after"), std::string::npos) << all(errors);
  errors.clear();
  parse_recording("", "nothing.txt", errors);
  EXPECT_NE(all(errors).find("not a PyPI metadata recording"), std::string::npos) << all(errors);
}

TEST(PypiTorch, ReleaseLinesWithDatesPythonsAndDefaultCuda) {
  std::vector<KbError> errors;
  auto rs = parse_recording(fixture("torch.txt"), "torch.txt", errors);
  auto lines = torch_lines(rs, errors);
  ASSERT_TRUE(errors.empty()) << all(errors);
  ASSERT_EQ(lines.size(), 4u);  // 2.12 .. 2.15 are in the trimmed recording
  const TorchLine& l = lines.back();
  EXPECT_EQ(l.minor, "2.15");
  EXPECT_EQ(l.versions, std::vector<std::string>{"2.15.0"});
  EXPECT_EQ(l.released, "2026-10-28");
  EXPECT_EQ(l.python_minors, (std::vector<int>{11, 12, 13, 14, 15}));
  EXPECT_EQ(l.default_cuda, "13.2");
  EXPECT_NE(l.cuda_from.find("cuda-toolkit["), std::string::npos) << l.cuda_from;
  EXPECT_EQ(lines[2].minor, "2.14");
  EXPECT_EQ(lines[2].versions, (std::vector<std::string>{"2.14.0", "2.14.1"}));
  EXPECT_EQ(lines[2].released, "2026-09-02");
  EXPECT_EQ(lines[2].default_cuda, "");  // only the newest version's Requires-Dist is in the project JSON
}

TEST(PypiTorch, CudaOfRequiresDist) {
  EXPECT_EQ(cuda_of_requires({"cuda-toolkit[cublas,cudart]==13.2.2; platform_system == \"Linux\""}), "13.2");
  EXPECT_EQ(cuda_of_requires({"filelock", "nvidia-cuda-runtime-cu12==12.4.127; platform_system == \"Linux\""}), "12.4");
  EXPECT_EQ(cuda_of_requires({"nvidia-cuda-nvrtc-cu11==11.7.99"}), "11.7");
  EXPECT_EQ(cuda_of_requires({"nvidia-cudnn-cu13==9.26.0.51"}), "");  // cuDNN's version says nothing of CUDA's minor
  EXPECT_EQ(cuda_of_requires({}), "");
}

TEST(PypiToolkits, NvccProjectsGiveToolkitLines) {
  std::vector<KbError> errors;
  auto rs = parse_recording(fixture("nvidia-cuda-nvcc.txt"), "n.txt", errors);
  ASSERT_EQ(rs.size(), 1u) << all(errors);
  auto lines = toolkit_lines(rs[0], errors);
  ASSERT_TRUE(errors.empty()) << all(errors);
  ASSERT_GE(lines.size(), 6u);
  EXPECT_EQ(lines.front().minor, "13.0");
  EXPECT_EQ(lines.back().minor, "13.5");
  EXPECT_EQ(lines.back().newest, "13.5.37");
  EXPECT_EQ(lines.back().url, "https://pypi.org/project/nvidia-cuda-nvcc/13.5.37/");
  for (const auto& l : lines) EXPECT_EQ(l.released.size(), 10u) << l.minor;  // 13.4.46rc1 is not a line of its own
  auto cu12 = parse_recording(fixture("nvidia-cuda-nvcc-cu12.txt"), "c.txt", errors);
  auto l12 = toolkit_lines(cu12[0], errors);
  EXPECT_EQ(l12.back().minor, "12.9");
  EXPECT_EQ(l12.back().newest, "12.9.86");
}

}  // namespace
}  // namespace ts::kb::pypi
