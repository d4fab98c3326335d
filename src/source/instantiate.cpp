// port.template-instantiation: explicit instantiations for the specializations a library could not
// find, added where their template is defined.
#include "source/instantiate.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <re2/re2.h>
#include <set>

#include "source/include_order.h"

namespace ts::source {

namespace {

std::string demangle(std::string_view mangled) {
  int status = 0;
  std::string m(mangled);
  std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(m.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && out ? std::string(out.get()) : std::string();
}

}  // namespace

std::optional<Specialization> read_specialization(std::string_view mangled) {
  if (mangled.rfind("_Z", 0) != 0) return std::nullopt;
  std::string d = demangle(mangled);
  if (d.empty() || d.back() != ')') return std::nullopt;  // " const" ends a member function
  for (const char* bad : {"(anonymous namespace)", "{lambda", "{unnamed", "[abi:", "operator", "::{", "'"})
    if (d.find(bad) != std::string::npos) return std::nullopt;
  // The parameter list: the ( that matches the last ).
  int depth = 0;
  std::size_t open = std::string::npos;
  for (std::size_t i = d.size(); i-- > 0;) {
    if (d[i] == ')') ++depth;
    else if (d[i] == '(' && --depth == 0) {
      open = i;
      break;
    }
  }
  if (open == std::string::npos || open == 0 || d[open - 1] != '>') return std::nullopt;
  // The template arguments: the < that matches the > before it.
  depth = 0;
  std::size_t lt = std::string::npos;
  for (std::size_t i = open; i-- > 0;) {
    if (d[i] == '>') ++depth;
    else if (d[i] == '<' && --depth == 0) {
      lt = i;
      break;
    }
  }
  if (lt == std::string::npos) return std::nullopt;
  // The qualified name runs back to a space outside any <>: before it, the return type.
  depth = 0;
  std::size_t start = std::string::npos;
  for (std::size_t i = lt; i-- > 0;) {
    if (d[i] == '>') ++depth;
    else if (d[i] == '<') --depth;
    else if (d[i] == ' ' && depth == 0) {
      start = i + 1;
      break;
    }
  }
  if (start == std::string::npos) return std::nullopt;  // no return type: not a function template's mangling
  std::string qualified = d.substr(start, lt - start);
  std::size_t colon = qualified.rfind("::");
  std::string name = colon == std::string::npos ? qualified : qualified.substr(colon + 2);
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_')) return std::nullopt;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return std::nullopt;
  return Specialization{name, d};
}

std::optional<std::string> instantiate_undefined(std::string_view text, const std::vector<std::string>& undefined) {
  const std::string code = code_only(text);
  std::string added;
  std::set<std::string> seen;
  for (const auto& sym : undefined) {
    auto spec = read_specialization(sym);
    if (!spec || !seen.insert(spec->declaration).second) continue;
    // A definition: `template <...>`, then the return type, the name, the parameters and a body.
    RE2 def("template\\s*<[^;{}]*>([^;{}()]*)\\b" + RE2::QuoteMeta(spec->name) + "\\s*\\([^;{}]*\\)\\s*\\{", RE2::Quiet);
    std::string head;
    if (!def.ok() || !RE2::PartialMatch(code, def, &head)) continue;
    const bool kernel = head.find("__global__") != std::string::npos;
    std::string line = std::string("template ") + (kernel ? "__global__ " : "") + spec->declaration + ";";
    if (text.find(line) != std::string_view::npos) continue;  // instantiated already
    added += line + "\n";
  }
  if (added.empty()) return std::nullopt;
  std::string out(text);
  if (!out.empty() && out.back() != '\n') out += "\n";
  out += "\n// Explicit instantiations another file of this library calls (torchsmith port.template-instantiation)\n" + added;
  return out;
}

}  // namespace ts::source
