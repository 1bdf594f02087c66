// `db copy` on real databases: a SQLite site made through the SQLite store (every kind of row a site keeps,
// article bodies in both the compressed and the plain form, a duplicate pointing to a later article) is
// copied into a fresh database of the test PostgreSQL (testing/postgres_server.h) and every row of every
// table is compared; a second copy adds nothing; a copy stopped midway completes when run again; a changed
// row is reported; bad arguments are refused with a clear message.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "storage/copy/db_copy.h"
#include "storage/copy/pg_tables.h"
#include "storage/postgres/database.h"
#include "storage/postgres/pg.h"
#include "storage/postgres/search_vectors.h"
#include "storage/sqlite/article_body.h"
#include "storage/store.h"
#include "testing/postgres_database.h"
#include "testing/test_dir.h"

// Fails the test with the store's message.
#define ASSERT_OK(expr)                                               \
  do {                                                                \
    auto result_ = (expr);                                            \
    ASSERT_TRUE(result_) << #expr << ": " << result_.error().message; \
  } while (0)

namespace longread::storage {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

constexpr int kBlogs = 3;
constexpr int kArticlesPerBlog = 30;
// Every table a site keeps rows in that the site below fills.
const std::set<std::string> kFilledTables = {"categories",
                                             "blogs",
                                             "articles",
                                             "readers",
                                             "sessions",
                                             "votes",
                                             "vote_periods",
                                             "reading_list",
                                             "article_reads",
                                             "saved_links",
                                             "subscribers",
                                             "newsletter_issues",
                                             "newsletter_deliveries",
                                             "secrets",
                                             "mail_outbox",
                                             "admin_audit",
                                             "blog_suggestions",
                                             "blog_suggestion_posts",
                                             "article_flags",
                                             "app_passwords",
                                             "api_tokens",
                                             "similar_postings",
                                             "similar_articles",
                                             "similar_queue",
                                             "reader_mutes",
                                             "reader_preferences",
                                             "rate_attempts",
                                             "process_locks"};

TimePoint at(std::int64_t unix_seconds) {
  return from_unix(unix_seconds);
}

std::string words(int seed, int n) {
  static const char* const kWords[] = {"compiler", "kernel",  "garden", "river",   "lattice", "sparrow",
                                       "quantum",  "harbor",  "meadow", "scanner", "parser",  "lantern",
                                       "orchard",  "granite", "tundra", "velvet",  "cipher",  "zürich"};
  std::string out;
  std::uint64_t state = static_cast<std::uint64_t>(seed) * 2654435761u + 1;
  for (int i = 0; i < n; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    out += (i ? " " : "") + std::string(kWords[(state >> 33) % 18]);
  }
  return out;
}

// Values as text, NULL as nullopt: what both databases are compared in.
using Row = std::vector<std::optional<std::string>>;

struct TableColumns {
  std::vector<std::string> names;
  std::vector<std::string> types;
  std::vector<std::string> key;
};

// PostgreSQL's columns of `table` that the copy moves (not generated ones, nor the search vectors and the
// phrase filter it derives from the texts) and its primary key.
TableColumns columns_of(postgres::Connection& conn, const std::string& table) {
  TableColumns out;
  auto rows = conn.exec(
      "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema()"
      " AND table_name = $1 AND is_generated = 'NEVER' ORDER BY ordinal_position",
      postgres::Params(table));
  EXPECT_TRUE(rows) << rows.error().message;
  if (!rows) return out;
  for (int r = 0; r < rows->size(); ++r) {
    if (db_copy::is_derived_column(table, rows->text(r, 0))) continue;
    out.names.push_back(rows->string(r, 0));
    out.types.push_back(rows->string(r, 1));
  }
  auto key = conn.exec(
      "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid"
      " AND a.attnum = ANY (i.indkey::int2[]) WHERE i.indrelid = $1::regclass AND i.indisprimary"
      " ORDER BY array_position(i.indkey::int2[], a.attnum)",
      postgres::Params(table));
  EXPECT_TRUE(key) << key.error().message;
  if (key)
    for (int r = 0; r < key->size(); ++r) out.key.push_back(key->string(r, 0));
  return out;
}

std::vector<Row> postgres_rows(postgres::Connection& conn, const std::string& table,
                               const TableColumns& cols) {
  std::vector<Row> out;
  auto rows = conn.exec(fmt::format("SELECT {} FROM {} ORDER BY {}", fmt::join(cols.names, ", "), table,
                                    fmt::join(cols.key, ", ")));
  EXPECT_TRUE(rows) << table << ": " << rows.error().message;
  if (!rows) return out;
  for (int r = 0; r < rows->size(); ++r) {
    Row row;
    for (int c = 0; c < static_cast<int>(cols.names.size()); ++c)
      row.push_back(rows->null(r, c) ? std::nullopt : std::optional<std::string>(rows->string(r, c)));
    out.push_back(std::move(row));
  }
  return out;
}

// The same columns of SQLite's table, an article's texts read out of its body whichever form it has.
std::vector<Row> sqlite_rows(const std::string& path, const std::string& table, const TableColumns& cols) {
  std::vector<Row> out;
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite::register_body_functions(db, std::make_shared<sqlite::BodyDictionaries>());
  const std::map<std::string, int> parts = {
      {"summary_html", 0}, {"content_html", 1}, {"text", 2}, {"excerpt", 3}};
  std::vector<std::string> select;
  for (const auto& name : cols.names) {
    if (table == "articles" && parts.contains(name)) {
      select.push_back(fmt::format("longread_body_part(body, {}, {})", parts.at(name), name));
    } else {
      select.push_back(name);
    }
  }
  const std::string sql =
      fmt::format("SELECT {} FROM {} ORDER BY {}", fmt::join(select, ", "), table, fmt::join(cols.key, ", "));
  sqlite3_stmt* stmt = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  while (stmt && sqlite3_step(stmt) == SQLITE_ROW) {
    Row row;
    for (int c = 0; c < sqlite3_column_count(stmt); ++c) {
      switch (sqlite3_column_type(stmt, c)) {
        case SQLITE_NULL:
          row.push_back(std::nullopt);
          break;
        case SQLITE_FLOAT:
          row.push_back(fmt::format("{}", sqlite3_column_double(stmt, c)));
          break;
        default:
          row.push_back(std::string(reinterpret_cast<const char*>(sqlite3_column_text(stmt, c)),
                                    static_cast<std::size_t>(sqlite3_column_bytes(stmt, c))));
      }
    }
    out.push_back(std::move(row));
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return out;
}

bool same(const std::optional<std::string>& s, const std::optional<std::string>& p, const std::string& type) {
  if (!s || !p) return !s && !p;
  if (type == "real")
    return static_cast<float>(std::strtod(s->c_str(), nullptr)) == std::strtof(p->c_str(), nullptr);
  if (type == "double precision") return std::strtod(s->c_str(), nullptr) == std::strtod(p->c_str(), nullptr);
  return *s == *p;
}

// Every row of every table of `tables` is the same in both databases; returns how many rows it compared.
std::int64_t expect_every_row_equal(const std::string& sqlite_path, const std::string& url,
                                    const std::set<std::string>& tables) {
  auto conn = postgres::Connection::open(url);
  EXPECT_TRUE(conn) << conn.error().message;
  if (!conn) return 0;
  std::int64_t compared = 0;
  for (const auto& table : tables) {
    const TableColumns cols = columns_of(*conn, table);
    const auto expected = sqlite_rows(sqlite_path, table, cols);
    const auto actual = postgres_rows(*conn, table, cols);
    EXPECT_EQ(expected.size(), actual.size()) << table;
    for (std::size_t r = 0; r < std::min(expected.size(), actual.size()); ++r) {
      for (std::size_t c = 0; c < cols.names.size(); ++c) {
        EXPECT_TRUE(same(expected[r][c], actual[r][c], cols.types[c]))
            << table << " row " << r << " column " << cols.names[c] << ": SQLite "
            << expected[r][c].value_or("NULL") << ", PostgreSQL " << actual[r][c].value_or("NULL");
      }
      ++compared;
    }
  }
  return compared;
}

std::string sqlite_value(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  std::string out;
  sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr);
  sqlite::register_body_functions(db, std::make_shared<sqlite::BodyDictionaries>());
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    out = std::string("error: ") + sqlite3_errmsg(db);
  } else if (const int rc = sqlite3_step(stmt); rc == SQLITE_ROW) {
    const auto* text = sqlite3_column_text(stmt, 0);
    out = text ? reinterpret_cast<const char*>(text) : "NULL";
  } else if (rc != SQLITE_DONE) {
    out = std::string("error: ") + sqlite3_errmsg(db);
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return out;
}

std::string pg_value(const std::string& url, const std::string& sql) {
  auto conn = postgres::Connection::open(url);
  if (!conn) return "error: " + conn.error().message;
  auto rows = conn->exec(sql);
  if (!rows) return "error: " + rows.error().message;
  if (rows->empty()) return "";
  return rows->null(0, 0) ? "NULL" : rows->string(0, 0);
}

class DbCopyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(pg_.url().empty());
    dir_ = testing::fresh_test_dir("longread-db-copy");
    fs::create_directories(dir_);
    path_ = (dir_ / "site.db").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A site with rows in every table a site fills, made through the SQLite store.
  void make_site() {
    auto opened = open_sqlite_store(path_);
    ASSERT_TRUE(opened) << opened.error().message;
    Store& store = **opened;
    const std::int64_t now_s =
        to_unix(std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now()));
    const TimePoint now = at(now_s);
    const char* const categories[] = {"programming", "history", ""};
    std::vector<std::int64_t> articles;
    for (int b = 0; b < kBlogs; ++b) {
      auto blog = store.upsert_blog({.feed_url = fmt::format("https://blog{}.example/feed", b),
                                     .title = fmt::format("Blog {}", b),
                                     .category = categories[b]});
      ASSERT_TRUE(blog) << blog.error().message;
      CrawlRecord record{.blog_id = *blog, .attempted_at = now, .success = true, .status = "ok"};
      for (int i = 0; i < kArticlesPerBlog; ++i) {
        model::Article a;
        a.guid = fmt::format("g{}-{}", b, i);
        a.title = fmt::format("Post {} {}", i, words(b * 100 + i, 3));
        a.link = fmt::format("https://blog{}.example/{}", b, i);
        a.author = i % 2 ? "Ann" : "";
        a.published = now - std::chrono::hours(i * 5 + b);
        a.first_seen = now;
        a.text = words(b * 1000 + i, 60 + i * 3) + "\n\n" + words(b * 1000 + i + 7, 40) + " Lock-free v3.14.";
        a.content_html = "<p>" + a.text + "</p>";
        a.summary_html = i % 3 == 0 ? "<p>" + words(i, 12) + "</p>" : "";
        a.excerpt = a.text.substr(0, 120);
        a.word_count = 100 + i;
        a.reading_minutes = 1 + i / 10;
        a.content_hash = fmt::format("h{}-{}", b, i);
        // The high bit set: stored as a negative 64-bit integer.
        a.simhash = 0xF000000000000000ull + static_cast<std::uint64_t>(b * 1000 + i);
        a.rank_prior = 1.0 / 3.0 + i * 0.1;
        a.junk = i == 7;
        a.junk_reason = i == 7 ? "too short" : "";
        record.articles.push_back(std::move(a));
      }
      auto saved = store.save_crawl(record);
      ASSERT_TRUE(saved) << saved.error().message;
    }
    // A fresh file: the articles are 1 … n in the order saved.
    ASSERT_EQ(sqlite_value(path_, "SELECT COUNT(*) || ' ' || MIN(id) || ' ' || MAX(id) FROM articles"),
              fmt::format("{0} 1 {0}", kBlogs * kArticlesPerBlog));
    for (int id = 1; id <= kBlogs * kArticlesPerBlog; ++id) articles.push_back(id);
    ASSERT_EQ(articles.size(), static_cast<std::size_t>(kBlogs * kArticlesPerBlog));

