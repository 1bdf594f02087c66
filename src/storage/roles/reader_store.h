// The readers role of the Store: accounts, sessions, the operator role, feed apps' passwords and tokens,
// and each reader's personal filters (docs/storage.md, "Roles").
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/time.h"
#include "storage/types.h"

namespace longread::storage {

// Readers: who they are (accounts, sessions, app passwords) and how they want the site (mutes, preferences).
// Every method is safe to call from several threads; implementations serialise as needed.
class ReaderStore {
 public:
  virtual ~ReaderStore() = default;

  // --- accounts, sessions and the operator role
  // A new account; kConflict when the email is taken (compared case-insensitively). `confirmed_at`
  // nullopt makes a pending account (see ReaderAccount).
  virtual Result<std::int64_t> create_reader(std::string_view email, std::string_view password_hash,
                                             TimePoint now, std::optional<TimePoint> confirmed_at) = 0;
  virtual Result<std::optional<ReaderAccount>> reader_by_email(std::string_view email) = 0;
  // Every account, oldest first (for the operator's `longread readers`).
  virtual Result<std::vector<ReaderAccount>> readers() = 0;
  // Replaces the password hash (a password reset, or a pending account signed up for again); with
  // `confirm_at`, also confirms a pending account. kNotFound for an unknown reader.
  virtual Result<void> set_reader_password(std::int64_t reader_id, std::string_view password_hash,
                                           std::optional<TimePoint> confirm_at) = 0;
  // Confirms a pending account (an already confirmed one keeps its time). kNotFound for an unknown reader.
  virtual Result<void> confirm_reader(std::int64_t reader_id, TimePoint now) = 0;
  // Deletes an account with everything that is its own (sessions, votes, reading list), in one
  // transaction: the articles it voted for lose those votes. kNotFound for an unknown reader.
  virtual Result<void> delete_reader(std::int64_t reader_id) = 0;
  // Ends every session of a reader (after a password reset); returns how many there were.
  virtual Result<int> delete_reader_sessions(std::int64_t reader_id) = 0;
  virtual Result<void> create_session(const SessionRecord& session) = 0;
  // The reader of an unexpired session, else nullopt.
  virtual Result<std::optional<SessionReader>> session_reader(std::string_view token_hash, TimePoint now) = 0;
  virtual Result<void> delete_session(std::string_view token_hash) = 0;
  virtual Result<int> delete_expired_sessions(TimePoint now) = 0;
  // Grants (or takes back) the operator role of the account with `email` (compared case-insensitively).
  // kNotFound for an unknown address.
  virtual Result<void> set_reader_operator(std::string_view email, bool is_operator) = 0;

  // --- feed apps (the Google Reader API, migration 0025): app passwords and the tokens ClientLogin gives
  // kConflict when the reader has kMaxAppPasswords already.
  virtual Result<std::int64_t> add_app_password(std::int64_t reader_id, std::string_view name,
                                                std::string_view password_hash, TimePoint now) = 0;
  // The reader's app passwords, newest first, with their hashes.
  virtual Result<std::vector<AppPassword>> app_passwords(std::int64_t reader_id) = 0;
  // Its tokens stop working with it. kNotFound when it is not the reader's.
  virtual Result<void> revoke_app_password(std::int64_t reader_id, std::int64_t app_password_id) = 0;
  // Stores a token (and notes the app password's use); tokens expired by `token.created_at` are dropped.
  virtual Result<void> add_api_token(const ApiTokenRecord& token) = 0;
  // The reader of a live token, else nullopt.
  virtual Result<std::optional<std::int64_t>> api_token_reader(std::string_view token_hash,
                                                               TimePoint now) = 0;

  // --- personal filters (migration 0028): mutes and reading preferences, per reader. Listings apply them
  // through ArticleQuery::reader / HotPageQuery::reader and search's `reader`.
  // Mutes (true) or un-mutes a blog for a reader; returns whether anything changed. kNotFound for an
  // unknown blog (nothing is stored).
  virtual Result<bool> set_blog_muted(std::int64_t reader_id, std::int64_t blog_id, bool muted,
                                      TimePoint now) = 0;
  // The same for a category, by slug. kNotFound for an unknown category.
  virtual Result<bool> set_category_muted(std::int64_t reader_id, std::string_view category, bool muted,
                                          TimePoint now) = 0;
  // What the reader muted, most recent first.
  virtual Result<ReaderMutes> reader_mutes(std::int64_t reader_id) = 0;
  virtual Result<ReaderPreferences> reader_preferences(std::int64_t reader_id) = 0;
  // Replaces the reader's preferences in one transaction. kNotFound when a newsletter category is unknown
  // (nothing is stored).
  virtual Result<void> set_reader_preferences(std::int64_t reader_id,
                                              const ReaderPreferences& preferences) = 0;
};

}  // namespace longread::storage
