#pragma once
// Partial files and directories carry the pid of the process writing them ("x.whl.tmp-1234",
// ".ts-repair-1234-Ab3dEf", ".cuda.partial-1234"): a later run removes those whose process is
// gone, so a SIGKILL during `toolkit add`, repair or conda leaves no gigabytes behind for long
// (docs/provision.md). A live process's files, or a name without a pid, are never touched.
#include <sys/types.h>

#include <optional>
#include <string>
#include <string_view>

namespace ts::util {

// The pid in `name` right after `marker`, when digits follow it and then the end, '-' or '.'.
std::optional<pid_t> pid_after(std::string_view name, std::string_view marker);

// kill(pid, 0): a process that exists (EPERM included: someone else's) is alive.
bool process_alive(pid_t pid);

// Removes each entry of `dir` whose name holds marker+pid of a process that is gone (never this
// one); how many were removed. A missing dir is no error.
int remove_stale(const std::string& dir, std::string_view marker);

}  // namespace ts::util
