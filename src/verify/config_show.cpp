#include "verify/config_show.h"

#include <algorithm>
#include <cctype>

#include "util/fs.h"

namespace ts::verify {
namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

bool is_key_char(char c, bool first) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' ||
         (!first && std::isdigit(static_cast<unsigned char>(c)));
}

// Length of "KEY=" at the start of s (KEY an identifier), 0 when s does not start so.
std::size_t key_len(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && is_key_char(s[i], i == 0)) ++i;
  return i > 0 && i < s.size() && s[i] == '=' ? i : 0;
}

// "K=V, K=V, ": values may hold spaces and commas (CXX_FLAGS), so a new pair starts only at ",
// KEY=".
std::map<std::string, std::string> parse_settings(std::string_view s) {
  std::map<std::string, std::string> out;
  std::size_t pos = 0;
  while (pos < s.size()) {
    std::size_t k = key_len(s.substr(pos));
    if (k == 0) break;
    std::size_t vstart = pos + k + 1, next = std::string_view::npos;
    for (std::size_t p = s.find(", ", vstart); p != std::string_view::npos; p = s.find(", ", p + 1))
      if (key_len(s.substr(p + 2)) > 0) {
        next = p;
        break;
      }
    std::string_view v =
        s.substr(vstart, next == std::string_view::npos ? std::string_view::npos : next - vstart);
    std::string value = util::trim(v);
    if (!value.empty() && value.back() == ',')
      value.pop_back();  // the trailing ", " of the last pair
    out[std::string(s.substr(pos, k))] = util::trim(value);
    if (next == std::string_view::npos) break;
    pos = next + 2;
  }
  return out;
}

void add_unique(std::vector<CudaArch>& v, const CudaArch& a) {
  if (std::find(v.begin(), v.end(), a) == v.end()) v.push_back(a);
}

}  // namespace

std::string cudnn_version_text(long v) {
  if (v <= 0) return "";
  long major, minor, patch;
  if (v >= 90000) {
    major = v / 10000, minor = v / 100 % 100, patch = v % 100;
  } else {
    major = v / 1000, minor = v / 100 % 10, patch = v % 100;
  }
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

std::optional<std::string> decode_printed_cudnn(std::string_view printed) {
  long part[3] = {0, 0, 0};
  int n = 0;
  std::size_t i = 0;
  while (n < 3) {
    std::size_t start = i;
    long x = 0;
    while (i < printed.size() && std::isdigit(static_cast<unsigned char>(printed[i])) &&
           i - start < 6)
      x = x * 10 + (printed[i++] - '0');
    if (i == start) return std::nullopt;
    part[n++] = x;
    if (i == printed.size()) break;
    if (printed[i] != '.') return std::nullopt;
    ++i;
  }
  if (i != printed.size() || n < 2 || part[1] > 9 || part[2] > 99) return std::nullopt;
  return cudnn_version_text(part[0] * 1000 + part[1] * 100 + part[2]);
}

void arch_tokens(std::string_view text, std::vector<CudaArch>& sass, std::vector<CudaArch>& ptx) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    bool at_word = i == 0 || !std::isalnum(static_cast<unsigned char>(text[i - 1]));
    if (!at_word) continue;
    std::string_view rest = text.substr(i);
    bool is_sm = starts_with(rest, "sm_"), is_compute = starts_with(rest, "compute_");
    if (!is_sm && !is_compute) continue;
    // In "-gencode;arch=compute_90,code=sm_90" the arch= value is the virtual arch nvcc compiles
    // through, not code that is embedded: only code= values (and bare tokens) count.
    bool virtual_arch = i >= 5 && text.substr(i - 5, 5) == "arch=";
    std::size_t j = is_sm ? 3 : 8;
    while (j < rest.size() && std::isalnum(static_cast<unsigned char>(rest[j]))) ++j;
    auto a = CudaArch::parse(rest.substr(0, j));
    if (!a || virtual_arch) {
      i += j - 1;
      continue;
    }
    if (is_compute) {
      a->ptx = true;
      add_unique(ptx, *a);
    } else {
      add_unique(sass, a->sass_only());
    }
    i += j - 1;
  }
  std::sort(sass.begin(), sass.end());
  std::sort(ptx.begin(), ptx.end());
}

