#include "source/submodules.h"

#include <filesystem>
#include <functional>
#include <sstream>

#include "util/fs.h"

namespace ts::source {

namespace fs = std::filesystem;

namespace {

std::string join(const std::string& a, const std::string& b) { return a.empty() ? b : a + "/" + b; }
std::string short_sha(const std::string& s) { return s.substr(0, 10); }

struct Declared {
  std::string name, path;
};

// `git config -f .gitmodules --get-regexp` lines: "submodule.<name>.path <path>".
std::vector<Declared> declared_submodules(const std::string& repo, const GitOptions& git,
                                          std::string& error) {
  std::vector<Declared> out;
  std::string file = (fs::path(repo) / ".gitmodules").string();
  std::error_code ec;
  if (!fs::exists(file, ec)) return out;
  auto r = run_git(git, {"config", "-f", file, "--get-regexp", "^submodule\\..*\\.path$"});
  if (r.exit_code == 1 && r.out.empty()) return out;  // no path entries
  if (!r.ok()) {
    error = file + ": cannot be read by git (" + util::trim(r.err) + "); is it valid?";
    return out;
  }
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    auto sp = line.find(' ');
    if (sp == std::string::npos) continue;
    std::string key = line.substr(0, sp);
    std::string name = key.substr(10, key.size() - 10 - 5);  // between "submodule." and ".path"
    out.push_back({name, util::trim(line.substr(sp + 1))});
  }
  return out;
}

bool dir_is_empty(const std::string& dir) {
  std::error_code ec;
  return fs::is_empty(dir, ec) && !ec;
}

// Judges one declared submodule (repo: its parent's directory); false = nothing to check.
using Judge = std::function<bool(const std::string& repo, const Declared& d, SubmoduleState& s)>;

// Every submodule that .gitmodules declares, recursively into the ones judged ok.
void walk(const std::string& top, const std::string& rel, const GitOptions& git, const Judge& judge,
          SubmoduleReport& rep, int depth) {
  std::string repo = rel.empty() ? top : (fs::path(top) / rel).string();
  std::string error;
  auto declared = declared_submodules(repo, git, error);
  if (!error.empty()) rep.errors.push_back(error);
  for (const auto& d : declared) {
    SubmoduleState s;
    s.path = join(rel, d.path);
    s.parent = rel;
    s.name = d.name;
    if (!judge(repo, d, s)) continue;
    rep.modules.push_back(s);
    if (s.problem == SubmoduleState::Problem::ok && depth < 8)
      walk(top, s.path, git, judge, rep, depth + 1);
  }
}

// A git checkout: populated, and at the commit the parent records.
bool judge_checkout(const std::string& repo, const Declared& d, SubmoduleState& s,
                    const GitOptions& git) {
  // The gitlink the parent records: "160000 commit <sha>\t<path>".
  auto lt = run_git(git, {"-C", repo, "ls-tree", "HEAD", "--", d.path});
  std::istringstream ls(lt.out);
  std::string mode, type, sha;
  ls >> mode >> type >> sha;
  if (!lt.ok() || type != "commit")
    return false;  // named in .gitmodules but not recorded: nothing to check
  s.expected = sha;
  std::string abs = (fs::path(repo) / d.path).string();
  std::error_code ec;
  if (!fs::exists(abs, ec)) {
    s.problem = SubmoduleState::Problem::missing;
  } else if (!fs::exists(fs::path(abs) / ".git", ec)) {
    s.problem = dir_is_empty(abs) ? SubmoduleState::Problem::empty
                                  : SubmoduleState::Problem::not_checked_out;
  } else if (s.actual = own_head(abs, git); s.actual.empty()) {
    s.problem = SubmoduleState::Problem::not_checked_out;
  } else if (s.actual != s.expected) {
    auto st = run_git(git, {"-C", abs, "status", "--porcelain", "--untracked-files=no"});
    s.problem = st.ok() && util::trim(st.out).empty() ? SubmoduleState::Problem::wrong_commit
                                                      : SubmoduleState::Problem::dirty_wrong_commit;
  }
  return true;
}

}  // namespace

std::string SubmoduleState::describe() const {
  switch (problem) {
    case Problem::ok:
      return path + (actual.empty() ? ": present" : ": ok at " + short_sha(actual));
    case Problem::missing:
      return path + ": missing (not cloned)";
    case Problem::empty:
      return path + ": empty directory (never initialised)";
    case Problem::not_checked_out:
      return path + (expected.empty()
                         ? ": half-populated (none of CMakeLists.txt, Makefile, setup.py, LICENSE*)"
                         : ": half-populated (no usable .git or no checked-out HEAD)");
    case Problem::wrong_commit:
      return path + ": at " + short_sha(actual) + ", the superproject records " +
             short_sha(expected);
    case Problem::dirty_wrong_commit:
      return path + ": at " + short_sha(actual) + " with local changes, the superproject records " +
             short_sha(expected) + "; commit or stash them there, then run the check again";
  }
  return path;
}

bool SubmoduleReport::complete() const { return errors.empty() && broken().empty(); }

std::vector<SubmoduleState> SubmoduleReport::broken() const {
  std::vector<SubmoduleState> out;
  for (const auto& m : modules)
    if (m.problem != SubmoduleState::Problem::ok) out.push_back(m);
  return out;
}

