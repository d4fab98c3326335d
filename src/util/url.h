#pragma once
// What a git URL, a git ref and a URL printed to people may hold. Every ref and URL that reaches
// git is checked here first (a leading '-' would be read as an option: `--upload-pack=CMD` runs
// CMD), and every URL that is printed or stored goes through redact_url/redact_text first, so a
// token in `https://user:TOKEN@host/` or `?access_token=` never lands in a lock, run.json or a log.
#include <string>
#include <string_view>

namespace ts::util {

// "" when `ref` is a name git accepts for a branch, tag or commit (git check-ref-format's rules,
// one-level names allowed) and cannot be read as an option; else why not, naming the rule.
std::string check_git_ref(std::string_view ref);

// "" when `url` is a repository address: https://, http://, ssh://, git://, file:// (the host not
// starting with '-'), scp-like [user@]host:path, or a local path (/..., ./..., ../...). Everything
// else, `ext::` and `fd::` transports included, is refused with the reason.
std::string check_git_url(std::string_view url);

// The URL with its secrets replaced by "***": the password of user:password@ (the whole user part
// of an http(s) URL, where a bare user is usually a token), and the values of token-like query
// parameters (token, access_token, private_token, password, secret, key, sig, ...).
std::string redact_url(std::string_view url);
// Every scheme://... URL inside free text (a command line, git's stderr) redacted.
std::string redact_text(std::string_view text);
// What redact_url puts in place of a secret.
inline constexpr std::string_view kRedacted = "***";

}  // namespace ts::util