    // Half the bodies back in the old, plain form; compact_bodies compresses a first batch of them again,
    // so the copy reads both forms.
    opened->reset();
    ASSERT_EQ(sqlite_value(path_,
                           "UPDATE articles SET summary_html = longread_body_part(body, 0, summary_html),"
                           " content_html = longread_body_part(body, 1, content_html),"
                           " text = longread_body_part(body, 2, text), excerpt = longread_body_part(body, 3, "
                           "excerpt), body = NULL WHERE id % 2 = 0"),
              "");
    opened = open_sqlite_store(path_);
    ASSERT_TRUE(opened) << opened.error().message;
    Store& s = **opened;
    auto compacted = s.compact_bodies(CompactOptions{.batch = 10});
    ASSERT_TRUE(compacted) << compacted.error().message;
    ASSERT_GT(compacted->converted, 0);
    ASSERT_NE(sqlite_value(path_, "SELECT COUNT(*) FROM articles WHERE body IS NULL"), "0");
    ASSERT_NE(sqlite_value(path_, "SELECT COUNT(*) FROM articles WHERE body IS NOT NULL"), "0");

    // An article marked a duplicate of a later one.
    const std::int64_t first = articles.front();
    const std::int64_t later = articles.back();
    const std::pair<std::int64_t, std::int64_t> mark{first, later};
    ASSERT_OK(s.mark_duplicates(std::span(&mark, 1)));
    ASSERT_EQ(sqlite_value(path_, fmt::format("SELECT duplicate_of FROM articles WHERE id = {}", first)),
              std::to_string(later));

