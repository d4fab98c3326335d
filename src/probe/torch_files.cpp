// Torch facts from its files. Each fact has one reader; read_torch_files() ties them to the
// installed layout (wheel, conda, source build, Debian's split python3-torch/libtorch).
#include "probe/torch_files.h"

#include <elf.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "probe/text.h"
#include "util/fs.h"

namespace ts::probe {
namespace {

// A whole file mapped read-only: libtorch_python.so is tens of MB, and only a few pages of it
// are touched by the scans.
class Mapped {
 public:
  explicit Mapped(const std::string& path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
      void* p = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
      if (p != MAP_FAILED) {
        data_ = static_cast<const char*>(p);
        size_ = static_cast<std::size_t>(st.st_size);
      }
    }
    ::close(fd);
  }
  ~Mapped() {
    if (data_) ::munmap(const_cast<char*>(data_), size_);
  }
  Mapped(const Mapped&) = delete;
  Mapped& operator=(const Mapped&) = delete;
  bool ok() const { return data_ != nullptr; }
  std::string_view view() const { return {data_, size_}; }

 private:
  const char* data_ = nullptr;
  std::size_t size_ = 0;
};

bool digit(char c) { return c >= '0' && c <= '9'; }

// `name [: annotation] = value` -> value (trimmed), or nullopt when the line assigns another name.
std::optional<std::string> assigned(std::string_view line, std::string_view name) {
  auto s = util::trim(line);
  if (!s.starts_with(name)) return std::nullopt;
  std::string_view rest = std::string_view(s).substr(name.size());
  auto eq = rest.find('=');
  if (eq == std::string_view::npos || (eq + 1 < rest.size() && rest[eq + 1] == '=')) return std::nullopt;
  auto between = util::trim(rest.substr(0, eq));
  if (!between.empty() && between[0] != ':') return std::nullopt;  // `cuda_x = ...`
  return util::trim(rest.substr(eq + 1));
}

// 'x' or "x" -> x; None -> ""; anything else (an expression) -> nullopt.
std::optional<std::string> py_string(const std::string& v) {
  if (v == "None") return std::string();
  if (v.size() >= 2 && (v[0] == '\'' || v[0] == '"') && v.back() == v[0]) return v.substr(1, v.size() - 2);
  return std::nullopt;
}

// One token of CUDA_ARCH_FLAGS: sm_90, sm_90a, compute_120, compute_100f.
bool arch_token(std::string_view t) {
  std::string_view num;
  if (t.starts_with("sm_")) num = t.substr(3);
  else if (t.starts_with("compute_")) num = t.substr(8);
  else return false;
  if (!num.empty() && (num.back() == 'a' || num.back() == 'f')) num.remove_suffix(1);
  return num.size() >= 2 && num.size() <= 3 && std::all_of(num.begin(), num.end(), digit);
}

std::vector<std::string> arch_tokens(std::string_view s) {
  std::vector<std::string> out;
  std::size_t b = 0;
  while (b <= s.size()) {
    auto e = s.find(' ', b);
    if (e == std::string_view::npos) e = s.size();
    auto t = s.substr(b, e - b);
    if (!arch_token(t)) return {};
    out.emplace_back(t);
    b = e + 1;
  }
  return out;
}

template <class Ehdr, class Shdr>
std::optional<std::string_view> dynstr_of(std::string_view f) {
  if (f.size() < sizeof(Ehdr)) return std::nullopt;
  Ehdr eh;
  std::memcpy(&eh, f.data(), sizeof eh);
  if (eh.e_shentsize != sizeof(Shdr) || eh.e_shoff == 0 || eh.e_shoff > f.size() ||
      (f.size() - eh.e_shoff) / sizeof(Shdr) < eh.e_shnum)
    return std::nullopt;
  auto shdr = [&](std::size_t i) {
    Shdr s;
    std::memcpy(&s, f.data() + eh.e_shoff + i * sizeof(Shdr), sizeof s);
    return s;
  };
  for (std::size_t i = 0; i < eh.e_shnum; ++i) {
    auto s = shdr(i);
    if (s.sh_type != SHT_DYNSYM || s.sh_link >= eh.e_shnum) continue;
    auto str = shdr(s.sh_link);
    if (str.sh_offset > f.size() || str.sh_size > f.size() - str.sh_offset) return std::nullopt;
    return f.substr(str.sh_offset, str.sh_size);
  }
  return std::nullopt;
}

// An ELF's .rodata (where the stringized CUDA_ARCH_FLAGS lives), so a cold page cache reads a
// tenth of libtorch_python.so; the whole input when it is not an ELF with section headers.
template <class Ehdr, class Shdr>
std::string_view rodata_of(std::string_view f) {
  Ehdr eh;
  std::memcpy(&eh, f.data(), sizeof eh);
  if (eh.e_shentsize != sizeof(Shdr) || eh.e_shoff == 0 || eh.e_shoff > f.size() ||
      (f.size() - eh.e_shoff) / sizeof(Shdr) < eh.e_shnum || eh.e_shstrndx >= eh.e_shnum)
    return f;
  auto shdr = [&](std::size_t i) {
    Shdr s;
    std::memcpy(&s, f.data() + eh.e_shoff + i * sizeof(Shdr), sizeof s);
    return s;
  };
  auto names = shdr(eh.e_shstrndx);
  if (names.sh_offset > f.size() || names.sh_size > f.size() - names.sh_offset) return f;
  auto strs = f.substr(names.sh_offset, names.sh_size);
  for (std::size_t i = 0; i < eh.e_shnum; ++i) {
    auto s = shdr(i);
    if (s.sh_name >= strs.size() || strs.substr(s.sh_name).substr(0, 8) != std::string_view(".rodata\0", 8)) continue;
    if (s.sh_offset > f.size() || s.sh_size > f.size() - s.sh_offset) return f;
    return f.substr(s.sh_offset, s.sh_size);
  }
  return f;
}

std::string_view rodata(std::string_view f) {
  if (f.size() < EI_NIDENT || std::memcmp(f.data(), ELFMAG, SELFMAG) != 0) return f;
  if (f[EI_CLASS] == ELFCLASS64) return f.size() < sizeof(Elf64_Ehdr) ? f : rodata_of<Elf64_Ehdr, Elf64_Shdr>(f);
  return f.size() < sizeof(Elf32_Ehdr) ? f : rodata_of<Elf32_Ehdr, Elf32_Shdr>(f);
}

// A torch library, as the loader would find it for this package: torch/lib first (wheels,
// conda, source builds), then the distribution's lib dirs (Debian's libtorch1.13 puts
// libc10.so.1.13 in /usr/lib/<triplet>). Host path, "" when none.
std::string find_torch_lib(const Host& h, const std::string& torch_dir, const std::string& stem) {
  std::vector<std::string> dirs = {torch_dir + "/lib"};
  for (auto d : {"/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib"})
    dirs.push_back(d);
  for (auto& d : dirs) {
    if (h.exists(d + "/" + stem + ".so")) return d + "/" + stem + ".so";
    for (auto& n : h.list(d))
      if (n.starts_with(stem + ".so.")) return d + "/" + n;
  }
  return "";
}

std::string mapped_real(const Host& h, const std::string& host_path) {
  auto c = h.canonical(host_path);
  return h.map(c.empty() ? host_path : c);
}

// "9.1.0" from the version header's three #defines; "" when it is not one.
std::string cudnn_from_header(const std::string& text) {
  auto ma = define_value(text, "CUDNN_MAJOR"), mi = define_value(text, "CUDNN_MINOR"),
       pa = define_value(text, "CUDNN_PATCHLEVEL");
  if (!all_digits(ma) || !all_digits(mi) || !all_digits(pa)) return "";
  return ma + "." + mi + "." + pa;
}

// ELF dynamic string table (symbol and DT_NEEDED names), or nullopt when it is not an ELF.
std::optional<std::string_view> dynstr(std::string_view elf) {
  if (elf.size() < EI_NIDENT || std::memcmp(elf.data(), ELFMAG, SELFMAG) != 0) return std::nullopt;
  return elf[EI_CLASS] == ELFCLASS64 ? dynstr_of<Elf64_Ehdr, Elf64_Shdr>(elf)
                                     : dynstr_of<Elf32_Ehdr, Elf32_Shdr>(elf);
}

// The cuDNN major libtorch_cuda.so is linked against ("libcudnn.so.9" -> "9"); "" when it does
// not link one (a build without cuDNN, or one that linked it statically) or cannot be read.
std::string cudnn_major_needed(const Host& h, const std::string& torch_dir) {
  auto lib = find_torch_lib(h, torch_dir, "libtorch_cuda");
  if (lib.empty()) return "";
  Mapped m(mapped_real(h, lib));
  auto names = m.ok() ? dynstr(m.view()) : std::nullopt;
  if (!names) return "";
  static constexpr std::string_view key = "libcudnn.so.";
  auto p = names->find(key);
  if (p == std::string_view::npos) return "";
  auto b = p + key.size(), e = b;
  while (e < names->size() && digit((*names)[e])) ++e;
  return std::string(names->substr(b, e - b));
}

// The cuDNN this torch would load: a pip wheel beside it (what torch's own loader prefers),
// else a header in its own prefix (conda's cudnn package), else a system header, but only when
// libtorch_cuda.so links that cuDNN major. "" when unknown: a file cannot tell a build without
// cuDNN from one that linked it statically, so no guess.
std::string read_cudnn(const Host& h, const std::string& torch_dir, const std::string& prefix) {
  auto site = torch_dir.substr(0, torch_dir.rfind('/'));
  std::string best;
  for (auto& n : h.list(site)) {
    // nvidia_cudnn_cu12-9.1.0.70.dist-info, nvidia_cudnn_cu13-9.19.0.56.dist-info
    if (!n.starts_with("nvidia_cudnn_cu") || !n.ends_with(".dist-info")) continue;
    auto dash = n.find('-');
    if (dash == std::string::npos) continue;
    auto v = cudnn_from_wheel(n.substr(dash + 1, n.size() - dash - 1 - 10));
    if (!v.empty()) best = v;  // sorted names: cu13 after cu12, the one torch of that era wants
  }
  if (!best.empty()) return best;
  auto from = [&](const std::string& header) {
    auto t = h.read(header);
    return t ? cudnn_from_header(*t) : std::string();
  };
  std::vector<std::string> own = {torch_dir + "/include/cudnn_version.h"};
  if (!prefix.empty()) own.push_back(prefix + "/include/cudnn_version.h");
  for (auto& p : own)
    if (auto v = from(p); !v.empty()) return v;
  auto major = cudnn_major_needed(h, torch_dir);
  if (major.empty()) return "";
  for (auto d : {"/usr/include", "/usr/include/x86_64-linux-gnu", "/usr/include/aarch64-linux-gnu",
                 "/usr/local/cuda/include"})
    if (auto v = from(std::string(d) + "/cudnn_version.h"); v.starts_with(major + ".")) return v;
  return "";
}

std::optional<bool> read_abi(const Host& h, const std::string& torch_dir) {
  for (auto f : {"/share/cmake/Torch/TorchConfig.cmake", "/share/cmake/Caffe2/Caffe2Config.cmake",
                 "/share/cmake/Caffe2/Caffe2Targets.cmake"})
    if (auto t = h.read(torch_dir + f, 8u << 20))
      if (auto abi = abi_from_cmake(*t)) return abi;
  // Torch 2.8+ dropped the flag from its CMake config (the old ABI is gone); c10 still tells.
  auto lib = find_torch_lib(h, torch_dir, "libc10");
  if (lib.empty()) return std::nullopt;
  Mapped m(mapped_real(h, lib));
  return m.ok() ? abi_from_elf(m.view()) : std::nullopt;
}

}  // namespace

