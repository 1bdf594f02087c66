#include "storage/postgres/reader_store.h"

#include <fmt/format.h>

#include <cctype>
#include <string>

#include "storage/postgres/statement.h"

namespace longread::storage::postgres {
namespace {

// ------------------------------------------------------------------------------ accounts and sessions

constexpr const char* kInsertReader =
    "INSERT INTO readers (email, email_key, password_hash, created_at, confirmed_at)"
    " VALUES (:email, :email_key, :password_hash, :created_at, :confirmed_at)"
    " ON CONFLICT (email_key) DO NOTHING RETURNING id";
constexpr const char* kSelectReaderByEmail =
    "SELECT id, email, password_hash, created_at, confirmed_at, operator FROM readers"
    " WHERE email_key = :email_key";
constexpr const char* kSelectReaders =
    "SELECT id, email, password_hash, created_at, confirmed_at, operator FROM readers ORDER BY id";
constexpr const char* kSetReaderOperator =
    "UPDATE readers SET operator = :operator WHERE email_key = :email_key";
constexpr const char* kSetReaderPassword =
    "UPDATE readers SET password_hash = :password_hash,"
    " confirmed_at = COALESCE(confirmed_at, :confirm_at) WHERE id = :id";
constexpr const char* kConfirmReader =
    "UPDATE readers SET confirmed_at = COALESCE(confirmed_at, :now) WHERE id = :id";
constexpr const char* kDeleteReaderSessions = "DELETE FROM sessions WHERE reader_id = :reader_id";
// Locks the reader's row for the transaction: deleting a reader, a vote of theirs committing meanwhile (its
// foreign key locks the row too) would otherwise escape the withdrawal of their votes and leave its article a
// vote too many; adding an app password, two at once could both pass the count.
constexpr const char* kLockReader = "SELECT id FROM readers WHERE id = :reader_id FOR UPDATE";
constexpr const char* kWithdrawReaderVotes =
    "UPDATE articles SET votes = votes - 1"
    " WHERE id IN (SELECT article_id FROM votes WHERE reader_id = :reader_id)";
// Sessions, votes and the reading list go with it (ON DELETE CASCADE).
constexpr const char* kDeleteReader = "DELETE FROM readers WHERE id = :reader_id";
constexpr const char* kInsertSession =
    "INSERT INTO sessions (token_hash, reader_id, created_at, expires_at)"
    " VALUES (:token_hash, :reader_id, :created_at, :expires_at)";
constexpr const char* kSelectSessionReader =
    "SELECT r.id, r.email, s.expires_at, r.operator FROM sessions s JOIN readers r ON r.id = s.reader_id"
    " WHERE s.token_hash = :token_hash AND s.expires_at > :now";
constexpr const char* kDeleteSession = "DELETE FROM sessions WHERE token_hash = :token_hash";
constexpr const char* kDeleteExpiredSessions = "DELETE FROM sessions WHERE expires_at <= :now";

// ------------------------------------------------------------------------------ feed apps

constexpr const char* kCountAppPasswords = "SELECT COUNT(*) FROM app_passwords WHERE reader_id = :reader_id";
constexpr const char* kInsertAppPassword =
    "INSERT INTO app_passwords (reader_id, name, password_hash, created_at) VALUES (:reader_id, :name, "
    ":hash, :now) RETURNING id";
constexpr const char* kSelectAppPasswords =
    "SELECT id, name, password_hash, created_at, last_used_at FROM app_passwords WHERE reader_id = :reader_id"
    " ORDER BY created_at DESC, id DESC";
constexpr const char* kDeleteAppPassword =
    "DELETE FROM app_passwords WHERE reader_id = :reader_id AND id = :id";
constexpr const char* kDeleteExpiredTokens = "DELETE FROM api_tokens WHERE expires_at <= :now";
constexpr const char* kInsertToken =
    "INSERT INTO api_tokens (token_hash, app_password_id, reader_id, created_at, expires_at)"
    " SELECT :hash::text, id, reader_id, :now::bigint, :expires::bigint FROM app_passwords"
    " WHERE id = :app_password_id AND reader_id = :reader_id";
constexpr const char* kNoteAppPasswordUse = "UPDATE app_passwords SET last_used_at = :now WHERE id = :id";
constexpr const char* kSelectTokenReader =
    "SELECT reader_id FROM api_tokens WHERE token_hash = :hash AND expires_at > :now";

// ------------------------------------------------------------------------------ personal filters

constexpr const char* kBlogExists = "SELECT 1 FROM blogs WHERE id = :blog_id";
constexpr const char* kCategoryExists = "SELECT 1 FROM categories WHERE slug = :category";
// The partial unique indexes of reader_mutes make a second mute of the same thing a no-op.
constexpr const char* kMuteBlog =
    "INSERT INTO reader_mutes (reader_id, blog_id, created_at) VALUES (:reader_id, :blog_id, :now)"
    " ON CONFLICT DO NOTHING";
constexpr const char* kUnmuteBlog =
    "DELETE FROM reader_mutes WHERE reader_id = :reader_id AND blog_id = :blog_id";
constexpr const char* kMuteCategory =
    "INSERT INTO reader_mutes (reader_id, category, created_at) VALUES (:reader_id, :category, :now)"
    " ON CONFLICT DO NOTHING";
constexpr const char* kUnmuteCategory =
    "DELETE FROM reader_mutes WHERE reader_id = :reader_id AND category = :category";
constexpr const char* kSelectMutedBlogs =
    "SELECT b.id, b.title, b.site_url, m.created_at FROM reader_mutes m JOIN blogs b ON b.id = m.blog_id"
    " WHERE m.reader_id = :reader_id ORDER BY m.created_at DESC, m.id DESC";
constexpr const char* kSelectMutedCategories =
    "SELECT c.slug, c.name, m.created_at FROM reader_mutes m JOIN categories c ON c.slug = m.category"
    " WHERE m.reader_id = :reader_id ORDER BY m.created_at DESC, m.id DESC";
constexpr const char* kSelectPreferences =
    "SELECT hide_read, mark_read_on_scroll FROM reader_preferences WHERE reader_id = :reader_id";
constexpr const char* kSelectNewsletterCategories =
    "SELECT category FROM reader_newsletter_categories WHERE reader_id = :reader_id ORDER BY category";
constexpr const char* kUpsertPreferences =
    "INSERT INTO reader_preferences (reader_id, hide_read, mark_read_on_scroll) VALUES (:reader_id, "
    ":hide_read, :mark_read_on_scroll) ON CONFLICT (reader_id) DO UPDATE SET hide_read = "
    "excluded.hide_read, mark_read_on_scroll = excluded.mark_read_on_scroll";
constexpr const char* kClearNewsletterCategories =
    "DELETE FROM reader_newsletter_categories WHERE reader_id = :reader_id";
constexpr const char* kInsertNewsletterCategory =
    "INSERT INTO reader_newsletter_categories (reader_id, category) VALUES (:reader_id, :category)"
    " ON CONFLICT DO NOTHING";

// Emails are matched case-insensitively (ASCII lower-casing), as on SQLite.
std::string email_key(std::string_view email) {
  std::string key(email);
  for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return key;
}

ReaderAccount read_reader(const Rows& rows, int r) {
  return ReaderAccount{.id = rows.int64(r, 0),
                       .email = rows.string(r, 1),
                       .password_hash = rows.string(r, 2),
                       .created_at = rows.time(r, 3),
                       .confirmed_at = rows.optional_time(r, 4),
                       .is_operator = rows.flag(r, 5)};
}

std::unexpected<Error> no_such_reader() {
  return fail(ErrorKind::kNotFound, "store: no such reader");
}

// One mute or un-mute of `key` (bound as `key_name` in every statement) in a transaction: `not_found` with
// nothing stored when `exists_sql` finds no such blog or category.
template <typename Key>
Result<bool> set_muted(Database& db, const char* exists_sql, const char* mute_sql, const char* unmute_sql,
                       const char* key_name, const Key& key, std::int64_t reader_id, bool muted,
                       TimePoint now, std::string_view what, const Error& not_found) {
  const std::string failed = fmt::format("cannot mute {}", what);
  bool changed = false;
  auto done = in_transaction(db.pool(), [&](Connection& c) -> Result<void> {
    changed = false;
    auto known = run_query(c, exists_sql, failed, [&](Query& q) { q.bind(key_name, key); });
    if (!known) return std::unexpected(known.error());
    if (known->empty()) return std::unexpected(not_found);
    auto rows = run_query(c, muted ? mute_sql : unmute_sql, failed, [&](Query& q) {
      q.bind(":reader_id", reader_id).bind(key_name, key);
      if (muted) q.bind(":now", now);
    });
    if (!rows) return std::unexpected(rows.error());
    changed = rows->affected() > 0;
    return {};
  });
  if (!done) return std::unexpected(done.error());
  return changed;
}

}  // namespace

// ---------------------------------------------------------------------------- accounts and sessions

Result<std::int64_t> PgReaderStore::create_reader(std::string_view email, std::string_view password_hash,
                                                  TimePoint now, std::optional<TimePoint> confirmed_at) {
  auto rows = run_pooled(db_.pool(), kInsertReader, "cannot create reader", [&](Query& q) {
    q.bind(":email", email).bind(":email_key", email_key(email)).bind(":password_hash", password_hash);
    q.bind(":created_at", now).bind(":confirmed_at", confirmed_at);
  });
  if (!rows) return std::unexpected(rows.error());
  if (rows->empty()) return fail(ErrorKind::kConflict, "store: reader email taken");
  return rows->int64(0, 0);
}

Result<std::optional<ReaderAccount>> PgReaderStore::reader_by_email(std::string_view email) {
  auto rows = run_pooled(db_.pool(), kSelectReaderByEmail, "cannot read reader",
                         [&](Query& q) { q.bind(":email_key", email_key(email)); });
  if (!rows) return std::unexpected(rows.error());
  if (rows->empty()) return std::optional<ReaderAccount>{};
  return std::optional<ReaderAccount>{read_reader(*rows, 0)};
}

Result<std::vector<ReaderAccount>> PgReaderStore::readers() {
  auto rows = run_pooled(db_.pool(), kSelectReaders, "cannot list readers", [](Query&) {});
  if (!rows) return std::unexpected(rows.error());
  std::vector<ReaderAccount> out;
  for (int r = 0; r < rows->size(); ++r) out.push_back(read_reader(*rows, r));
  return out;
}

Result<void> PgReaderStore::set_reader_password(std::int64_t reader_id, std::string_view password_hash,
                                                std::optional<TimePoint> confirm_at) {
  auto rows = run_pooled(db_.pool(), kSetReaderPassword, "cannot set password", [&](Query& q) {
    q.bind(":id", reader_id).bind(":password_hash", password_hash).bind(":confirm_at", confirm_at);
  });
  if (!rows) return std::unexpected(rows.error());
  if (rows->affected() == 0) return no_such_reader();
  return {};
}

Result<void> PgReaderStore::confirm_reader(std::int64_t reader_id, TimePoint now) {
  auto rows = run_pooled(db_.pool(), kConfirmReader, "cannot confirm reader",
                         [&](Query& q) { q.bind(":id", reader_id).bind(":now", now); });
  if (!rows) return std::unexpected(rows.error());
  if (rows->affected() == 0) return no_such_reader();
  return {};
}

Result<void> PgReaderStore::delete_reader(std::int64_t reader_id) {
  return in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
    auto bind = [&](Query& q) { q.bind(":reader_id", reader_id); };
    auto locked = run_query(c, kLockReader, "cannot delete reader", bind);
    if (!locked) return std::unexpected(locked.error());
    if (locked->empty()) return no_such_reader();  // rolled back
    for (const char* sql : {kWithdrawReaderVotes, kDeleteReader}) {
      if (auto ok = run_query(c, sql, "cannot delete reader", bind); !ok) return std::unexpected(ok.error());
    }
    return {};
  });
}

