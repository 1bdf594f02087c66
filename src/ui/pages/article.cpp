// "/blog/<blog-id>/read/<article-id>[-slug]" — one article: its excerpt, a link to the original, and more
// from the same blog and category, and similar articles from other blogs. A wrong or missing slug redirects
// to the canonical URL.
#include <algorithm>
#include <cctype>
#include <charconv>

#include "core/strings.h"
#include "pages/filters.h"
#include "pages/pages.h"
#include "ui/format.h"
#include "web/http.h"

namespace longread::ui::pages {
namespace {

constexpr int kMoreInCategory = 5;
constexpr int kSimilarShown = 5;

std::optional<std::int64_t> leading_id(std::string_view segment) {
  std::int64_t id = 0;
  const auto [end, ec] = std::from_chars(segment.data(), segment.data() + segment.size(), id);
  if (ec != std::errc{} || id <= 0) return std::nullopt;
  const std::string_view rest(end, static_cast<std::size_t>(segment.data() + segment.size() - end));
  if (!rest.empty() && rest.front() != '-') return std::nullopt;
  return id;
}

Html date_line(const model::Article& a) {
  if (a.undated || !a.published) return Html::literal("date unknown");
  return html("<time datetime=\"{}\">{}</time>", attr(iso_date(*a.published)),
              text(ordinal_date(*a.published)));
}

Html more_from_blog(const View& view, const storage::ArticleView& current, const std::string& blog_name) {
  storage::ArticleQuery query;
  query.blog_id = current.article.blog_id;
  query.exclude_article_id = current.article.id;
  query.limit = 5;
  auto articles = view.store().articles(query);
  if (!articles || articles->empty()) return {};
  ItemOptions options;
  options.show_blog = false;
  options.heading_h3 = true;
  options.absolute_date = true;
  return html("<section class=\"related more-from-blog\">\n<h2>More from {}</h2>\n{}</section>\n",
              text(blog_name), article_list(view, *articles, options));
}

// "Similar articles": the picks the crawl stored for this article (docs/similar.md), read, never computed
// here; the store leaves out picks hidden since and the article's own blog. Each carries its reason, the
// terms both articles share, in data-shared for tests and debugging and as a visible "shares:" line.
Html similar_articles(const View& view, const storage::ArticleView& current) {
  auto similar = view.store().similar_articles(current.article.id, kSimilarShown);
  if (!similar || similar->empty()) return {};
  Html items;
  for (const auto& pick : *similar) {
    const auto& a = pick.view.article;
    items += html(
        "<li data-shared=\"{}\"><a href=\"{}\">{}</a> <span class=\"from\">from <a href=\"{}\">{}</a></span> "
        "<span class=\"sep\" aria-hidden=\"true\">•</span> {}<br><span class=\"shares\">shares: "
        "{}</span></li>\n",
        attr(pick.shared), attr(article_path(a)), text(a.title.empty() ? std::string("(untitled)") : a.title),
        attr(blog_path(a.blog_id)), text(pick.view.blog_title), date_line(a), text(pick.shared));
  }
  return html(
      "<section class=\"related similar-articles\">\n<h2>Similar articles</h2>\n<ul "
      "class=\"similar\">\n{}</ul>\n"
      "</section>\n",
      items);
}

// "More in <category>": the category's hot order (docs/ranking.md) from other blogs, one article per blog,
// with excerpts and the same vote control as the listings.
Html more_in_category(const View& view, const storage::ArticleView& current, const std::string& category) {
  auto listed = view.store().hot_page({.category = category,
                                       .exclude_blog_id = current.article.blog_id,
                                       .page = 1,
                                       .page_size = kMoreInCategory,
                                       .per_blog_cap = 1,
                                       .strict_cap = true,
                                       .reader = view.reader_filter()});
  if (!listed || listed->articles.empty()) return {};
  ItemOptions options;
  options.show_category = false;
  options.heading_h3 = true;
  return html("<section class=\"related more-in-category\">\n<h2>More in {}</h2>\n{}</section>\n",
              text(view.category_name(category)), article_list(view, listed->articles, options));
}

// What the last flag form did, from the "?flag=" its redirect carries.
Html flag_notice(const web::Request& request) {
  const std::string_view done = request.param("flag").value_or("");
  std::string_view message;
  if (done == "flagged") {
    message = "Thank you: your flag is recorded, and the site's operators will look at it.";
  } else if (done == "already") {
    message = "You had already flagged this article; nothing changed.";
  } else if (done == "limit") {
    message =
        "You have flagged as many articles as one reader may in a day; nothing changed. Try again "
        "tomorrow.";
  } else if (done == "withdrawn") {
    message = "Your flag is withdrawn.";
  } else {
    return {};
  }
  return html("<p class=\"notice\" role=\"status\">{}</p>\n", text(message));
}

// Readers flag an article (spam, AI-generated, not an article, broken link) with a plain form: a
// <details> disclosure and radio buttons, so it works without script. A reader who flagged it sees their
// flag and can withdraw it; a visitor is offered the way to log in.
Html flag_section(const View& view, const web::Request& request, const model::Article& a,
                  const storage::FlagState& flags) {
  const Html notice = flag_notice(request);
  const Html held = flags.held ? Html::literal(
                                     "<p class=\"notice\">This article is hidden from the site while the "
                                     "operators review readers' flags.</p>\n")
                               : Html();
  if (!view.logged_in()) {
    return html(
        "<section class=\"flag\">\n<p><a href=\"/login?next={}\">Log in to flag this article</a> "
        "(spam, AI-generated, not an article, broken link).</p>\n</section>\n",
        attr(web::url_encode(article_path(a))));
  }
  if (flags.reader_flag) {
    return html(
        "<section class=\"flag\">\n{}{}<form method=\"post\" action=\"/articles/{}/unflag\" class=\"inline\">"
        "<input type=\"hidden\" name=\"csrf\" value=\"{}\"><input type=\"hidden\" name=\"next\" value=\"{}\">"
        "<p>You flagged this article as {}. <button type=\"submit\">Withdraw your flag</button></p></form>\n"
        "</section>\n",
        notice, held, number(a.id), attr(view.csrf_token()), attr(article_path(a)),
        text(storage::flag_reason_label(*flags.reader_flag)));
  }
  std::vector<Html> choices;
  for (const storage::FlagReason reason : storage::kFlagReasons) {
    const std::string id = "flag-" + std::string(storage::flag_reason_name(reason));
    std::string label(storage::flag_reason_label(reason));
    label[0] =
        static_cast<char>(std::toupper(static_cast<unsigned char>(label[0])));  // "Spam", "Broken link"
    choices.push_back(
        html("<div><input type=\"radio\" id=\"{}\" name=\"reason\" value=\"{}\" required> "
             "<label for=\"{}\">{}</label></div>",
             attr(id), attr(storage::flag_reason_name(reason)), attr(id), text(label)));
  }
  return html(
      "<section class=\"flag\">\n{}{}<details>\n<summary>Flag this article</summary>\n"
      "<form method=\"post\" action=\"/articles/{}/flag\">"
      "<input type=\"hidden\" name=\"csrf\" value=\"{}\"><input type=\"hidden\" name=\"next\" value=\"{}\">"
      "<fieldset>\n<legend>What is wrong with it?</legend>\n{}\n</fieldset>\n"
      "<button type=\"submit\">Flag</button>\n"
      "<p class=\"muted\">The site's operators read every flag. An article several readers flag is hidden "
      "until they decide.</p>\n</form>\n</details>\n</section>\n",
      notice, held, number(a.id), attr(view.csrf_token()), attr(article_path(a)),
      join(choices, Html::literal("\n")));
}

// A reader's mutes for this article's blog and category (docs/readers.md, "Personal filters"): one form
// each, muting or, when muted already, un-muting. Nothing for a visitor.
Html mute_section(const View& view, const model::Article& a, std::string_view blog_name,
                  std::string_view category) {
  if (!view.logged_in()) return {};
  auto mutes = view.store().reader_mutes(view.reader()->reader_id);
  if (!mutes) return {};
  const bool blog_muted =
      std::ranges::any_of(mutes->blogs, [&](const auto& b) { return b.blog_id == a.blog_id; });
  const bool category_muted =
      std::ranges::any_of(mutes->categories, [&](const auto& c) { return c.slug == category; });
  return html(
      "<section class=\"mute\" aria-label=\"Mute\">\n<div>{}{}<span class=\"sep\" "
      "aria-hidden=\"true\">•</span>{}"
      "</div>\n</section>\n",
      blog_muted || category_muted
          ? Html::literal("You muted this. ")
          : Html::literal(
                "Not for you? Leave it out of your Hot, Newest, categories, search and newsletter: "),
      mute_blog_form(view, a.blog_id, blog_muted, article_path(a), blog_name),
      mute_category_form(view, category, category_muted, article_path(a), view.category_name(category)));
}

}  // namespace

Result<web::Response> article(View& view, const web::Request& request, const Params& params) {
  const auto blog_id = leading_id(params.get("blog"));
  const auto article_id = leading_id(params.get("article"));
  if (!blog_id || !article_id || params.get("blog").find('-') != std::string_view::npos) {
    return fail(ErrorKind::kNotFound, "ui: malformed article path", "No such article.");
  }
  auto found = view.store().article(*article_id);
  if (!found) return std::unexpected(found.error());
  // An id that belongs to another blog is not found here: blog pages never show each other's articles.
  // Hidden articles are not found either: junk unless the operator kept it, and anything the operator
  // junked (articles.visible, docs/storage.md).
  if (!*found || (*found)->article.blog_id != *blog_id ||
      ((*found)->article.keep_override ? !*(*found)->article.keep_override : (*found)->article.junk)) {
    return fail(ErrorKind::kNotFound,
                "ui: no article " + std::to_string(*article_id) + " in blog " + std::to_string(*blog_id),
                "No such article.");
  }
  const storage::ArticleView& item = **found;
  const model::Article& a = item.article;
  // Held by readers' flags: hidden like junk, except from the operators who decide and from the readers
  // whose flags it carries (so they can see why, and withdraw theirs).
  auto flags =
      view.store().flag_state(a.id, view.reader() ? std::optional(view.reader()->reader_id) : std::nullopt);
  if (!flags) return std::unexpected(flags.error());
  if (flags->held && !view.is_operator() && !flags->reader_flag) {
    return fail(ErrorKind::kNotFound, "ui: article " + std::to_string(a.id) + " is held by readers' flags",
                "No such article.");
  }
  if (params.get("article") != article_slug(a)) return web::Response::redirect(301, article_path(a));

  const std::string blog_name = blog_display_name(item.blog_title, item.blog_site_url);
  const std::string category = article_category(item);
  const std::string title = trim(a.title).empty() ? "Untitled" : std::string(trim(a.title));
  // The preview keeps the article's paragraphs: it is cut from the stored text, whose paragraphs are
  // apart, rather than taken from the excerpt, which lists show on one line; a first paragraph that only
  // repeats the title (the post's own heading) is left out under the page's <h1>.
  const std::string excerpt =
      a.text.empty() ? a.excerpt : truncate_words(without_title_heading(a.text, a.title), 2000);

  std::vector<Html> meta{date_line(a)};
  if (a.reading_minutes > 1) meta.push_back(text(reading_time(a.reading_minutes)));
  view.load_marks({a.id});
  meta.push_back(vote_control(view, a));
  if (!a.author.empty()) meta.push_back(html("by {}", text(a.author)));

  Html actions;
  // Each control shows its shortcut beside it, as the original does ("Read now [→]").
  actions += external_link(a.link,
                           Html::literal("Read now <span class=\"key\" aria-hidden=\"true\">[&rarr;]</span>"),
                           Html::literal("class=\"button primary\" data-shortcut=\"read\" data-read-now "
                                         "aria-keyshortcuts=\"ArrowRight\""));
  // Visitors are sent to log in by the handler and come back here ("next").
  const bool saved = view.saved(a.id);
  actions += html(
      "<form method=\"post\" action=\"/reading-list/{}\" data-shortcut=\"reading-list\">"
      "<input type=\"hidden\" name=\"csrf\" value=\"{}\"><input type=\"hidden\" name=\"next\" value=\"{}\">"
      "<input type=\"hidden\" name=\"action\" value=\"{}\">"
      "<button type=\"submit\" aria-pressed=\"{}\" aria-keyshortcuts=\"Alt+A\">{} <span class=\"key\" "
      "aria-hidden=\"true\">[alt+a]</span></button></form>",
      number(a.id), attr(view.csrf_token()), attr(article_path(a)),
      saved ? Html::literal("remove") : Html::literal("add"),
      saved ? Html::literal("true") : Html::literal("false"),
      saved ? Html::literal("Remove from reading list") : Html::literal("Add to reading list"));
  actions += read_control(view, a);

  Page out;
  out.title = title;
  out.description = truncate_words(collapse_whitespace(excerpt), 160);
  out.path = article_path(a);
  out.og_type = "article";
  if (!a.undated && a.published) out.published_time = format_rfc3339(*a.published);
  // The newsletter box only where the site can mail the confirmation; elsewhere it is a dead end.
  const Html newsletter =
      view.options().send_confirmation
          ? html(
                "<aside class=\"newsletter\">\n<h2>Stay updated</h2>\n"
                "<p>A weekly newsletter with the top 5 articles worth reading.</p>\n"
                "<form method=\"post\" action=\"/newsletter\"><input type=\"hidden\" name=\"csrf\" "
                "value=\"{}\"><label class=\"visually-hidden\" for=\"newsletter-email\">Email "
                "address</label><input id=\"newsletter-email\" type=\"email\" name=\"email\" required "
                "placeholder=\"you@example.com\" autocomplete=\"email\"><button "
                "type=\"submit\">Subscribe</button></form>\n</aside>\n",
                attr(view.csrf_token()))
          : Html();
  out.body = html(
      "<article class=\"article{}\" data-article=\"{}\">\n<header>\n<h1>{}</h1>\n"
      "<p class=\"from\">from <a href=\"{}\" data-shortcut=\"blog\" aria-keyshortcuts=\"Alt+Shift+B\">{}</a> "
      "<span class=\"key\" aria-hidden=\"true\">[alt+shift+b]</span> in <a href=\"{}\">{}</a></p>\n"
      "<div class=\"meta\">{}</div>\n</header>\n<div class=\"body excerpt-long\">\n{}</div>\n"
      "<div class=\"actions\">{}</div>\n{}{}</article>\n{}{}{}{}",
      view.read(a.id) ? Html::literal(" is-read") : Html(), number(a.id), text(title),
      attr(blog_path(a.blog_id)), text(blog_name), attr(category_path(category)),
      text(view.category_name(category)),
      join(meta, Html::literal("<span class=\"sep\" aria-hidden=\"true\">•</span>")), paragraphs(excerpt),
      actions, mute_section(view, a, blog_name, category), flag_section(view, request, a, *flags), newsletter,
      similar_articles(view, item),
      more_from_blog(view, item, blog_name), more_in_category(view, item, category));
  return view.render(out);
}

}  // namespace longread::ui::pages
