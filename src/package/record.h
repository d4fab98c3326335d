#pragma once
// RECORD lives with the wheel format (formats/wheel_record.h); package's code names it here.
#include "formats/wheel_record.h"

namespace ts::package {
using formats::hex;
using formats::parse_record;
using formats::record_hash;
using formats::RecordLine;
using formats::render_record;
using formats::Sha256;
}  // namespace ts::package