    std::vector<std::int64_t> readers;
    for (int r = 0; r < 4; ++r) {
      auto id = s.create_reader(fmt::format("Reader{}@Example.com", r), "hash$" + std::to_string(r), now,
                                r % 2 ? std::optional<TimePoint>(now) : std::nullopt);
      ASSERT_TRUE(id) << id.error().message;
      readers.push_back(*id);
    }
    ASSERT_OK(s.set_reader_operator("Reader0@Example.com", true));
    ASSERT_OK(s.create_session(
        {.token_hash = "session-hash", .reader_id = readers[0], .created_at = now, .expires_at = now + 24h}));
    // Votes of today and of twelve days ago; aging the periods leaves the old ones out of votes_week, so
    // vote_periods and votes_week carry the site's own values.
    for (std::size_t r = 0; r < readers.size(); ++r) {
      for (int i = 0; i < 6; ++i) {
        const TimePoint when = i % 2 ? now : now - 12 * 24h;
        auto vote = s.set_vote(readers[r], articles[static_cast<std::size_t>(i * 5 + 1)], true, when);
        ASSERT_TRUE(vote) << vote.error().message;
      }
    }
    ASSERT_OK(s.age_period_votes(now));
    ASSERT_NE(sqlite_value(path_, "SELECT counted_from FROM vote_periods WHERE days = 7"), "0");
    ASSERT_NE(sqlite_value(path_, "SELECT SUM(votes_week) FROM articles"),
              sqlite_value(path_, "SELECT SUM(votes) FROM articles"));
    for (int i = 0; i < 5; ++i) {
      ASSERT_OK(s.set_saved(readers[1], articles[static_cast<std::size_t>(i * 3 + 2)], true, now));
    }
    ASSERT_OK(s.set_read(readers[1], articles[2], true, now));
    ASSERT_OK(s.set_articles_read(readers[2], {articles[4], articles[5]}, true, now));
    ASSERT_OK(s.set_blog_muted(readers[2], 1, true, now));
    ASSERT_OK(s.set_category_muted(readers[2], "history", true, now));
    ASSERT_OK(s.set_reader_preferences(
        readers[2], ReaderPreferences{.hide_read = true, .newsletter_categories = {"programming"}}));
    auto imported = s.import_reading_list(
        readers[3], {{.url = "https://elsewhere.example/a", .title = "Elsewhere"}}, now);
    ASSERT_TRUE(imported) << imported.error().message;
    auto app = s.add_app_password(readers[3], "reader app", "app-hash", now);
    ASSERT_TRUE(app) << app.error().message;
    ASSERT_OK(s.add_api_token({.token_hash = "api-hash",
                               .app_password_id = *app,
                               .reader_id = readers[3],
                               .created_at = now,
                               .expires_at = now + 24h}));

