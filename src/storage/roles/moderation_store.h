// The moderation role of the Store: readers' flags on articles, the hold they put on an article and the
// operator's decision (migration 0023, docs/storage.md "Reader flags").
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/error.h"
#include "core/time.h"
#include "storage/types.h"

namespace longread::storage {

// Readers' flags and the operator's decisions on them.
// Every method is safe to call from several threads; implementations serialise as needed.
class ModerationStore {
 public:
  virtual ~ModerationStore() = default;

  // A reader flags a visible (or held) article once; kNotFound for
  // an unknown or hidden one. At rules.flags_to_hide distinct flags an article no operator decided on is
  // held: hidden from every listing, search, feed and count (articles.visible = 0) until an operator
  // decides. The flag, the daily limit's check and the hold are one transaction.
  virtual Result<FlagResult> flag_article(std::int64_t reader_id, std::int64_t article_id, FlagReason reason,
                                          TimePoint now, const FlagRules& rules) = 0;
  // Withdraws the reader's flag (false: there was none). A held article whose flags fall below the count
  // that held it is shown again; so it is when a flagging reader's account is deleted.
  virtual Result<bool> withdraw_flag(std::int64_t reader_id, std::int64_t article_id) = 0;
  // The article's flags, with `reader_id`'s own (nullopt: a visitor). kNotFound for an unknown article.
  virtual Result<FlagState> flag_state(std::int64_t article_id, std::optional<std::int64_t> reader_id) = 0;
  // Flagged articles, the most recently flagged first, at most `limit`.
  virtual Result<std::vector<FlaggedArticle>> flagged_articles(int limit) = 0;
  // An operator's decision (FlagDecision), in one transaction. kNotFound for an unknown article.
  virtual Result<void> decide_flags(std::int64_t article_id, FlagDecision decision) = 0;
};

}  // namespace longread::storage
