// The SQLite side of ReaderStore: accounts and sessions; feed apps (reader_api.cpp) and personal filters
// (personal_filters.cpp) through the writer or a pooled reader.
#include "storage/sqlite/sqlite_store.h"

#include <optional>
#include <vector>

#include "storage/sqlite/personal_filters.h"
#include "storage/sqlite/query_helpers.h"
#include "storage/sqlite/reader_api.h"

namespace longread::storage::sqlite {
namespace {

constexpr const char* kInsertReader =
    "INSERT INTO readers (email, email_key, password_hash, created_at, confirmed_at)"
    " VALUES (:email, :email_key, :password_hash, :created_at, :confirmed_at)"
    " ON CONFLICT (email_key) DO NOTHING";
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
constexpr const char* kWithdrawReaderVotes =
    "UPDATE articles SET votes = votes - 1"
    " WHERE id IN (SELECT article_id FROM votes WHERE reader_id = :reader_id)";
// Sessions, votes and the reading list go with it (ON DELETE CASCADE, migration 0005).
constexpr const char* kDeleteReader = "DELETE FROM readers WHERE id = :reader_id";
constexpr const char* kInsertSession =
    "INSERT INTO sessions (token_hash, reader_id, created_at, expires_at)"
    " VALUES (:token_hash, :reader_id, :created_at, :expires_at)";
constexpr const char* kSelectSessionReader =
    "SELECT r.id, r.email, s.expires_at, r.operator FROM sessions s JOIN readers r ON r.id = s.reader_id"
    " WHERE s.token_hash = :token_hash AND s.expires_at > :now";
constexpr const char* kDeleteSession = "DELETE FROM sessions WHERE token_hash = :token_hash";
constexpr const char* kDeleteExpiredSessions = "DELETE FROM sessions WHERE expires_at <= :now";

ReaderAccount read_reader(const Query& q) {
  return ReaderAccount{.id = q.int64(0),
                       .email = q.text(1),
                       .password_hash = q.text(2),
                       .created_at = from_unix(q.int64(3)),
                       .confirmed_at = optional_time(q, 4),
                       .is_operator = q.int64(5) != 0};
}

constexpr std::string_view kDeleteSessionsFailed = "cannot delete sessions";

// A write to one reader's row: done, or there is no such reader.
Result<void> one_reader(const Result<bool>& changed) {
  if (!changed) return std::unexpected(changed.error());
  if (!*changed) return fail(ErrorKind::kNotFound, "store: no such reader");
  return {};
}

}  // namespace

Result<std::int64_t> SqliteStore::create_reader(std::string_view email, std::string_view password_hash,
                                                TimePoint now, std::optional<TimePoint> confirmed_at) {
  return with_writer([&](Connection& db) -> Result<std::int64_t> {
    auto inserted = run_changes(db, kInsertReader, "cannot create reader", [&](Query& q) {
      q.bind(":email", email).bind(":email_key", email_key(email)).bind(":password_hash", password_hash);
      q.bind(":created_at", to_unix(now));
      q.bind(":confirmed_at", optional_unix(confirmed_at));
    });
    if (!inserted) return std::unexpected(inserted.error());
    if (*inserted == 0) return fail(ErrorKind::kConflict, "store: reader email taken");
    return db.last_insert_rowid();
  });
}

Result<std::optional<ReaderAccount>> SqliteStore::reader_by_email(std::string_view email) {
  return with_reader([&](Connection& db) {
    return read_optional(
        db, kSelectReaderByEmail, "cannot read reader",
        [&](Query& q) { q.bind(":email_key", email_key(email)); }, read_reader);
  });
}

Result<std::vector<ReaderAccount>> SqliteStore::readers() {
  return with_reader([](Connection& db) {
    return read_rows(
        db, kSelectReaders, "cannot list readers", [](Query&) {}, read_reader);
  });
}

Result<void> SqliteStore::set_reader_password(std::int64_t reader_id, std::string_view password_hash,
                                              std::optional<TimePoint> confirm_at) {
  return one_reader(write_changes(kSetReaderPassword, "cannot set password", [&](Query& q) {
    q.bind(":id", reader_id).bind(":password_hash", password_hash);
    q.bind(":confirm_at", optional_unix(confirm_at));
  }));
}

Result<void> SqliteStore::confirm_reader(std::int64_t reader_id, TimePoint now) {
  return one_reader(write_changes(kConfirmReader, "cannot confirm reader",
                                  [&](Query& q) { q.bind(":id", reader_id).bind(":now", to_unix(now)); }));
}

Result<void> SqliteStore::delete_reader(std::int64_t reader_id) {
  constexpr std::string_view kFailed = "cannot delete reader";
  return in_write_transaction(kFailed, [&](Connection& db) -> Result<void> {
    for (const char* sql : {kWithdrawReaderVotes, kDeleteReader}) {
      if (auto ok = run(db, sql, kFailed, [&](Query& q) { q.bind(":reader_id", reader_id); }); !ok) return ok;
    }
    if (db.changes() == 0) return fail(ErrorKind::kNotFound, "store: no such reader");  // rolled back
    return {};
  });
}

Result<int> SqliteStore::delete_reader_sessions(std::int64_t reader_id) {
  return with_writer([&](Connection& db) {
    return run_changes(db, kDeleteReaderSessions, kDeleteSessionsFailed,
                       [&](Query& q) { q.bind(":reader_id", reader_id); });
  });
}

Result<void> SqliteStore::create_session(const SessionRecord& session) {
  return write_one(kInsertSession, "cannot create session", [&](Query& q) {
    q.bind(":token_hash", session.token_hash).bind(":reader_id", session.reader_id);
    q.bind(":created_at", to_unix(session.created_at)).bind(":expires_at", to_unix(session.expires_at));
  });
}

Result<std::optional<SessionReader>> SqliteStore::session_reader(std::string_view token_hash, TimePoint now) {
  return with_reader([&](Connection& db) {
    return read_optional(
        db, kSelectSessionReader, "cannot read session",
        [&](Query& q) { q.bind(":token_hash", token_hash).bind(":now", to_unix(now)); },
        [](const Query& q) {
          return SessionReader{.reader_id = q.int64(0),
                               .email = q.text(1),
                               .expires_at = from_unix(q.int64(2)),
                               .is_operator = q.int64(3) != 0};
        });
  });
}

Result<void> SqliteStore::delete_session(std::string_view token_hash) {
  return write_one(kDeleteSession, "cannot delete session",
                   [&](Query& q) { q.bind(":token_hash", token_hash); });
}

Result<int> SqliteStore::delete_expired_sessions(TimePoint now) {
  return with_writer([&](Connection& db) {
    return run_changes(db, kDeleteExpiredSessions, kDeleteSessionsFailed,
                       [&](Query& q) { q.bind(":now", to_unix(now)); });
  });
}

Result<void> SqliteStore::set_reader_operator(std::string_view email, bool is_operator) {
  return one_reader(write_changes(kSetReaderOperator, "cannot change reader role", [&](Query& q) {
    q.bind(":operator", is_operator).bind(":email_key", email_key(email));
  }));
}

// --- feed apps (reader_api.cpp)
Result<std::int64_t> SqliteStore::add_app_password(std::int64_t reader_id, std::string_view name,
                                                   std::string_view password_hash, TimePoint now) {
  return with_writer(
      [&](Connection& db) { return sqlite::add_app_password(db, reader_id, name, password_hash, now); });
}

Result<std::vector<AppPassword>> SqliteStore::app_passwords(std::int64_t reader_id) {
  return with_reader([&](Connection& db) { return sqlite::app_passwords(db, reader_id); });
}

Result<void> SqliteStore::revoke_app_password(std::int64_t reader_id, std::int64_t app_password_id) {
  return with_writer(
      [&](Connection& db) { return sqlite::revoke_app_password(db, reader_id, app_password_id); });
}

Result<void> SqliteStore::add_api_token(const ApiTokenRecord& token) {
  return with_writer([&](Connection& db) { return sqlite::add_api_token(db, token); });
}

Result<std::optional<std::int64_t>> SqliteStore::api_token_reader(std::string_view token_hash,
                                                                  TimePoint now) {
  return with_reader([&](Connection& db) { return sqlite::api_token_reader(db, token_hash, now); });
}

Result<bool> SqliteStore::set_blog_muted(std::int64_t reader_id, std::int64_t blog_id, bool muted,
                                         TimePoint now) {
  return with_writer(
      [&](Connection& db) { return sqlite::set_blog_muted(db, reader_id, blog_id, muted, now); });
}

Result<bool> SqliteStore::set_category_muted(std::int64_t reader_id, std::string_view category, bool muted,
                                             TimePoint now) {
  return with_writer(
      [&](Connection& db) { return sqlite::set_category_muted(db, reader_id, category, muted, now); });
}

Result<ReaderMutes> SqliteStore::reader_mutes(std::int64_t reader_id) {
  return with_reader([&](Connection& db) { return sqlite::reader_mutes(db, reader_id); });
}

Result<ReaderPreferences> SqliteStore::reader_preferences(std::int64_t reader_id) {
  return with_reader([&](Connection& db) { return sqlite::reader_preferences(db, reader_id); });
}

Result<void> SqliteStore::set_reader_preferences(std::int64_t reader_id,
                                                 const ReaderPreferences& preferences) {
  return with_writer(
      [&](Connection& db) { return sqlite::set_reader_preferences(db, reader_id, preferences); });
}

}  // namespace longread::storage::sqlite