Result<int> PgReaderStore::delete_reader_sessions(std::int64_t reader_id) {
  auto rows = run_pooled(db_.pool(), kDeleteReaderSessions, "cannot delete sessions",
                         [&](Query& q) { q.bind(":reader_id", reader_id); });
  if (!rows) return std::unexpected(rows.error());
  return static_cast<int>(rows->affected());
}

Result<void> PgReaderStore::create_session(const SessionRecord& session) {
  auto rows = run_pooled(db_.pool(), kInsertSession, "cannot create session", [&](Query& q) {
    q.bind(":token_hash", session.token_hash).bind(":reader_id", session.reader_id);
    q.bind(":created_at", session.created_at).bind(":expires_at", session.expires_at);
  });
  if (!rows) return std::unexpected(rows.error());
  return {};
}

Result<std::optional<SessionReader>> PgReaderStore::session_reader(std::string_view token_hash,
                                                                   TimePoint now) {
  auto rows = run_pooled(db_.pool(), kSelectSessionReader, "cannot read session",
                         [&](Query& q) { q.bind(":token_hash", token_hash).bind(":now", now); });
  if (!rows) return std::unexpected(rows.error());
  if (rows->empty()) return std::optional<SessionReader>{};
  return std::optional<SessionReader>{SessionReader{.reader_id = rows->int64(0, 0),
                                                    .email = rows->string(0, 1),
                                                    .expires_at = rows->time(0, 2),
                                                    .is_operator = rows->flag(0, 3)}};
}