std::optional<bool> setting_truth(std::string_view v) {
  std::string s;
  for (char c : v) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (s == "on" || s == "1" || s == "true" || s == "yes" || s == "y") return true;
  if (s == "off" || s == "0" || s == "false" || s == "no" || s == "n" || s.empty()) return false;
  return std::nullopt;
}

std::optional<TorchConfig> parse_torch_config(std::string_view text, std::string* error) {
  // Anything torch printed before the header (a warning) is skipped; the header itself must be
  // there.
  std::size_t h = text.find("PyTorch built with:");
  if (h == std::string_view::npos) {
    std::string first = util::trim(text.substr(0, text.find('\n')));
    if (first.size() > 80) first = first.substr(0, 80) + "...";
    if (error)
      *error = "not torch.__config__.show() output (no 'PyTorch built with:'; it begins '" + first +
               "')";
    return std::nullopt;
  }
  TorchConfig c;
  std::string_view rest = text.substr(h);
  bool in_cudnn = false;
  while (!rest.empty()) {
    std::size_t nl = rest.find('\n');
    std::string_view raw = rest.substr(0, nl);
    rest = nl == std::string_view::npos ? std::string_view{} : rest.substr(nl + 1);
    std::size_t indent = raw.find_first_not_of(' ');
    if (indent == std::string_view::npos || !starts_with(raw.substr(indent), "- ")) continue;
    std::string item = util::trim(raw.substr(indent + 2));
    std::string_view it = item;
    if (indent > 2) {  // a sub-item: "    - Built with CuDNN 90.8" belongs to the CuDNN line above
      if (in_cudnn && starts_with(it, "Built with CuDNN ")) {
        auto d = decode_printed_cudnn(util::trim(it.substr(17)));
        c.cudnn_built_with = d ? *d : std::string(it.substr(17));
      } else {
        c.other.push_back(item);
      }
      continue;
    }
    in_cudnn = false;
    if (starts_with(it, "GCC ") || starts_with(it, "clang ") || starts_with(it, "MSVC ")) {
      c.compiler = item;
    } else if (starts_with(it, "C++ Version: ")) {
      c.cxx_version = util::trim(it.substr(13));
    } else if (starts_with(it, "CPU capability usage: ")) {
      c.cpu_capability = util::trim(it.substr(22));
    } else if (starts_with(it, "CUDA Runtime ")) {
      c.cuda_runtime = util::trim(it.substr(13));
    } else if (starts_with(it, "Built with CUDA Runtime ")) {
      c.cuda_built_with = util::trim(it.substr(24));
    } else if (starts_with(it, "NVCC architecture flags:")) {
      c.nvcc_arch_flags = util::trim(it.substr(24));
      arch_tokens(c.nvcc_arch_flags, c.sass, c.ptx);
    } else if (starts_with(it, "CuDNN ") || starts_with(it, "CudNN ")) {
      in_cudnn = true;
      std::string_view v = it.substr(6);
      std::size_t sp = v.find(' ');
      auto d = decode_printed_cudnn(v.substr(0, sp));
      c.cudnn = d ? *d : std::string(v.substr(0, sp));
      if (auto b = v.find("(built against CUDA "); b != std::string_view::npos) {
        std::string_view cu = v.substr(b + 20);
        c.cudnn_cuda = util::trim(cu.substr(0, cu.find(')')));
      }
    } else if (starts_with(it, "Magma ")) {
      c.magma = util::trim(it.substr(6));
    } else if (starts_with(it, "Build settings: ")) {
      c.settings = parse_settings(it.substr(16));
    } else {
      c.other.push_back(item);
    }
  }
  return c;
}

}  // namespace ts::verify