TorchVersionPy parse_torch_version_py(std::string_view text) {
  TorchVersionPy v;
  for (auto& l : lines(text)) {
    if (auto a = assigned(l, "__version__")) {
      if (auto s = py_string(*a)) {
        v.version = *s;
        v.found = true;
      }
    } else if (auto c = assigned(l, "cuda")) {
      if (auto s = py_string(*c)) v.cuda = *s;
    } else if (auto g = assigned(l, "git_version")) {
      if (auto s = py_string(*g)) v.git_version = *s;
    } else if (auto d = assigned(l, "debug")) {
      v.debug = *d == "True";
    }
  }
  return v;
}

std::optional<bool> abi_from_cmake(std::string_view text) {
  static constexpr std::string_view key = "-D_GLIBCXX_USE_CXX11_ABI=";
  for (auto p = text.find(key); p != std::string_view::npos; p = text.find(key, p + 1)) {
    auto at = p + key.size();
    if (at < text.size() && (text[at] == '0' || text[at] == '1') &&
        (at + 1 == text.size() || !digit(text[at + 1])))
      return text[at] == '1';
  }
  return std::nullopt;
}

std::optional<bool> abi_from_elf(std::string_view elf) {
  auto names = dynstr(elf);
  if (!names) return std::nullopt;
  if (names->find("__cxx11") != std::string_view::npos) return true;
  if (names->find(std::string_view("\0_Z", 3)) != std::string_view::npos) return false;
  return std::nullopt;
}

