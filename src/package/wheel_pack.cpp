#include "package/wheel_pack.h"

#include <algorithm>

#include "package/record.h"
#include "formats/zip_writer.h"

namespace ts::package {

std::string pack_wheel(const PackInput& in, const std::string& out) {
  std::vector<std::string> files = in.files;
  const std::string di = in.dist_info + "/";
  const std::string record = di + "RECORD";
  files.erase(std::remove(files.begin(), files.end(), record), files.end());
  std::sort(files.begin(), files.end(), [&](const std::string& a, const std::string& b) {
    const bool da = a.rfind(di, 0) == 0, db = b.rfind(di, 0) == 0;
    return da != db ? db : a < b;
  });
  formats::ZipWriter w(out);
  for (const auto& f : files) {
    auto r = in.replaced.find(f);
    const bool exec = std::find(in.executable.begin(), in.executable.end(), f) != in.executable.end();
    bool ok = r != in.replaced.end() ? w.add(f, r->second, true, exec ? 0755 : 0644)
                                     : w.add_file(f, in.root + "/" + f);
    if (!ok) return w.error();
  }
  std::vector<RecordLine> lines;
  for (const auto& e : w.entries()) lines.push_back({e.name, record_hash(e.sha256), e.size});
  lines.push_back({record, "", std::nullopt});
  if (!w.add(record, render_record(lines)) || !w.finish()) return w.error();
  return "";
}

}  // namespace ts::package
