#include "storage/sqlite/query_helpers.h"

namespace longread::storage::sqlite {

std::string ids_json(const std::vector<std::int64_t>& ids) {
  std::string json = "[";
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (i > 0) json += ',';
    json += std::to_string(ids[i]);
  }
  return json + "]";
}

}  // namespace longread::storage::sqlite
