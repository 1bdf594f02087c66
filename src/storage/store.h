// The storage interface: everything longread keeps goes through a Store. Two backends implement it: SQLite
// (sqlite/, the default: one file under ./data) and PostgreSQL (postgres/, for several processes on several
// machines); each has its own numbered migrations.
//
// The Store is the sum of small role interfaces (storage/roles/*.h, docs/storage.md "Roles"), each a
// coherent part of what is kept: blogs, articles, similar articles, readers, readers' marks, the newsletter,
// the outbox, secrets, limits, locks, suggestions, moderation, the audit log and the database as a whole.
// A backend implements the Store, so it implements every role; a consumer takes the roles it uses (a
// Store& converts to each), so what a process needs of its database is written in its constructors.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "core/error.h"
#include "storage/roles/article_store.h"
#include "storage/roles/audit_store.h"
#include "storage/roles/blog_store.h"
#include "storage/roles/database_store.h"
#include "storage/roles/limit_store.h"
#include "storage/roles/lock_store.h"
#include "storage/roles/moderation_store.h"
#include "storage/roles/newsletter_store.h"
#include "storage/roles/outbox_store.h"
#include "storage/roles/reader_mark_store.h"
#include "storage/roles/reader_store.h"
#include "storage/roles/secret_store.h"
#include "storage/roles/similar_store.h"
#include "storage/roles/suggestion_store.h"
#include "storage/types.h"

namespace longread::storage {

// The whole store: every role. Adds nothing of its own, so a backend is complete exactly when it implements
// every role's methods (each pure virtual: a missing one is a compile error, never an "unsupported" at run
// time). The roles are virtual bases so that a backend may implement each role in a class of its own,
// deriving virtually from that one role, and make its Store from those classes (the PostgreSQL backend
// does): the role classes' methods are then the final overriders of Store's.
class Store : public virtual BlogStore,
              public virtual ArticleStore,
              public virtual SimilarStore,
              public virtual ReaderStore,
              public virtual ReaderMarkStore,
              public virtual NewsletterStore,
              public virtual OutboxStore,
              public virtual SecretStore,
              public virtual LimitStore,
              public virtual LockStore,
              public virtual SuggestionStore,
              public virtual ModerationStore,
              public virtual AuditStore,
              public virtual DatabaseStore {
 public:
  ~Store() override = default;
};

// Opens (creating if needed) the SQLite database at `path`, applies pending migrations, enables WAL.
Result<std::unique_ptr<Store>> open_sqlite_store(const std::string& path);
// Connects to the PostgreSQL database at `url` (postgresql://…), applies pending migrations
// (postgres/migrations) and listens for other processes' changes.
Result<std::unique_ptr<Store>> open_postgres_store(const std::string& url);
// The `db` setting: a postgresql:// or postgres:// URL opens PostgreSQL, anything else is a SQLite path.
Result<std::unique_ptr<Store>> open_store(const std::string& db);
// Whether the `db` setting is a PostgreSQL URL rather than a SQLite path.
bool is_database_url(std::string_view db) noexcept;
// The `db` setting as logs may show it: a URL's password replaced by "***".
std::string display_db(std::string_view db);

}  // namespace longread::storage
