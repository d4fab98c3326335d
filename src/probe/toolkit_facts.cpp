// Toolkit facts from the toolkit itself (see toolkit_facts.h).
#include "probe/toolkit_facts.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>
#include <re2/re2.h>

#include "util/fs.h"
#include "util/process.h"
#include "util/cache_dir.h"
#include "util/utc_time.h"

namespace ts::probe {

namespace fs = std::filesystem;

namespace {

std::string fnv1a_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::uint64_t h = 1469598103934665603ull;
  std::vector<char> buf(1 << 16);
  while (in.read(buf.data(), static_cast<std::streamsize>(buf.size())) || in.gcount() > 0) {
    for (std::streamsize i = 0; i < in.gcount(); ++i) {
      h ^= static_cast<unsigned char>(buf[static_cast<std::size_t>(i)]);
      h *= 1099511628211ull;
    }
  }
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return out;
}

std::string today() { return util::utc_time(util::kDate); }

// sm_90a -> 9.0a, sm_100f -> 10.0f, sm_75 -> 7.5
std::string arch_of(const std::string& code) {
  static const RE2 r(R"(sm_(\d+)(\d)([af]?))");
  std::string major, minor, suffix;
  if (!RE2::FullMatch(code, r, &major, &minor, &suffix)) return "";
  return major + "." + minor + suffix;
}

nlohmann::json to_json(const ToolkitFacts& f) {
  return {{"nvcc", f.nvcc}, {"tool", f.tool}, {"hash", f.hash}, {"version", f.version}, {"list_gpu_code", f.list_gpu_code},
          {"gpu_codes", f.gpu_codes}, {"host_config", f.host_config}, {"gcc_max", f.gcc_max},
          {"clang_max", f.clang_max}, {"options", f.options}, {"read", f.read}};
}

bool from_json(const nlohmann::json& j, ToolkitFacts& f) {
  try {
    f.tool = j.value("tool", std::string("nvcc"));
    f.version = j.at("version").get<std::string>();
    f.list_gpu_code = j.at("list_gpu_code").get<std::vector<std::string>>();
    f.gpu_codes = j.at("gpu_codes").get<std::vector<std::string>>();
    f.host_config = j.at("host_config").get<std::string>();
    f.gcc_max = j.at("gcc_max").get<std::string>();
    f.clang_max = j.at("clang_max").get<std::string>();
    f.options = j.at("options").get<std::vector<std::string>>();
    f.read = j.at("read").get<std::string>();
    return !f.list_gpu_code.empty();
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace

std::string ToolkitFacts::minor() const {
  static const RE2 r(R"((\d+)\.(\d+))");
  std::string major, minor;
  return RE2::PartialMatch(version, r, &major, &minor) ? major + "." + minor : "";
}

std::vector<std::string> ToolkitFacts::arches() const {
  std::vector<std::string> out;
  for (const auto& c : gpu_codes.empty() ? list_gpu_code : gpu_codes)
    if (auto a = arch_of(c); !a.empty() && std::find(out.begin(), out.end(), a) == out.end()) out.push_back(a);
  auto key = [](const std::string& a) {
    auto dot = a.find('.');
    return std::make_tuple(std::stoi(a.substr(0, dot)), a[dot + 1] - '0', a.substr(dot + 2));
  };
  std::sort(out.begin(), out.end(), [&](const std::string& x, const std::string& y) { return key(x) < key(y); });
  return out;
}

std::string ToolkitFacts::source() const {
  std::string s = tool == "ptxas" ? "ptxas --help (--gpu-name values)" : "nvcc --list-gpu-code";
  if (tool != "ptxas" && !gpu_codes.empty()) s += " and --help (--gpu-code values)";
  if (!host_config.empty()) s += ", " + host_config;
  return s + " of " + nvcc + " (CUDA " + version + ", read " + read + ")";
}

std::vector<std::string> parse_list_gpu_code(const std::string& out) {
  std::vector<std::string> v;
  std::istringstream in(out);
  for (std::string w; in >> w;)
    if (w.rfind("sm_", 0) == 0) v.push_back(w);
  return v;
}

namespace {

// The sm_* values an option's "Allowed values" list; its block runs from its heading to the next
// option heading at column 0 (the layout of both nvcc --help and ptxas --help).
std::vector<std::string> allowed_sm(const std::string& help, const std::string& option) {
  auto start = help.rfind(option + " ", 0) == 0 ? 0 : help.find("\n" + option + " ");
  if (start == std::string::npos) return {};
  auto end = help.find("\n--", start + 3);
  std::string block = help.substr(start, end == std::string::npos ? std::string::npos : end - start);
  std::vector<std::string> v;
  static const RE2 r(R"('(sm_\d+[af]?)')");
  re2::StringPiece rest(block);
  for (std::string sm; RE2::FindAndConsume(&rest, r, &sm);) v.push_back(sm);
  return v;
}

}  // namespace

std::vector<std::string> parse_help_gpu_codes(const std::string& help) { return allowed_sm(help, "--gpu-code"); }

std::vector<std::string> parse_ptxas_gpu_names(const std::string& help) { return allowed_sm(help, "--gpu-name"); }

std::string toolkit_reader(const std::string& root) {
  std::error_code ec;
  for (const char* tool : {"/bin/nvcc", "/bin/ptxas"})
    if (fs::is_regular_file(root + tool, ec)) return root + tool;
  return "";
}

std::string parse_nvcc_version(const std::string& out) {
  static const RE2 full(R"(, V(\d+\.\d+\.\d+))"), rel(R"(release (\d+\.\d+))");
  std::string v;
  if (RE2::PartialMatch(out, full, &v)) return v;
  if (RE2::PartialMatch(out, rel, &v)) return v;
  return "";
}

void parse_host_config(const std::string& text, std::string& gcc_max, std::string& clang_max) {
  // "#if __GNUC__ > 14" guards the GCC error; "#if (__clang_major__ >= 20) ..." followed by
  // "#error -- unsupported clang version" guards Clang (HOS/Grace clang have their own lines).
  static const RE2 gcc(R"(^\s*#\s*if\s+__GNUC__\s*>\s*(\d+))"), clang(R"(^\s*#\s*if\s*\(?\s*__clang_major__\s*>=\s*(\d+))");
  std::istringstream in(text);
  std::string line, prev;
  int prev_clang = -1;
  while (std::getline(in, line)) {
    std::string n;
    if (gcc_max.empty() && RE2::PartialMatch(line, gcc, &n)) gcc_max = n;
    if (clang_max.empty() && prev_clang > 0 && line.find("unsupported clang version") != std::string::npos)
      clang_max = std::to_string(prev_clang - 1);
    int major = -1;
    prev_clang = RE2::PartialMatch(line, clang, &major) ? major : -1;
  }
}

std::string default_toolkit_cache() {
  std::string c = util::cache_dir();
  return c.empty() ? c : c + "/toolkits";
}

ToolkitFacts read_toolkit_facts(const std::string& path, const std::string& cache_dir) {
  // NVIDIA's cu11/cu12 nvcc wheels ship ptxas without nvcc: read the toolkit from its ptxas.
  fs::path p(path);
  std::error_code ec;
  std::string nvcc = path;
  if (p.filename() == "nvcc" && !fs::exists(p, ec) && fs::is_regular_file(p.parent_path() / "ptxas", ec))
    nvcc = (p.parent_path() / "ptxas").string();
  ToolkitFacts f;
  f.nvcc = nvcc;
  f.tool = fs::path(nvcc).filename() == "ptxas" ? "ptxas" : "nvcc";
  f.hash = fnv1a_file(nvcc);
  if (f.hash.empty()) {
    f.error = nvcc + " cannot be read";
    return f;
  }
  std::string cached = cache_dir.empty() ? "" : cache_dir + "/" + f.hash + ".json";
  if (!cached.empty())
    if (auto text = util::read_file(cached)) {
      try {
        if (from_json(nlohmann::json::parse(*text), f)) return f;
      } catch (const std::exception&) {
        // A damaged cache entry is read again below and rewritten.
      }
    }
  util::RunOptions o;
  o.timeout = std::chrono::seconds(30);
  const bool ptxas = f.tool == "ptxas";
  auto ver = util::run({nvcc, "--version"}, o);
  auto help = util::run({nvcc, "--help"}, o);
  auto list = ptxas ? help : util::run({nvcc, "--list-gpu-code"}, o);
  f.version = parse_nvcc_version(ver.out);
  if (ptxas) {
    f.gpu_codes = parse_ptxas_gpu_names(help.ok() ? help.out : "");
    // ptxas has no --list-gpu-code: its real codes are the --gpu-name values without a/f.
    for (const auto& c : f.gpu_codes)
      if (std::isdigit(static_cast<unsigned char>(c.back()))) f.list_gpu_code.push_back(c);
  } else {
    f.list_gpu_code = parse_list_gpu_code(list.ok() ? list.out : "");
    f.gpu_codes = parse_help_gpu_codes(help.ok() ? help.out : "");
  }
  for (const char* opt : {"--split-compile", "--threads", "--allow-unsupported-compiler", "--list-gpu-code"})
    if (!ptxas &&
        (help.out.find(std::string("\n") + opt + " ") != std::string::npos ||
         help.out.find(std::string("\n") + opt + "\t") != std::string::npos))
      f.options.push_back(opt);
  f.read = today();
  // The toolkit root is bin/..; pip wheels keep the same layout (nvidia/cu13/{bin,include}).
  fs::path root = fs::path(nvcc).parent_path().parent_path();
  std::vector<fs::path> headers{root / "include/crt/host_config.h"};
  if (fs::is_directory(root / "targets", ec))
    for (const auto& t : fs::directory_iterator(root / "targets", ec)) headers.push_back(t.path() / "include/crt/host_config.h");
  for (const auto& h : headers)
    if (auto text = util::read_file(h.string())) {
      parse_host_config(*text, f.gcc_max, f.clang_max);
      f.host_config = h.string();
      break;
    }
  if (f.version.empty()) f.error = nvcc + " --version printed no version (" + ver.describe(o.timeout) + ")";
  else if (f.list_gpu_code.empty())
    f.error = nvcc + (ptxas ? " --help listed no --gpu-name sm_* values (" : " --list-gpu-code listed nothing (") +
              list.describe(o.timeout) + ")";
  if (f.error.empty() && !cached.empty()) {
    fs::create_directories(cache_dir, ec);
    (void)util::write_file_atomic(cached, to_json(f).dump(1) + "\n");  // a cache: failing to write only costs a re-read
  }
  return f;
}

}  // namespace ts::probe
