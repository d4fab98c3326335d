#include "scale/distcc_log.h"

#include <sstream>

namespace ts::scale {

namespace {

// "distcc[1234] rest" -> pid and rest; false for other lines.
bool split_line(const std::string& line, std::string& pid, std::string& rest) {
  if (line.rfind("distcc[", 0) != 0) return false;
  auto close = line.find("] ");
  if (close == std::string::npos) return false;
  pid = line.substr(7, close - 7);
  rest = line.substr(close + 2);
  return true;
}

std::string between(const std::string& s, const std::string& a, const std::string& b) {
  auto i = s.find(a);
  if (i == std::string::npos) return "";
  i += a.size();
  auto j = b.empty() ? std::string::npos : s.find(b, i);
  return s.substr(i, j == std::string::npos ? std::string::npos : j - i);
}

std::string strip_slots(std::string h) {
  if (auto s = h.find('/'); s != std::string::npos) h.resize(s);
  return h;
}

}  // namespace

int DistccSummary::total() const {
  int n = local;
  for (const auto& [h, c] : remote) n += c;
  return n;
}

DistccSummary parse_distcc_log(const std::string& text) {
  // Per client process (one unit): the hosts it was sent to, in order, and the last error or
  // warning it logged. Its final "compile SRC on HOST completed ok" says where the unit compiled;
  // every other host it was sent to failed it (refused, gone, timed out), so the unit moved.
  DistccSummary s;
  std::map<std::string, std::string> source_of, last_error;
  std::map<std::string, std::vector<std::string>> sent_to;
  std::istringstream in(text);
  std::string line, pid, rest;
  while (std::getline(in, line)) {
    if (!split_line(line, pid, rest)) continue;
    if (rest.rfind("compile from ", 0) == 0) {
      source_of[pid] = between(rest, "compile from ", " to ");
    } else if (rest.rfind("exec on ", 0) == 0) {
      std::string host = between(rest, "exec on ", ": ");
      if (host != "localhost") sent_to[pid].push_back(host);
    } else if (rest.find("ERROR: ") != std::string::npos || rest.find("Warning: ") != std::string::npos) {
      auto at = rest.find("ERROR: ");
      last_error[pid] = rest.substr(at != std::string::npos ? at : rest.find("Warning: "));
    } else if (rest.rfind("compile ", 0) == 0 && rest.size() > 13 && rest.compare(rest.size() - 13, 13, " completed ok") == 0) {
      // "compile SRC on HOST completed ok"; "(null)" is a call that compiled nothing (a link, a probe).
      std::string body = rest.substr(8, rest.size() - 8 - 13);
      auto on = body.rfind(" on ");
      if (on == std::string::npos) continue;
      std::string src = body.substr(0, on), host = body.substr(on + 4);
      if (src == "(null)") continue;
      if (host == "localhost") ++s.local;
      else ++s.remote[strip_slots(host)];
      for (const auto& h : sent_to[pid])
        if (h != host) s.moved.push_back({source_of.count(pid) ? source_of[pid] : src, h, last_error[pid]});
      sent_to.erase(pid);
      last_error.erase(pid);
    }
  }
  return s;
}

}  // namespace ts::scale