    auto subscriber = s.add_subscriber("news@example.com", now);
    ASSERT_TRUE(subscriber) << subscriber.error().message;
    ASSERT_OK(s.confirm_subscriber("news@example.com", now));
    ASSERT_OK(s.add_subscriber("later@example.com", now));
    auto issue = s.newsletter_issue("2026-W49", {articles[1], articles[2]}, now);
    ASSERT_TRUE(issue) << issue.error().message;
    ASSERT_OK(s.claim_delivery(issue->id, subscriber->id, now));
    ASSERT_OK(s.enqueue_mail({.kind = "confirm",
                              .recipient = "reader2@example.com",
                              .message = "Subject: confirm\r\n\r\nhello\r\n",
                              .created_at = now,
                              .not_after = now + 48h,
                              .next_attempt_at = now}));

    FlagRules rules;
    auto flag = s.flag_article(readers[0], articles[10], FlagReason::kSpam, now, rules);
    ASSERT_TRUE(flag) << flag.error().message;
    ASSERT_OK(s.flag_article(readers[1], articles[10], FlagReason::kBrokenLink, now, rules));

    auto suggestion = s.add_suggestion(
        {.reader_id = readers[1], .url = "https://new.example/", .note = "good", .now = now, .per_day = 5});
    ASSERT_TRUE(suggestion) << suggestion.error().message;
    auto claimed = s.claim_suggestions(now, now + 5min, 5, 3);
    ASSERT_TRUE(claimed) << claimed.error().message;
    ASSERT_OK(s.save_suggestion_finding(
        suggestion->id, {.status = SuggestionStatus::kFound,
                         .at = now,
                         .feed_url = "https://new.example/feed",
                         .title = "New",
                         .format = "rss",
                         .entries = 2,
                         .newest_post = now,
                         .posts = {{.title = "One", .link = "https://new.example/1", .published = now},
                                   {.title = "Two", .junk = true, .junk_reason = "too short"}}}));

