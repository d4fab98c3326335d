#include "cli/knowledge.h"

#include <cctype>

#include "cli/commands.h"
#include "kb/check.h"

namespace ts::cli {

namespace {

// Reads the table on the first call only.
template <class T, class Read>
const Table<T>& once(std::unique_ptr<Table<T>>& slot, Read read) {
  if (!slot) {
    slot = std::make_unique<Table<T>>();
    slot->value = read(slot->errors);
  }
  return *slot;
}

// Stages that own a KB file report "file:line: message"; kb check wants {file, line} back.
kb::KbError to_kb_error(const std::string& e, std::string_view file) {
  std::string rest = e;
  if (rest.rfind(file, 0) == 0) rest = rest.substr(file.size());
  int line = 0;
  if (!rest.empty() && rest[0] == ':') {
    std::size_t i = 1;
    while (i < rest.size() && std::isdigit(static_cast<unsigned char>(rest[i]))) line = line * 10 + (rest[i++] - '0');
    rest = rest.substr(i);
    if (rest.rfind(": ", 0) == 0) rest = rest.substr(2);
  }
  return {{std::string(file), line}, rest};
}

}  // namespace

Knowledge::Knowledge(std::vector<std::string> overlay_dirs) : dirs_(std::move(overlay_dirs)) {}

std::vector<std::string> Knowledge::overlay_dirs(const std::vector<std::string>& kb_dirs) {
  std::vector<std::string> dirs = kb::default_overlay_dirs();
  dirs.insert(dirs.end(), kb_dirs.begin(), kb_dirs.end());
  return dirs;
}

const Table<kb::Kb>& Knowledge::core() {
  return once(core_, [&](std::vector<std::string>& errors) {
    std::vector<kb::KbError> kerr;
    kb::Kb k = kb::load(dirs_, kerr);
    for (const auto& e : kerr) errors.push_back(e.str());
    return k;
  });
}

const Table<plan::BuildKb>& Knowledge::build() {
  return once(build_, [&](std::vector<std::string>& e) { return plan::load_build_kb(dirs_, e); });
}

const Table<source::FixSet>& Knowledge::fixes() {
  return once(fixes_, [&](std::vector<std::string>& e) { return source::load_fixes(dirs_, e); });
}

const Table<std::vector<source::SourceEntry>>& Knowledge::sources() {
  return once(sources_, [&](std::vector<std::string>& e) { return source::load_sources(dirs_, e); });
}

const Table<triage::SignatureSet>& Knowledge::signatures() {
  return once(signatures_, [&](std::vector<std::string>& e) { return triage::load_signatures(dirs_, e); });
}

const Table<plan::RecipeSet>& Knowledge::recipes() {
  return once(recipes_, [&](std::vector<std::string>& e) { return plan::load_recipes(dirs_, e); });
}

const Table<plan::ProvisionCatalog>& Knowledge::provision() {
  return once(provision_, [&](std::vector<std::string>& e) { return plan::load_provision_catalog(dirs_, e); });
}

const Table<package::WheelPolicies>& Knowledge::wheel_policies() {
  return once(wheel_policies_, [&](std::vector<std::string>& e) { return package::load_wheel_policies(dirs_, e); });
}

Knowledge& GlobalOptions::knowledge() const {
  if (!knowledge_) knowledge_ = std::make_shared<Knowledge>(Knowledge::overlay_dirs(kb_dirs));
  return *knowledge_;
}

plan::Knowledge Knowledge::planner() {
  plan::Knowledge k;
  k.kb = core().value;
  k.build = build().value;
  k.fixes = fixes().value;
  for (const auto* t : {&core().errors, &build().errors, &fixes().errors})
    k.errors.insert(k.errors.end(), t->begin(), t->end());
  return k;
}

void register_stage_validators() {
  plan::register_kb_validators();        // build.toml, packages/
  plan::register_provision_validator();  // provision.toml
  auto wrap = [](auto check) {
    return [check](std::string_view file, std::string_view text, std::vector<kb::KbError>& errors) {
      for (const auto& e : check(file, text)) errors.push_back(to_kb_error(e, file));
    };
  };
  kb::register_validator("signatures.toml", wrap(triage::check_signatures_text));
  kb::register_validator("fixes/", wrap(source::check_fixes_text));
  kb::register_validator("sources.toml", wrap([](std::string_view file, std::string_view text) {
                           std::vector<source::SourceEntry> ignored;
                           return source::parse_sources_text(file, text, ignored);
                         }));
  package::register_wheel_policy_validator();  // manylinux.toml
}

}  // namespace ts::cli
