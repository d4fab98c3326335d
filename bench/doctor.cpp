// bench/doctor: wall time of `torchsmith doctor --json` against a script that runs the same probes
// by hand, one after another (what a person does today), measured in the same run.
// Usage: bench_doctor [TORCHSMITH_BINARY] [RUNS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "util/fs.h"
#include "util/process.h"

namespace {

// The by-hand sequence: each tool asked for its version, each Python asked about torch and numpy.
const char* kBaseline = R"SH(#!/bin/bash
command -v nvidia-smi >/dev/null && nvidia-smi
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv
command -v lspci >/dev/null && lspci -nn | grep -i nvidia
cat /proc/meminfo /proc/cpuinfo /etc/os-release >/dev/null
ldd --version | head -1
for d in /usr/local/cuda /usr/local/cuda-*; do [ -x "$d/bin/nvcc" ] && "$d/bin/nvcc" --version; done
command -v nvcc >/dev/null && nvcc --version
for c in gcc g++ gcc-11 gcc-12 gcc-13 clang; do command -v $c >/dev/null && $c --version | head -1; done
for t in cmake ninja make git patchelf ccache; do command -v $t >/dev/null && $t --version | head -1; done
find /usr/include /usr/local/cuda/include -maxdepth 2 -name 'cudnn_version*.h' 2>/dev/null | head -1
for p in python3 $(ls /usr/bin/python3.* 2>/dev/null | grep -E 'python3\.[0-9]+$'); do
  $p -c "import sys; print(sys.version)"
  $p -c "import numpy; print(numpy.__version__)" 2>/dev/null
  $p -c "import torch; print(torch.__version__, torch.version.cuda, torch.backends.cudnn.version(), torch.cuda.get_arch_list(), torch._C._GLIBCXX_USE_CXX11_ABI)" 2>/dev/null
done
exit 0
)SH";

double run_once(const std::vector<std::string>& argv) {
  ts::util::RunOptions o;
  o.timeout = std::chrono::seconds(120);
  auto t0 = std::chrono::steady_clock::now();
  auto r = ts::util::run(argv, o);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (r.exit_code != 0 || r.timed_out) {
    std::fprintf(stderr, "bench_doctor: %s failed (exit %d%s)\n", argv[0].c_str(), r.exit_code,
                 r.timed_out ? ", timed out" : "");
    std::exit(1);
  }
  return s;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  std::string bin = argc > 1 ? argv[1] : std::string(TS_SOURCE_DIR) + "/build/torchsmith";
  int runs = argc > 2 ? std::atoi(argv[2]) : 5;
  std::string script = "/tmp/torchsmith_bench_doctor_baseline.sh";
  if (auto err = ts::util::write_file_atomic(script, kBaseline); !err.empty()) {
    std::fprintf(stderr, "bench_doctor: %s\n", err.c_str());
    return 1;
  }
  std::vector<double> tool, hand;
  run_once({bin, "doctor", "--json"});  // warm the page cache for both sides alike
  run_once({"/bin/bash", script});
  for (int i = 0; i < runs; ++i) {  // interleaved so drift hits both
    tool.push_back(run_once({bin, "doctor", "--json"}));
    hand.push_back(run_once({"/bin/bash", script}));
  }
  double t = median(tool), h = median(hand);
  std::printf("bench/doctor: %d runs each, medians\n", runs);
  std::printf("  by hand, in sequence : %8.3f s\n", h);
  std::printf("  torchsmith doctor    : %8.3f s\n", t);
  std::printf("  ratio                : %8.2f x  (target <= 0.50)\n", t / h);
  return 0;
}
