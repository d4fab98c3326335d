#include "verify/cuda_runtime.h"

#include "verify/check.h"

namespace ts::verify {

namespace {

std::string major_of(const std::string& v) { return v.substr(0, v.find('.')); }

}  // namespace

std::vector<Verdict> check_cuda_runtime(const VerifyReport& rep, const std::string& torch_cuda) {
  std::vector<Verdict> out;
  std::string want = major_of(torch_cuda);
  for (const auto& f : rep.files) {
    for (const auto& n : f.needed) {
      const std::string prefix = "libcudart.so.";
      if (n.rfind(prefix, 0) != 0) continue;
      std::string major = major_of(n.substr(prefix.size()));
      if (want.empty()) {
        out.push_back(verdict(f.path, Check::cuda_runtime, Outcome::note, "needs " + n + " (CUDA " + major + ".x); the torch's CUDA is not known"));
      } else if (major == want) {
        out.push_back(verdict(f.path, Check::cuda_runtime, Outcome::pass, "needs " + n + ", torch's CUDA is " + torch_cuda));
      } else {
        out.push_back(verdict(f.path, Check::cuda_runtime, Outcome::fail,
                       "needs " + n + " but torch was built with CUDA " + torch_cuda + " (libcudart.so." + want +
                           "): rebuild with a CUDA " + want + ".x toolkit (plan --toolkit pip provisions one)"));
      }
    }
    if (!f.cuda || f.cuda->releases.empty()) continue;
    // The GPU code: every release that compiled part of it must be of torch's major.
    std::string all, other;
    for (const auto& r : f.cuda->releases) {
      all += (all.empty() ? "" : ", ") + r;
      if (!want.empty() && major_of(r) != want) other += (other.empty() ? "" : ", ") + r;
    }
    std::string said = "its GPU code was compiled by CUDA " + all + " (the fatbin's nvcc banner)";
    if (want.empty())
      out.push_back(verdict(f.path, Check::cuda_code, Outcome::note, said + "; the torch's CUDA is not known"));
    else if (other.empty())
      out.push_back(verdict(f.path, Check::cuda_code, Outcome::pass, said + ", torch's CUDA is " + torch_cuda));
    else
      out.push_back(verdict(f.path, Check::cuda_code, Outcome::fail,
                     "its GPU code was compiled by CUDA " + other + " but torch was built with CUDA " + torch_cuda +
                         ": rebuild with a CUDA " + want + ".x toolkit (plan --toolkit pip provisions one)"));
  }
  return out;
}

}  // namespace ts::verify