namespace {

// A populated submodule has one of the files PyTorch's setup.py looks for.
bool has_marker(const std::string& dir) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string n = it->path().filename().string();
    if (n == "CMakeLists.txt" || n == "Makefile" || n == "setup.py" || n.rfind("LICENSE", 0) == 0)
      return true;
  }
  return false;
}

// A tree without git metadata (an archive): populated is all that can be told.
bool judge_files(const std::string& repo, const Declared& d, SubmoduleState& s) {
  std::string abs = (fs::path(repo) / d.path).string();
  std::error_code ec;
  if (!fs::exists(abs, ec))
    s.problem = SubmoduleState::Problem::missing;
  else if (dir_is_empty(abs))
    s.problem = SubmoduleState::Problem::empty;
  else if (!has_marker(abs))
    s.problem = SubmoduleState::Problem::not_checked_out;
  return true;
}

}  // namespace

SubmoduleReport check_submodules(const std::string& tree, const GitOptions& git) {
  SubmoduleReport rep;
  if (!own_head(tree, git).empty()) {
    auto judge = [&git](const std::string& repo, const Declared& d, SubmoduleState& s) {
      return judge_checkout(repo, d, s, git);
    };
    walk(tree, "", git, judge, rep, 0);
    return rep;
  }
  std::error_code ec;
  if (fs::exists(fs::path(tree) / ".gitmodules", ec)) {
    rep.archive = true;
    walk(tree, "", git, judge_files, rep, 0);
    return rep;
  }
  rep.errors.push_back(
      tree +
      ": not a git checkout with a HEAD commit, and no .gitmodules to check; fetch it first "
      "(torchsmith fetch SPEC --dir " +
      tree + ")");
  return rep;
}

namespace {

// Moves a half-populated directory under .torchsmith/broken-submodules/ (never deletes user files).
std::string move_aside(const std::string& top, const std::string& abs, const std::string& label) {
  fs::path base = fs::path(top) / ".torchsmith" / "broken-submodules";
  std::string flat = label;
  for (auto& c : flat)
    if (c == '/') c = '_';
  std::error_code ec;
  fs::create_directories(base, ec);
  fs::path dst = base / flat;
  for (int n = 1; fs::exists(dst, ec); ++n) dst = base / (flat + "." + std::to_string(n));
  fs::rename(abs, dst, ec);
  return ec ? "" : dst.string();
}

}  // namespace

RepairResult repair_submodules(const std::string& tree, const GitOptions& git, int retries,
                               const std::function<void(const std::string&)>& progress) {
  RepairResult res;
  auto say = [&](const std::string& s) {
    if (progress) progress(s);
  };
  for (int round = 0; round < 10; ++round) {
    SubmoduleReport rep = check_submodules(tree, git);
    res.after = rep;
    if (!rep.errors.empty()) {
      res.errors.insert(res.errors.end(), rep.errors.begin(), rep.errors.end());
      break;
    }
    auto broken = rep.broken();
    if (broken.empty()) break;
    if (rep.archive) {
      res.errors.push_back(
          tree +
          " has no git metadata (an archive?), so its submodules cannot be re-fetched; "
          "get a git checkout with `torchsmith fetch SPEC`, or a complete archive");
      break;
    }
    bool progressed = false;
    for (const auto& s : broken) {
      if (s.problem == SubmoduleState::Problem::dirty_wrong_commit)
        continue;  // the user's work: left alone
      std::string parent = s.parent.empty() ? tree : (fs::path(tree) / s.parent).string();
      std::string rel = s.path.substr(s.parent.empty() ? 0 : s.parent.size() + 1);
      std::string abs = (fs::path(tree) / s.path).string();
      if (s.problem == SubmoduleState::Problem::not_checked_out) {
        std::string kept = move_aside(tree, abs, s.path);
        if (kept.empty()) {
          res.errors.push_back(s.path +
                               ": half-populated and could not be moved aside; remove it by hand");
          continue;
        }
        res.moved_aside.push_back(kept);
        // Its git dir may be a half-cloned object store: set it aside too so the clone starts
        // clean.
        auto gd = run_git(git, {"-C", parent, "rev-parse", "--git-path", "modules/" + s.name});
        std::string gitdir = util::trim(gd.out);
        if (gd.ok() && !gitdir.empty()) {
          if (fs::path(gitdir).is_relative()) gitdir = (fs::path(parent) / gitdir).string();
          std::error_code ec;
          if (fs::exists(gitdir, ec))
            if (std::string k = move_aside(tree, gitdir, s.path + ".gitdir"); !k.empty())
              res.moved_aside.push_back(k);
        }
      }
      say("repairing " + s.describe());
      util::RunResult r;
      std::vector<std::string> args{"-C",     parent,    "submodule", "update",
                                    "--init", "--force", "--",        rel};
      for (int attempt = 0; attempt <= retries; ++attempt) {
        r = run_git(git, args);
        if (r.ok()) break;
        say("retrying " + s.path + " (" + std::to_string(attempt + 1) + "/" +
            std::to_string(retries) + ")");
      }
      if (!r.ok()) {
        res.errors.push_back(s.path + ": repair failed: " + describe_failure(args, r, git));
        continue;
      }
      res.repaired.push_back(s.path);
      progressed = true;
    }
    if (!progressed) break;
  }
  res.after = check_submodules(tree, git);
  for (const auto& s : res.after.broken()) res.errors.push_back("still broken: " + s.describe());
  res.ok = res.errors.empty();
  return res;
}

}  // namespace ts::source
