// "/suggest": a logged-in reader suggests a blog (its home page or feed, and an optional note). The request
// only checks and stores the suggestion; feed discovery runs in the background (serve's
// pipeline::SuggestionWorker, under the outbound address policy), and the reader follows its status on the
// account page. Limited per reader and 24 hours (site.suggestions_per_day), in the store.
#include <spdlog/spdlog.h>

#include <chrono>
#include <string>

#include "core/strings.h"
#include "core/url.h"
#include "pages/forms.h"
#include "pages/pages.h"
#include "pages/suggest.h"
#include "ui/format.h"

namespace longread::ui::pages {
namespace {

// The inclusion guidance shown with the form (docs/readers.md, "Suggest a blog").
constexpr TrustedLiteral kGuidance =
    "<p>longread follows personal blogs: writing by its author, not a company, a publication or an "
    "aggregator, with a post in the last 12 months. An operator reads every suggestion before the blog is "
    "followed.</p>\n";

// Two URLs name the same page when their normalized forms match, a trailing "/" aside.
std::string comparable(std::string_view url) {
  std::string s = normalize_url(url).value_or(std::string(url));
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

web::Response suggest_page(View& view, std::string_view url, std::string_view note, Html message,
                           int status) {
  const int per_day = view.options().suggestions_per_day;
  Html body = html(
      "{}{}<form method=\"post\" action=\"/suggest\" class=\"account-form\">\n"
      "<input type=\"hidden\" name=\"csrf\" value=\"{}\">\n"
      "<label for=\"suggest-url\">The blog's address (its home page or its feed)</label>\n"
      "<input id=\"suggest-url\" name=\"url\" type=\"text\" inputmode=\"url\" required maxlength=\"{}\" "
      "autocomplete=\"url\" placeholder=\"https://\" value=\"{}\">\n"
      "<label for=\"suggest-note\">A note for the operator (optional)</label>\n"
      "<textarea id=\"suggest-note\" name=\"note\" rows=\"3\" maxlength=\"{}\">{}</textarea>\n"
      "<button type=\"submit\" class=\"button primary\">Suggest this blog</button>\n</form>\n"
      "<p class=\"muted\">You may suggest {} a day. <a href=\"/account#suggestions\">Your "
      "suggestions</a></p>\n",
      Html::literal(kGuidance), std::move(message), attr(view.csrf_token()),
      number(static_cast<std::int64_t>(kMaxSuggestedUrl)), attr(url),
      number(static_cast<std::int64_t>(kMaxSuggestionNote)), text(note),
      text(plural(per_day, "blog", "blogs")));
  return private_page(view, "Suggest a blog", "/suggest", std::move(body), status);
}

web::Response closed_page(View& view) {
  return private_page(view, "Suggest a blog", "/suggest",
                      Html::literal("<p>This site does not take blog suggestions from readers.</p>\n"), 404);
}

Html error_message(std::string_view message) {
  return html("<p class=\"form-error\" role=\"alert\">{}</p>\n", text(message));
}

}  // namespace

bool is_category_slug(std::string_view category) {
  return !category.empty() && slugify(category, category.size() + 1) == category;
}

Result<SuggestedUrl> read_suggested_url(const View& view, std::string_view input) {
  const std::string_view given = trim(input);
  if (given.empty()) {
    return fail(ErrorKind::kInvalidInput, "ui: no URL given", "Give the address of the blog or of its feed.");
  }
  if (given.size() > kMaxSuggestedUrl) {
    return fail(ErrorKind::kInvalidInput, "ui: suggested URL too long", "That address is too long.");
  }
  auto typed = http_url_from_input(given);
  if (!typed) {
    return fail(ErrorKind::kInvalidInput, "ui: not an http(s) URL",
                "That is not a web address: give one starting with https:// or http://.");
  }
  SuggestedUrl out{.url = std::move(typed->url), .followed = std::nullopt};
  for (const std::string& key : {out.url, normalize_url(out.url).value_or(out.url)}) {
    auto blog = view.store().blog_by_feed_url(key);
    if (!blog) return std::unexpected(blog.error());
    if (*blog) {
      out.followed = std::move(*blog);
      return out;
    }
  }
  // A home page: the blog whose site it is. Only blogs with a site URL, so one table read.
  auto blogs = view.store().blogs();
  if (!blogs) return std::unexpected(blogs.error());
  const std::string wanted = comparable(out.url);
  for (auto& b : *blogs) {
    if ((!b.site_url.empty() && comparable(b.site_url) == wanted) || comparable(b.feed_url) == wanted) {
      out.followed = std::move(b);
      break;
    }
  }
  return out;
}

std::string suggestion_status_label(storage::SuggestionStatus status) {
  switch (status) {
    case storage::SuggestionStatus::kPending:
      return "Looking for its feed";
    case storage::SuggestionStatus::kFound:
      return "Waiting for an operator";
    case storage::SuggestionStatus::kFailed:
      return "No feed found";
    case storage::SuggestionStatus::kRefused:
      return "Refused";
    case storage::SuggestionStatus::kFollowed:
      return "Already followed";
    case storage::SuggestionStatus::kApproved:
      return "Approved";
    case storage::SuggestionStatus::kRejected:
      return "Rejected";
  }
  return "Unknown";
}

Html suggestion_outcome(const storage::Suggestion& s) {
  using storage::SuggestionStatus;
  const std::string blog = s.blog_id ? blog_path(*s.blog_id) : std::string();
  switch (s.status) {
    case SuggestionStatus::kPending:
      return Html::literal("Its feed is being looked for; this page shows what is found.");
    case SuggestionStatus::kFound:
      return html("Found {} ({}, {}).", text(s.title.empty() ? s.feed_url : s.title), text(s.format),
                  text(plural(s.entries, "post", "posts")));
    case SuggestionStatus::kFailed:
    case SuggestionStatus::kRefused:
      return text(s.error);
    case SuggestionStatus::kFollowed:
      return blog.empty() ? Html::literal("This blog is already followed.")
                          : html("This blog is already followed: <a href=\"{}\">its page</a>.", attr(blog));
    case SuggestionStatus::kApproved:
      return blog.empty()
                 ? Html::literal("Followed now; its articles appear after the next crawl.")
                 : html("Followed now: <a href=\"{}\">its page</a> fills after the next crawl.", attr(blog));
    case SuggestionStatus::kRejected:
      return s.reason.empty() ? Html() : html("Reason: {}", text(s.reason));
  }
  return {};
}

Html reader_suggestions_section(const View& view) {
  Html items;
  if (view.reader()) {
    auto mine = view.store().reader_suggestions(view.reader()->reader_id, 20);
    if (!mine) {
      spdlog::warn("suggest: cannot list suggestions reader_id={} error=\"{}\"", view.reader()->reader_id,
                   mine.error().message);
    } else {
      for (const auto& s : *mine) {
        items += html(
            "<li data-suggestion=\"{}\"><span class=\"suggestion-url\">{}</span> <span "
            "class=\"badge\">{}</span> "
            "<span class=\"muted\">{}</span><br>{}</li>\n",
            number(s.id), text(s.url), text(suggestion_status_label(s.status)),
            text(relative_age(s.created_at, view.now())), suggestion_outcome(s));
      }
    }
  }
  const bool open = view.options().suggestions_per_day > 0;
  return html("<section class=\"settings\" id=\"suggestions\">\n<h2>Blog suggestions</h2>\n{}{}</section>\n",
              open
                  ? Html::literal("<p>Know a personal blog that belongs here? <a href=\"/suggest\">Suggest a "
                                  "blog</a>.</p>\n")
                  : Html(),
              items.empty() ? Html::literal("<p class=\"muted\">You have not suggested a blog yet.</p>\n")
                            : html("<ul class=\"suggestions\">\n{}</ul>\n", items));
}

Result<web::Response> suggest_form(View& view, const web::Request& request, const Params&) {
  if (!view.logged_in()) return login_first(view, request, "/suggest");
  if (view.options().suggestions_per_day <= 0) return closed_page(view);
  return suggest_page(view, "", "", {}, 200);
}

Result<web::Response> suggest(View& view, const web::Request& request, const Params&) {
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  if (!view.logged_in()) return login_first(view, request, "/suggest");
  if (view.options().suggestions_per_day <= 0) return closed_page(view);
  const std::string_view input = form_value(*form, "url");
  const std::string_view note = trim(form_value(*form, "note"));
  // What the reader typed is shown again with a message, unless it is too long to be a blog's address.
  const std::string_view shown_url = input.size() <= kMaxSuggestedUrl ? input : std::string_view();
  const std::string_view shown_note = note.size() <= kMaxSuggestionNote ? note : std::string_view();
  if (note.size() > kMaxSuggestionNote) {
    return suggest_page(view, shown_url, shown_note,
                        error_message("The note is too long: at most 1000 characters, please."), 400);
  }
  auto checked = read_suggested_url(view, input);
  if (!checked) {
    if (checked.error().kind != ErrorKind::kInvalidInput) return std::unexpected(checked.error());
    return suggest_page(view, shown_url, shown_note, error_message(checked.error().display()), 400);
  }
  if (checked->followed) {
    const model::Blog& b = *checked->followed;
    return suggest_page(view, shown_url, shown_note,
                        html("<p class=\"notice\" role=\"status\">This blog is already followed: <a "
                             "href=\"{}\">{}</a>. Thank you all the same.</p>\n",
                             attr(blog_path(b.id)), text(blog_display_name(b.title, b.site_url))),
                        200);
  }
  auto added = view.store().add_suggestion({.reader_id = view.reader()->reader_id,
                                            .url = checked->url,
                                            .note = std::string(note),
                                            .now = view.now(),
                                            .per_day = view.options().suggestions_per_day});
  if (!added) {
    if (added.error().kind != ErrorKind::kRateLimited) return std::unexpected(added.error());
    auto res = suggest_page(view, shown_url, shown_note, error_message(added.error().display()), 429);
    res.set_header("Retry-After", "3600");
    return res;
  }
  spdlog::info("suggest: stored suggestion_id={} reader_id={} url={}", added->id, view.reader()->reader_id,
               added->url);
  if (view.options().suggestion_added) view.options().suggestion_added();
  return see_other(view, "/account?done=suggested#suggestions");
}

Result<web::Response> suggest_bad_token(View& view, const web::Request& request, const Params&) {
  // A visitor without a session logs in first; a reader's form without the session's token is refused.
  if (!view.logged_in()) return login_first(view, request, "/suggest");
  return csrf_rejected(view, request);
}

}  // namespace longread::ui::pages
