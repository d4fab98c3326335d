#include "source/udiff.h"

#include <algorithm>
#include <string_view>
#include <vector>

namespace ts::source {

namespace {

// Lines keep their '\n' so that "no newline at end" is a difference like any other.
std::vector<std::string_view> split_lines(const std::string& s) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (start < s.size()) {
    auto nl = s.find('\n', start);
    std::size_t end = nl == std::string::npos ? s.size() : nl + 1;
    out.emplace_back(s.data() + start, end - start);
    start = end;
  }
  return out;
}

enum class Kind { same, del, add };
struct Step {
  Kind kind;
  std::size_t a, b;  // line index in before (same/del) and after (same/add)
};

// Edit script: common prefix and suffix, then an LCS table on the (small) middle. Fixes change a
// few lines, so the middle is tiny; a huge middle is shown as delete-all/add-all rather than slow.
std::vector<Step> edit_script(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
  std::size_t pre = 0;
  while (pre < a.size() && pre < b.size() && a[pre] == b[pre]) ++pre;
  std::size_t suf = 0;
  while (suf < a.size() - pre && suf < b.size() - pre && a[a.size() - 1 - suf] == b[b.size() - 1 - suf]) ++suf;
  std::size_t n = a.size() - pre - suf, m = b.size() - pre - suf;
  std::vector<Step> out;
  for (std::size_t i = 0; i < pre; ++i) out.push_back({Kind::same, i, i});
  if (n * m <= 4'000'000) {
    std::vector<std::vector<unsigned>> lcs(n + 1, std::vector<unsigned>(m + 1, 0));
    for (std::size_t i = n; i-- > 0;)
      for (std::size_t j = m; j-- > 0;)
        lcs[i][j] = a[pre + i] == b[pre + j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    std::size_t i = 0, j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[pre + i] == b[pre + j]) {
        out.push_back({Kind::same, pre + i, pre + j});
        ++i, ++j;
      } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
        out.push_back({Kind::del, pre + i, pre + j});  // deletions first, as diff prints them
        ++i;
      } else {
        out.push_back({Kind::add, pre + i, pre + j});
        ++j;
      }
    }
  } else {
    for (std::size_t i = 0; i < n; ++i) out.push_back({Kind::del, pre + i, pre});
    for (std::size_t j = 0; j < m; ++j) out.push_back({Kind::add, pre + n, pre + j});
  }
  for (std::size_t k = 0; k < suf; ++k) out.push_back({Kind::same, pre + n + k, pre + m + k});
  return out;
}

void put_line(std::string& out, char mark, std::string_view line) {
  out += mark;
  out += line;
  if (line.empty() || line.back() != '\n') out += "\n\\ No newline at end of file\n";
}

}  // namespace

std::string unified_diff(const std::string& name, const std::string& before, const std::string& after, int context) {
  if (before == after) return "";
  auto a = split_lines(before), b = split_lines(after);
  auto steps = edit_script(a, b);
  std::string out = "--- a/" + name + "\n+++ b/" + name + "\n";
  const std::size_t ctx = static_cast<std::size_t>(std::max(context, 0));
  std::size_t k = 0;
  while (k < steps.size()) {
    // Next change; the hunk opens ctx steps before it and grows while changes come within 2*ctx.
    while (k < steps.size() && steps[k].kind == Kind::same) ++k;
    if (k == steps.size()) break;
    std::size_t start = k >= ctx ? k - ctx : 0, end = k;
    while (true) {
      while (end < steps.size() && steps[end].kind != Kind::same) ++end;
      std::size_t next = end;
      while (next < steps.size() && steps[next].kind == Kind::same) ++next;
      if (next < steps.size() && next - end <= 2 * ctx) {
        end = next;
        continue;
      }
      end = std::min(end + ctx, steps.size());
      break;
    }
    std::size_t a_start = steps[start].a, b_start = steps[start].b, a_count = 0, b_count = 0;
    std::string body;
    for (std::size_t i = start; i < end; ++i) {
      const auto& s = steps[i];
      if (s.kind == Kind::same) put_line(body, ' ', a[s.a]), ++a_count, ++b_count;
      else if (s.kind == Kind::del) put_line(body, '-', a[s.a]), ++a_count;
      else put_line(body, '+', b[s.b]), ++b_count;
    }
    // diff's convention: an empty side names the line before the hunk.
    auto range = [](std::size_t start0, std::size_t count) {
      std::size_t first = count ? start0 + 1 : start0;
      return count == 1 ? std::to_string(first) : std::to_string(first) + "," + std::to_string(count);
    };
    out += "@@ -" + range(a_start, a_count) + " +" + range(b_start, b_count) + " @@\n" + body;
    k = end;
  }
  return out;
}

}  // namespace ts::source