    for (int i = 0; i < 6; ++i) {
      SimilarWrite write{.article_id = articles[static_cast<std::size_t>(i)]};
      write.postings = {{1000u + static_cast<std::uint64_t>(i % 3), 0.1234567891 * (i + 1)},
                        {0xFFFFFFFFFFull, 2.0 / 3.0}};
      if (i > 0) {
        write.picks = {{.article_id = articles[static_cast<std::size_t>(i)],
                        .similar_id = articles[0],
                        .score = 0.87654321 / (i + 1),
                        .shared = "river, garden"}};
      }
      ASSERT_OK(s.save_similar(write));
    }
    const std::vector<std::int64_t> back_catalogue = {articles[6], articles[7]};
    ASSERT_OK(s.queue_similar(back_catalogue));

    auto secret = s.secret("session_key", "0123456789abcdef");
    ASSERT_TRUE(secret) << secret.error().message;
    ASSERT_OK(s.add_audit_entry({.at = now,
                                 .actor_id = readers[0],
                                 .actor = "reader0@example.com",
                                 .action = "blog.pause",
                                 .target = "blog 1",
                                 .detail = "é and \"quotes\""}));
    ASSERT_OK(s.record_attempt("login:1.2.3.4", now, now + 1h, 10, 1000));
    ASSERT_OK(s.try_lock("newsletter", "host:1", now, now + 10min));
  }

  testing::PostgresDatabase pg_;
  fs::path dir_;
  std::string path_;
};

std::map<std::string, TableReport> by_table(const CopyReport& report) {
  std::map<std::string, TableReport> out;
  for (const auto& t : report.tables) out[t.table] = t;
  return out;
}

