#include "cli/plan_request.h"
#include "cli/knowledge.h"
#include "provision/fetch_file.h"

#include <stdlib.h>

#include <cstdlib>
#include <filesystem>

#include "plan/extension.h"

namespace ts::cli {

namespace {

// --cache / --distribute: the planner's scale step (plan/scale_step.h) probes the store and the
// hosts with short timeouts in a scratch dir; what it found (and a bad request) lands in out.scale.
plan::ScaleProbe scale_probe(const Request& r, PlannedRequest& out) {
  if (r.cache.empty() && r.distribute.empty() && r.hosts.empty()) return {};
  return [&r, &out](plan::Plan& p) {
    std::string path = p.env.count("PATH") ? p.env.at("PATH") : (std::getenv("PATH") ? std::getenv("PATH") : "");
    const char* tmp = std::getenv("TMPDIR");
    std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/torchsmith-hosts-XXXXXX";
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    std::string work = mkdtemp(buf.data()) ? std::string(buf.data()) : "";
    if (work.empty() && !r.distribute.empty() && r.distribute != "none") {
      out.scale.error = "cannot make a scratch directory under " + templ.substr(0, templ.rfind('/')) + " for the host probe";
      return;
    }
    out.scale = scale::plan_scale({r.cache, r.distribute, r.hosts}, p, path, work);
    std::error_code ec;
    if (!work.empty()) std::filesystem::remove_all(work, ec);
  };
}

}  // namespace

PlannedRequest plan_request(const GlobalOptions& g, const Request& r) {
  PlannedRequest out;
  plan::RequestInput in = r;
  // --toolkit-mirror (or its environment variable): a directory must exist, and is made absolute.
  in.toolkit_mirror = provision::mirror_setting(r.toolkit_mirror, "");
  if (!in.toolkit_mirror.empty() && !provision::Mirror{in.toolkit_mirror}.is_url()) {
    if (!std::filesystem::is_directory(in.toolkit_mirror)) {
      out.error = "--toolkit-mirror " + in.toolkit_mirror + ": no such directory (give a URL or a directory holding "
                  "redistrib_<release>.json and its archives)";
      return out;
    }
    in.toolkit_mirror = std::filesystem::absolute(in.toolkit_mirror).lexically_normal().string();
  }
  plan::RequestTables t;
  t.planner = g.knowledge().planner();
  const auto& [catalog, catalog_errors] = g.knowledge().provision();
  t.catalog = &catalog;
  t.catalog_errors = catalog_errors;
  if (plan::is_extension_requirement(r.requirement)) {
    const auto& [recipes, recipe_errors] = g.knowledge().recipes();
    t.recipes = &recipes;
    t.recipe_errors = recipe_errors;
  }
  static_cast<plan::Planned&>(out) = plan::request(in, std::move(t), scale_probe(r, out));
  if (out.error.empty() && !out.scale.error.empty()) out.error = out.scale.error;
  return out;
}

RequestKind request_kind(const Request& r) {
  return plan::is_extension_requirement(r.requirement) ? extension_request : torch_request;
}

}  // namespace ts::cli
