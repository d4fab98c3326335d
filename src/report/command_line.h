#pragma once
// Command lines shown to people to copy: the install line, the command that reproduces a run and
// the one that resumes it. Words are quoted only where a POSIX shell needs it.
#include <string>
#include <string_view>
#include <vector>

namespace ts::report {

// "dist/x.whl" as is; "my dir/x" as 'my dir/x'; "" as ''.
std::string shell_word(std::string_view w);
std::string shell_line(const std::vector<std::string>& argv);

// The run's command with --resume (once): what to run after fixing the cause. argv[0] stays as the
// user typed it. Empty when argv is.
std::vector<std::string> resume_command(std::vector<std::string> argv);

}  // namespace ts::report