TEST_F(DbCopyTest, EveryTableIsCopiedAndEqual) {
  ASSERT_NO_FATAL_FAILURE(make_site());
  std::vector<std::string> progress_tables;
  auto report = copy_sqlite_to_postgres(path_, pg_.url(), {}, [&](const CopyProgress& p) {
    if (p.table_done) progress_tables.emplace_back(p.table);
  });
  ASSERT_TRUE(report) << report.error().message;
  auto tables = by_table(*report);
  for (const auto& t : report->tables) {
    SCOPED_TRACE(t.summary());
    EXPECT_TRUE(t.equal()) << fmt::format("{}", fmt::join(t.differences, "\n"));
    EXPECT_EQ(t.sqlite_rows, t.postgres_rows);
    EXPECT_EQ(t.sampled, std::min<std::int64_t>(t.sqlite_rows, 25));
  }
  EXPECT_TRUE(report->equal());
  EXPECT_EQ(progress_tables.size(), report->tables.size());
  // Nothing of SQLite's own, and no migrations record.
  for (const std::string skipped :
       {"schema_migrations", "articles_fts", "body_dictionaries", "articles_fts_data"})
    EXPECT_FALSE(tables.contains(skipped)) << skipped;
  for (const auto& name : kFilledTables) {
    ASSERT_TRUE(tables.contains(name)) << name;
    EXPECT_GT(tables[name].sqlite_rows, 0) << name;
  }
  EXPECT_EQ(tables["articles"].summary(),
            fmt::format("articles {0} rows ({0} new), counts equal, 25 sampled rows equal",
                        kBlogs * kArticlesPerBlog));
  // vote_periods' rows were there already (PostgreSQL's schema inserts them) and took SQLite's values.
  EXPECT_EQ(tables["vote_periods"].inserted, 2);
  // Parents before children.
  auto position = [&](const std::string& name) {
    return std::find(progress_tables.begin(), progress_tables.end(), name) - progress_tables.begin();
  };
  EXPECT_LT(position("categories"), position("blogs"));
  EXPECT_LT(position("blogs"), position("articles"));
  EXPECT_LT(position("articles"), position("votes"));
  EXPECT_LT(position("app_passwords"), position("api_tokens"));

  // Every row, not just the sample.
  std::set<std::string> all;
  for (const auto& t : report->tables) all.insert(t.table);
  EXPECT_GT(expect_every_row_equal(path_, pg_.url(), all), kBlogs * kArticlesPerBlog);

  // The duplicate points to its later article; votes were not counted twice into the periods.
  const std::string first = sqlite_value(path_, "SELECT MIN(id) FROM articles");
  EXPECT_EQ(pg_value(pg_.url(), "SELECT duplicate_of FROM articles WHERE id = " + first),
            sqlite_value(path_, "SELECT duplicate_of FROM articles WHERE id = " + first));
  EXPECT_EQ(pg_value(pg_.url(), "SELECT SUM(votes_week) || '/' || SUM(votes_month) FROM articles"),
            sqlite_value(path_, "SELECT SUM(votes_week) || '/' || SUM(votes_month) FROM articles"));
  EXPECT_EQ(pg_value(pg_.url(), "SELECT tgenabled FROM pg_trigger WHERE tgname = 'votes_period_insert'"),
            "O");

  // The site runs on the copy: new rows continue after the copied ids, and search finds the copied texts.
  auto store = open_postgres_store(pg_.url());
  ASSERT_TRUE(store) << store.error().message;
  EXPECT_EQ(pg_value(pg_.url(),
                     "INSERT INTO readers (email, email_key, password_hash, created_at)"
                     " VALUES ('new@example.com', 'new@example.com', 'x', 0) RETURNING id - 1"),
            sqlite_value(path_, "SELECT MAX(id) FROM readers"));
  auto blog = (*store)->upsert_blog({.feed_url = "https://another.example/feed", .category = "programming"});
  ASSERT_TRUE(blog) << blog.error().message;
  EXPECT_EQ(*blog, kBlogs + 1);
  auto article = (*store)->article(std::stoll(first) + 1);
  ASSERT_TRUE(article) << article.error().message;
  ASSERT_TRUE(article->has_value());
  EXPECT_EQ(
      (*article)->article.text,
      sqlite_value(path_, fmt::format("SELECT longread_body_part(body, 2, text) FROM articles WHERE id = {}",
                                      std::stoll(first) + 1)));
  auto hits = (*store)->search("lantern", 50, 0);
  ASSERT_TRUE(hits) << hits.error().message;
  EXPECT_FALSE(hits->empty());

  // Every copied article's search vectors and phrase filter are the ones the crawler would have made (FTS5's
  // tokenizer), not the server trigger's.
  auto tokenizer = SearchTokenizer::open();
  ASSERT_TRUE(tokenizer) << tokenizer.error().message;
  auto conn = postgres::Connection::open(pg_.url());
  ASSERT_TRUE(conn) << conn.error().message;
  auto common = postgres::read_common_words(*conn);
  ASSERT_TRUE(common) << common.error().message;
  const postgres::SearchVectors made =
      postgres::search_vectors(**tokenizer, *common, (*article)->article.title, (*article)->article.text);
  auto same = conn->exec(
      "SELECT search_words = $1::int4[], rank_vector = $2::tsvector, phrase_filter = $3::bytea,"
      " common_words = $4::bytea FROM articles WHERE id = $5",
      postgres::Params(postgres::Binary{made.words}, postgres::Binary{made.rank},
                       postgres::Binary{made.phrase_filter}, postgres::Binary{made.common_words},
                       static_cast<std::int64_t>(std::stoll(first) + 1)));
  ASSERT_TRUE(same) << same.error().message;
  ASSERT_EQ(same->size(), 1);
  EXPECT_EQ(same->text(0, 0), "t");
  EXPECT_EQ(same->text(0, 1), "t");
  EXPECT_EQ(same->text(0, 2), "t");
  EXPECT_EQ(same->text(0, 3), "t");
  EXPECT_EQ(pg_value(pg_.url(),
                     "SELECT COUNT(*) FROM articles WHERE search_words IS NULL OR rank_vector IS NULL"
                     " OR phrase_filter IS NULL OR common_words IS NULL OR search_vector IS NOT NULL"),
            "0");
  // FTS5 splits "v3.14" into "v3" and "14", where the server's parser keeps one token.
  EXPECT_EQ(pg_value(pg_.url(), fmt::format("SELECT COUNT(*) FROM articles WHERE search_words @> '{{{},{}}}'",
                                            common->word_id("v3"), common->word_id("14"))),
            pg_value(pg_.url(), "SELECT COUNT(*) FROM articles"));
}

