#pragma once
// A true RECORD for a wheel written with formats::ZipWriter: every member so far with its sha256
// and size (the writer kept them), RECORD itself last without.
#include <string>

#include "formats/wheel_record.h"
#include "formats/zip_writer.h"

namespace ts::testkit {

inline bool add_record(formats::ZipWriter& w, const std::string& dist_info) {
  std::string rec;
  for (const auto& e : w.entries())
    rec += e.name + "," + formats::record_hash(e.sha256) + "," + std::to_string(e.size) + "\n";
  return w.add(dist_info + "/RECORD", rec + dist_info + "/RECORD,,\n");
}

}  // namespace ts::testkit
