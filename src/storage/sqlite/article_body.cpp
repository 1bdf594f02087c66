#include "storage/sqlite/article_body.h"

#include <sqlite3.h>

#include <map>
#include <mutex>
#include <vector>

#include <fmt/core.h>

namespace longread::storage::sqlite {
namespace {

// Its id only: a compression needs the dictionary itself once, when its context is made.
constexpr const char* kSelectNewestDictionary =
    "SELECT dict_id, NULL FROM body_dictionaries ORDER BY seq DESC LIMIT 1";
constexpr const char* kSelectDictionary = "SELECT dict FROM body_dictionaries WHERE dict_id = ?1";
constexpr const char* kInsertDictionary =
    "INSERT INTO body_dictionaries (dict_id, created_at, samples, dict) VALUES (?1, ?2, ?3, ?4)";
// The newest articles' bodies, whichever form they are stored in (decoded here, so that one unreadable
// body is skipped instead of failing the training).
constexpr const char* kSelectSamples =
    "SELECT body, summary_html, content_html, text, excerpt FROM articles ORDER BY id DESC LIMIT ?1";

std::unexpected<Error> body_error(std::string_view what) {
  return fail(ErrorKind::kStorage, fmt::format("store: {}", what));
}

// Reads one blob column of a one-row query; nullopt when there is no row.
Result<std::optional<std::pair<std::uint32_t, std::string>>> read_dictionary(sqlite3* db, const char* sql,
                                                                             std::uint32_t id) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) != SQLITE_OK)
    return body_error(fmt::format("cannot read body dictionary: {}", sqlite3_errmsg(db)));
  std::unique_ptr<sqlite3_stmt, decltype(&sqlite3_finalize)> guard(stmt, &sqlite3_finalize);
  if (sqlite3_bind_parameter_count(stmt) > 0) sqlite3_bind_int64(stmt, 1, id);
  const int rc = sqlite3_step(stmt);
  if (rc == SQLITE_DONE) return std::optional<std::pair<std::uint32_t, std::string>>{};
  if (rc != SQLITE_ROW) return body_error(fmt::format("cannot read body dictionary: {}", sqlite3_errmsg(db)));
  const int blob_column = sqlite3_column_count(stmt) - 1;
  const std::uint32_t found =
      blob_column > 0 ? static_cast<std::uint32_t>(sqlite3_column_int64(stmt, 0)) : id;
  const auto* bytes = static_cast<const char*>(sqlite3_column_blob(stmt, blob_column));
  std::string dict(bytes ? bytes : "", static_cast<std::size_t>(sqlite3_column_bytes(stmt, blob_column)));
  return std::optional<std::pair<std::uint32_t, std::string>>{std::pair{found, std::move(dict)}};
}

}  // namespace

Result<std::uint32_t> SqliteBodyDictionaries::newest_id() const {
  auto row = read_dictionary(db_, kSelectNewestDictionary, 0);
  if (!row) return std::unexpected(row.error());
  return *row ? (*row)->first : 0u;
}

Result<std::optional<std::string>> SqliteBodyDictionaries::dictionary(std::uint32_t id) const {
  auto row = read_dictionary(db_, kSelectDictionary, id);
  if (!row) return std::unexpected(row.error());
  if (!*row) return std::optional<std::string>{};
  return std::optional<std::string>{std::move((*row)->second)};
}

