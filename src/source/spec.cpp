#include "source/spec.h"

#include <filesystem>

#include "kb/tomlpp.h"

#include "core/version.h"
#include "kb/embedded.h"
#include "kb/layers.h"
#include "kb/toml_parse.h"
#include "util/fs.h"
#include "util/url.h"

namespace ts::source {

namespace fs = std::filesystem;

std::vector<std::string> parse_sources_text(std::string_view file_name, std::string_view text,
                                            std::vector<SourceEntry>& out) {
  std::vector<std::string> errors;
  std::string file(file_name);
  auto err = [&](const toml::node& n, const std::string& m) {
    errors.push_back(file + ":" + std::to_string(n.source().begin.line) + ": " + m);
  };
  if (std::string bad = kb::toml_precheck(text); !bad.empty()) {
    errors.push_back(file + ":" + bad + " (not valid TOML)");
    return errors;
  }
  toml::table doc;
  try {
    doc = toml::parse(text, file_name);
  } catch (const toml::parse_error& e) {
    errors.push_back(file + ":" + std::to_string(e.source().begin.line) + ": not valid TOML: " +
                     std::string(e.description()));
    return errors;
  }
  const toml::array* a = doc["source"].as_array();
  if (!a) return errors;
  for (const auto& n : *a) {
    const toml::table* t = n.as_table();
    if (!t) {
      err(n, "each source must be a table ([[source]])");
      continue;
    }
    SourceEntry e;
    for (auto [key, field] : {std::pair{"package", &e.package}, {"repo", &e.repo}, {"tag", &e.tag}, {"source", &e.source}}) {
      if (auto s = (*t)[key].value<std::string>()) *field = *s;
      else err(n, std::string("source: '") + key + "' is missing or not a string");
    }
    for (const auto& [k, v] : *t)
      if (k.str() != "package" && k.str() != "repo" && k.str() != "tag" && k.str() != "source")
        err(v, "source: unknown key '" + std::string(k.str()) + "'; known: package, repo, tag, source");
    if (!e.tag.empty() && e.tag.find("{version}") == std::string::npos)
      err(n, "source '" + e.package + "': tag must contain {version}, e.g. \"v{version}\"");
    out.push_back(std::move(e));
  }
  return errors;
}

std::vector<SourceEntry> load_sources(const std::vector<std::string>& overlay_dirs, std::vector<std::string>& errors) {
  std::vector<SourceEntry> out;
  auto merge = [&](std::vector<SourceEntry>& more) {
    for (auto& e : more) {
      bool replaced = false;
      for (auto& o : out)
        if (o.package == e.package) o = e, replaced = true;
      if (!replaced) out.push_back(e);
    }
  };
  kb::for_each_layer("sources.toml", overlay_dirs, [&](const std::string& file, std::string_view text) {
    std::vector<SourceEntry> got;
    auto errs = parse_sources_text(file, text, got);
    errors.insert(errors.end(), errs.begin(), errs.end());
    if (errs.empty()) merge(got);
  });
  return out;
}

void validate_sources_file(std::string_view file, std::string_view text, std::vector<kb::KbError>& errors) {
  std::vector<SourceEntry> ignored;
  kb::add_line_errors(file, parse_sources_text(file, text, ignored), errors);
}

bool parse_source_spec(std::string_view spec, const std::vector<SourceEntry>& sources, SourceSpec& out,
                       std::string& error) {
  out = {};
  std::string s(spec);
  if (s.empty()) {
    error = "empty spec; give torch==2.4.1 or a git URL[@REF]";
    return false;
  }
  bool looks_like_url = s.find("://") != std::string::npos || s.rfind("git@", 0) == 0 || s.front() == '/' ||
                        s.rfind("./", 0) == 0 || s.rfind("../", 0) == 0;
  if (auto eq = s.find("=="); !looks_like_url && eq != std::string::npos) {
    out.package = s.substr(0, eq);
    out.version = s.substr(eq + 2);
    if (!Version::parse(out.version)) {
      error = "'" + out.version + "' is not a version; write e.g. torch==2.4.1";
      return false;
    }
    for (const auto& e : sources) {
      if (e.package != out.package) continue;
      out.url = e.repo;
      out.ref = e.tag;
      out.ref.replace(out.ref.find("{version}"), 9, out.version);
      std::string why = util::check_git_url(out.url);
      if (why.empty()) why = util::check_git_ref(out.ref);
      if (!why.empty()) error = why + " (from " + e.source + ")";
      return why.empty();
    }
    std::string known;
    for (const auto& e : sources) known += (known.empty() ? "" : ", ") + e.package;
    error = "no source known for '" + out.package + "' (known: " + known +
            "); give its git URL instead, e.g. https://github.com/org/repo@v1.0";
    return false;
  }
  if (!looks_like_url) {
    error = "'" + s + "' is neither PACKAGE==VERSION nor a git URL (https://..., git@host:..., /path)";
    return false;
  }
  // URL@REF: the last '@' that is not the user part of the URL ("https://user@host/", "git@host:").
  auto at = s.rfind('@');
  std::size_t authority_end = 0;
  if (auto scheme = s.find("://"); scheme != std::string::npos) {
    authority_end = s.find('/', scheme + 3);
    if (authority_end == std::string::npos) authority_end = s.size();
  } else if (s.rfind("git@", 0) == 0) {
    authority_end = s.find(':');
  }
  if (at != std::string::npos && at > authority_end) {
    out.url = s.substr(0, at);
    out.ref = s.substr(at + 1);
    if (out.ref.empty()) {
      error = "'" + s + "': nothing after '@'; give a tag, branch or commit";
      return false;
    }
  } else {
    out.url = s;
  }
  if (std::string e = util::check_git_url(out.url); !e.empty()) {
    error = e;
    return false;
  }
  if (!out.ref.empty())
    if (std::string e = util::check_git_ref(out.ref); !e.empty()) {
      error = e + "; give a tag, branch or commit";
      return false;
    }
  return true;
}

}  // namespace ts::source