Result<void> PgReaderStore::delete_session(std::string_view token_hash) {
  auto rows = run_pooled(db_.pool(), kDeleteSession, "cannot delete session",
                         [&](Query& q) { q.bind(":token_hash", token_hash); });
  if (!rows) return std::unexpected(rows.error());
  return {};
}

Result<int> PgReaderStore::delete_expired_sessions(TimePoint now) {
  auto rows = run_pooled(db_.pool(), kDeleteExpiredSessions, "cannot delete sessions",
                         [&](Query& q) { q.bind(":now", now); });
  if (!rows) return std::unexpected(rows.error());
  return static_cast<int>(rows->affected());
}

Result<void> PgReaderStore::set_reader_operator(std::string_view email, bool is_operator) {
  auto rows = run_pooled(db_.pool(), kSetReaderOperator, "cannot change reader role", [&](Query& q) {
    q.bind(":operator", is_operator).bind(":email_key", email_key(email));
  });
  if (!rows) return std::unexpected(rows.error());
  if (rows->affected() == 0) return no_such_reader();
  return {};
}

// ---------------------------------------------------------------------------- feed apps

Result<std::int64_t> PgReaderStore::add_app_password(std::int64_t reader_id, std::string_view name,
                                                     std::string_view password_hash, TimePoint now) {
  constexpr std::string_view kWhat = "cannot add app password";
  std::int64_t id = 0;
  auto done = in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
    id = 0;
    auto bind_reader = [&](Query& q) { q.bind(":reader_id", reader_id); };
    if (auto locked = run_query(c, kLockReader, kWhat, bind_reader); !locked)
      return std::unexpected(locked.error());
    auto count = run_query(c, kCountAppPasswords, kWhat, bind_reader);
    if (!count) return std::unexpected(count.error());
    if (count->int64(0, 0) >= kMaxAppPasswords)
      return fail(ErrorKind::kConflict, "store: too many app passwords",
                  fmt::format("You have {} app passwords, the most there can be: revoke one first.",
                              kMaxAppPasswords));
    auto rows = run_query(c, kInsertAppPassword, kWhat, [&](Query& q) {
      q.bind(":reader_id", reader_id).bind(":name", name).bind(":hash", password_hash).bind(":now", now);
    });
    if (!rows) return std::unexpected(rows.error());
    id = rows->int64(0, 0);
    return {};
  });
  if (!done) return std::unexpected(done.error());
  return id;
}

