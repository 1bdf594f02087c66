// Blog lifecycle (migration 0026): the SQLite side of the Store's retire / un-retire / move methods, as
// functions over a connection the store hands in (its writer under its lock, or a pooled reader). Internal
// to the SQLite backend.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "storage/sqlite/handles.h"
#include "storage/store.h"

namespace longread::storage::sqlite {

Result<std::vector<BlogLifecycle>> blog_lifecycle(Connection& db);
Result<bool> retire_blog(Connection& writer, std::int64_t blog_id, std::string_view reason, TimePoint now);
Result<bool> unretire_blog(Connection& writer, std::int64_t blog_id);
Result<bool> clear_blog_move(Connection& writer, std::int64_t blog_id);

}  // namespace longread::storage::sqlite
