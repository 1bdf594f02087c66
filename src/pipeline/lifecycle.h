// The automatic retirement of dead and inactive blogs (lifecycle.auto_retire_dead / _inactive, off by
// default): one named unit of work that the crawl pass (`longread crawl`, serve's crawl loop) runs after
// polling. A retired blog is paused with its reason and keeps its articles on the site.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/time.h"
#include "storage/lifecycle.h"
#include "storage/roles/audit_store.h"
#include "storage/roles/blog_store.h"

namespace longread::pipeline {

struct RetiredBlog {
  std::int64_t blog_id = 0;
  std::string title{};
  std::string reason{};  // "dead: 12 failed polls in a row, no success since 2026-10-01"
};

// Retires every followed blog that is neither paused nor retired and is dead (with auto_retire_dead) or
// inactive (with auto_retire_inactive) by `rules` at `now`, each with an audit entry whose actor is
// "system" in `audit`. Nothing when both switches are off. Returns what it retired.
Result<std::vector<RetiredBlog>> retire_lifecycle_blogs(storage::BlogStore& blogs, storage::AuditStore& audit,
                                                        const storage::LifecycleRules& rules, TimePoint now);

}  // namespace longread::pipeline