Result<std::vector<AppPassword>> PgReaderStore::app_passwords(std::int64_t reader_id) {
  auto rows = run_pooled(db_.pool(), kSelectAppPasswords, "cannot read app passwords",
                         [&](Query& q) { q.bind(":reader_id", reader_id); });
  if (!rows) return std::unexpected(rows.error());
  std::vector<AppPassword> out;
  for (int r = 0; r < rows->size(); ++r) {
    out.push_back({.id = rows->int64(r, 0),
                   .name = rows->string(r, 1),
                   .password_hash = rows->string(r, 2),
                   .created_at = rows->time(r, 3),
                   .last_used_at = rows->optional_time(r, 4)});
  }
  return out;
}

Result<void> PgReaderStore::revoke_app_password(std::int64_t reader_id, std::int64_t app_password_id) {
  auto rows = run_pooled(db_.pool(), kDeleteAppPassword, "cannot revoke app password",
                         [&](Query& q) { q.bind(":reader_id", reader_id).bind(":id", app_password_id); });
  if (!rows) return std::unexpected(rows.error());
  if (rows->affected() == 0)
    return fail(ErrorKind::kNotFound, fmt::format("store: no app password {}", app_password_id),
                "No such app password.");
  return {};
}

Result<void> PgReaderStore::add_api_token(const ApiTokenRecord& token) {
  constexpr std::string_view kWhat = "cannot add API token";
  return in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
    if (auto ok =
            run_query(c, kDeleteExpiredTokens, kWhat, [&](Query& q) { q.bind(":now", token.created_at); });
        !ok)
      return std::unexpected(ok.error());
    auto rows = run_query(c, kInsertToken, kWhat, [&](Query& q) {
      q.bind(":hash", token.token_hash)
          .bind(":now", token.created_at)
          .bind(":expires", token.expires_at)
          .bind(":app_password_id", token.app_password_id)
          .bind(":reader_id", token.reader_id);
    });
    if (!rows) return std::unexpected(rows.error());
    if (rows->affected() == 0)
      return fail(ErrorKind::kNotFound, "store: the app password is gone", "That app password was revoked.");
    if (auto ok =
            run_query(c, kNoteAppPasswordUse, kWhat,
                      [&](Query& q) { q.bind(":now", token.created_at).bind(":id", token.app_password_id); });
        !ok)
      return std::unexpected(ok.error());
    return {};
  });
}