std::vector<std::string> find_arch_list(std::string_view bytes) {
  std::vector<std::string> best;
  std::size_t from = 0;
  while (from < bytes.size()) {
    const void* hit = ::memmem(bytes.data() + from, bytes.size() - from, "sm_", 3);
    if (!hit) break;
    std::size_t at = static_cast<const char*>(hit) - bytes.data();
    // The C string around the hit: back to the previous NUL, on to the next one.
    auto b = bytes.rfind('\0', at);
    b = b == std::string_view::npos ? 0 : b + 1;
    auto e = bytes.find('\0', at);
    if (e == std::string_view::npos) e = bytes.size();
    if (at - b < 64 && e - at < 1024) {
      auto toks = arch_tokens(bytes.substr(b, e - b));
      if (toks.size() > best.size()) best = std::move(toks);
    }
    from = std::max(e, at + 3);
  }
  return best;
}

std::string cudnn_from_wheel(std::string_view wheel_version) {
  std::vector<std::string> parts;
  std::size_t b = 0;
  while (b <= wheel_version.size() && parts.size() < 3) {
    auto e = wheel_version.find('.', b);
    if (e == std::string_view::npos) e = wheel_version.size();
    auto p = wheel_version.substr(b, e - b);
    if (!all_digits(p) || p.empty()) break;
    parts.emplace_back(p);
    b = e + 1;
  }
  if (parts.size() < 3) return "";
  return parts[0] + "." + parts[1] + "." + parts[2];
}

