#include "core/arch_list.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "core/host_facts.h"

namespace ts {
namespace {

bool is_sep(char c) { return c == ';' || c == ',' || std::isspace(static_cast<unsigned char>(c)); }

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

bool ends_with_ptx(std::string_view t) { return t.size() > 4 && iequals(t.substr(t.size() - 4), "+ptx"); }

// Sort, then fold entries for the same target into one, keeping PTX if any of them asked for it.
std::vector<CudaArch> normalise(std::vector<CudaArch> in) {
  std::sort(in.begin(), in.end());
  std::vector<CudaArch> out;
  for (const CudaArch& a : in) {
    if (!out.empty() && out.back().sass_only() == a.sass_only()) out.back().ptx |= a.ptx;
    else out.push_back(a);
  }
  return out;
}

// A token that is not a number: ask the resolver, first for the whole token (names such as
// "Maxwell+Tegra" contain '+'), then without a trailing "+PTX".
std::optional<std::vector<CudaArch>> resolve_name(std::string_view token, const ArchNameResolver& resolve,
                                                  std::string* error) {
  const std::string accepted = "; give numbers like " + std::string(kCudaArchSpellings);
  if (!resolve) {
    if (error) *error = "'" + std::string(token) + "' is not a CUDA architecture" + accepted +
                        " (names such as Ampere or native are not available here)";
    return std::nullopt;
  }
  std::string why;
  auto got = resolve(token, &why);
  bool add_ptx = false;
  if (!got && ends_with_ptx(token)) {
    std::string why_stripped;
    got = resolve(token.substr(0, token.size() - 4), &why_stripped);
    add_ptx = got.has_value();
    if (!got && why.empty()) why = why_stripped;
  }
  if (!got) {
    if (error) *error = why.empty() ? "unknown architecture name '" + std::string(token) + "'" + accepted
                                    : why + accepted + ", or a known name";
    return std::nullopt;
  }
  // An empty answer accepts the name without adding arches (syntax checks that resolve later).
  if (add_ptx && !got->empty()) std::max_element(got->begin(), got->end())->ptx = true;
  return got;
}

}  // namespace

ArchList::ArchList(std::vector<CudaArch> arches) : arches_(normalise(std::move(arches))) {}

std::optional<ArchList> ArchList::parse(std::string_view text, const ArchNameResolver& resolve, std::string* error) {
  std::vector<std::string_view> tokens;
  for (std::size_t i = 0; i < text.size();) {
    if (is_sep(text[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < text.size() && !is_sep(text[j])) ++j;
    std::string_view tok = text.substr(i, j - i);
    // A detached "+PTX" after whitespace belongs to the token before it; after ';' or ',' it is a typo.
    if (iequals(tok, "+ptx")) {
      bool after_space_only = !tokens.empty();
      for (std::size_t k = i; k-- > 0 && after_space_only;) {
        if (text[k] == ';' || text[k] == ',') after_space_only = false;
        if (!is_sep(text[k])) break;
      }
      if (!after_space_only) {
        if (error) *error = "'+PTX' must follow an architecture, as in 8.6+PTX";
        return std::nullopt;
      }
      const char* start = tokens.back().data();
      tokens.back() = std::string_view(start, static_cast<std::size_t>(text.data() + j - start));
    } else {
      tokens.push_back(tok);
    }
    i = j;
  }
  if (tokens.empty()) {
    if (error) *error = "empty architecture list; give numbers like " + std::string(kCudaArchSpellings);
    return std::nullopt;
  }

  std::vector<CudaArch> all;
  for (std::string_view tok : tokens) {
    // Rejoin "8.6 +PTX" into "8.6+PTX".
    std::string joined;
    for (char c : tok)
      if (!std::isspace(static_cast<unsigned char>(c))) joined += c;
    std::string why;
    if (auto a = CudaArch::parse(joined, &why)) {
      all.push_back(*a);
      continue;
    }
    // Names start with a letter; "sm_"/"compute_" forms and digits that failed are plain errors.
    bool name_like = std::isalpha(static_cast<unsigned char>(joined[0])) && !iequals(joined.substr(0, 3), "sm_") &&
                     !iequals(joined.substr(0, std::min<std::size_t>(8, joined.size())), "compute_");
    if (!name_like) {
      if (error) *error = why;
      return std::nullopt;
    }
    auto named = resolve_name(joined, resolve, error);
    if (!named) return std::nullopt;
    all.insert(all.end(), named->begin(), named->end());
  }
  return ArchList(std::move(all));
}

bool ArchList::contains_capability(const CudaArch& a) const {
  return std::any_of(arches_.begin(), arches_.end(), [&](const CudaArch& x) { return x.same_capability(a); });
}

bool ArchList::runs_on(const CudaArch& gpu) const {
  return std::any_of(arches_.begin(), arches_.end(), [&](const CudaArch& x) { return x.runs_on(gpu); });
}

std::optional<CudaArch> ArchList::highest() const {
  if (arches_.empty()) return std::nullopt;
  return arches_.back();
}

std::string ArchList::torch_cuda_arch_list() const {
  std::string out;
  for (const CudaArch& a : arches_) out += (out.empty() ? "" : ";") + a.str();
  return out;
}

std::vector<std::string> ArchList::gencode_flags() const {
  std::vector<std::string> out;
  for (const CudaArch& a : arches_) {
    out.push_back("-gencode=arch=" + a.compute() + ",code=" + a.sm());
    if (a.ptx) out.push_back("-gencode=arch=" + a.compute() + ",code=" + a.compute());
  }
  return out;
}

std::string ArchList::cmake_cuda_architectures() const {
  std::string out;
  for (const CudaArch& a : arches_) out += (out.empty() ? "" : ";") + a.number() + (a.ptx ? "" : "-real");
  return out;
}

void to_json(nlohmann::json& j, const ArchList& l) { j = l.torch_cuda_arch_list(); }

void from_json(const nlohmann::json& j, ArchList& l) {
  std::string error;
  auto parsed = ArchList::parse(j.get<std::string>(), nullptr, &error);
  if (!parsed) throw std::invalid_argument(error);
  l = *parsed;
}

std::vector<CudaArch> native_gpu_arches(const HostFacts& facts) {
  std::vector<CudaArch> out;
  for (const auto& g : facts.gpus)
    if (g.compute_capability) out.push_back(*g.compute_capability);
  return out;
}

}  // namespace ts