namespace {

// Per connection: the shared dictionaries, and the last body decoded, because one statement usually asks
// for several parts of the same row (the article page reads all three, an update compares two).
struct ConnectionBodies {
  std::shared_ptr<BodyDictionaries> dictionaries;
  std::string last_frame;
  ArticleBody last_body;
};

std::string_view value_bytes(sqlite3_value* v) {
  const auto* bytes = static_cast<const char*>(sqlite3_value_blob(v));
  return {bytes ? bytes : "", static_cast<std::size_t>(sqlite3_value_bytes(v))};
}

// Part argv[1] of the body argv[0] (argv[2], the plain column, for a row not yet converted). A body that
// cannot be read is an SQL error, or "" when `empty_on_error`.
void result_body_part(sqlite3_context* context, sqlite3_value** argv, const char* function,
                      bool empty_on_error) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
    sqlite3_result_value(context, argv[2]);
    return;
  }
  const sqlite3_int64 part = sqlite3_value_int64(argv[1]);
  if (part < 0 || part > 3) {
    const std::string message = fmt::format("store: {}: the part is 0, 1, 2 or 3", function);
    sqlite3_result_error(context, message.c_str(), -1);
    return;
  }
  auto* bodies = static_cast<ConnectionBodies*>(sqlite3_user_data(context));
  const std::string_view frame = value_bytes(argv[0]);
  if (frame != bodies->last_frame || bodies->last_frame.empty()) {
    auto body =
        bodies->dictionaries->unpack(SqliteBodyDictionaries(sqlite3_context_db_handle(context)), frame);
    if (!body) {
      bodies->last_frame.clear();
      if (empty_on_error) {
        sqlite3_result_text(context, "", 0, SQLITE_STATIC);
      } else {
        sqlite3_result_error(context, body.error().message.c_str(), -1);
      }
      return;
    }
    bodies->last_frame = std::string(frame);
    bodies->last_body = std::move(*body);
  }
  const std::string& out = part == 0   ? bodies->last_body.summary_html
                           : part == 1 ? bodies->last_body.content_html
                           : part == 2 ? bodies->last_body.text
                                       : bodies->last_body.excerpt;
  sqlite3_result_text64(context, out.data(), out.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
}

void body_part(sqlite3_context* context, int /*argc*/, sqlite3_value** argv) {
  result_body_part(context, argv, "longread_body_part", false);
}

// The same as body_part, but "" for a body that cannot be read: for listings (the excerpt) and the search
// index's view (snippets), where one bad row must not fail a whole page. The article's own page, the
// triggers and the converter use body_part and report the error.
void body_part_or_empty(sqlite3_context* context, int /*argc*/, sqlite3_value** argv) {
  result_body_part(context, argv, "longread_body_part_or_empty", true);
}

void body_pack(sqlite3_context* context, int /*argc*/, sqlite3_value** argv) {
  auto text = [&](int i) {
    const auto* bytes = reinterpret_cast<const char*>(sqlite3_value_text(argv[i]));
    return std::string_view(bytes ? bytes : "", static_cast<std::size_t>(sqlite3_value_bytes(argv[i])));
  };
  const ArticleBodyView body{
      .summary_html = text(0), .content_html = text(1), .text = text(2), .excerpt = text(3)};
  if (body.empty()) {
    sqlite3_result_null(context);
    return;
  }
  auto* bodies = static_cast<ConnectionBodies*>(sqlite3_user_data(context));
  auto frame = bodies->dictionaries->pack(SqliteBodyDictionaries(sqlite3_context_db_handle(context)), body);
  if (!frame) {
    sqlite3_result_error(context, frame.error().message.c_str(), -1);
    return;
  }
  sqlite3_result_blob64(context, frame->data(), frame->size(), SQLITE_TRANSIENT);
}

void body_dictionary(sqlite3_context* context, int /*argc*/, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
    sqlite3_result_null(context);
    return;
  }
  // -1 for a frame whose header is unreadable: never the newest dictionary's id, so the converter tries it
  // (and reports it) instead of passing it by as up to date.
  const std::string_view frame = value_bytes(argv[0]);
  if (!body_frame_header_readable(frame)) {
    sqlite3_result_int64(context, -1);
    return;
  }
  sqlite3_result_int64(context, body_dictionary_id(frame));
}

}  // namespace

