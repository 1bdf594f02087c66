#include "storage/lifecycle.h"

#include "core/url.h"

namespace longread::storage {

LifecycleVerdict classify_blog(const BlogHealth& health, const BlogLifecycle& lifecycle,
                               const LifecycleRules& rules, TimePoint now) {
  LifecycleVerdict v;
  const model::Blog& blog = health.blog;
  const TimePoint last_read = blog.last_success_at.value_or(health.followed_at);
  v.dead = blog.consecutive_failures >= rules.dead_failures && last_read <= now - rules.dead_days;
  const TimePoint last_post = health.newest_article_at.value_or(health.followed_at);
  v.inactive = last_post <= now - rules.inactive_months * kLifecycleMonth;
  v.moved = lifecycle.moved_at.has_value();
  if (v.moved) {
    const std::string from = site_of_host(url_host(lifecycle.moved_from));
    const std::string to = site_of_host(url_host(blog.feed_url));
    v.moved_off_site = from != to;
  }
  v.retired = lifecycle.retired_at.has_value();
  return v;
}

}  // namespace longread::storage
