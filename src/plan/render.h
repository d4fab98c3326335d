#pragma once
// Plan output for people (summary, --explain), for shells (--format sh), for Docker
// (--format dockerfile) and for the lock file.
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "core/host_facts.h"
#include "plan/build_kb.h"
#include "plan/plan.h"

namespace ts::plan {

// A few lines: what will be built, with what, and the expected artifact.
// The shared cache and distributed compilation lines of a summary ("" when neither is planned).
std::string render_scale_lines(const Plan& p);
std::string render_summary(const PlanResult& r);
// Every decision with its reason and source, then the steps and artifacts (the golden files).
std::string render_explain(const PlanResult& r);
// Each conflict with why and the ways out.
// with_rules: each conflict's rule id after it, "[plan.cmake]" (--explain shows them).
std::string render_conflicts(const std::vector<Conflict>& cs, bool with_rules = false);

// Shell: sourcing it (set -a; source FILE) sets exactly plan.env; the steps run only with
// TORCHSMITH_RUN=1 bash FILE. Values are single-quoted, so nothing in them is expanded.
std::string render_sh(const Plan& p);
std::string sh_quote(const std::string& s);

// A Dockerfile on the nvidia/cuda devel image for the plan's CUDA, cuDNN and OS that runs the same
// build. Host paths (conda env, pip cuDNN) do not exist in the image and are left out, said so in
// comments. "" and *error set when build.toml names no image for this CUDA.
std::string render_dockerfile(const Plan& p, const BuildKb& b, const HostFacts& f, std::string* error);
// A Dockerfile RUN in exec form: a JSON array run without a shell, so no value is read as shell
// syntax; quotes, backslashes and control characters (a newline would end the instruction) escaped.
std::string docker_exec_form(const std::vector<std::string>& argv);
// The image tag the Dockerfile starts from ("nvidia/cuda:11.7.0-cudnn8-devel-ubuntu18.04").
std::string docker_image(const Plan& p, const BuildKb& b, const HostFacts& f, std::string* error);

// The lock file: the plan's JSON, marked as a lock (fix hashes and source revision are in it).
nlohmann::json lock_json(const Plan& p);

}  // namespace ts::plan
