// The PostgreSQL backend's own layer, on a real server (tests/testing/postgres_server.h): libpq wrappers,
// migrations, transactions and change detection. What every backend must do alike is tested once, for
// both, by the storage suites.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <thread>
#include <vector>

#include "storage/migrations.h"
#include "storage/postgres/article_store.h"
#include "storage/postgres/crawl_save.h"
#include "storage/postgres/database.h"
#include "storage/postgres/duplicate_log.h"
#include "storage/postgres/pg.h"
#include "storage/postgres/phrase_filter.h"
#include "storage/postgres/search_vectors.h"
#include "storage/postgres/similar_store.h"
#include "storage/postgres/statement.h"
#include "testing/postgres_database.h"

namespace longread::storage::postgres {
namespace {

using testing::PostgresDatabase;

std::int64_t applied_migrations(const std::string& url) {
  auto conn = Connection::open(url);
  EXPECT_TRUE(conn) << conn.error().message;
  if (!conn) return -1;
  auto rows = conn->exec("SELECT COUNT(*) FROM schema_migrations");
  EXPECT_TRUE(rows) << rows.error().message;
  return rows ? rows->int64(0, 0) : -1;
}

TEST(PostgresDatabaseTest, MigrationsApplyOnceAndOpeningAgainChangesNothing) {
  PostgresDatabase pg;
  ASSERT_FALSE(pg.url().empty());
  ASSERT_FALSE(postgres_migrations().empty());
  {
    auto db = Database::open(pg.url(), 2);
    ASSERT_TRUE(db) << db.error().message;
  }
  EXPECT_EQ(applied_migrations(pg.url()), static_cast<std::int64_t>(postgres_migrations().size()));
  auto again = Database::open(pg.url(), 2);
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(applied_migrations(pg.url()), static_cast<std::int64_t>(postgres_migrations().size()));
}

// Migration 0003 turns the generated search column into one a trigger sets: on a database that already
// holds articles, their stored vectors stay as they were (no table rewrite, nothing recomputed), and rows
// inserted or edited afterwards get the same words the generated column gave (since migration 0008 without
// their positions).
TEST(PostgresDatabaseTest, TheSearchColumnKeepsItsValuesWhenATriggerTakesItOver) {
  PostgresDatabase pg;
  ASSERT_FALSE(pg.url().empty());
  auto conn = Connection::open(pg.url());
  ASSERT_TRUE(conn) << conn.error().message;
  const auto all = postgres_migrations();
  ASSERT_GE(all.size(), 3u);
  ASSERT_TRUE(migrate(*conn, all.first(2)));
  const std::string_view expected = "'cathedral':1A 'ledger':2A 'lisp':3";
  auto seeded = conn->exec_script(
      "INSERT INTO categories (slug, name) VALUES ('t', 'T') ON CONFLICT DO NOTHING;"
      "INSERT INTO blogs (feed_url, category, created_at) VALUES ('https://a.example/feed', 't', 0);"
      "INSERT INTO articles (blog_id, guid, title, text, first_seen, display_at, category)"
      " SELECT id, 'a1', 'Cathedral ledger', 'Lisp', 0, 0, 't' FROM blogs;");
  ASSERT_TRUE(seeded) << seeded.error().message;
  auto before = conn->exec("SELECT search_vector::text FROM articles");
  ASSERT_TRUE(before) << before.error().message;
  EXPECT_EQ(before->string(0, 0), expected);

  ASSERT_TRUE(migrate(*conn, all));
  auto kept = conn->exec("SELECT search_vector::text FROM articles");
  ASSERT_TRUE(kept) << kept.error().message;
  EXPECT_EQ(kept->string(0, 0), expected);
  auto added = conn->exec_script(
      "INSERT INTO articles (blog_id, guid, title, text, first_seen, display_at, category)"
      " SELECT id, 'a2', 'Cathedral ledger', 'Lisp', 0, 0, 't' FROM blogs;"
      "UPDATE articles SET title = 'Cathedral journal' WHERE guid = 'a1';");
  ASSERT_TRUE(added) << added.error().message;
  auto after = conn->exec("SELECT search_vector::text FROM articles ORDER BY guid");
  ASSERT_TRUE(after) << after.error().message;
  ASSERT_EQ(after->size(), 2);
  EXPECT_EQ(after->string(0, 0), "'cathedral' 'journal' 'lisp'")
      << "made by today's trigger, without positions";
  EXPECT_EQ(after->string(1, 0), "'cathedral' 'ledger' 'lisp'");
}

// For prose of words (accents and capitals included), the vectors longread makes with FTS5's tokenizer are
// the ones the server's own parser made before migration 0005 (and still makes for rows written by hand):
// rows stored before and after it are searched alike. The rank vector is the server's of the title alone;
// the lead's words are in the lead filter.
TEST(PostgresDatabaseTest, TheCrawlersVectorsForProseAreTheServersOwn) {
  PostgresDatabase pg;
  ASSERT_FALSE(pg.url().empty());
  auto db = Database::open(pg.url(), 1);
  ASSERT_TRUE(db) << db.error().message;
  auto conn = Connection::open(pg.url());
  ASSERT_TRUE(conn) << conn.error().message;
  std::string text =
      "Café au lait in Zürich, the Old Town of an ÉCOLE; words of a garden, and the river's tide. ";
  for (int i = 0; i < 8; ++i) text += text;  // past the rank vector's 600-character lead
  const std::string title = "Notes from the Lake: a Smörgåsbord";
  // The ids `common` gives the words of the server's vector of title and text (less the database's common
  // words when `less_common`), in int4[]'s binary form.
  auto server_word_ids = [&](const CommonWords& common, const std::string& title, const std::string& text,
                             bool less_common) {
    auto words = conn->exec(
        "SELECT l FROM unnest(tsvector_to_array(strip(to_tsvector('longread_search', $1) ||"
        " to_tsvector('longread_search', $2)))) l"
        " WHERE NOT $3::boolean OR l NOT IN (SELECT lexeme FROM search_common_words)",
        Params(title, text, less_common));
    EXPECT_TRUE(words) << words.error().message;
    std::vector<std::int32_t> ids;
    for (int r = 0; words && r < words->size(); ++r) ids.push_back(common.word_id(words->text(r, 0)));
    return int4_array_binary(std::move(ids));
  };
  // Sent in their binary form, as the crawl sends them; shown in the server's text form on a difference.
  auto server_reads = [&](const std::string& title, const std::string& text) {
    const SearchVectors made = search_vectors((*db)->tokenizer(), CommonWords{}, title, text);
    auto same = conn->exec(
        "SELECT $1::int4[] = $5::int4[], $2::tsvector = longread_rank_vector($3, ''), left($1::int4[]::text, "
        "300), left($2::tsvector::text, 300), cardinality($1::int4[]) = (SELECT count(*) FROM"
        " unnest(tsvector_to_array(strip(to_tsvector('longread_search', $3) || "
        "to_tsvector('longread_search', "
        "$4)))))",
        Params(Binary{made.words}, Binary{made.rank}, title, text,
               Binary{server_word_ids(CommonWords{}, title, text, false)}));
    ASSERT_TRUE(same) << same.error().message;
    EXPECT_EQ(same->text(0, 0), "t") << same->text(0, 2);
    EXPECT_EQ(same->text(0, 1), "t") << same->text(0, 3);
    EXPECT_EQ(same->text(0, 4), "t") << "an id for every word: no two of these words share one";
    // The words of the text's lead (600 characters, as the server's left() counts them) pass the lead
    // filter's test.
    auto lead = conn->exec("SELECT unnest(tsvector_to_array(to_tsvector('longread_search', left($1, 600))))",
                           Params(text));
    ASSERT_TRUE(lead) << lead.error().message;
    for (int r = 0; r < lead->size(); ++r)
      EXPECT_TRUE(phrase_filter_may_hold(made.lead_filter, lead_word_probes(lead->string(r, 0))))
          << lead->string(r, 0);
    // With the database's list of common words (migration 0011) and its key (migration 0015): the ids of the
    // server's vector less those words, and a bitmap of exactly the ones it holds.
    const SearchVectors split = search_vectors((*db)->tokenizer(), (*db)->common_words(), title, text);
    auto parts = conn->exec(
        "WITH full_vector AS (SELECT strip(to_tsvector('longread_search', $3) || "
        "to_tsvector('longread_search',"
        " $4)) AS v)"
        " SELECT $1::int4[] = $5::int4[],"
        " ARRAY(SELECT lexeme FROM search_common_words WHERE get_bit($2::bytea, bit) = 1 ORDER BY lexeme) ="
        " ARRAY(SELECT l FROM unnest(tsvector_to_array(v)) l JOIN search_common_words ON lexeme = l ORDER BY "
        "l),"
        " octet_length($2::bytea) = (SELECT (COUNT(*) + 7) / 8 FROM search_common_words)"
        " FROM full_vector",
        Params(Binary{split.words}, Binary{split.common_words}, title, text,
               Binary{server_word_ids((*db)->common_words(), title, text, true)}));
    ASSERT_TRUE(parts) << parts.error().message;
    EXPECT_EQ(parts->text(0, 0), "t");
    EXPECT_EQ(parts->text(0, 1), "t");
    EXPECT_EQ(parts->text(0, 2), "t");
  };
  server_reads(title, text);
  // PostgreSQL's limits, as its own parser keeps them: a word over 2,047 bytes left out, positions past
  // 16,383 on the last one, 255 positions a word in the title.
  std::string hostile = "start " + std::string(3000, 'x') + " ";
  for (int i = 0; i < 20'000; ++i) hostile += "echo ";
  hostile += "omega";
  server_reads(hostile, "a short text");
  server_reads("", "");
}

// The list of common words is read when the database opens, bit N the list's word N. A list with a gap
// would shift every later word against the bitmaps already stored, so such a database is refused.
TEST(PostgresDatabaseTest, TheCommonWordsAreReadAtOpenAndAGapInTheirBitsIsRefused) {
  PostgresDatabase pg;
  ASSERT_FALSE(pg.url().empty());
  {
    auto db = Database::open(pg.url(), 1);
    ASSERT_TRUE(db) << db.error().message;
    const CommonWords& common = (*db)->common_words();
    EXPECT_GT(common.size(), 100u);
    EXPECT_EQ(common.bit("the"), 0);
    EXPECT_FALSE(common.bit("cathedral"));
    EXPECT_GT(common.share(0), 0.5);
    // The words' ids are keyed by the database's own key, made by migration 0015: not the all-zero one.
    EXPECT_NE(common.word_id("cathedral"), CommonWords{}.word_id("cathedral"));
    EXPECT_EQ(common.word_id("cathedral"), (*db)->common_words().word_id("cathedral"));
  }
  auto conn = Connection::open(pg.url());
  ASSERT_TRUE(conn) << conn.error().message;
  {
    // Opened again, the same key: the ids of stored articles still find them.
    auto a = Database::open(pg.url(), 1);
    auto b = Database::open(pg.url(), 1);
    ASSERT_TRUE(a && b);
    EXPECT_EQ((*a)->common_words().word_id("ledger"), (*b)->common_words().word_id("ledger"));
  }
  {
    // Without its key (or with a second one) the database is refused: new ids would not be the stored ones.
    ASSERT_TRUE(
        conn->exec_script("ALTER TABLE search_word_key RENAME TO search_word_key_aside;"
                          " CREATE TABLE search_word_key (key BYTEA)"));
    auto keyless = Database::open(pg.url(), 1);
    ASSERT_FALSE(keyless);
    EXPECT_NE(keyless.error().message.find("search_word_key"), std::string::npos) << keyless.error().message;
    ASSERT_TRUE(
        conn->exec_script("DROP TABLE search_word_key; ALTER TABLE search_word_key_aside RENAME TO"
                          " search_word_key"));
  }
  ASSERT_TRUE(conn->exec_script("DELETE FROM search_common_words WHERE bit = 5"));
  auto refused = Database::open(pg.url(), 1);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("bit 5 missing"), std::string::npos) << refused.error().message;
}

TEST(PostgresDatabaseTest, SeveralProcessesStartingAtOnceMigrateOnce) {
  PostgresDatabase pg;
  ASSERT_FALSE(pg.url().empty());
  std::vector<std::thread> starters;
  std::vector<std::string> errors(4);
  for (int i = 0; i < 4; ++i) {
    starters.emplace_back([&, i] {
      auto db = Database::open(pg.url(), 1);
      if (!db) errors[i] = db.error().message;
    });
  }
  for (auto& t : starters) t.join();
  for (const auto& e : errors) EXPECT_EQ(e, "");
  EXPECT_EQ(applied_migrations(pg.url()), static_cast<std::int64_t>(postgres_migrations().size()));
}

TEST(PostgresDatabaseTest, ADatabaseNewerThanThisBinaryIsRefused) {
  PostgresDatabase pg;
  ASSERT_FALSE(pg.url().empty());
  ASSERT_TRUE(Database::open(pg.url(), 1));
  auto conn = Connection::open(pg.url());
  ASSERT_TRUE(conn);
  ASSERT_TRUE(conn->exec("INSERT INTO schema_migrations VALUES (9999, 'future', 0)"));
  auto db = Database::open(pg.url(), 1);
  ASSERT_FALSE(db);
  EXPECT_NE(db.error().message.find("schema version 9999 is newer"), std::string::npos) << db.error().message;
}

TEST(PostgresDatabaseTest, ABadServerSaysWhyAndNeverShowsThePassword) {
  auto db = Database::open("postgresql://longread:hunter2@/nowhere?host=/nonexistent-socket-dir", 1);
  ASSERT_FALSE(db);
  EXPECT_NE(db.error().message.find("cannot connect to postgresql://longread:***@"), std::string::npos)
      << db.error().message;
  EXPECT_EQ(db.error().message.find("hunter2"), std::string::npos) << db.error().message;
}

TEST(PostgresDatabaseTest, ValuesRoundTripAsTheyWereGiven) {
  PostgresDatabase pg;
  ASSERT_FALSE(pg.url().empty());
  auto conn = Connection::open(pg.url());
  ASSERT_TRUE(conn) << conn.error().message;
  const std::int64_t big = std::numeric_limits<std::int64_t>::max();
  const double third = 1.0 / 3.0;
  auto rows = conn->exec("SELECT $1::bigint, $2::double precision, $3::text, $4::bigint, $5::text",
                         Params(big, third, std::string_view("caf\xc3\xa9 <b>&amp;</b>"),
                                std::optional<std::int64_t>{}, std::string_view("a\0b", 3)));
  ASSERT_TRUE(rows) << rows.error().message;
  EXPECT_EQ(rows->int64(0, 0), big);
  EXPECT_EQ(rows->real(0, 1), third);
  EXPECT_EQ(rows->text(0, 2), "caf\xc3\xa9 <b>&amp;</b>");
  EXPECT_TRUE(rows->null(0, 3));
  EXPECT_EQ(rows->optional_int64(0, 3), std::nullopt);
  // PostgreSQL text cannot hold NUL: a feed's stray NUL byte is dropped instead of failing the save.
  EXPECT_EQ(rows->text(0, 4), "ab");
}

// A Binary value goes in its type's binary form, beside text values, in a plain statement, a prepared one
// and a pipeline alike: a bytea keeps every byte (NULs and all, where a text value loses its NULs), and a
// binary value the type cannot read is the server's error for that statement, not a corrupt row.
TEST(PostgresDatabaseTest, BinaryValuesGoAsTheirBytesBesideTextOnes) {
  PostgresDatabase pg;
  ASSERT_FALSE(pg.url().empty());
  auto conn = Connection::open(pg.url());
  ASSERT_TRUE(conn) << conn.error().message;
  const std::string bytes("\0\x01\xff\\x'\0", 7);
  const char* sql = "SELECT $1::text, encode($2::bytea, 'hex'), octet_length($2::bytea), $3::bigint";
  const Params params(std::string_view("a\0b", 3), Binary{bytes}, 42);
  for (int round = 0; round < 7; ++round) {  // past the prepared statement's switch to a generic plan
    auto plain = conn->exec(sql, params);
    auto prepared = conn->exec_prepared(sql, params);
    for (auto* rows : {&plain, &prepared}) {
      ASSERT_TRUE(*rows) << (*rows).error().message;
      EXPECT_EQ((*rows)->text(0, 0), "ab");
      EXPECT_EQ((*rows)->text(0, 1), "0001ff5c782700");
      EXPECT_EQ((*rows)->int64(0, 2), 7);
      EXPECT_EQ((*rows)->int64(0, 3), 42);
    }
  }
  ASSERT_TRUE(conn->exec_script("CREATE TABLE b (k BIGINT PRIMARY KEY, v BYTEA, s TSVECTOR)"));
  const std::vector<Statement> statements = {
      {"INSERT INTO b VALUES ($1, $2::bytea, NULL)", Params(1, Binary{bytes}), true},
      {"INSERT INTO b VALUES ($1, $2::bytea, NULL)", Params(2, Binary{""})},
      {"UPDATE b SET v = v || $1::bytea WHERE k = $2", Params(Binary{std::string(1, '\0')}, 1), true},
  };
  ASSERT_TRUE(conn->exec_pipeline(statements));
  auto stored = conn->exec("SELECT k, octet_length(v), v IS NULL FROM b ORDER BY k");
  ASSERT_TRUE(stored) << stored.error().message;
  ASSERT_EQ(stored->size(), 2);
  EXPECT_EQ(stored->int64(0, 1), 8);
  EXPECT_EQ(stored->int64(1, 1), 0) << "an empty bytea, not NULL";
  EXPECT_EQ(stored->text(1, 2), "f");

  // A tsvector's binary form cut short, and one claiming more lexemes than it holds: refused.
  for (const std::string& broken : {std::string("\0\0", 2), std::string("\0\0\0\2ab\0\0\0", 9)}) {
    auto refused = conn->exec("INSERT INTO b VALUES (3, NULL, $1::tsvector)", Params(Binary{broken}));
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().kind, ErrorKind::kStorage);
    EXPECT_NE(refused.error().message.find("SQLSTATE"), std::string::npos) << refused.error().message;
  }
  auto count = conn->exec("SELECT COUNT(*) FROM b");
  ASSERT_TRUE(count) << count.error().message;
  EXPECT_EQ(count->int64(0, 0), 2);
}

TEST(PostgresDatabaseTest, AKeyTakenTwiceIsAConflictAndAFailedTransactionLeavesNothing) {
  PostgresDatabase pg;
  ASSERT_FALSE(pg.url().empty());
  auto db = Database::open(pg.url(), 2);
  ASSERT_TRUE(db) << db.error().message;
  auto first = in_transaction((*db)->pool(), [](Connection& c) -> Result<void> {
    auto r = c.exec("INSERT INTO categories (slug, name) VALUES ($1, $2)", Params("maths", "Maths"));
    if (!r) return std::unexpected(r.error());
    return {};
  });
  ASSERT_TRUE(first) << first.error().message;
  auto second = in_transaction((*db)->pool(), [](Connection& c) -> Result<void> {
    auto a = c.exec("INSERT INTO categories (slug, name) VALUES ($1, $2)", Params("history", "History"));
    if (!a) return std::unexpected(a.error());
    auto b = c.exec("INSERT INTO categories (slug, name) VALUES ($1, $2)", Params("maths", "Again"));
    if (!b) return std::unexpected(b.error());
    return {};
  });
  ASSERT_FALSE(second);
  EXPECT_EQ(second.error().kind, ErrorKind::kConflict) << second.error().message;
  auto rows = (*db)->pool().with([](Connection& c) { return c.exec("SELECT slug, name FROM categories"); });
  ASSERT_TRUE(rows) << rows.error().message;
  ASSERT_EQ(rows->size(), 1);  // "history" went with the failed transaction
  EXPECT_EQ(rows->text(0, 0), "maths");
  EXPECT_EQ(rows->text(0, 1), "Maths");
}

// Polls data_version for up to 10 s until it differs from `from`.
bool version_moves(Database& db, std::int64_t from) {
  for (int i = 0; i < 200; ++i) {
    auto v = db.data_version();
    if (v && *v != from) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

TEST(PostgresDatabaseTest, TheChangeCounterMovesWhenAnotherSessionCommitsAndNotBefore) {
  PostgresDatabase pg;
  ASSERT_FALSE(pg.url().empty());
  auto db = Database::open(pg.url(), 1);
  ASSERT_TRUE(db) << db.error().message;
  auto other = Connection::open(pg.url());
  ASSERT_TRUE(other);
  auto v0 = (*db)->data_version();
  ASSERT_TRUE(v0);

  ASSERT_TRUE(other->exec_script("BEGIN"));
  ASSERT_TRUE(other->exec("INSERT INTO categories (slug, name) VALUES ('design', 'Design')"));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_EQ((*db)->data_version().value_or(-1), *v0) << "moved before the commit";
  ASSERT_TRUE(other->exec_script("ROLLBACK"));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_EQ((*db)->data_version().value_or(-1), *v0) << "a rolled-back change moved it";

  ASSERT_TRUE(other->exec("INSERT INTO categories (slug, name) VALUES ('design', 'Design')"));
  EXPECT_TRUE(version_moves(**db, *v0));
}

TEST(PostgresDatabaseTest, ConnectionsTheServerDroppedAreMadeAgain) {
  PostgresDatabase pg;
  ASSERT_FALSE(pg.url().empty());
  auto db = Database::open(pg.url(), 1);
  ASSERT_TRUE(db) << db.error().message;
  auto admin = Connection::open(pg.url());
  ASSERT_TRUE(admin);
  // Ends every other session on this database, the pool's and the change listener's among them.
  ASSERT_TRUE(
      admin->exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                  "WHERE datname = current_database() AND pid <> pg_backend_pid()"));
  // The first statement on a dropped connection fails with the reason; the connection is then made again.
  auto lost = (*db)->pool().with([](Connection& c) { return c.exec("SELECT 1"); });
  if (!lost) {
    EXPECT_EQ(lost.error().kind, ErrorKind::kStorage);
  }
  auto again = (*db)->pool().with([](Connection& c) { return c.exec("SELECT 2"); });
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(again->int64(0, 0), 2);
  // The change listener is made again too, and still sees commits.
  auto v0 = (*db)->data_version();
  ASSERT_TRUE(v0) << v0.error().message;
  ASSERT_TRUE(admin->exec("INSERT INTO categories (slug, name) VALUES ('maths', 'Maths')"));
  EXPECT_TRUE(version_moves(**db, *v0));
}

// A blog in category "programming", for the saves below.
std::int64_t add_programming_blog(Connection& conn) {
  EXPECT_TRUE(conn.exec_script("INSERT INTO categories (slug, name) VALUES ('programming', 'Programming')"));
  auto blog = conn.exec(
      "INSERT INTO blogs (feed_url, title, site_url, category, created_at) VALUES ('https://a.example/feed', "
      "'A', 'https://a.example/', 'programming', 0) RETURNING id");
  EXPECT_TRUE(blog) << blog.error().message;
  return blog ? blog->int64(0, 0) : 0;
}

// Post number n of that blog, its guid in the order of n.
model::Article numbered_post(int n) {
  model::Article a;
  a.guid = fmt::format("g{:05}", n);
  a.title = fmt::format("Post {}", n);
  a.link = fmt::format("https://a.example/{}", n);
  a.text = fmt::format("words of post {} about lighthouses", n);
  a.content_hash = a.guid;
  return a;
}

// A crawl's saves run the same few statements for every blog, prepared once per connection. An INSERT of
// new articles is prepared only up to 16 rows, so records of every size from 1 to 100 new articles leave
// sixteen INSERTs prepared, not one per size: the server keeps every prepared statement's parse tree and
// plan for the connection's life. A record with a row naming an original is not prepared (the row's
// subquery makes its text differ).
TEST(PostgresDatabaseTest, SavingRecordsOfEverySizePreparesAFewStatementsOnly) {
  PostgresDatabase pg;
  ASSERT_FALSE(pg.url().empty());
  auto db = Database::open(pg.url(), 1);
  ASSERT_TRUE(db) << db.error().message;
  Pool::Lease conn = (*db)->pool().acquire();
  const std::int64_t blog_id = add_programming_blog(*conn);
  ASSERT_GT(blog_id, 0);
  int guid = 0;
  for (int size = 1; size <= 100; ++size) {
    CrawlRecord record{
        .blog_id = blog_id, .attempted_at = from_unix(1'700'000'000 + size), .success = true, .status = "ok"};
    for (int i = 0; i < size; ++i, ++guid) record.articles.push_back(numbered_post(guid));
    if (size == 50) record.articles[20].duplicate_of = 1;  // the first article saved
    VisibleCounts counts;
    ASSERT_TRUE(conn->exec_script("BEGIN"));
    auto saved =
        save_record(*conn, record, counts, (*db)->tokenizer(), (*db)->common_words(), (*db)->bodies());
    ASSERT_TRUE(saved) << saved.error().message;
    EXPECT_EQ(saved->inserted, size);
    ASSERT_TRUE(counts.write(*conn));
    ASSERT_TRUE(conn->exec_script("COMMIT"));
  }
  auto stored = conn->exec("SELECT COUNT(*), COUNT(duplicate_of) FROM articles");
  ASSERT_TRUE(stored) << stored.error().message;
  EXPECT_EQ(stored->int64(0, 0), guid);
  EXPECT_EQ(stored->int64(0, 1), 1);
  // Ids in feed order across the statements of one record.
  auto order = conn->exec(
      "SELECT bool_and(ok) FROM (SELECT guid > lag(guid, 1, '') OVER (ORDER BY id) AS ok"
      " FROM articles) o");
  ASSERT_TRUE(order) << order.error().message;
  EXPECT_EQ(order->text(0, 0), "t");
  auto inserts =
      conn->exec("SELECT COUNT(*) FROM pg_prepared_statements WHERE statement LIKE 'INSERT INTO articles %'");
  ASSERT_TRUE(inserts) << inserts.error().message;
  EXPECT_EQ(inserts->int64(0, 0), 16);
  EXPECT_LT(conn->prepared_count(), 30U);
}

// A group's records without articles are saved in one round trip. When that fails (here: a status the
// server refuses, bytes that are not UTF-8), it is undone and each is saved on its own: the refused record
// fails alone, and the others are saved as if they had been sent one by one.
TEST(PostgresDatabaseTest, BlogStatesSavedTogetherThatFailAreSavedOneByOne) {
  PostgresDatabase pg;
  ASSERT_FALSE(pg.url().empty());
  auto db = Database::open(pg.url(), 1);
  ASSERT_TRUE(db) << db.error().message;
  std::vector<std::int64_t> blogs;
  {
    Pool::Lease conn = (*db)->pool().acquire();
    blogs.push_back(add_programming_blog(*conn));
    for (const char* host : {"b", "c"}) {
      auto blog =
          conn->exec(fmt::format("INSERT INTO blogs (feed_url, title, site_url, category, created_at) "
                                 "VALUES ('https://{0}.example/feed', '{0}', '', 'programming', 0) "
                                 "RETURNING id",
                                 host));
      ASSERT_TRUE(blog) << blog.error().message;
      blogs.push_back(blog->int64(0, 0));
    }
  }
  std::vector<CrawlRecord> group;
  for (const std::int64_t blog : blogs) {
    group.push_back({.blog_id = blog,
                     .attempted_at = from_unix(1'700'000'000),
                     .success = true,
                     .status = "not modified",
                     .next_due_at = from_unix(1'700'003'600)});
  }
  group[1].status = "bad \xff byte";
  PgArticleStore store(**db);
  auto saved = store.save_crawls(group, {});
  ASSERT_TRUE(saved) << saved.error().message;
  ASSERT_EQ(saved->size(), 3U);
  EXPECT_TRUE((*saved)[0]) << (*saved)[0].error().message;
  ASSERT_FALSE((*saved)[1]) << "the server takes only UTF-8";
  EXPECT_NE((*saved)[1].error().message.find("UTF8"), std::string::npos) << (*saved)[1].error().message;
  EXPECT_TRUE((*saved)[2]) << (*saved)[2].error().message;
  Pool::Lease conn = (*db)->pool().acquire();
  auto rows = conn->exec("SELECT id, last_status, next_due_at FROM blogs ORDER BY id");
  ASSERT_TRUE(rows) << rows.error().message;
  ASSERT_EQ(rows->size(), 3);
  EXPECT_EQ(rows->string(0, 1), "not modified");
  EXPECT_EQ(rows->int64(0, 2), 1'700'003'600);
  EXPECT_EQ(rows->string(1, 1), "") << "the refused record changed nothing";
  EXPECT_TRUE(rows->null(1, 2));
  EXPECT_EQ(rows->string(2, 1), "not modified");
  EXPECT_EQ(rows->int64(2, 2), 1'700'003'600);
}

// A save's statements find their rows by key, so each is planned once for every value, once the server's
// statistics count a thousand articles: the lookup of a record's stored guids, run for ten more records
// then, has ten more generic plans and no custom one (PostgreSQL's own choice, plan_cache_mode = auto,
// planned it for each of its calls in a crawl). Before, on a table never analyzed, the server keeps its own
// choice: a generic plan made on the empty table is a sequential scan. The setting is the save's alone: the
// connection is back to auto after it.
TEST(PostgresDatabaseTest, ASavesStatementsArePlannedOnceForEveryValueOnceTheTableHasRows) {
  PostgresDatabase pg;
  ASSERT_FALSE(pg.url().empty());
  auto db = Database::open(pg.url(), 1);
  ASSERT_TRUE(db) << db.error().message;
  std::int64_t blog_id = 0;
  {
    Pool::Lease conn = (*db)->pool().acquire();
    blog_id = add_programming_blog(*conn);
  }
  ASSERT_GT(blog_id, 0);
  PgArticleStore store(**db);
  int next = 0;
  auto save = [&](int articles) {
    CrawlRecord record{
        .blog_id = blog_id, .attempted_at = from_unix(1'700'000'000 + next), .success = true, .status = "ok"};
    for (int i = 0; i < articles; ++i) record.articles.push_back(numbered_post(next++));
    auto saved = store.save_crawls(std::span(&record, 1), {});
    ASSERT_TRUE(saved) << saved.error().message;
    ASSERT_EQ(saved->size(), 1U);
    ASSERT_TRUE((*saved)[0]) << (*saved)[0].error().message;
  };
  auto plans = [&] {
    Pool::Lease conn = (*db)->pool().acquire();
    auto rows = conn->exec(
        "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE "
        "'SELECT b.category, a.guid%'");
    EXPECT_TRUE(rows && rows->size() == 1);
    return rows && rows->size() == 1 ? std::pair(rows->int64(0, 0), rows->int64(0, 1))
                                     : std::pair<std::int64_t, std::int64_t>(-1, -1);
  };
  for (int n = 0; n < 10; ++n) save(1);
  const auto before = plans();
  EXPECT_GE(before.second, 5) << "never analyzed: the server's own choice, custom plans first";
  save(1'000);
  {
    Pool::Lease conn = (*db)->pool().acquire();
    ASSERT_TRUE(conn->exec_script("ANALYZE articles"));
  }
  save(1);  // learns that the statistics now count enough rows
  const auto settled = plans();
  for (int n = 0; n < 10; ++n) save(1);
  const auto after = plans();
  EXPECT_EQ(after.first - settled.first, 10);
  EXPECT_EQ(after.second, settled.second);
  Pool::Lease conn = (*db)->pool().acquire();
  auto mode = conn->exec("SELECT current_setting('plan_cache_mode')");
  ASSERT_TRUE(mode) << mode.error().message;
  EXPECT_EQ(mode->text(0, 0), "auto");
}

}  // namespace
}  // namespace longread::storage::postgres

namespace longread::storage::postgres {
namespace {

TEST(PostgresQueryTest, NamedParametersBecomeNumberedOnesCastsAndLiteralsStay) {
  PostgresDatabase pg;
  ASSERT_FALSE(pg.url().empty());
  auto conn = Connection::open(pg.url());
  ASSERT_TRUE(conn) << conn.error().message;
  Query q(*conn, "SELECT :a::bigint + :b::bigint, ':not_a_name', :a::text, 'it''s :x'");
  q.bind(":b", std::int64_t{2}).bind(":a", std::int64_t{40});
  auto rows = q.run();
  ASSERT_TRUE(rows) << rows.error().message;
  EXPECT_EQ(rows->int64(0, 0), 42);
  EXPECT_EQ(rows->text(0, 1), ":not_a_name");
  EXPECT_EQ(rows->text(0, 2), "40");
  EXPECT_EQ(rows->text(0, 3), "it's :x");
}

TEST(PostgresQueryTest, AnUnboundOrUnknownNameIsAnErrorNotANull) {
  PostgresDatabase pg;
  ASSERT_FALSE(pg.url().empty());
  auto conn = Connection::open(pg.url());
  ASSERT_TRUE(conn) << conn.error().message;
  Query unbound(*conn, "SELECT :a::bigint, :b::bigint");
  unbound.bind(":a", 1);
  auto r1 = unbound.run();
  ASSERT_FALSE(r1);
  EXPECT_NE(r1.error().message.find(":b is not bound"), std::string::npos) << r1.error().message;
  Query unknown(*conn, "SELECT :a::bigint");
  unknown.bind(":a", 1).bind(":c", 3);
  auto r2 = unknown.run();
  ASSERT_FALSE(r2);
  EXPECT_NE(r2.error().message.find("no parameter :c"), std::string::npos) << r2.error().message;
}

// A refused statement reads "store: <what>: <reason>" from the store, and "db copy: <what>: store: <reason>"
// from the copy tool, which shows whose words the reason is.
TEST(PostgresQueryTest, ADbErrorNamesItsScopeOnce) {
  const Error cause{ErrorKind::kConflict, "store: duplicate key (SQLSTATE 23505)"};
  const auto in_store = db_error("cannot save", cause);
  EXPECT_EQ(in_store.error().message, "store: cannot save: duplicate key (SQLSTATE 23505)");
  EXPECT_EQ(in_store.error().kind, ErrorKind::kStorage);
  EXPECT_EQ(db_error("cannot read PostgreSQL's tables", cause, "db copy").error().message,
            "db copy: cannot read PostgreSQL's tables: store: duplicate key (SQLSTATE 23505)");
}

// text_array quotes each text, so any text comes back as one element, as given (less its NUL bytes, which
// PostgreSQL text cannot hold and Params drops).
TEST(PostgresQueryTest, ATextArrayKeepsEveryTextWhole) {
  PostgresDatabase pg;
  ASSERT_FALSE(pg.url().empty());
  auto conn = Connection::open(pg.url());
  ASSERT_TRUE(conn) << conn.error().message;
  const std::vector<std::string> texts = {"a,b",  "{x}", "q\"uote", "back\\",
                                          "NULL", "",    " sp ",    std::string("n\0ul", 4)};
  Query q(*conn, "SELECT t FROM unnest(:texts::text[]) WITH ORDINALITY AS u(t, n) ORDER BY n");
  q.bind(":texts", text_array(texts));
  auto rows = q.run();
  ASSERT_TRUE(rows) << rows.error().message;
  ASSERT_EQ(rows->size(), static_cast<int>(texts.size()));
  for (int r = 0; r + 1 < rows->size(); ++r) {
    EXPECT_FALSE(rows->null(r, 0));
    EXPECT_EQ(rows->text(r, 0), texts[static_cast<std::size_t>(r)]);
  }
  EXPECT_EQ(rows->text(rows->size() - 1, 0), "nul");
}

// A pipeline runs its statements in order in one round trip; the first the server refuses is the error
// (a conflict stays a conflict), the ones after it do not run, and the connection is usable afterwards.
TEST(PostgresQueryTest, APipelineRunsInOrderAndStopsAtTheFirstError) {
  PostgresDatabase pg;
  ASSERT_FALSE(pg.url().empty());
  auto conn = Connection::open(pg.url());
  ASSERT_TRUE(conn) << conn.error().message;
  ASSERT_TRUE(conn->exec_script("CREATE TABLE t (k TEXT PRIMARY KEY, n BIGINT NOT NULL)"));
  const std::vector<Statement> good = {
      {"INSERT INTO t VALUES ($1, $2)", Params("a", 1)},
      {"UPDATE t SET n = n * 10 WHERE k = $1", Params("a")},
      {"INSERT INTO t VALUES ($1, $2)", Params("b", 2)},
  };
  ASSERT_TRUE(conn->exec_pipeline(good));
  auto rows = conn->exec("SELECT k, n FROM t ORDER BY k");
  ASSERT_TRUE(rows) << rows.error().message;
  ASSERT_EQ(rows->size(), 2);
  EXPECT_EQ(rows->int64(0, 1), 10);
  EXPECT_EQ(rows->int64(1, 1), 2);

  ASSERT_TRUE(conn->exec_script("BEGIN"));
  const std::vector<Statement> bad = {
      {"INSERT INTO t VALUES ($1, $2)", Params("c", 3)},
      {"INSERT INTO t VALUES ($1, $2)", Params("a", 4)},
      {"INSERT INTO t VALUES ($1, $2)", Params("d", 5)},
  };
  auto failed = conn->exec_pipeline(bad);
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().kind, ErrorKind::kConflict) << failed.error().message;
  EXPECT_NE(failed.error().message.find("23505"), std::string::npos) << failed.error().message;
  ASSERT_TRUE(conn->exec_script("ROLLBACK"));
  EXPECT_TRUE(conn->healthy());
  auto after = conn->exec("SELECT COUNT(*) FROM t");
  ASSERT_TRUE(after) << after.error().message;
  EXPECT_EQ(after->int64(0, 0), 2);
}

// How many statements the server holds prepared for this session.
std::int64_t server_prepared(Connection& conn) {
  auto rows = conn.exec("SELECT COUNT(*) FROM pg_prepared_statements");
  EXPECT_TRUE(rows) << rows.error().message;
  return rows ? rows->int64(0, 0) : -1;
}

TEST(PostgresQueryTest, APreparedStatementIsPreparedOnceAndGivesWhatAPlainOneGives) {
  PostgresDatabase pg;
  ASSERT_FALSE(pg.url().empty());
  auto conn = Connection::open(pg.url());
  ASSERT_TRUE(conn) << conn.error().message;
  ASSERT_TRUE(conn->exec_script("CREATE TABLE t (k TEXT PRIMARY KEY, n BIGINT NOT NULL)"));
  for (int i = 0; i < 10; ++i) {
    auto inserted = conn->exec_prepared("INSERT INTO t VALUES ($1, $2) RETURNING n * 2",
                                        Params(fmt::format("k{}", i), i));
    ASSERT_TRUE(inserted) << inserted.error().message;
    EXPECT_EQ(inserted->int64(0, 0), 2 * i);
  }
  EXPECT_EQ(conn->prepared_count(), 1U);
  EXPECT_EQ(server_prepared(*conn), 1);
  // Past the sixth run the server may plan once for every value; the answers stay the values' own.
  for (int i = 0; i < 10; ++i) {
    auto read = conn->exec_prepared("SELECT n FROM t WHERE k = $1", Params(fmt::format("k{}", i)));
    ASSERT_TRUE(read) << read.error().message;
    ASSERT_EQ(read->size(), 1);
    EXPECT_EQ(read->int64(0, 0), i);
  }
  EXPECT_EQ(server_prepared(*conn), 2);

  // A key taken twice is the same conflict as unprepared, and the statement stays prepared.
  auto twice = conn->exec_prepared("INSERT INTO t VALUES ($1, $2) RETURNING n * 2", Params("k1", 1));
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error().kind, ErrorKind::kConflict) << twice.error().message;
  EXPECT_EQ(conn->prepared_count(), 2U);

  // A statement the server refuses to prepare is an error with its reason, and nothing is kept.
  auto bad = conn->exec_prepared("SELEC n FROM t");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("syntax error"), std::string::npos) << bad.error().message;
  EXPECT_EQ(conn->prepared_count(), 2U);
  EXPECT_EQ(server_prepared(*conn), 2);
}

TEST(PostgresQueryTest, PreparedStatementsStopAtTheirCapAndAreMadeAgainAfterAReconnect) {
  PostgresDatabase pg;
  ASSERT_FALSE(pg.url().empty());
  auto db = Database::open(pg.url(), 1);
  ASSERT_TRUE(db) << db.error().message;
  Pool::Lease conn = (*db)->pool().acquire();
  // One statement per count of rows, as an INSERT of n articles is: the server never holds more than
  // the cap, however many different ones a connection runs.
  for (std::size_t i = 0; i < Connection::kMaxPrepared + 10; ++i) {
    auto rows = conn->exec_prepared(fmt::format("SELECT $1::bigint + {}", i), Params(1));
    ASSERT_TRUE(rows) << rows.error().message;
    EXPECT_EQ(rows->int64(0, 0), static_cast<std::int64_t>(i + 1));
  }
  EXPECT_LE(conn->prepared_count(), Connection::kMaxPrepared);
  EXPECT_EQ(server_prepared(*conn), static_cast<std::int64_t>(conn->prepared_count()));

  // A pipeline at the cap keeps the statements it prepared first: the ones past the cap go unprepared.
  std::vector<Statement> fill;
  for (std::size_t i = conn->prepared_count(); i < Connection::kMaxPrepared; ++i) {
    fill.push_back({fmt::format("SELECT $1::bigint + {}", 1000 + i), Params(1), true});
  }
  fill.push_back({"SELECT $1::bigint - 1", Params(1), true});
  fill.push_back({"SELECT $1::bigint - 2", Params(1), true});
  ASSERT_TRUE(conn->exec_pipeline(fill));
  EXPECT_EQ(conn->prepared_count(), Connection::kMaxPrepared);
  EXPECT_EQ(server_prepared(*conn), static_cast<std::int64_t>(Connection::kMaxPrepared));

  // The server drops the session: its prepared statements are gone with it, and are made again.
  auto admin = Connection::open(pg.url());
  ASSERT_TRUE(admin);
  ASSERT_TRUE(
      admin->exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                  "WHERE datname = current_database() AND pid <> pg_backend_pid()"));
  auto lost = conn->exec_prepared("SELECT $1::bigint + 0", Params(1));
  EXPECT_FALSE(lost);
  conn->reset();
  auto again = conn->exec_prepared("SELECT $1::bigint + 0", Params(41));
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(again->int64(0, 0), 41);
  EXPECT_EQ(conn->prepared_count(), 1U);
}

TEST(PostgresQueryTest, APipelineRunsPreparedAndPlainStatementsAlike) {
  PostgresDatabase pg;
  ASSERT_FALSE(pg.url().empty());
  auto conn = Connection::open(pg.url());
  ASSERT_TRUE(conn) << conn.error().message;
  ASSERT_TRUE(conn->exec_script("CREATE TABLE t (k TEXT PRIMARY KEY, n BIGINT NOT NULL)"));
  for (int round = 0; round < 3; ++round) {
    const std::vector<Statement> statements = {
        {"INSERT INTO t VALUES ($1, $2)", Params(fmt::format("a{}", round), 1), true},
        {"UPDATE t SET n = n * 10 WHERE k = $1", Params(fmt::format("a{}", round)), true},
        {"INSERT INTO t VALUES ($1, $2)", Params(fmt::format("b{}", round), 2)},
    };
    ASSERT_TRUE(conn->exec_pipeline(statements));
  }
  EXPECT_EQ(conn->prepared_count(), 2U);
  auto rows = conn->exec("SELECT SUM(n), COUNT(*) FROM t");
  ASSERT_TRUE(rows) << rows.error().message;
  EXPECT_EQ(rows->int64(0, 0), 3 * (10 + 2));
  EXPECT_EQ(rows->int64(0, 1), 6);

  // The first error stops the pipeline as without prepared statements.
  ASSERT_TRUE(conn->exec_script("BEGIN"));
  const std::vector<Statement> bad = {
      {"INSERT INTO t VALUES ($1, $2)", Params("c", 3), true},
      {"INSERT INTO t VALUES ($1, $2)", Params("a0", 4), true},
      {"INSERT INTO t VALUES ($1, $2)", Params("d", 5), true},
  };
  auto failed = conn->exec_pipeline(bad);
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().kind, ErrorKind::kConflict) << failed.error().message;
  ASSERT_TRUE(conn->exec_script("ROLLBACK"));
  auto after = conn->exec("SELECT COUNT(*) FROM t");
  ASSERT_TRUE(after) << after.error().message;
  EXPECT_EQ(after->int64(0, 0), 6);
}

// One programming blog in the database, and a record of its posts 0 to n - 1.
std::int64_t add_programming_blog(Database& db) {
  Pool::Lease conn = db.pool().acquire();
  return add_programming_blog(*conn);
}
CrawlRecord numbered_record(std::int64_t blog_id, int n) {
  CrawlRecord record{
      .blog_id = blog_id, .attempted_at = from_unix(1'700'000'000), .success = true, .status = "ok"};
  for (int i = 0; i < n; ++i) record.articles.push_back(numbered_post(i));
  return record;
}

// A database with one programming blog, and the article store over it.
class PostgresBlogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(pg_.url().empty());
    auto db = Database::open(pg_.url(), 2);
    ASSERT_TRUE(db) << db.error().message;
    db_ = std::move(*db);
    blog_id_ = add_programming_blog(*db_);
    store_ = std::make_unique<PgArticleStore>(*db_);
  }

  // The blog's stored articles by guid, `count` of them.
  std::map<std::string, StoredArticleKey> keys_by_guid(std::size_t count) {
    auto keys = store_->article_keys(blog_id_);
    EXPECT_TRUE(keys) << keys.error().message;
    std::map<std::string, StoredArticleKey> out;
    if (keys)
      for (auto& key : *keys) out.emplace(key.guid, std::move(key));
    EXPECT_EQ(out.size(), count);
    return out;
  }

  PostgresDatabase pg_;
  std::unique_ptr<Database> db_;
  std::int64_t blog_id_ = 0;
  std::unique_ptr<PgArticleStore> store_;
};

// The plan of `sql` with its parameters bound by `bind`, one line of EXPLAIN each.
std::string plan_of(Connection& conn, std::string_view sql, const std::function<void(Query&)>& bind) {
  Query explain(conn, "EXPLAIN " + std::string(sql));
  bind(explain);
  auto plan = explain.run();
  if (!plan) return "error: " + plan.error().message;
  std::string whole;
  for (int r = 0; r < plan->size(); ++r) whole += plan->string(r, 0) + "\n";
  return whole;
}

// The same with the scans other than an index's switched off: a plan that still reads the table then means
// no index serves the statement. The table is vacuumed first, for the visibility map an index-only scan
// relies on.
std::string plan_from_indexes(Connection& conn, std::string_view sql,
                              const std::function<void(Query&)>& bind) {
  EXPECT_TRUE(conn.exec_script("VACUUM articles"));
  EXPECT_TRUE(conn.exec_script("BEGIN; SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off"));
  std::string plan = plan_of(conn, sql, bind);
  EXPECT_TRUE(conn.exec_script("ROLLBACK"));
  return plan;
}

// A crawler's read of every original at the start of a pass is answered from articles_originals without
// visiting the table: the index's predicate must be the statement's, or the planner cannot use it and reads
// every row of the articles table (the scans other than the index are switched off here, so a plan without
// the index is what such a mismatch gives). The read gives the originals alone, copies and rows without a
// SimHash left out.
TEST_F(PostgresBlogTest, TheOriginalsAreReadFromTheirIndexAlone) {
  CrawlRecord record = numbered_record(blog_id_, 6);
  for (int i = 0; i < 6; ++i)
    record.articles[static_cast<std::size_t>(i)].simhash =
        i == 5 ? 0 : 0x1000 + static_cast<std::uint64_t>(i);
  ASSERT_TRUE(store_->save_crawl(record));
  const auto keys = keys_by_guid(6);
  ASSERT_EQ(keys.size(), 6U);
  const auto id_of = [&](const std::string& guid) { return keys.at(guid).id; };
  const std::pair<std::int64_t, std::int64_t> copy{id_of("g00001"), id_of("g00000")};
  ASSERT_TRUE(store_->mark_duplicates(std::span(&copy, 1)));

  auto originals = store_->simhash_index();
  ASSERT_TRUE(originals) << originals.error().message;
  std::vector<std::int64_t> ids;
  for (const auto& entry : *originals) {
    ids.push_back(entry.id);
    EXPECT_EQ(entry.blog_id, blog_id_);
  }
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(ids,
            (std::vector<std::int64_t>{id_of("g00000"), id_of("g00002"), id_of("g00003"), id_of("g00004")}));

  Pool::Lease conn = db_->pool().acquire();
  const std::string plan = plan_from_indexes(*conn, kSelectOriginals, [](Query&) {});
  EXPECT_NE(plan.find("Index Only Scan using articles_originals"), std::string::npos) << plan;
}

// A crawl writes similar articles a batch at a time, each batch's arrays different: its statements are
// prepared on the connection, so the server plans them once rather than on every batch. Both of the
// database's connections are held to read what each has prepared.
TEST_F(PostgresBlogTest, ASimilarArticlesBatchRunsPreparedStatements) {
  ASSERT_TRUE(store_->save_crawl(numbered_record(blog_id_, 3)));
  std::vector<std::int64_t> ids;
  for (const auto& [guid, key] : keys_by_guid(3)) ids.push_back(key.id);
  std::sort(ids.begin(), ids.end());
  PgSimilarStore similar(*db_);
  const std::vector<std::uint32_t> buckets = {5, 6};
  ASSERT_TRUE(similar.add_similar_terms(std::vector<SimilarTermCount>{{5, 1}, {6, 2}}, 2));
  ASSERT_TRUE(similar.similar_term_frequencies(buckets));
  ASSERT_TRUE(similar.similar_candidates(ids));
  const std::vector<std::uint64_t> terms = {41, 42};
  for (std::size_t i = 1; i < ids.size(); ++i) {
    auto saved = similar.index_similar(terms, 4, [&](const std::vector<SimilarPostingRow>&) {
      return Result<std::vector<SimilarWrite>>(
          std::vector<SimilarWrite>{{.article_id = ids[i],
                                     .postings = {{41, 0.5}, {42, 0.25}},
                                     .picks = {{ids[i], ids[0], 0.5, "shared"}},
                                     .offers = {{ids[0], ids[i], 0.5, "shared"}}}});
    });
    ASSERT_TRUE(saved) << saved.error().message;
  }
  const std::vector<std::uint64_t> one = {41};
  EXPECT_EQ(similar.similar_postings(one, 10)->size(), 2U) << "both batches were written";

  std::vector<std::string> prepared;
  Pool::Lease first = db_->pool().acquire();
  Pool::Lease second = db_->pool().acquire();
  for (Connection* conn : {&*first, &*second}) {
    auto rows = conn->exec("SELECT statement FROM pg_prepared_statements");
    ASSERT_TRUE(rows) << rows.error().message;
    for (int r = 0; r < rows->size(); ++r) prepared.push_back(rows->string(r, 0));
  }
  const auto has = [&](std::string_view part) {
    return std::any_of(prepared.begin(), prepared.end(),
                       [&](const std::string& sql) { return sql.find(part) != std::string::npos; });
  };
  for (const std::string_view part :
       {"pg_advisory_xact_lock", "FROM similar_postings WHERE term", "INSERT INTO similar_postings",
        "SELECT id FROM articles WHERE id = ANY", "FROM similar_articles WHERE article_id",
        "INSERT INTO similar_articles", "FROM similar_terms WHERE bucket", "INSERT INTO similar_terms",
        "SELECT id, blog_id, simhash, visible FROM articles"}) {
    EXPECT_TRUE(has(part)) << part << " is not prepared on either connection";
  }
}

// A crawler reads a blog's stored articles whenever its feed brings entries, and a save reads the stored rows
// of the guids it brings: both from the (blog_id, guid) key, which carries the columns they need, so no heap
// page of an hour-old blog is read.
TEST_F(PostgresBlogTest, ABlogsStoredArticlesAreReadFromTheirKeyAlone) {
  ASSERT_TRUE(store_->save_crawl(numbered_record(blog_id_, 6)));
  for (const auto& [guid, key] : keys_by_guid(6)) EXPECT_FALSE(key.content_hash.empty()) << guid;

  Pool::Lease conn = db_->pool().acquire();
  const std::string keys_plan =
      plan_from_indexes(*conn, kSelectArticleKeys, [&](Query& q) { q.bind(":blog_id", blog_id_); });
  EXPECT_NE(keys_plan.find("Index Only Scan using articles_blog_guid"), std::string::npos) << keys_plan;
  const std::string known_plan = plan_from_indexes(*conn, kSelectKnownGuids, [&](Query& q) {
    q.bind(":blog_id", blog_id_).bind(":guids", text_array(std::vector<std::string>{"g00001", "g00004"}));
  });
  EXPECT_NE(known_plan.find("Index Only Scan using articles_blog_guid"), std::string::npos) << known_plan;

  // The key still keeps a guid once per blog.
  auto again = conn->exec(fmt::format(
      "INSERT INTO articles (blog_id, guid, first_seen, display_at, category) VALUES ({}, 'g00001', 1, 1, "
      "'programming')",
      blog_id_));
  ASSERT_FALSE(again);
  EXPECT_NE(again.error().message.find("articles_blog_guid"), std::string::npos) << again.error().message;
}

// The widest guid a crawl stores is the pipeline's bound on an identity (1,024 bytes; longer ones become a
// hash), and a feed can make it incompressible. The key holds it beside the columns it carries, within the
// 2.7 KB a B-tree entry may take: the article is saved, found again by its guid, and its copy in the next
// crawl is an update, not a second row.
TEST_F(PostgresBlogTest, TheWidestGuidACrawlStoresFitsTheKeyWithItsColumns) {
  std::string guid;
  std::uint64_t state = 0x9e3779b97f4a7c15ULL;
  constexpr std::string_view kChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  while (guid.size() < 1024) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    guid += kChars[(state >> 58) & 63];
  }
  CrawlRecord record = numbered_record(blog_id_, 1);
  record.articles[0].guid = guid;
  record.articles[0].content_hash = "0123456789abcdef";
  auto saved = store_->save_crawl(record);
  ASSERT_TRUE(saved) << saved.error().message;
  auto first = keys_by_guid(1);
  ASSERT_TRUE(first.contains(guid));
  EXPECT_EQ(first.at(guid).content_hash, "0123456789abcdef");

  record.articles[0].content_hash = "fedcba9876543210";
  record.articles[0].text += " and one more lighthouse";
  ASSERT_TRUE(store_->save_crawl(record));
  auto second = keys_by_guid(1);
  ASSERT_TRUE(second.contains(guid));
  EXPECT_EQ(second.at(guid).id, first.at(guid).id);
  EXPECT_EQ(second.at(guid).content_hash, "fedcba9876543210");
}

// Each save that logs originals drops the log's oldest places beyond its cap, a few at a time, under the
// lock every crawler waits on. The log's statistics describe places dropped long ago (here: analyzed at
// places 1-20,000, now 30,001-50,000), and on those the planner took the drop of places up to N for most of
// the log and read all of it. With the oldest place as a lower bound it walks the key to the few it drops.
TEST(PostgresDatabaseTest, TheLogsOldestPlacesAreDroppedThroughItsKey) {
  PostgresDatabase pg;
  ASSERT_FALSE(pg.url().empty());
  auto db = Database::open(pg.url(), 1);
  ASSERT_TRUE(db) << db.error().message;
  Pool::Lease conn = (*db)->pool().acquire();
  ASSERT_TRUE(conn->exec_script(
      "INSERT INTO near_duplicate_log (seq, article_id) SELECT g, g FROM generate_series(1, 20000) g;"
      "ANALYZE near_duplicate_log;"
      "INSERT INTO near_duplicate_log (seq, article_id) SELECT g, g FROM generate_series(20001, 50000) g;"
      "DELETE FROM near_duplicate_log WHERE seq <= 30000"));
  const std::string plan =
      plan_of(*conn, kPruneLog, [](Query& q) { q.bind(":first", 30001).bind(":last_dropped", 30007); });
  EXPECT_EQ(plan.find("Seq Scan"), std::string::npos) << plan;
  EXPECT_NE(plan.find("near_duplicate_log_pkey"), std::string::npos) << plan;

  auto dropped = run_query(*conn, kPruneLog, "prune",
                           [](Query& q) { q.bind(":first", 30001).bind(":last_dropped", 30007); });
  ASSERT_TRUE(dropped) << dropped.error().message;
  auto ends = read_log_ends(*conn);
  ASSERT_TRUE(ends) << ends.error().message;
  EXPECT_EQ(ends->tail, 30008);
  EXPECT_EQ(ends->head, 50000);
}

}  // namespace
}  // namespace longread::storage::postgres
