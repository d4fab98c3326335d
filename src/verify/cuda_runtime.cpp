#include "verify/cuda_runtime.h"

namespace ts::verify {

std::vector<Verdict> check_cuda_runtime(const VerifyReport& rep, const std::string& torch_cuda) {
  std::vector<Verdict> out;
  std::string want = torch_cuda.substr(0, torch_cuda.find('.'));
  for (const auto& f : rep.files)
    for (const auto& n : f.needed) {
      const std::string prefix = "libcudart.so.";
      if (n.rfind(prefix, 0) != 0) continue;
      std::string major = n.substr(prefix.size());
      major = major.substr(0, major.find('.'));
      if (want.empty()) {
        out.push_back({f.path, "cuda runtime", Outcome::note, "needs " + n + " (CUDA " + major + ".x); the torch's CUDA is not known"});
      } else if (major == want) {
        out.push_back({f.path, "cuda runtime", Outcome::pass, "needs " + n + ", torch's CUDA is " + torch_cuda});
      } else {
        out.push_back({f.path, "cuda runtime", Outcome::fail,
                       "needs " + n + " but torch was built with CUDA " + torch_cuda + " (libcudart.so." + want +
                           "): rebuild with a CUDA " + want + ".x toolkit (plan --toolkit pip provisions one)"});
      }
    }
  return out;
}

}  // namespace ts::verify
