// Disk: free space where the build runs (cwd) and where temporaries go (TMPDIR).
// Real root: statvfs. A fake root has no file systems of its own, so a fixture may describe
// them in ROOT/.host/disk, one "purpose path free_bytes total_bytes" line each.
#include <sys/statvfs.h>
#include <unistd.h>

#include <sstream>

#include "probe/sections.h"
#include "probe/text.h"

namespace ts::probe {

std::vector<DiskFacts> probe_disks(const Host& h, Notes& notes) {
  std::vector<DiskFacts> out;
  if (!h.is_real()) {
    for (auto& l : lines(h.read("/.host/disk").value_or(""))) {
      std::istringstream in(l);
      DiskFacts d;
      if (l.empty() || l[0] == '#' || !(in >> d.purpose >> d.path >> d.free_bytes >> d.total_bytes))
        continue;
      out.push_back(d);
    }
    return out;
  }
  char buf[4096];
  std::string cwd = ::getcwd(buf, sizeof buf) ? buf : ".";
  std::string tmp = h.getenv("TMPDIR").empty() ? "/tmp" : h.getenv("TMPDIR");
  for (auto [purpose, path] : {std::pair<std::string, std::string>{"cwd", cwd}, {"tmp", tmp}}) {
    struct statvfs s {};
    if (::statvfs(path.c_str(), &s) != 0) {
      notes.push_back("cannot statvfs " + path);
      continue;
    }
    DiskFacts d;
    d.purpose = purpose;
    d.path = path;
    d.free_bytes = static_cast<std::uint64_t>(s.f_bavail) * s.f_frsize;
    d.total_bytes = static_cast<std::uint64_t>(s.f_blocks) * s.f_frsize;
    out.push_back(d);
  }
  return out;
}

}  // namespace ts::probe