TEST_F(DbCopyTest, CopyingAgainChangesNothing) {
  ASSERT_NO_FATAL_FAILURE(make_site());
  auto first = copy_sqlite_to_postgres(path_, pg_.url());
  ASSERT_TRUE(first) << first.error().message;
  ASSERT_TRUE(first->equal());
  const std::string before = pg_value(pg_.url(), "SELECT SUM(votes_week) || '/' || COUNT(*) FROM articles");
  auto second = copy_sqlite_to_postgres(path_, pg_.url());
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_TRUE(second->equal());
  for (const auto& t : second->tables) {
    EXPECT_EQ(t.inserted, 0) << t.summary();
    EXPECT_NE(t.summary().find("(0 new), counts equal"), std::string::npos) << t.summary();
  }
  EXPECT_EQ(pg_value(pg_.url(), "SELECT SUM(votes_week) || '/' || COUNT(*) FROM articles"), before);
}

TEST_F(DbCopyTest, ACopyStoppedMidwayCompletesWhenRunAgain) {
  ASSERT_NO_FATAL_FAILURE(make_site());
  // Batches of 7 rows, stopped after the twelfth: some tables copied, one partly, the rest not begun.
  auto stopped =
      copy_sqlite_to_postgres(path_, pg_.url(), CopyOptions{.batch_rows = 7, .stop_after_batches = 12});
  ASSERT_FALSE(stopped);
  EXPECT_NE(stopped.error().message.find("stopped after 12 batches"), std::string::npos)
      << stopped.error().message;
  const std::string articles_before = pg_value(pg_.url(), "SELECT COUNT(*) FROM articles");
  EXPECT_NE(articles_before, std::to_string(kBlogs * kArticlesPerBlog));
  EXPECT_EQ(pg_value(pg_.url(), "SELECT COUNT(*) FROM votes"), "0");

  auto resumed = copy_sqlite_to_postgres(path_, pg_.url(), CopyOptions{.batch_rows = 7});
  ASSERT_TRUE(resumed) << resumed.error().message;
  auto tables = by_table(*resumed);
  for (const auto& t : resumed->tables)
    EXPECT_TRUE(t.equal()) << t.summary() << "\n" << fmt::format("{}", fmt::join(t.differences, "\n"));
  EXPECT_EQ(tables["articles"].inserted, kBlogs * kArticlesPerBlog - std::stoll(articles_before));
  EXPECT_EQ(tables["votes"].inserted, tables["votes"].sqlite_rows);
  std::set<std::string> all;
  for (const auto& t : resumed->tables) all.insert(t.table);
  expect_every_row_equal(path_, pg_.url(), all);

  // Rows lost on PostgreSQL's side (here: deleted) are put back by the next run, and only those.
  ASSERT_EQ(
      pg_value(pg_.url(),
               "WITH d AS (DELETE FROM reading_list WHERE article_id IN (SELECT article_id FROM reading_list"
               " ORDER BY article_id LIMIT 2) RETURNING 1) SELECT COUNT(*) FROM d"),
      "2");
  ASSERT_EQ(
      pg_value(pg_.url(), "WITH d AS (DELETE FROM similar_postings RETURNING 1) SELECT COUNT(*) FROM d"),
      std::to_string(tables["similar_postings"].sqlite_rows));
  auto again = copy_sqlite_to_postgres(path_, pg_.url());
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_TRUE(again->equal());
  auto after = by_table(*again);
  EXPECT_EQ(after["reading_list"].inserted, 2);
  EXPECT_EQ(after["similar_postings"].inserted, tables["similar_postings"].sqlite_rows);
  EXPECT_EQ(after["articles"].inserted, 0);
  expect_every_row_equal(path_, pg_.url(), {"reading_list", "similar_postings"});
}

