// kb refresh's overlay from recorded PyPI metadata (tests/fixtures/pypi): new torch lines, the
// newest line's default-wheel CUDA, conflicts with the built-in data, toolkits the KB lacks.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "kb/refresh.h"

namespace ts::kb {
namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(TS_SOURCE_DIR) + "/tests/fixtures/pypi/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<pypi::Response> read(const std::string& text) {
  std::vector<KbError> errors;
  auto rs = pypi::parse_recording(text, "rec.txt", errors);
  EXPECT_TRUE(errors.empty()) << (errors.empty() ? "" : errors[0].str());
  return rs;
}

std::string all(const std::vector<KbError>& e) {
  std::string o;
  for (const auto& x : e) o += x.str() + "\n";
  return o;
}

// The overlay must load on top of the built-in KB without errors.
Kb with_overlay(const Overlay& ov) {
  std::vector<KbError> errors;
  Kb kb = load_embedded(errors);
  if (!ov.cuda_toml.empty()) load_text(kb, "cuda.toml", ov.cuda_toml, errors);
  if (!ov.torch_toml.empty()) load_text(kb, "torch.toml", ov.torch_toml, errors);
  EXPECT_TRUE(errors.empty()) << all(errors) << ov.torch_toml << ov.cuda_toml;
  return kb;
}

TEST(KbRefresh, NewestLineCitesPyPIAndTheDateRead) {
  std::vector<KbError> errors;
  Kb base = load_embedded(errors);
  RefreshInput in;
  in.torch = read(fixture("torch.txt"));
  Overlay ov = make_overlay(base, in, errors);
  ASSERT_TRUE(errors.empty()) << all(errors);
  Kb kb = with_overlay(ov);
  const TorchRelease* t = kb.find_torch("2.15.0");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->status, "refreshed");
  EXPECT_EQ(t->source.rfind("https://pypi.org/pypi/torch/json (read 2026-11-26)", 0), 0u) << t->source;
  EXPECT_EQ(t->released, "2026-10-28");
  EXPECT_EQ(t->python.str(), ">=3.11,<3.16");
  EXPECT_NE(std::find(t->cuda.begin(), t->cuda.end(), *Version::parse("13.2")), t->cuda.end());
  EXPECT_TRUE(ov.conflicts.empty()) << ov.conflicts.front();  // the built-in data agrees with PyPI
  // Older lines agree with the built-in entries and are not repeated in the overlay.
  EXPECT_EQ(kb.find_torch("2.14")->status, base.find_torch("2.14")->status);
}

TEST(KbRefresh, ALineTheKbLacksTakesWhatPyPISaysAndMarksTheRestRecalled) {
  std::vector<KbError> errors;
  Kb base = load_embedded(errors);
  // A torch 2.99 line as PyPI would list it: cp312-cp313 wheels, CUDA 13.2 by Requires-Dist.
  std::string rec = "# url: https://pypi.org/pypi/torch/json\n# read: 2027-01-02\n"
                    "{\"info\": {\"name\": \"torch\", \"version\": \"2.99.0\", \"requires_dist\": "
                    "[\"cuda-toolkit[cudart]==13.2.1; platform_system == \\\"Linux\\\"\"]}, \"releases\": {\"2.99.0\": ["
                    "{\"filename\": \"torch-2.99.0-cp312-cp312-manylinux_2_28_x86_64.whl\", \"python_version\": \"cp312\", "
                    "\"upload_time_iso_8601\": \"2027-01-01T10:00:00Z\", \"yanked\": false},"
                    "{\"filename\": \"torch-2.99.0-cp313-cp313-manylinux_2_28_x86_64.whl\", \"python_version\": \"cp313\", "
                    "\"upload_time_iso_8601\": \"2027-01-01T10:05:00Z\", \"yanked\": false}]}}\n";
  RefreshInput in;
  in.torch = read(rec);
  Overlay ov = make_overlay(base, in, errors);
  ASSERT_EQ(ov.torch_entries, 1);
  Kb kb = with_overlay(ov);
  const TorchRelease* t = kb.find_torch("2.99");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->python.str(), ">=3.12,<3.14");
  EXPECT_EQ(spelled(t->cuda), std::vector<std::string>{"13.2"});
  EXPECT_EQ(t->released, "2027-01-01");
  EXPECT_TRUE(t->is_recalled("cmake_min"));
  EXPECT_TRUE(t->is_recalled("arch_names"));
  EXPECT_FALSE(t->is_recalled("cuda"));
  EXPECT_NE(t->note.find("those of torch 2.15"), std::string::npos) << t->note;
}

