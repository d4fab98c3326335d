#include "source/journal.h"

#include <filesystem>

#include <nlohmann/json.hpp>

#include "source/hash.h"
#include "source/tree_path.h"
#include "util/fs.h"
#include "util/printable.h"

namespace ts::source {

namespace fs = std::filesystem;
using nlohmann::json;

JournalFile* Journal::find(const std::string& path) {
  for (auto& f : files)
    if (f.path == path) return &f;
  return nullptr;
}

bool read_journal(const std::string& tree, Journal& out, std::string* error, const char* rel) {
  out = {};
  std::string why;
  std::string path = resolve_in_tree(tree, rel, false, &why);
  if (path.empty()) {
    if (error) *error = why;
    return false;
  }
  std::error_code ec;
  if (!fs::exists(path, ec)) return true;
  auto text = util::read_file(path);
  auto fail = [&](const std::string& what) {
    if (error)
      *error = std::string(rel) + ": " + what +
               "; the tree's edits cannot be tracked: restore the file, or re-check out the tree";
    return false;
  };
  if (!text) return fail("cannot read");
  try {
    json j = json::parse(*text);
    if (j.value("format", "") != "torchsmith-fix-journal") return fail("not a torchsmith journal");
    for (const auto& f : j.at("files")) {
      JournalFile jf;
      jf.path = f.at("path").get<std::string>();
      // A path read back is input: the same check as a fix file's, before anything uses it.
      if (auto bad = relative_path_problem(jf.path); !bad.empty()) return fail("a file " + util::printable(jf.path) + ": " + util::printable(bad));
      if (!base64_decode(f.at("original_base64").get<std::string>(), jf.original)) return fail("bad base64 for " + jf.path);
      jf.original_sha256 = f.at("original_sha256").get<std::string>();
      if (sha256_hex(jf.original) != jf.original_sha256) return fail("original bytes of " + jf.path + " do not match their digest");
      jf.applied_sha256 = f.at("applied_sha256").get<std::string>();
      jf.mode = f.value("mode", 0644u) & 0777u;  // a restored file never becomes setuid from the record
      jf.fixes = f.value("fixes", std::vector<std::string>{});
      jf.created = f.value("created", false);
      out.files.push_back(std::move(jf));
    }
    for (const auto& f : j.value("fixes", json::array())) out.fixes.push_back({f.at("id").get<std::string>(), f.value("hash", "")});
  } catch (const json::exception& e) {
    return fail(std::string("malformed (") + e.what() + ")");
  }
  return true;
}

std::string write_journal(const std::string& tree, const Journal& jr, const char* rel) {
  std::string why;
  std::string path = resolve_in_tree(tree, rel, false, &why);
  if (path.empty()) return why;
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  if (ec) return fs::path(path).parent_path().string() + ": cannot create (" + ec.message() + ")";
  json j;
  j["format"] = "torchsmith-fix-journal";
  j["version"] = 1;
  j["files"] = json::array();
  for (const auto& f : jr.files) {
    json e{{"path", f.path},
           {"original_sha256", f.original_sha256},
           {"original_base64", base64_encode(f.original)},
           {"applied_sha256", f.applied_sha256},
           {"mode", f.mode},
           {"fixes", f.fixes}};
    if (f.created) e["created"] = true;  // older readers see an empty original; newer ones remove the file
    j["files"].push_back(std::move(e));
  }
  j["fixes"] = json::array();
  for (const auto& f : jr.fixes) j["fixes"].push_back({{"id", f.id}, {"hash", f.hash}});
  std::string text;
  try {
    text = j.dump(1) + "\n";
  } catch (const nlohmann::json::exception& e) {  // a path that is not UTF-8
    return path + ": cannot be written (" + e.what() + ")";
  }
  return util::write_file_atomic(path, text);
}

std::string remove_journal(const std::string& tree, const char* rel) {
  std::string why;
  std::string path = resolve_in_tree(tree, rel, false, &why);
  if (path.empty()) return why;
  std::error_code ec;
  fs::remove(path, ec);
  if (ec) return path + ": cannot remove (" + ec.message() + ")";
  fs::remove(fs::path(path).parent_path(), ec);  // only when empty; other tools' files stay
  return "";
}

}  // namespace ts::source
