// Listing latencies for longread-generate --measure: every listing the site pages through, at page 1 and
// at a deep page reached by following the pages' cursors, with p50/p95/p99 over the rounds; and the votes
// (cast by generated readers) that Top by period counts.
#pragma once

#include <cstdint>

#include "core/time.h"
#include "storage/store.h"

namespace longread::storage::tools {

// Casts `votes` votes from `readers` generated readers on random visible articles, dated over the 30 days
// before `now` (Top "this week" and "this month" count them). Returns how many were cast, or -1 on error.
std::int64_t cast_votes(Store& store, std::int64_t votes, int readers, std::uint64_t seed, TimePoint now);

// Prints, per listing, p50/p95/p99 of `rounds` calls at page 1 and at page `deep_page` (or the listing's
// last page when it is shorter, said in the line). false on a store error.
bool measure_listings(Store& store, int rounds, int deep_page, TimePoint now);

}  // namespace longread::storage::tools
