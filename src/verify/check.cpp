#include "verify/check.h"

namespace ts::verify {
namespace {

constexpr CheckInfo kTable[] = {
#define TS_VERIFY_CHECK_ROW(e, id, named, reads, worst, description) \
  {Check::e, id, named, Reads::reads, Outcome::worst, description, #e},
    TS_VERIFY_CHECKS(TS_VERIFY_CHECK_ROW)
#undef TS_VERIFY_CHECK_ROW
};

}  // namespace

const char* reads_name(Reads r) {
  switch (r) {
    case Reads::elf: return "elf";
    case Reads::wheel: return "wheel";
    case Reads::python: return "python";
    case Reads::pip: return "pip";
    case Reads::gpu: return "gpu";
  }
  return "?";
}

std::span<const CheckInfo> check_table() { return kTable; }

const CheckInfo& check_info(Check c) { return kTable[static_cast<std::size_t>(c)]; }

const CheckInfo* find_check(std::string_view id) {
  for (const auto& row : kTable)
    if (!row.named && row.id == id) return &row;
  for (const auto& row : kTable)
    if (row.named && id.size() > row.id.size() && id.starts_with(row.id)) return &row;
  return nullptr;
}

bool is_check(std::string_view id, Check c) {
  const CheckInfo* row = find_check(id);
  return row && row->check == c;
}

std::string CheckName::id() const {
  return std::string(check_info(check).id) + name;
}

Verdict verdict(std::string file, const CheckName& c, Outcome o, std::string detail) {
  return {std::move(file), c.id(), o, std::move(detail)};
}

}  // namespace ts::verify
