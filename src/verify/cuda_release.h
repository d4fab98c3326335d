#pragma once
// The CUDA release that compiled a fatbin entry, as the entry itself says: a cubin's
// .note.nv.tkinfo note and a PTX text's header comment both carry nvcc's banner line
// ("Cuda compilation tools, release 13.0, V13.0.88"). Read natively, no cuobjdump.
#include <string>
#include <string_view>

#include "formats/byte_reader.h"
#include "verify/fatbin.h"

namespace ts::verify {

// "13.0" from a text holding "Cuda compilation tools, release 13.0, ..."; "" when none.
std::string release_in_text(std::string_view text);

// The release entry `e` of `section` was compiled by: "13.0", or "" when the entry does not say
// (a compressed payload, a cubin without the note, a PTX without the banner).
std::string entry_release(formats::Bytes section, const FatbinEntry& e);

}  // namespace ts::verify
