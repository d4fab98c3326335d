#include "source/fetch.h"

#include <sys/stat.h>

#include <chrono>
#include <filesystem>

#include "util/fs.h"
#include "util/url.h"

namespace ts::source {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

class Steps {
 public:
  explicit Steps(const FetchOptions& o) : o_(o), start_(Clock::now()) {}
  void say(const std::string& line) const {
    if (!o_.progress) return;
    auto s = std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - start_).count();
    o_.progress("[" + std::to_string(s) + "s] " + line);
  }
  // A network step: retried with a pause, since mirrors and big hosts drop connections.
  util::RunResult retry(const std::vector<std::string>& args, const std::string& what,
                        const std::function<void()>& before_retry = nullptr) const {
    util::RunResult r;
    for (int attempt = 0; attempt <= o_.retries; ++attempt) {
      if (attempt > 0) {
        say(what + ": attempt " + std::to_string(attempt + 1) + " of " + std::to_string(o_.retries + 1) + " (" +
            describe_failure(args, r, o_.git) + ")");
        if (before_retry) before_retry();
      }
      r = run_git(o_.git, args);
      if (r.ok()) break;
    }
    return r;
  }

 private:
  const FetchOptions& o_;
  Clock::time_point start_;
};

bool is_git_checkout(const std::string& dir) {
  std::error_code ec;
  return fs::exists(fs::path(dir) / ".git", ec);
}

}  // namespace

// An archive's modes are the archive author's: setuid, setgid, sticky and world write go
// (tar as root keeps them, --no-same-permissions aside); symlinks are not followed.
static void normalize_modes(const std::string& dir) {
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, fs::directory_options::none, ec), end; !ec && it != end;
       it.increment(ec)) {
    struct stat st{};
    if (::lstat(it->path().c_str(), &st) != 0 || S_ISLNK(st.st_mode)) continue;
    const mode_t keep = st.st_mode & 07777 & ~mode_t(S_ISUID | S_ISGID | S_ISVTX | S_IWOTH);
    if (keep != (st.st_mode & 07777)) ::chmod(it->path().c_str(), keep);
  }
}

std::string extract_archive(const std::string& archive, const std::string& dir, std::string* error) {
  auto fail = [&](const std::string& e) {
    if (error) *error = e;
    return std::string();
  };
  std::error_code ec;
  if (!fs::is_regular_file(archive, ec)) return fail(archive + ": not a file");
  if (fs::exists(dir, ec) && !fs::is_empty(dir, ec)) return fail(dir + " exists and is not empty; choose another --dir");
  fs::create_directories(dir, ec);
  if (ec) return fail(dir + ": cannot create (" + ec.message() + ")");
  // GNU tar drops leading '/' and refuses members with '..', so nothing lands outside dir.
  util::RunOptions ro;
  ro.timeout = std::chrono::hours(1);
  auto r = util::run({"tar", "-xf", archive, "-C", dir, "--no-same-owner", "--no-same-permissions"}, ro);
  if (!r.ok()) return fail("tar -xf " + archive + ": " + r.describe(ro.timeout) + ": " + util::trim(r.err));
  normalize_modes(dir);
  std::vector<fs::path> entries;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) entries.push_back(it->path());
  if (entries.size() == 1 && fs::is_directory(entries[0], ec)) return entries[0].string();
  return dir;
}

RepairResult check_and_repair(const std::string& tree, const GitOptions& git, int retries,
                              const std::function<void(const std::string&)>& progress) {
  return repair_submodules(tree, git, retries, progress);
}

