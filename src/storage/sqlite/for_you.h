// "For you" (docs/readers.md): the SQLite side of Store::for_you, one query over the stored similar picks
// and the reader's votes, saves, read marks and mutes. Internal to the SQLite backend.
#pragma once

#include "core/error.h"
#include "storage/sqlite/handles.h"
#include "storage/store.h"

namespace longread::storage::sqlite {

Result<ForYou> for_you(Connection& db, const ForYouQuery& query);

}  // namespace longread::storage::sqlite
