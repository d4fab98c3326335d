// Which fixes hold for a build, what they say with the build's values filled in, and their digest.
#include <algorithm>

#include "core/arch_list.h"
#include "source/fix.h"
#include "source/hash.h"

namespace ts::source {

namespace {

// A condition on a fact holds only when the fact is known and inside the range.
bool in_range(const std::optional<VersionRange>& r, const FactVersion& value, bool base_only) {
  if (!r) return true;
  const auto& v = value.parsed();
  if (!v) return false;
  // "2.4.0a0+git1234" is a 2.4.0 tree: the suffixes describe the build, not the code's age.
  return r->contains(base_only ? v->base_version() : *v, true);
}

std::string arch_list_text(const std::vector<CudaArch>& arches) {
  return arches.empty() ? "" : ArchList(arches).torch_cuda_arch_list();
}

}  // namespace

bool fix_applies(const Fix& fix, const FixContext& ctx) {
  const auto& w = fix.when;
  if (!w.package.empty() && w.package != ctx.package) return false;
  if (!in_range(w.version, ctx.version, true)) return false;
  if (!in_range(w.cuda, ctx.cuda, false)) return false;
  if (!in_range(w.cmake, ctx.cmake, false)) return false;
  if (!in_range(w.gcc, ctx.gcc, false)) return false;
  if (!w.arches_any.empty()) {
    bool any = std::any_of(ctx.arches.begin(), ctx.arches.end(), [&](const CudaArch& a) {
      return std::any_of(w.arches_any.begin(), w.arches_any.end(),
                         [&](const CudaArch& t) { return t.same_capability(a); });
    });
    if (!any) return false;
  }
  return true;
}

std::vector<const Fix*> select_fixes(const FixSet& set, const FixContext& ctx) {
  std::vector<const Fix*> out;
  for (const auto& f : set.fixes)
    if (fix_applies(f, ctx)) out.push_back(&f);
  return out;
}

std::string expand_template(const std::string& text, const FixContext& ctx) {
  std::string out;
  std::size_t pos = 0;
  while (true) {
    auto open = text.find("{{", pos);
    auto close = open == std::string::npos ? open : text.find("}}", open);
    if (close == std::string::npos) {
      out.append(text, pos, std::string::npos);
      return out;
    }
    out.append(text, pos, open - pos);
    std::string name = text.substr(open + 2, close - open - 2);
    if (name == "cuda") out += ctx.cuda;
    else if (name == "version") out += ctx.version;
    else if (name == "cmake") out += ctx.cmake;
    else if (name == "gcc") out += ctx.gcc;
    else if (name == "arch_list") out += arch_list_text(ctx.arches);
    else out.append(text, open, close + 2 - open);  // unknown names stay (kb check reports them)
    pos = close + 2;
  }
}

std::vector<std::pair<std::string, std::string>> fix_env(const Fix& fix, const FixContext& ctx) {
  auto env = fix.env;
  for (auto& kv : env) kv.second = expand_template(kv.second, ctx);  // env values are always templates
  return env;
}

std::string fix_hash(const Fix& fix) {
  // Length-prefixed fields, so no two different fixes serialise alike.
  std::string s;
  auto put = [&](std::string_view field) {
    s += std::to_string(field.size());
    s += ':';
    s += field;
  };
  auto range = [&](const std::optional<VersionRange>& r) { put(r ? "r" + r->str() : "-"); };
  put(fix.id);
  put(fix.reason);
  put(fix.source);
  put(fix.when.package);
  range(fix.when.version);
  range(fix.when.cuda);
  range(fix.when.cmake);
  range(fix.when.gcc);
  for (const auto& a : fix.when.arches_any) put(a.str());
  put("env");
  for (const auto& [k, v] : fix.env) {
    put(k);
    put(v);
  }
  put("cmake");
  for (const auto& o : fix.cmake_options) put(o);
  put("edits");
  for (const auto& e : fix.edits) {
    put(e.file);
    put(e.anchor);
    put(e.regex ? "regex" : "text");
    put(to_string(e.op));
    put(e.text);
    put(e.templated ? "template" : "plain");
  }
  return sha256_hex(s);
}

}  // namespace ts::source
