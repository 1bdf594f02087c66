// "/metrics" on the site: the operator's Prometheus metrics for a scraper that presents the configured
// bearer token (metrics.token; RFC 6750 section 2.1). Without a token configured the route is not there.
#include "accounts/crypto.h"
#include "pages/pages.h"

namespace longread::ui::pages {

Result<web::Response> metrics(View& view, const web::Request& request, const Params&) {
  const SiteOptions& options = view.options();
  if (options.metrics_token.empty() || !options.metrics_text) {
    return fail(ErrorKind::kNotFound, "ui: metrics are not served on the site", "Page not found.");
  }
  web::Response res;
  res.set_header("Cache-Control", "no-store");
  const std::string_view authorization = request.header("Authorization").value_or("");
  constexpr std::string_view kBearer = "Bearer ";
  const bool bearer =
      authorization.size() > kBearer.size() && authorization.substr(0, kBearer.size()) == kBearer;
  if (!bearer || !accounts::secrets_equal(authorization.substr(kBearer.size()), options.metrics_token)) {
    res.status = 401;
    res.content_type = "text/plain; charset=utf-8";
    res.set_header("WWW-Authenticate", "Bearer realm=\"metrics\"");
    res.body = "A bearer token is required.\n";
    return res;
  }
  res.content_type = "text/plain; version=0.0.4; charset=utf-8";
  res.body = options.metrics_text();
  return res;
}

}  // namespace longread::ui::pages