Result<std::optional<std::int64_t>> PgReaderStore::api_token_reader(std::string_view token_hash,
                                                                    TimePoint now) {
  auto rows = run_pooled(db_.pool(), kSelectTokenReader, "cannot read API token",
                         [&](Query& q) { q.bind(":hash", token_hash).bind(":now", now); });
  if (!rows) return std::unexpected(rows.error());
  if (rows->empty()) return std::optional<std::int64_t>{};
  return std::optional<std::int64_t>{rows->int64(0, 0)};
}

// ---------------------------------------------------------------------------- personal filters

Result<bool> PgReaderStore::set_blog_muted(std::int64_t reader_id, std::int64_t blog_id, bool muted,
                                           TimePoint now) {
  return set_muted(db_, kBlogExists, kMuteBlog, kUnmuteBlog, ":blog_id", blog_id, reader_id, muted, now,
                   "blog",
                   Error(ErrorKind::kNotFound, fmt::format("store: no blog {}", blog_id), "No such blog."));
}

Result<bool> PgReaderStore::set_category_muted(std::int64_t reader_id, std::string_view category, bool muted,
                                               TimePoint now) {
  return set_muted(
      db_, kCategoryExists, kMuteCategory, kUnmuteCategory, ":category", category, reader_id, muted, now,
      "category",
      Error(ErrorKind::kNotFound, fmt::format("store: no category \"{}\"", category), "No such category."));
}

