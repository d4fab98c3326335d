#pragma once
// An ldd that runs nothing: resolves every DT_NEEDED of a library, transitively, the way glibc's
// ld.so searches (DT_RPATH of the loading chain unless the loader has DT_RUNPATH, LD_LIBRARY_PATH,
// the loader's own DT_RUNPATH, the ld.so.cache directories, the trusted defaults), reusing what is
// already loaded (by SONAME or by name) as the loader does, and reporting what is not found.
#include <string>
#include <vector>

namespace ts::verify {

struct ResolveOptions {
  std::vector<std::string> ld_library_path;  // given, not inherited from this process
  std::vector<std::string> system_dirs;      // system_library_dirs() when empty
  // Libraries loaded before the root (what `import torch` loads before an extension): they answer
  // NEEDED names that match their SONAME or file name, as already-loaded objects do.
  std::vector<std::string> preload;
  std::size_t max_objects = 4096;  // bound on the walk, against pathological trees
};

struct ResolvedLib {
  std::string name;       // as written in DT_NEEDED
  std::string path;       // where it was found ("" when not found)
  std::string needed_by;  // the path of the object whose DT_NEEDED it is
  std::string via;        // "RPATH", "RUNPATH", "LD_LIBRARY_PATH", "system", "loaded", "preload", "path"
  std::string error;      // why the search stopped on a file that is no loadable ELF ("" otherwise)
};

struct Resolution {
  std::vector<ResolvedLib> libs;     // every NEEDED edge, breadth-first as the loader walks
  std::vector<ResolvedLib> missing;  // the edges not found (path empty)
  std::vector<std::string> errors;   // objects that could not be read, and why
  bool ok() const { return missing.empty() && errors.empty(); }
};

// The path must name an ELF file; its class and machine select which candidates are acceptable.
Resolution resolve_needed(const std::string& path, const ResolveOptions& o = {});

// One search-path string (DT_RPATH/DT_RUNPATH) split on ':' with $ORIGIN / ${ORIGIN} replaced by
// `origin` (the directory of the object). Entries with other tokens ($LIB, $PLATFORM) are dropped.
std::vector<std::string> expand_search_path(const std::string& value, const std::string& origin);

}  // namespace ts::verify
