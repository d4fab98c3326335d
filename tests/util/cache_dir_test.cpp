#include "util/cache_dir.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <string>

namespace {

// Sets the variables for one test and puts back what was there.
class Env {
 public:
  void set(const char* k, const char* v) {
    const char* old = getenv(k);
    saved_.push_back({k, old ? std::string(old) : std::string(), old != nullptr});
    if (v) setenv(k, v, 1); else unsetenv(k);
  }
  ~Env() {
    for (auto it = saved_.rbegin(); it != saved_.rend(); ++it)
      if (it->had) setenv(it->k, it->v.c_str(), 1); else unsetenv(it->k);
  }

 private:
  struct Saved { const char* k; std::string v; bool had; };
  std::vector<Saved> saved_;
};

TEST(CacheDir, OrderIsTorchsmithCacheThenXdgThenHome) {
  Env e;
  e.set("TORCHSMITH_CACHE", "/c/ts");
  e.set("XDG_CACHE_HOME", "/x");
  e.set("HOME", "/h");
  EXPECT_EQ(ts::util::cache_dir(), "/c/ts");
  e.set("TORCHSMITH_CACHE", nullptr);
  EXPECT_EQ(ts::util::cache_dir(), "/x/torchsmith");
  e.set("XDG_CACHE_HOME", "relative");  // not absolute: ignored, as the XDG spec says
  EXPECT_EQ(ts::util::cache_dir(), "/h/.cache/torchsmith");
  e.set("XDG_CACHE_HOME", nullptr);
  EXPECT_EQ(ts::util::cache_dir(), "/h/.cache/torchsmith");
  e.set("HOME", nullptr);
  EXPECT_EQ(ts::util::cache_dir(), "");
}

// --cache-dir wins over every variable, and a relative one is made absolute.
TEST(CacheDir, TheDirectoryAskedForWins) {
  Env e;
  e.set("TORCHSMITH_CACHE", "/c/ts");
  e.set("XDG_CACHE_HOME", "/x");
  EXPECT_EQ(ts::util::cache_dir("/given"), "/given");
  EXPECT_EQ(ts::util::cache_dir("/given/./a/../b"), "/given/b");
  std::string rel = ts::util::cache_dir("rel");
  EXPECT_EQ(rel.front(), '/');
  EXPECT_EQ(rel.substr(rel.size() - 4), "/rel");
}

}  // namespace
