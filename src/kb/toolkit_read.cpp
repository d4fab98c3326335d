// Toolkit facts replacing recalled KB entries (see toolkit_read.h).
#include "kb/toolkit_read.h"

#include <algorithm>

#include "core/version.h"
#include "util/fs.h"
#include "util/split.h"

namespace ts::kb {

namespace {

void unrecall(Entry& e, const std::string& field) {
  e.recalled.erase(std::remove(e.recalled.begin(), e.recalled.end(), field), e.recalled.end());
}

}  // namespace

std::optional<Version> driver_lower_bound(const Kb& kb, const std::string& version, std::string* from) {
  // Parsed as find_cuda_family parses it: a known major always has a bound (its floor at least).
  auto v = Version::parse(util::trim(version));
  const CudaFamily* fam = kb.find_cuda_family(version);
  if (!v || !fam) return std::nullopt;
  const CudaRelease* best = nullptr;
  for (const auto& c : kb.cuda)
    if (c.version.major() == v->major() && c.version < *v && (!best || best->version < c.version)) best = &c;
  if (from) *from = best ? "CUDA " + best->version.original() + "'s driver_min_linux, a lower bound" : "the CUDA " + fam->major + " minor-version floor";
  return best ? best->driver_min_linux : fam->driver_min_linux;
}

namespace {
// nvcc's list as the KB holds it; a name no grammar reads is left out (nvcc printed it, the KB has no use for it).
std::vector<CudaArch> parsed(const std::vector<std::string>& arches) {
  std::vector<CudaArch> out;
  for (const auto& a : arches)
    if (auto x = CudaArch::parse(a)) out.push_back(*x);
  return out;
}
}  // namespace

std::vector<std::string> adopt_read_toolkits(Kb& kb, const std::vector<ReadToolkit>& read) {
  std::vector<std::string> out;
  for (const auto& r : read) {
    if (r.arches.empty()) continue;
    CudaRelease* c = nullptr;
    for (auto& x : kb.cuda)
      if (kb.find_cuda(r.version) == &x) c = &x;
    if (!c) {
      const CudaFamily* fam = kb.find_cuda_family(r.version);
      if (!fam || r.gcc_max.empty() || r.clang_max.empty()) {
        out.push_back("CUDA " + r.version + ": not in the KB; its nvcc lists " + util::join(r.arches, " ") +
                      (fam ? " but its host-compiler limits were not read" : " but the KB knows no CUDA " + r.version.substr(0, r.version.find('.')) + " driver floor") +
                      ", so it is not added");
        continue;
      }
      CudaRelease n;
      n.version = Version::parse(r.version).value_or(Version{});  // it parses: its family was found by it
      n.arches = parsed(r.arches);
      auto gcc_max = Version::parse(r.gcc_max), clang_max = Version::parse(r.clang_max);
      if (!gcc_max || !clang_max) {
        out.push_back("CUDA " + r.version + ": not in the KB; its host_config.h limits (gcc " + r.gcc_max + ", clang " +
                      r.clang_max + ") do not parse as versions, so it is not added");
        continue;
      }
      n.gcc_max = *gcc_max;
      n.clang_max = *clang_max;
      std::string from;
      n.driver_min_linux = *driver_lower_bound(kb, r.version, &from);  // fam is known: there is one
      n.status = "verified";
      n.recalled = {"driver_min_linux"};
      n.source = r.source;
      n.origin = {"nvcc", 0};
      n.note = "added from the toolkit itself; driver_min_linux is " + from;
      kb.cuda.push_back(n);
      out.push_back("CUDA " + r.version + ": not in the KB; added from what its nvcc says (" + r.source + ")");
      continue;
    }
    std::string where = c->origin.file + ":" + std::to_string(c->origin.line);
    if (c->is_recalled("arches")) {
      out.push_back("CUDA " + r.version + " arches: the KB's list was recalled (" + where + "); now what its nvcc lists: " +
                    util::join(r.arches, " ") + " (" + r.source + ")");
      c->arches = parsed(r.arches);
      unrecall(*c, "arches");
      c->source = r.source + "; other fields: " + c->source;
    } else if (c->arches != parsed(r.arches)) {
      out.push_back("CUDA " + r.version + " arches: the KB (" + where + ") lists " + util::join(spelled(c->arches), " ") + "; its nvcc lists " +
                    util::join(r.arches, " ") + " (the KB entry is verified and kept; report it if the toolkit is stock)");
    }
    struct Limit { const char* field; const std::string& value; Version* kb_value; };
    for (const Limit& l : {Limit{"gcc_max", r.gcc_max, &c->gcc_max}, Limit{"clang_max", r.clang_max, &c->clang_max}}) {
      const std::string field = l.field, &value = l.value;
      Version* kb_value = l.kb_value;
      auto read_value = Version::parse(value);
      if (!read_value || *read_value == *kb_value) continue;
      if (c->is_recalled(field)) {
        out.push_back("CUDA " + r.version + " " + field + ": the KB's " + kb_value->original() + " was recalled (" + where +
                      "); its host_config.h says " + value);
        *kb_value = *read_value;
        unrecall(*c, field);
      } else {
        out.push_back("CUDA " + r.version + " " + field + ": the KB (" + where + ") says " + kb_value->original() +
                      "; its host_config.h says " + value + " (kept: the KB entry is verified)");
      }
    }
  }
  return out;
}

}  // namespace ts::kb
