#include "triage/engine.h"

#include <stdexcept>

namespace ts::triage {
namespace {

RE2::Options options() {
  RE2::Options o;
  o.set_encoding(RE2::Options::EncodingLatin1);
  o.set_log_errors(false);
  o.set_max_mem(64 << 20);
  return o;
}

}  // namespace

Engine::Engine(SignatureSet set) : set_(std::move(set)) {
  re_set_ = std::make_unique<RE2::Set>(options(), RE2::UNANCHORED);
  std::vector<std::string> all;
  auto add = [&](const std::string& p, PatternRef ref) {
    std::string err;
    if (re_set_->Add(p, &err) < 0) throw std::runtime_error("pattern does not compile: " + p + ": " + err);
    regexes_.push_back(std::make_unique<RE2>(p, options()));
    refs_.push_back(ref);
    all.push_back(p);
  };
  for (int i = 0; i < static_cast<int>(set_.signatures.size()); ++i)
    for (const auto& p : set_.signatures[i].patterns) add(p, {PatternRef::signature, i});
  for (int i = 0; i < static_cast<int>(set_.log_facts.size()); ++i)
    for (const auto& p : set_.log_facts[i].patterns) add(p, {PatternRef::log_fact, i});
  for (const auto& g : grammars()) add(g.re, {PatternRef::marker, static_cast<int>(g.marker)});
  if (!re_set_->Compile()) throw std::runtime_error("RE2::Set: out of memory compiling the patterns");
  prefilter_.build(all);
}

}  // namespace ts::triage