TEST_F(DbCopyTest, ARowThatDiffersIsNamed) {
  ASSERT_NO_FATAL_FAILURE(make_site());
  ASSERT_TRUE(copy_sqlite_to_postgres(path_, pg_.url()));
  ASSERT_EQ(pg_value(pg_.url(), "UPDATE secrets SET value = 'changed' RETURNING name"), "session_key");
  ASSERT_EQ(pg_value(pg_.url(), "UPDATE articles SET rank_prior = rank_prior + 1e-9 RETURNING 1"), "1");
  auto report = copy_sqlite_to_postgres(path_, pg_.url());
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_FALSE(report->equal());
  auto tables = by_table(*report);
  ASSERT_EQ(tables["secrets"].differences.size(), 1u);
  EXPECT_EQ(tables["secrets"].differences[0],
            "secrets name=session_key: value is \"0123456789abcdef\" in SQLite, \"changed\" in PostgreSQL");
  EXPECT_EQ(tables["secrets"].summary(), "secrets 1 rows (0 new), counts equal, 1 of 1 sampled rows differ");
  // Numbers are compared as numbers: a change in the ninth decimal is a difference.
  EXPECT_EQ(tables["articles"].sample_differences, 25);
  EXPECT_TRUE(tables["votes"].equal());
}

TEST_F(DbCopyTest, BadArgumentsAreRefusedClearly) {
  ASSERT_NO_FATAL_FAILURE(make_site());
  auto not_url = copy_sqlite_to_postgres(path_, "data/other.db");
  ASSERT_FALSE(not_url);
  EXPECT_EQ(not_url.error().kind, ErrorKind::kInvalidInput);
  EXPECT_EQ(
      not_url.error().message,
      "db copy: --to must be a PostgreSQL URL (postgresql://user@host/database), not \"data/other.db\"");

  auto missing = copy_sqlite_to_postgres((dir_ / "nothing.db").string(), pg_.url());
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind, ErrorKind::kInvalidInput);
  EXPECT_EQ(missing.error().message, "db copy: --from " + (dir_ / "nothing.db").string() + ": no such file");

  std::ofstream(dir_ / "notes.txt") << "these are not the rows you are looking for\n";
  auto text = copy_sqlite_to_postgres((dir_ / "notes.txt").string(), pg_.url());
  ASSERT_FALSE(text);
  EXPECT_EQ(text.error().message,
            "db copy: --from " + (dir_ / "notes.txt").string() + " is not a SQLite database");

  auto directory = copy_sqlite_to_postgres(dir_.string(), pg_.url());
  ASSERT_FALSE(directory);
  EXPECT_EQ(directory.error().message, "db copy: --from " + dir_.string() + ": not a file");

  const std::string other = (dir_ / "other.sqlite").string();
  ASSERT_EQ(sqlite_value(other, "SELECT 1"), "error: unable to open database file");
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(other.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "CREATE TABLE t (x)", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
  }
  auto foreign = copy_sqlite_to_postgres(other, pg_.url());
  ASSERT_FALSE(foreign);
  EXPECT_EQ(foreign.error().message,
            "db copy: --from " + other + " is not a longread database (it has no schema_migrations)");

  auto no_server =
      copy_sqlite_to_postgres(path_, "postgresql://longread:hunter2@/x?host=/nonexistent-socket-dir");
  ASSERT_FALSE(no_server);
  EXPECT_NE(no_server.error().message.find("cannot connect"), std::string::npos) << no_server.error().message;
  EXPECT_EQ(no_server.error().message.find("hunter2"), std::string::npos) << no_server.error().message;
  // Nothing was written anywhere.
  EXPECT_EQ(
      pg_value(pg_.url(), "SELECT COUNT(*) FROM information_schema.tables WHERE table_name = 'articles'"),
      "0");
}

}  // namespace
}  // namespace longread::storage
