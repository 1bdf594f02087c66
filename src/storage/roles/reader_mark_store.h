// The votes and reading-list role of the Store: what a reader marks on articles (ReaderMarks: voted, saved,
// read), the reading list's saved links and private feed, and feed apps' streams with their read state
// (docs/storage.md, "Roles").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/time.h"
#include "storage/types.h"

namespace longread::storage {

// What readers mark on articles: votes, the reading list, read state.
// Every method is safe to call from several threads; implementations serialise as needed.
class ReaderMarkStore {
 public:
  virtual ~ReaderMarkStore() = default;

  // --- votes: one per reader and article. kNotFound for an unknown or hidden (junk) article. The article's
  // votes and its hot score (migration 0005) change in the same transaction.
  virtual Result<VoteState> set_vote(std::int64_t reader_id, std::int64_t article_id, bool vote,
                                     TimePoint now) = 0;
  // Top by period counts each article's votes of the last 7 and 30 days in a column of its own (so the
  // listing is one index walk); this takes out of those counts the votes that have aged out of each
  // period by `now`, in batches of one transaction each, and returns how many counts it lowered (a vote
  // leaving both the week and the month lowers two). The site
  // calls it every minute; Top "this week" is exact as of the last call.
  virtual Result<std::int64_t> age_period_votes(TimePoint now) = 0;
  virtual Result<ReaderMarks> reader_marks(std::int64_t reader_id,
                                           const std::vector<std::int64_t>& article_ids) = 0;

  // --- the reading list
  // kNotFound for an unknown or hidden article.
  virtual Result<void> set_saved(std::int64_t reader_id, std::int64_t article_id, bool saved,
                                 TimePoint now) = 0;
  // kNotFound when the article is not on the reader's list.
  virtual Result<void> set_read(std::int64_t reader_id, std::int64_t article_id, bool read,
                                TimePoint now) = 0;
  // Newest saved first.
  virtual Result<std::vector<SavedArticle>> reading_list(std::int64_t reader_id, int limit, int offset) = 0;
  // Saved and not yet marked read.
  virtual Result<std::int64_t> reading_list_unread(std::int64_t reader_id) = 0;

  // --- a portable reading list: plain saved links and the private feed's token.
  // Imports `links` in one transaction. A link naming a visible article (by its exact link, or the same
  // with http/https swapped or a trailing slash added or dropped) joins the reading list as that article;
  // any other is kept as a SavedLink. What is already on the list stays as it is.
  virtual Result<ImportSummary> import_reading_list(std::int64_t reader_id,
                                                    const std::vector<ImportedLink>& links,
                                                    TimePoint now) = 0;
  // Newest saved first.
  virtual Result<std::vector<SavedLink>> saved_links(std::int64_t reader_id, int limit, int offset) = 0;
  // kNotFound when the link is not the reader's.
  virtual Result<void> set_saved_link_read(std::int64_t reader_id, std::int64_t link_id, bool read,
                                           TimePoint now) = 0;
  virtual Result<void> remove_saved_link(std::int64_t reader_id, std::int64_t link_id) = 0;
  // The secret token of the reader's reading-list feed (nullopt: none made yet).
  virtual Result<std::optional<std::string>> reading_list_feed_token(std::int64_t reader_id) = 0;
  // Replaces the token (a new one, or nullopt to turn the feed off): the old URL stops working at once.
  virtual Result<void> set_reading_list_feed_token(std::int64_t reader_id,
                                                   std::optional<std::string> token) = 0;
  virtual Result<std::optional<std::int64_t>> reader_by_reading_list_feed_token(std::string_view token) = 0;
  // --- feed apps' streams and read state (migration 0025)
  // A page of a stream. An article is read when the reader marked it so, or when it is dated before a
  // horizon set by mark_stream_read (its blog's or every blog's) and was not kept unread since.
  virtual Result<StreamPage> reader_stream(std::int64_t reader_id, const StreamQuery& query) = 0;
  // The visible articles among `article_ids`, with the reader's marks, in the order asked.
  virtual Result<std::vector<StreamItem>> reader_items(std::int64_t reader_id,
                                                       const std::vector<std::int64_t>& article_ids) = 0;
  // Marks the visible articles among `article_ids` read or unread; returns how many there were.
  virtual Result<int> set_articles_read(std::int64_t reader_id, const std::vector<std::int64_t>& article_ids,
                                        bool read, TimePoint now) = 0;
  // Every article of a blog (nullopt: of every blog) dated before `before` becomes read, in one row.
  virtual Result<void> mark_stream_read(std::int64_t reader_id, std::optional<std::int64_t> blog_id,
                                        TimePoint before, TimePoint now) = 0;
};

}  // namespace longread::storage