TEST(KbRefresh, ConflictWithBuiltInIsReportedAndTheRefreshedValueWins) {
  std::vector<KbError> errors;
  Kb base = load_embedded(errors);
  std::string rec = fixture("torch.txt");
  // PyPI (as recorded here) dates torch 2.14.0 a day later than the built-in entry does.
  auto p = rec.find("2026-09-02T");
  ASSERT_NE(p, std::string::npos);
  for (std::size_t q = p; (q = rec.find("2026-09-02T", q)) != std::string::npos;) rec.replace(q, 10, "2026-09-03");
  RefreshInput in;
  in.torch = read(rec);
  Overlay ov = make_overlay(base, in, errors);
  ASSERT_EQ(ov.conflicts.size(), 1u);
  EXPECT_NE(ov.conflicts[0].find("torch 2.14 released: built-in 2026-09-02 (torch.toml:"), std::string::npos) << ov.conflicts[0];
  EXPECT_NE(ov.conflicts[0].find("PyPI 2026-09-03"), std::string::npos) << ov.conflicts[0];
  Kb kb = with_overlay(ov);
  EXPECT_EQ(kb.find_torch("2.14")->released, "2026-09-03");
  EXPECT_EQ(kb.find_torch("2.14")->status, "refreshed");
  EXPECT_EQ(kb.find_torch("2.14")->cmake_min, base.find_torch("2.14")->cmake_min);  // the rest is the built-in entry's
}

TEST(KbRefresh, ToolkitsTheKbLacksNeedTheirNvccRead) {
  std::vector<KbError> errors;
  Kb base = load_embedded(errors);
  std::string rec = "# url: https://pypi.org/pypi/nvidia-cuda-nvcc/json\n# read: 2027-02-01\n"
                    "{\"info\": {\"name\": \"nvidia-cuda-nvcc\"}, \"releases\": {"
                    "\"13.0.88\": [{\"upload_time_iso_8601\": \"2025-09-01T00:00:00Z\"}],"
                    "\"13.9.12\": [{\"upload_time_iso_8601\": \"2027-01-20T00:00:00Z\"}],"
                    "\"13.8.40\": [{\"upload_time_iso_8601\": \"2026-12-20T00:00:00Z\"}]}}\n";
  RefreshInput in;
  in.toolkits = read(rec);
  in.read.push_back({"13.9", {"7.5", "8.0", "9.0", "9.0a", "12.0", "12.0f"}, "16", "22", "nvcc --list-gpu-code of /opt/cuda-13.9/bin/nvcc"});
  Overlay ov = make_overlay(base, in, errors);
  ASSERT_TRUE(errors.empty()) << all(errors);
  EXPECT_EQ(ov.cuda_entries, 1);
  ASSERT_EQ(ov.notes.size(), 1u);
  EXPECT_NE(ov.notes[0].find("CUDA 13.8 is on PyPI (nvidia-cuda-nvcc 13.8.40, 2026-12-20)"), std::string::npos) << ov.notes[0];
  Kb kb = with_overlay(ov);
  const CudaRelease* c = kb.find_cuda("13.9");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->arches.back().str(), "12.0f");
  EXPECT_EQ(c->status, "refreshed");
  EXPECT_EQ(c->source.rfind("https://pypi.org/project/nvidia-cuda-nvcc/13.9.12/ (read 2027-02-01)", 0), 0u) << c->source;
  EXPECT_TRUE(c->is_recalled("driver_min_linux"));
  EXPECT_EQ(kb.find_cuda("13.8"), nullptr);
}

TEST(KbRefresh, ADayForAMonthIsARefinementNotAConflict) {
  std::vector<KbError> errors;
  Kb base = load_embedded(errors);
  ASSERT_EQ(base.find_torch("2.5")->released, "2024-10");  // the built-in entry knows the month
  std::string rec = "# url: https://pypi.org/pypi/torch/json\n# read: 2026-11-26\n"
                    "{\"info\": {\"name\": \"torch\", \"version\": \"2.5.1\", \"requires_dist\": []}, \"releases\": {"
                    "\"2.5.0\": [{\"python_version\": \"cp312\", \"upload_time_iso_8601\": \"2024-10-17T16:00:00Z\"}]}}\n";
  RefreshInput in;
  in.torch = read(rec);
  Overlay ov = make_overlay(base, in, errors);
  EXPECT_TRUE(ov.conflicts.empty());
  ASSERT_FALSE(ov.notes.empty());
  EXPECT_NE(ov.notes[0].find("torch 2.5 released: built-in 2024-10"), std::string::npos) << ov.notes[0];
  EXPECT_EQ(with_overlay(ov).find_torch("2.5")->released, "2024-10-17");
}

}  // namespace
}  // namespace ts::kb
