// The weekly newsletter's web side: "POST /newsletter" (the "Stay updated" box) sends a
// double opt-in mail with a signed, expiring link to "/newsletter/confirm"; "/newsletter/unsubscribe"
// leaves with one click (GET from the mail's body, POST from mail clients per RFC 8058). The signed
// links are their own proof, so those two take no CSRF token; the subscribe form does.
#include <spdlog/spdlog.h>

#include "accounts/validate.h"
#include "pages/forms.h"
#include "pages/pages.h"
#include "web/client_address.h"

namespace longread::ui::pages {
namespace {

web::Response newsletter_page(View& view, std::string_view title, Html body, int status) {
  Page out;
  out.title = std::string(title);
  out.description = "A weekly newsletter with the top 5 articles worth reading.";
  out.path = "/newsletter";
  out.status = status;
  out.body = html("<h1 class=\"page-title\">{}</h1>\n{}", text(title), body);
  web::Response res = view.render(out);
  res.set_header("Cache-Control", "no-store");
  return res;
}

web::Response subscribe_form(View& view, std::string_view email, std::string_view message, int status) {
  return newsletter_page(
      view, "Stay updated",
      html("{}<p>A weekly newsletter with the top 5 articles worth reading. Plain text, no tracking.</p>\n"
           "<form method=\"post\" action=\"/newsletter\" class=\"account-form\"><input type=\"hidden\" "
           "name=\"csrf\" value=\"{}\"><label for=\"newsletter-email\">Email address</label><input "
           "id=\"newsletter-email\" type=\"email\" name=\"email\" required maxlength=\"254\" "
           "autocomplete=\"email\" value=\"{}\"><button type=\"submit\" class=\"button "
           "primary\">Subscribe</button></form>\n",
           message.empty() ? Html() : html("<p class=\"form-error\" role=\"alert\">{}</p>\n", text(message)),
           attr(view.csrf_token(true)), attr(email)),
      status);
}

// A site that cannot mail the confirmation has no newsletter: its pages are not found rather than a form
// that ends on "not set up".
Result<void> newsletter_offered(const View& view) {
  if (view.options().send_confirmation) return {};
  return fail(ErrorKind::kNotFound, "ui: no newsletter (no mail sender)", "This site has no newsletter.");
}

}  // namespace

Result<web::Response> newsletter_form(View& view, const web::Request&, const Params&) {
  if (auto offered = newsletter_offered(view); !offered) return std::unexpected(offered.error());
  return subscribe_form(view, "", "", 200);
}

Result<web::Response> subscribe(View& view, const web::Request& request, const Params&) {
  if (auto offered = newsletter_offered(view); !offered) return std::unexpected(offered.error());
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  const std::string_view input = form_value(*form, "email");
  const std::string_view shown = input.size() <= 254 ? input : std::string_view();
  auto email = accounts::normalize_email(input);
  if (!email) return subscribe_form(view, shown, email.error().display(), 400);
  const std::string client = "client:" + web::client_key(request.remote_address);
  if (auto wait = view.context().newsletter_limiter.retry_after(client, view.now())) {
    return subscribe_form(view, shown, accounts::try_again_message(*wait), 429);
  }
  view.context().newsletter_limiter.record(client, view.now());
  const auto& send = view.options().send_confirmation;
  auto subscriber = view.store().add_subscriber(*email, view.now());
  if (!subscriber) return std::unexpected(subscriber.error());
  // One confirmation per address and hour, whichever clients ask (Store::claim_mail_slot): the form
  // cannot be used to flood a stranger's inbox, and the answer is the same when nothing is sent.
  bool mail_due = !subscriber->confirmed_at;
  if (mail_due) {
    std::string recipient = *email;
    for (char& c : recipient) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    auto slot = view.store().claim_mail_slot(recipient, "newsletter", view.now(),
                                             view.accounts().options().mail_resend_gap);
    if (!slot) return std::unexpected(slot.error());
    mail_due = *slot;
  }
  if (mail_due) {
    const std::int64_t expires = to_unix(view.now() + view.options().confirmation_lifetime);
    const std::string url = view.options().base_url + "/newsletter/confirm?email=" + web::url_encode(*email) +
                            "&expires=" + std::to_string(expires) +
                            "&sig=" + view.accounts().link_signature("confirm", *email, expires);
    // `serve` only queues the mail (its outbox sends and retries it), so this fails only when the
    // database does: the answer is the same whether or not the SMTP server is up.
    if (auto sent = send(*email, url); !sent) {
      spdlog::warn("newsletter: confirmation mail not queued subscriber_id={} error=\"{}\"", subscriber->id,
                   sent.error().message);
      return newsletter_page(view, "Stay updated",
                             Html::literal("<p>The confirmation mail could not be sent just now. Please try "
                                           "again in a few minutes.</p>\n"),
                             503);
    }
  }
  // The same answer whether the address was new, pending or already confirmed.
  return newsletter_page(
      view, "Check your inbox",
      html("<p>If {} can receive the newsletter, a confirmation link is on its way. The link works for {} "
           "hours; only confirmed addresses get the weekly mail.</p>\n",
           text(*email), number(view.options().confirmation_lifetime.count())),
      200);
}

Result<web::Response> subscribe_bad_token(View& view, const web::Request& request, const Params&) {
  // A site without a newsletter says so, token or not.
  if (auto offered = newsletter_offered(view); !offered) return std::unexpected(offered.error());
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  const std::string_view input = form_value(*form, "email");
  // The cached article pages carry no token for visitors: they confirm here, on a form that has one.
  return subscribe_form(view, input.size() <= 254 ? input : std::string_view(),
                        "Please confirm your subscription.", 403);
}

Result<web::Response> confirm_subscription(View& view, const web::Request& request, const Params&) {
  const std::string_view email = request.param("email").value_or("");
  const auto expires = parse_int64(request.param("expires").value_or(""));
  const std::string_view sig = request.param("sig").value_or("");
  if (!expires || *expires == 0 || email.size() > 254 ||
      !view.accounts().link_valid("confirm", email, *expires, sig, view.now())) {
    return newsletter_page(view, "Link expired",
                           Html::literal("<p>This confirmation link is not valid or has expired. Subscribe "
                                         "again to get a new one.</p>\n"),
                           400);
  }
  auto confirmed = view.store().confirm_subscriber(email, view.now());
  if (!confirmed) return std::unexpected(confirmed.error());
  if (!*confirmed) {
    return newsletter_page(view, "Not subscribed",
                           Html::literal("<p>This address is not waiting for a confirmation any more. "
                                         "Subscribe again if you want the newsletter.</p>\n"),
                           404);
  }
  return newsletter_page(view, "Subscribed",
                         html("<p>Thank you: {} will get the weekly newsletter. Every issue has a one-click "
                              "unsubscribe link.</p>\n",
                              text(email)),
                         200);
}

Result<web::Response> unsubscribe(View& view, const web::Request& request, const Params&) {
  const std::string_view email = request.param("email").value_or("");
  const std::string_view sig = request.param("sig").value_or("");
  const bool one_click_post = request.method == "POST";
  if (email.size() > 254 || !view.accounts().link_valid("unsubscribe", email, 0, sig, view.now())) {
    if (one_click_post) return web::Response::text(400, "This unsubscribe link is not valid.\n");
    return newsletter_page(view, "Link not valid",
                           Html::literal("<p>This unsubscribe link is not valid. Use the link from the most "
                                         "recent newsletter.</p>\n"),
                           400);
  }
  auto done = view.store().unsubscribe(email, view.now());
  if (!done) return std::unexpected(done.error());
  if (one_click_post) return web::Response::text(200, "Unsubscribed.\n");
  return newsletter_page(view, "Unsubscribed", html("<p>{} will get no more newsletters.</p>\n", text(email)),
                         200);
}

}  // namespace longread::ui::pages
