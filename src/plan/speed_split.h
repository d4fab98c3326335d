#pragma once
// nvcc --split-compile: one CUDA compile's optimizer (cicc) and assembler (ptxas) in threads. A
// target-only build has one arch, so nvcc --threads has nothing to share out, and a package of a
// few kernel-heavy .cu files waits on its longest one while most cores idle.
#include <string>

namespace ts::plan {

struct SplitCompileInput {
  int cores = 1;
  int jobs = 1;              // compile jobs the plan runs at once
  int threads = 1;           // nvcc --threads each CUDA compile already has (one per arch)
  int cu_files = 0;          // CUDA compile units in the tree; 0 = unknown (no split)
  double usable_gib = 0;     // 0 = unknown: cores alone decide
  double job_gib = 0;        // one nvcc job's memory with one thread
  double thread_factor = 1;  // an nvcc --threads thread, in jobs
  double split_factor = 0.25;  // each further --split-compile thread, in jobs
};

struct SplitCompile {
  int split = 1;    // 1 = no --split-compile
  std::string why;  // "3 CUDA compile(s) at once x 1 nvcc thread(s) on 16 cores: 16 threads each (...)"
};

// Threads per CUDA compile: at most every core (cores / nvcc threads), and at most three threads a
// core while the compiles at once (the fewer of the jobs and the .cu files) all run; the longest
// one, left alone at the end, then has the cores the others freed. Lowered until those compiles fit
// in memory.
SplitCompile choose_split_compile(const SplitCompileInput& in);

}  // namespace ts::plan
