#include "package/simple_index.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>

#include "package/conda_digest.h"
#include "package/conda_wheel.h"
#include "package/index.h"
#include "util/fs.h"
#include "formats/mapped_file.h"
#include "formats/wheel.h"
#include "formats/zip.h"

namespace fs = std::filesystem;

namespace ts::package {

std::string url_path_escape(std::string_view path) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  for (char ch : path) {
    auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || std::string_view("-._~/+!").find(ch) != std::string_view::npos) {
      out += ch;
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

std::string html_escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

namespace {

struct WheelLink {
  std::string rel;  // path under DIR
  std::string file, sha256;
};

std::string page(const std::string& title, const std::string& body) {
  return "<!DOCTYPE html>\n<html>\n  <head>\n    <meta name=\"pypi:repository-version\" "
         "content=\"1.0\">\n"
         "    <title>" +
         html_escape(title) + "</title>\n  </head>\n  <body>\n" + body + "  </body>\n</html>\n";
}

}  // namespace

void index_wheels(const std::string& dir, IndexResult& r) {
  std::map<std::string, std::vector<WheelLink>> projects;  // normalized name → wheels
  std::error_code ec;
  std::vector<fs::path> found;
  auto it =
      fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    std::string n = it->path().filename().string();
    if (it->is_directory(ec)) {
      // Our own output and hidden directories (staging, VCS) hold no wheels to publish.
      if (n[0] == '.' || (it.depth() == 0 && n == "simple")) it.disable_recursion_pending();
      continue;
    }
    if (n.size() > 4 && n.compare(n.size() - 4, 4, ".whl") == 0 && n[0] != '.' &&
        it->is_regular_file(ec))
      found.push_back(it->path());
  }
  std::sort(found.begin(), found.end());
  for (const auto& p : found) {
    std::string rel = fs::relative(p, dir, ec).generic_string();
    std::string err;
    auto wn = parse_wheel_name(p.filename().string(), &err);
    if (!wn) {
      r.problems.push_back({rel, err});
      continue;
    }
    formats::MappedFile mf(p.string());
    if (!mf.ok()) {
      r.problems.push_back({rel, mf.error()});
      continue;
    }
    auto zip = formats::ZipArchive::open(mf.bytes(), &err);
    if (!zip) {
      r.problems.push_back({rel, "corrupt wheel: " + err + "; rebuild it or remove it"});
      continue;
    }
    // The check repair, conda and verify make: an index offers no wheel that they would refuse.
    if (!formats::check_wheel(*zip, &err, p.filename().string())) {
      r.problems.push_back({rel, "not a valid wheel: " + err + "; rebuild it or remove it"});
      continue;
    }
    auto d = digest_file(p.string(), &err);
    if (!d) {
      r.problems.push_back({rel, err});
      continue;
    }
    projects[normalize_name(wn->name)].push_back({rel, p.filename().string(), d->sha256});
    ++r.wheels;
  }
  std::string simple = dir + "/simple";
  fs::create_directories(simple, ec);
  if (ec) {
    r.problems.push_back({simple, "cannot create: " + ec.message()});
    return;
  }
  std::string root_body;
  for (const auto& [name, links] : projects) {
    root_body +=
        "    <a href=\"" + url_path_escape(name) + "/\">" + html_escape(name) + "</a><br>\n";
    std::string body = "    <h1>Links for " + html_escape(name) + "</h1>\n";
    for (const auto& l : links)
      body += "    <a href=\"../../" + html_escape(url_path_escape(l.rel)) + "#sha256=" + l.sha256 +
              "\">" + html_escape(l.file) + "</a><br>\n";
    fs::create_directories(simple + "/" + name, ec);
    std::string out = simple + "/" + name + "/index.html";
    std::string err = util::write_file_atomic(out, page("Links for " + name, body));
    if (!err.empty())
      r.problems.push_back({out, err});
    else
      r.written.push_back(out);
  }
  std::string out = simple + "/index.html";
  std::string err = util::write_file_atomic(out, page("Simple index", root_body));
  if (!err.empty())
    r.problems.push_back({out, err});
  else
    r.written.push_back(out);
}

}  // namespace ts::package