Result<ReaderMutes> PgReaderStore::reader_mutes(std::int64_t reader_id) {
  ReaderMutes out;
  auto lease = db_.pool().acquire();
  auto bind = [&](Query& q) { q.bind(":reader_id", reader_id); };
  auto blogs = run_query(*lease, kSelectMutedBlogs, "cannot read mutes", bind);
  if (!blogs) return std::unexpected(blogs.error());
  for (int r = 0; r < blogs->size(); ++r) {
    out.blogs.push_back({.blog_id = blogs->int64(r, 0),
                         .title = blogs->string(r, 1),
                         .site_url = blogs->string(r, 2),
                         .muted_at = blogs->time(r, 3)});
  }
  auto categories = run_query(*lease, kSelectMutedCategories, "cannot read mutes", bind);
  if (!categories) return std::unexpected(categories.error());
  for (int r = 0; r < categories->size(); ++r) {
    out.categories.push_back({.slug = categories->string(r, 0),
                              .name = categories->string(r, 1),
                              .muted_at = categories->time(r, 2)});
  }
  return out;
}

Result<ReaderPreferences> PgReaderStore::reader_preferences(std::int64_t reader_id) {
  ReaderPreferences out;
  auto lease = db_.pool().acquire();
  auto bind = [&](Query& q) { q.bind(":reader_id", reader_id); };
  auto prefs = run_query(*lease, kSelectPreferences, "cannot read preferences", bind);
  if (!prefs) return std::unexpected(prefs.error());
  if (!prefs->empty()) {
    out.hide_read = prefs->flag(0, 0);
    out.mark_read_on_scroll = prefs->flag(0, 1);
  }
  auto categories = run_query(*lease, kSelectNewsletterCategories, "cannot read preferences", bind);
  if (!categories) return std::unexpected(categories.error());
  for (int r = 0; r < categories->size(); ++r) out.newsletter_categories.push_back(categories->string(r, 0));
  return out;
}

Result<void> PgReaderStore::set_reader_preferences(std::int64_t reader_id,
                                                   const ReaderPreferences& preferences) {
  constexpr std::string_view kWhat = "cannot save preferences";
  return in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
    for (const std::string& slug : preferences.newsletter_categories) {
      auto known = run_query(c, kCategoryExists, kWhat, [&](Query& q) { q.bind(":category", slug); });
      if (!known) return std::unexpected(known.error());
      if (known->empty())
        return fail(ErrorKind::kNotFound, fmt::format("store: no category \"{}\"", slug),
                    "No such category.");
    }
    auto bind_reader = [&](Query& q) { q.bind(":reader_id", reader_id); };
    if (auto ok = run_query(c, kUpsertPreferences, kWhat,
                            [&](Query& q) {
                              q.bind(":reader_id", reader_id)
                                  .bind(":hide_read", preferences.hide_read)
                                  .bind(":mark_read_on_scroll", preferences.mark_read_on_scroll);
                            });
        !ok)
      return std::unexpected(ok.error());
    if (auto ok = run_query(c, kClearNewsletterCategories, kWhat, bind_reader); !ok)
      return std::unexpected(ok.error());
    for (const std::string& slug : preferences.newsletter_categories) {
      if (auto ok = run_query(c, kInsertNewsletterCategory, kWhat,
                              [&](Query& q) { q.bind(":reader_id", reader_id).bind(":category", slug); });
          !ok)
        return std::unexpected(ok.error());
    }
    return {};
  });
}

}  // namespace longread::storage::postgres
