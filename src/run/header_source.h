#pragma once
// build.header-source: a build stopped on a header no toolkit, system or PyPI package ships and a
// public repository keeps in one folder (build.toml [[header_source]]: the CUDA samples' Common/
// helpers, helper_math.h for torch-mesh-isect). The folder's listed files are brought into
// torchsmith's cache at the pinned commit, each checked against its sha256: from the cache when they
// are there, else from TORCHSMITH_HEADER_SOURCE_MIRROR (a directory or URL laid out as
// OWNER/NAME/COMMIT/PATH/FILE: what bench/longtail/pack_device.sh --system packs for a machine with
// no network), else from the repository's raw files at the commit. They are then copied into the
// build's copy of the source under torchsmith-headers/NAME/PATH, journaled in the fix journal as files
// torchsmith created (`torchsmith fix --revert` removes them), so the retry finds them first on CPATH
// and a later source port (port.cxx20-global-lerp: helper_math.h's scalar lerp under C++20) reaches
// them as it reaches the package's own files. A tree built in place gets the cache's folder on CPATH
// and nothing written into it.
#include <string>
#include <vector>

#include "plan/build_kb.h"

namespace ts::run {

inline constexpr const char* kHeaderSourceMirrorEnv = "TORCHSMITH_HEADER_SOURCE_MIRROR";
inline constexpr const char* kHeaderSourceDir = "torchsmith-headers";

struct HeaderSourceResult {
  std::string error;                // "" when the headers are there
  std::string include_dir;          // the folder to put first on CPATH
  std::vector<std::string> copied;  // tree-relative paths written into the build's copy
  std::string from;                 // where the files came from: the cache, the mirror or the URL
  std::string diff;                 // the files added, as a unified diff
};

// The missing header named by a compiler's line ("fatal error: helper_math.h: No such file or
// directory", nvcc's `cannot open source file "helper_math.h"`): its file name, "" when none.
std::string missing_header_in(const std::string& line);
// The same line's include as written ("sub/x.h"), "" when it names none.
std::string missing_include_in(const std::string& line);

// Brings `h`'s files into CACHE/header-sources/OWNER+NAME@COMMIT/PATH (checked) and, unless in_place,
// copies them into TREE/torchsmith-headers/NAME/PATH, journaled. `mirror`: "" for the repository's raw
// files (https://raw.githubusercontent.com), else a directory or URL of the same layout.
HeaderSourceResult provide_header_source(const plan::HeaderSource& h, const std::string& cache_root,
                                         const std::string& mirror, const std::string& tree, bool in_place);

}  // namespace ts::run
