#include "pipeline/lifecycle.h"

#include <unordered_map>

#include <fmt/core.h>
#include <spdlog/spdlog.h>

namespace longread::pipeline {
namespace {

std::string day_of(TimePoint t) {
  const auto day = std::chrono::year_month_day{std::chrono::floor<std::chrono::days>(t)};
  return fmt::format("{:04}-{:02}-{:02}", static_cast<int>(day.year()), static_cast<unsigned>(day.month()),
                     static_cast<unsigned>(day.day()));
}

// Why a blog is retired, in the words the audit log and the admin area show.
std::string reason_for(const storage::BlogHealth& health, const storage::LifecycleVerdict& verdict,
                       const storage::LifecycleRules& rules) {
  const model::Blog& b = health.blog;
  if (verdict.dead && rules.auto_retire_dead) {
    return fmt::format(
        "dead: {} failed polls in a row, {}", b.consecutive_failures,
        b.last_success_at ? "no success since " + day_of(*b.last_success_at)
                          : std::string("never read since it was followed on ") + day_of(health.followed_at));
  }
  return health.newest_article_at
             ? "inactive: no post since " + day_of(*health.newest_article_at)
             : "inactive: no post since it was followed on " + day_of(health.followed_at);
}

}  // namespace

Result<std::vector<RetiredBlog>> retire_lifecycle_blogs(storage::BlogStore& blogs, storage::AuditStore& audit,
                                                        const storage::LifecycleRules& rules, TimePoint now) {
  std::vector<RetiredBlog> retired;
  if (!rules.auto_retire_dead && !rules.auto_retire_inactive) return retired;
  // recent_articles is not needed here; `since` only bounds that count.
  auto health = blogs.blog_health(now);
  if (!health) return std::unexpected(health.error());
  auto lifecycles = blogs.blog_lifecycle();
  if (!lifecycles) return std::unexpected(lifecycles.error());
  std::unordered_map<std::int64_t, storage::BlogLifecycle> by_id;
  for (auto& l : *lifecycles) by_id.emplace(l.blog_id, std::move(l));
  for (const auto& h : *health) {
    // A paused blog is already in the operator's hands (and a quarantined one waits for them).
    if (h.blog.paused || h.blog.quarantined) continue;
    const auto found = by_id.find(h.blog.id);
    const storage::BlogLifecycle lifecycle =
        found != by_id.end() ? found->second : storage::BlogLifecycle{.blog_id = h.blog.id};
    const auto verdict = storage::classify_blog(h, lifecycle, rules, now);
    if (verdict.retired) continue;
    if (!(verdict.dead && rules.auto_retire_dead) && !(verdict.inactive && rules.auto_retire_inactive))
      continue;
    const std::string reason = reason_for(h, verdict, rules);
    auto done = blogs.retire_blog(h.blog.id, reason, now);
    if (!done) return std::unexpected(done.error());
    if (!*done) continue;  // retired meanwhile (an operator, another process)
    if (auto logged = audit.add_audit_entry({.at = now,
                                             .actor = "system",
                                             .action = "blog.retire",
                                             .target = fmt::format("blog {} \"{}\"", h.blog.id, h.blog.title),
                                             .detail = reason});
        !logged) {
      return std::unexpected(logged.error());
    }
    spdlog::info("lifecycle: blog_id={} feed_url={} retired ({})", h.blog.id, h.blog.feed_url, reason);
    retired.push_back({.blog_id = h.blog.id, .title = h.blog.title, .reason = reason});
  }
  return retired;
}

}  // namespace longread::pipeline