std::string register_body_functions(sqlite3* db, std::shared_ptr<BodyDictionaries> dictionaries) {
  auto* bodies =
      new ConnectionBodies{.dictionaries = std::move(dictionaries), .last_frame = {}, .last_body = {}};
  // longread_body_part is deterministic and innocuous (it reads only its arguments and the dictionary table),
  // which SQLite requires of functions used in views and triggers when trusted_schema is off
  // (https://sqlite.org/c3ref/c_deterministic.html). The destructor runs when the connection closes.
  if (sqlite3_create_function_v2(db, "longread_body_part", 3,
                                 SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, bodies, body_part,
                                 nullptr, nullptr,
                                 [](void* p) { delete static_cast<ConnectionBodies*>(p); }) != SQLITE_OK)
    return sqlite3_errmsg(db);
  if (sqlite3_create_function_v2(db, "longread_body_part_or_empty", 3,
                                 SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, bodies,
                                 body_part_or_empty, nullptr, nullptr, nullptr) != SQLITE_OK)
    return sqlite3_errmsg(db);
  if (sqlite3_create_function_v2(db, "longread_body_pack", 4, SQLITE_UTF8, bodies, body_pack, nullptr,
                                 nullptr, nullptr) != SQLITE_OK)
    return sqlite3_errmsg(db);
  if (sqlite3_create_function_v2(db, "longread_body_dictionary", 1,
                                 SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, nullptr,
                                 body_dictionary, nullptr, nullptr, nullptr) != SQLITE_OK)
    return sqlite3_errmsg(db);
  return "";
}

Result<std::optional<std::uint32_t>> train_body_dictionary(sqlite3* db, BodyDictionaries& dictionaries,
                                                           int samples, std::int64_t now) {
  BodyDictionaryTrainer trainer;
  {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db, kSelectSamples, -1, &stmt, nullptr) != SQLITE_OK)
      return body_error(fmt::format("cannot train body dictionary: {}", sqlite3_errmsg(db)));
    std::unique_ptr<sqlite3_stmt, decltype(&sqlite3_finalize)> guard(stmt, &sqlite3_finalize);
    sqlite3_bind_int(stmt, 1, samples);
    const SqliteBodyDictionaries source(db);
    int rc = SQLITE_OK;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      auto col = [&](int i) {
        const auto* bytes = reinterpret_cast<const char*>(sqlite3_column_text(stmt, i));
        return std::string(bytes ? bytes : "", static_cast<std::size_t>(sqlite3_column_bytes(stmt, i)));
      };
      ArticleBody body{.summary_html = col(1), .content_html = col(2), .text = col(3), .excerpt = col(4)};
      if (sqlite3_column_type(stmt, 0) != SQLITE_NULL) {
        const auto* bytes = static_cast<const char*>(sqlite3_column_blob(stmt, 0));
        auto unpacked = dictionaries.unpack(
            source,
            std::string_view(bytes ? bytes : "", static_cast<std::size_t>(sqlite3_column_bytes(stmt, 0))));
        if (!unpacked) continue;
        body = std::move(*unpacked);
      }
      if (body.content_html.empty() && body.text.empty()) continue;  // pruned
      trainer.add(body.view());
    }
    if (rc != SQLITE_DONE)
      return body_error(fmt::format("cannot train body dictionary: {}", sqlite3_errmsg(db)));
  }
  auto trained = trainer.train();
  if (!trained) return std::unexpected(trained.error());
  if (!*trained) return std::optional<std::uint32_t>{};
  const auto& [id, dict] = **trained;
  // A clash of ids is refused by the table's UNIQUE column.
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, kInsertDictionary, -1, &stmt, nullptr) != SQLITE_OK)
    return body_error(fmt::format("cannot store body dictionary: {}", sqlite3_errmsg(db)));
  std::unique_ptr<sqlite3_stmt, decltype(&sqlite3_finalize)> guard(stmt, &sqlite3_finalize);
  sqlite3_bind_int64(stmt, 1, id);
  sqlite3_bind_int64(stmt, 2, now);
  sqlite3_bind_int64(stmt, 3, static_cast<sqlite3_int64>(trainer.samples()));
  sqlite3_bind_blob64(stmt, 4, dict.data(), dict.size(), SQLITE_TRANSIENT);
  if (sqlite3_step(stmt) != SQLITE_DONE)
    return body_error(fmt::format("cannot store body dictionary: {}", sqlite3_errmsg(db)));
  return std::optional<std::uint32_t>{id};
}

}  // namespace longread::storage::sqlite
