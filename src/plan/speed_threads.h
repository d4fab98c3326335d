#pragma once
// Compile jobs x nvcc --threads against cores and memory: a portable build (many arches) compiles
// the arches of one .cu file in parallel inside nvcc, and each thread costs memory like a job.
#include <string>

namespace ts::plan {

struct JobsThreadsInput {
  int cores = 1;
  double usable_gib = 0;     // 0 = unknown: cores alone decide
  double job_gib = 0;        // one compile job with all its arches compiled one after another
  double thread_factor = 1;  // memory of a job with T threads = job_gib * T * thread_factor
  int arches = 1;            // arches each nvcc call compiles
};

struct JobsThreads {
  int jobs = 1, threads = 1;
  std::string why;  // "16 cores, 118.0 GiB usable / 5.5 GiB per job x 6 threads: 2 jobs x 6 threads"
};

// threads = arches (all compiled at once), reduced until one job fits memory; then jobs fill the
// cores (jobs x threads about the cores) as far as memory allows. One arch: threads = 1 and jobs
// as the plain memory model has them.
JobsThreads balance_jobs_threads(const JobsThreadsInput& in);

}  // namespace ts::plan
