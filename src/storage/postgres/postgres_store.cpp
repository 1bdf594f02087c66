// The PostgreSQL Store: one class per role (postgres/*_store.h), each deriving virtually from its role, made
// into a whole Store here. They share one Database (the connection pool and the change listener).
#include <memory>

#include "storage/postgres/article_store.h"
#include "storage/postgres/audit_store.h"
#include "storage/postgres/blog_store.h"
#include "storage/postgres/database.h"
#include "storage/postgres/database_store.h"
#include "storage/postgres/limit_store.h"
#include "storage/postgres/lock_store.h"
#include "storage/postgres/moderation_store.h"
#include "storage/postgres/newsletter_store.h"
#include "storage/postgres/outbox_store.h"
#include "storage/postgres/reader_mark_store.h"
#include "storage/postgres/reader_store.h"
#include "storage/postgres/secret_store.h"
#include "storage/postgres/similar_store.h"
#include "storage/postgres/suggestion_store.h"
#include "storage/store.h"

namespace longread::storage {
namespace postgres {
namespace {

class PostgresStore final : public Store,
                            public PgBlogStore,
                            public PgArticleStore,
                            public PgSimilarStore,
                            public PgReaderStore,
                            public PgReaderMarkStore,
                            public PgNewsletterStore,
                            public PgOutboxStore,
                            public PgSecretStore,
                            public PgLimitStore,
                            public PgLockStore,
                            public PgSuggestionStore,
                            public PgModerationStore,
                            public PgAuditStore,
                            public PgDatabaseStore {
 public:
  // The role classes keep a reference to *db, which this object owns: bases are made before members and
  // destroyed after them, and none of them uses the database in its destructor.
  explicit PostgresStore(std::unique_ptr<Database> db)
      : PgBlogStore(*db),
        PgArticleStore(*db),
        PgSimilarStore(*db),
        PgReaderStore(*db),
        PgReaderMarkStore(*db),
        PgNewsletterStore(*db),
        PgOutboxStore(*db),
        PgSecretStore(*db),
        PgLimitStore(*db),
        PgLockStore(*db),
        PgSuggestionStore(*db),
        PgModerationStore(*db),
        PgAuditStore(*db),
        PgDatabaseStore(*db),
        db_(std::move(db)) {}

 private:
  std::unique_ptr<Database> db_;
};

}  // namespace
}  // namespace postgres

Result<std::unique_ptr<Store>> open_postgres_store(const std::string& url) {
  auto db = postgres::Database::open(url);
  if (!db) return std::unexpected(db.error());
  return std::make_unique<postgres::PostgresStore>(std::move(*db));
}

bool is_database_url(std::string_view db) noexcept {
  return postgres::is_postgres_url(db);
}

std::string display_db(std::string_view db) {
  return postgres::redact_url(db);
}

Result<std::unique_ptr<Store>> open_store(const std::string& db) {
  if (postgres::is_postgres_url(db)) return open_postgres_store(db);
  return open_sqlite_store(db);
}

}  // namespace longread::storage
