// torchsmith.toml -> RawSpec. Each value keeps "file:line" so errors point at the line to edit.
#include "spec/spec_file.h"
#include "kb/toml_parse.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "kb/tomlpp.h"

namespace ts::spec {

namespace {

struct Slot {
  const char* key;
  RawField RawSpec::*field;
  bool list;  // an array is allowed (joined with ',')
};

constexpr Slot kSlots[] = {
    {"torch", &RawSpec::requirement, false},   {"requirement", &RawSpec::requirement, false},
    {"cuda", &RawSpec::cuda, false},           {"arch", &RawSpec::arch, true},
    {"python", &RawSpec::python, false},       {"with", &RawSpec::with, true},
    {"without", &RawSpec::without, true},      {"build_type", &RawSpec::build_type, false},
    {"jobs", &RawSpec::jobs, false},           {"mem_budget", &RawSpec::mem_budget, false},
    {"packages", &RawSpec::packages, true},    {"source", &RawSpec::source, false},
};

std::string where(const std::string& file, const toml::node& n) {
  return file + ":" + std::to_string(n.source().begin.line);
}

// A scalar as text: strings as they are, integers and booleans printed.
bool scalar_text(const toml::node& n, std::string& out) {
  if (auto s = n.as_string()) { out = s->get(); return true; }
  if (auto i = n.as_integer()) { out = std::to_string(i->get()); return true; }
  if (auto f = n.as_floating_point()) {
    std::ostringstream o;
    o << f->get();
    out = o.str();
    return true;
  }
  return false;
}

bool read_table(const toml::table& t, const std::string& file, RawSpec& out, std::string& error) {
  for (const auto& [k, node] : t) {
    std::string key(k.str());
    if (key == "build" && node.is_table()) continue;  // handled by the caller
    const Slot* slot = nullptr;
    for (const auto& s : kSlots)
      if (key == s.key) slot = &s;
    if (!slot) {
      error = where(file, node) + ": " + key +
              ": unknown key (known: torch, cuda, arch, python, with, without, build_type, jobs, "
              "mem_budget, packages, source)";
      return false;
    }
    RawField f;
    f.set = true;
    f.where = where(file, node);
    if (auto arr = node.as_array()) {
      if (!slot->list) {
        error = f.where + ": " + key + ": a single value is expected, not a list";
        return false;
      }
      for (const auto& e : *arr) {
        std::string item;
        if (!scalar_text(e, item)) {
          error = f.where + ": " + key + ": list items must be strings";
          return false;
        }
        f.value += (f.value.empty() ? "" : ",") + item;
      }
    } else if (!scalar_text(node, f.value)) {
      error = f.where + ": " + key + ": expected a string";
      return false;
    }
    out.*(slot->field) = f;
  }
  return true;
}

}  // namespace

bool read_spec_text(std::string_view text, const std::string& file_name, RawSpec& out, std::string& error) {
  toml::table root;
  try {
    root = kb::parse_toml(text, file_name);
  } catch (const toml::parse_error& e) {
    error = file_name + ":" + std::to_string(e.source().begin.line) + ": " + std::string(e.description());
    return false;
  }
  if (!read_table(root, file_name, out, error)) return false;
  if (auto b = root["build"].as_table())
    if (!read_table(*b, file_name, out, error)) return false;
  return true;
}

bool read_spec_file(const std::string& path, RawSpec& out, std::string& error) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    // An ifstream opens a directory and reads nothing: that would be an empty, valid request.
    error = path + ": a directory, not a torchsmith.toml file; give the file (e.g. " + path + "/torchsmith.toml)";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path + ": cannot be read";
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return read_spec_text(ss.str(), path, out, error);
}

}  // namespace ts::spec
