// Small helpers for the SQLite backend's statements: what the role files would otherwise write out again and
// again around a Query. Internal to the SQLite backend.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace longread::storage::sqlite {

// Ids as a JSON array, bound to a statement that reads them with json_each(:ids).
std::string ids_json(const std::vector<std::int64_t>& ids);

}  // namespace longread::storage::sqlite