void read_torch_files(const Host& h, const std::string& python_prefix, TorchFacts& t,
                      std::vector<std::string>& notes) {
  if (t.path.empty()) return;
  const auto& dir = t.path;
  if (auto text = h.read(dir + "/version.py")) {
    auto v = parse_torch_version_py(*text);
    if (v.found) {
      t.version = FactVersion(v.version);
      t.cuda = FactVersion(v.cuda);
      t.git_version = v.git_version;
      t.debug = v.debug;
    }
  }
  if (t.version.empty()) notes.push_back("torch at " + dir + ": no version in version.py or its dist-info");
  if (auto abi = read_abi(h, dir)) t.cxx11_abi = *abi;
  if (t.cuda.empty()) {  // CPU build: no arch list (known to be empty), no cuDNN to tell
    t.arch_list_known = true;
    return;
  }
  t.cudnn = read_cudnn(h, dir, python_prefix);
  auto lib = find_torch_lib(h, dir, "libtorch_python");
  Mapped m(lib.empty() ? std::string() : mapped_real(h, lib));
  if (m.ok()) t.arch_list = GpuCodeList::read(find_arch_list(rodata(m.view())));  // the one parse
  t.arch_list_known = !t.arch_list.empty();  // not found is unknown, not "built for nothing"
  if (t.arch_list.empty())
    notes.push_back("torch at " + dir + ": arch list not found in libtorch_python.so (use --import-torch)");
}

}  // namespace ts::probe