FetchResult fetch_source(const SourceSpec& spec, const FetchOptions& o) {
  FetchResult res;
  Steps steps(o);
  auto fail = [&](const std::string& e) {
    res.errors.push_back(e);
    return res;
  };
  if (o.dir.empty()) return fail("no target directory; give --dir DIR");
  // Checked again here, whoever called: a ref or URL starting with '-' is an option to git.
  if (auto e = util::check_git_url(spec.url); !e.empty()) return fail(e);
  if (!spec.ref.empty())
    if (auto e = util::check_git_ref(spec.ref); !e.empty()) return fail(e);
  std::error_code ec;
  if (is_git_checkout(o.dir)) {
    res.resumed = true;
    auto url = run_git(o.git, {"-C", o.dir, "config", "--get", "remote.origin.url"});  // as written, before insteadOf
    if (url.ok() && util::trim(url.out) != spec.url)
      return fail(o.dir + " is a clone of " + util::redact_url(util::trim(url.out)) + ", not " + util::redact_url(spec.url) +
                  "; choose another --dir, or use --source " + o.dir + " to check it as it is");
    steps.say("resuming the clone in " + o.dir);
  } else {
    if (fs::exists(o.dir, ec) && !fs::is_empty(o.dir, ec))
      return fail(o.dir + " exists and is not a git checkout; choose an empty or new --dir");
    bool created = !fs::exists(o.dir, ec);
    steps.say("cloning " + util::redact_url(spec.url) + " into " + o.dir);
    // Blobs on demand (partial clone) where the server allows it; git falls back to a full clone.
    std::vector<std::string> args{"clone", "--filter=blob:none", "--no-checkout", "--", spec.url, o.dir};
    auto r = steps.retry(args, "clone", [&] {
      // A failed clone leaves a partial directory behind; only ours is removed.
      if (created) fs::remove_all(o.dir, ec);
    });
    if (!r.ok()) return fail(describe_failure(args, r, o.git));
  }

  std::string ref = spec.ref.empty() ? "HEAD" : spec.ref;
  auto dirty = run_git(o.git, {"-C", o.dir, "status", "--porcelain", "--untracked-files=no"});
  auto at = run_git(o.git, {"-C", o.dir, "rev-parse", "--verify", "-q", ref + "^{commit}"});
  auto head = run_git(o.git, {"-C", o.dir, "rev-parse", "--verify", "-q", "HEAD^{commit}"});
  bool checked_out_already = res.resumed && at.ok() && head.ok() && util::trim(at.out) == util::trim(head.out);
  // A clone interrupted before its checkout has an empty index: every file "deleted", none the user's.
  bool never_checked_out = util::trim(run_git(o.git, {"-C", o.dir, "ls-files", "--cached"}).out).empty();
  if (res.resumed && !checked_out_already && !never_checked_out && dirty.ok() && !util::trim(dirty.out).empty())
    return fail(o.dir + " has local changes; commit or stash them before checking out " + ref);
  if (!checked_out_already) {
    if (!at.ok()) {
      // A commit or tag the clone did not bring: ask the remote for it by name.
      steps.say("fetching " + ref);
      std::vector<std::string> args{"-C", o.dir, "fetch", "--", "origin", ref};
      auto r = steps.retry(args, "fetch " + ref);
      if (!r.ok()) return fail(describe_failure(args, r, o.git) + " (is '" + ref + "' a tag, branch or commit there?)");
      ref = "FETCH_HEAD";
    }
    steps.say("checking out " + (spec.ref.empty() ? std::string("the default branch") : spec.ref));
    std::vector<std::string> args{"-C", o.dir, "-c", "advice.detachedHead=false", "checkout", "--detach", ref, "--"};
    auto r = steps.retry(args, "checkout");  // a partial clone fetches blobs here
    if (!r.ok()) return fail(describe_failure(args, r, o.git));
  }
  res.head = util::trim(run_git(o.git, {"-C", o.dir, "rev-parse", "HEAD"}).out);

  steps.say("syncing submodule URLs");
  std::vector<std::string> sync{"-C", o.dir, "submodule", "sync", "--recursive"};
  if (auto r = run_git(o.git, sync); !r.ok()) return fail(describe_failure(sync, r, o.git));
  steps.say("updating submodules (" + std::to_string(o.jobs) + " in parallel)");
  std::vector<std::string> update{"-C", o.dir, "submodule", "update", "--init", "--recursive", "--jobs",
                                  std::to_string(std::max(1, o.jobs))};
  auto r = steps.retry(update, "submodule update");
  if (!r.ok()) steps.say("submodule update did not finish cleanly; checking which ones are broken");

  steps.say("checking that every submodule is complete");
  res.check = repair_submodules(o.dir, o.git, o.retries, [&](const std::string& s) { steps.say(s); });
  res.errors.insert(res.errors.end(), res.check.errors.begin(), res.check.errors.end());
  res.ok = res.check.ok;
  steps.say(res.ok ? "complete: " + std::to_string(res.check.after.modules.size()) + " submodule(s) at their recorded commits"
                   : "incomplete");
  return res;
}

}  // namespace ts::source
