#pragma once
// A function template one file of a package defines and another file only declares and calls
// (dct_cuda: dct.h declares computeReorderReverse<T>, dct.cpp defines it and calls it itself): the
// calling file relies on the defining file's implicit instantiation, which is a weak symbol its
// compiler need not emit. GCC inlines every use in the defining file from -O2 on and emits none, so
// the extension links and its import stops on "undefined symbol: _Z21computeReorderReverseIfEv...".
// The standard leaves such a program ill-formed, no diagnostic required ([temp.pre]: a template used
// in a translation unit must be defined there or explicitly instantiated in some translation unit).
// The port port.template-instantiation (data/kb/ports.toml, transform = "template-instantiation")
// adds, to the file that defines the template, the explicit instantiation of each specialization the
// built library's loader could not find: verify's import names one, the library's own table the rest.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ts::source {

// The specialization a mangled symbol names, spelled as an explicit instantiation can name it.
struct Specialization {
  std::string name;         // unqualified template name: "computeReorderReverse"
  std::string declaration;  // "void computeReorderReverse<float>(float const*, int, int, float*)"
};

// nullopt unless `mangled` is a function template specialization at namespace scope with a return
// type in its mangling (every function template's) whose demangled text a declaration can spell: no
// lambda, unnamed namespace, ABI tag, operator, const member function or local entity.
std::optional<Specialization> read_specialization(std::string_view mangled);

// `text` with, at its end, `template DECLARATION;` for each of `undefined` (mangled names) whose
// template this file defines (a `template <...>` definition with a body, `__global__` kept for a
// kernel) and does not yet instantiate; nullopt when there is none.
std::optional<std::string> instantiate_undefined(std::string_view text, const std::vector<std::string>& undefined);

}  // namespace ts::source
