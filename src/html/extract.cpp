// extract_main_content: readability-style main-content extraction, after the algorithm of Mozilla
// Readability (Arc90's readability.js): drop unlikely blocks, score paragraphs, propagate the scores to
// their ancestors, pick the best ancestor, keep its related siblings, clean the result.
//
// gumbo's tree is read-only here: removals, scores and statistics live in side tables indexed by a
// flat pre-order copy of the tree, so every walk is a loop over an array (no recursion, any depth).
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "core/strings.h"
#include "core/url.h"
#include "html/dom.h"
#include "html/html.h"

namespace longread::html {
namespace {

using detail::attr;
using detail::is_element;

constexpr int kFlagStripUnlikely = 1;
constexpr int kFlagWeightClasses = 2;
constexpr int kFlagCleanConditionally = 4;
// Below this many characters of article text, try again with fewer filters (Readability's charThreshold).
constexpr std::size_t kCharThreshold = 500;
constexpr std::size_t kTopCandidates = 5;
constexpr std::size_t kMinParagraphChars = 25;

bool contains_any(std::string_view haystack, std::initializer_list<std::string_view> needles) {
  for (auto n : needles)
    if (haystack.find(n) != std::string_view::npos) return true;
  return false;
}

// class/id hints (substring matches, as Readability's regexes do).
bool is_unlikely(std::string_view s) {
  return contains_any(
      s, {"-ad-",       "ai2html", "banner",    "breadcrumbs",  "combx",    "comment",  "community",
          "cover-wrap", "disqus",  "extra",     "footer",       "gdpr",     "header",   "legends",
          "menu",       "related", "remark",    "replies",      "rss",      "shoutbox", "sidebar",
          "skyscraper", "social",  "sponsor",   "supplemental", "ad-break", "agegate",  "pagination",
          "pager",      "popup",   "yom-remote"});
}
bool maybe_candidate(std::string_view s) {
  return contains_any(s, {"and", "article", "body", "column", "content", "main", "mathjax", "shadow"});
}
bool is_negative(std::string_view s) {
  if (contains_any(s, {"-ad-",     "hidden", "banner",   "combx",    "comment", "com-",       "contact",
                       "footer",   "gdpr",   "masthead", "media",    "meta",    "outbrain",   "promo",
                       "related",  "scroll", "share",    "shoutbox", "sidebar", "skyscraper", "sponsor",
                       "shopping", "tags",   "widget",   "footnote", "nav",     "menu"}))
    return true;
  // "hid" as a whole word.
  return s == "hid" || s.starts_with("hid ") || s.ends_with(" hid") ||
         s.find(" hid ") != std::string_view::npos;
}
bool is_positive(std::string_view s) {
  return contains_any(s, {"article", "body", "content", "entry", "hentry", "h-entry", "main", "page",
                          "pagination", "post", "text", "blog", "story"});
}
bool is_share(std::string_view s) {
  return contains_any(s, {"share", "sharedaddy"});
}

bool is_unlikely_role(std::string_view role) {
  for (std::string_view r :
       {"menu", "menubar", "complementary", "navigation", "alert", "alertdialog", "dialog"})
    if (role == r) return true;
  return false;
}

// Elements whose presence inside a <div> means it is a container, not a paragraph.
bool is_div_to_p_block(GumboTag t) {
  switch (t) {
    case GUMBO_TAG_BLOCKQUOTE:
    case GUMBO_TAG_DL:
    case GUMBO_TAG_DIV:
    case GUMBO_TAG_IMG:
    case GUMBO_TAG_OL:
    case GUMBO_TAG_P:
    case GUMBO_TAG_PRE:
    case GUMBO_TAG_TABLE:
    case GUMBO_TAG_UL:
    case GUMBO_TAG_SECTION:
    case GUMBO_TAG_ARTICLE:
    case GUMBO_TAG_FIGURE:
      return true;
    default:
      return false;
  }
}

bool is_heading(GumboTag t) {
  return t == GUMBO_TAG_H1 || t == GUMBO_TAG_H2 || t == GUMBO_TAG_H3 || t == GUMBO_TAG_H4 ||
         t == GUMBO_TAG_H5 || t == GUMBO_TAG_H6;
}

// Folded length in code points (whitespace runs count once) and commas of a text.
struct TextMeasure {
  double chars = 0;
  int commas = 0;
};
TextMeasure measure(std::string_view s) {
  TextMeasure m;
  bool space = true;  // leading whitespace does not count
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if ((c & 0xC0) == 0x80) continue;
    const bool ws = c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f';
    if (ws) {
      if (!space) m.chars += 1;
      space = true;
      continue;
    }
    space = false;
    m.chars += 1;
    if (c == ',') ++m.commas;
    // Fullwidth comma U+FF0C and Arabic comma U+060C.
    if (c == 0xEF && i + 2 < s.size() && s[i + 1] == '\xBC' && s[i + 2] == '\x8C') ++m.commas;
    if (c == 0xD8 && i + 1 < s.size() && s[i + 1] == '\x8C') ++m.commas;
  }
  return m;
}

// Aggregated statistics of a subtree, excluding removed nodes.
struct Stats {
  double chars = 0;
  double link_chars = 0;  // weighted: in-page "#" links count 0.3
  double heading_chars = 0;
  double list_chars = 0;
  int commas = 0;
  int p = 0, img = 0, li = 0, input = 0, embed = 0;
  bool block_desc = false;  // has a div-to-p block element below it

  void add(const Stats& o) {
    chars += o.chars;
    link_chars += o.link_chars;
    heading_chars += o.heading_chars;
    list_chars += o.list_chars;
    commas += o.commas;
    p += o.p;
    img += o.img;
    li += o.li;
    input += o.input;
    embed += o.embed;
    block_desc = block_desc || o.block_desc;
  }
  [[nodiscard]] double link_density() const { return chars > 0 ? link_chars / chars : 0; }
};

struct Node {
  const GumboNode* g = nullptr;
  int parent = -1;
  int first_child = -1;
  int next_sibling = -1;
  int end = 0;  // one past the last descendant in pre-order
  GumboTag tag = GUMBO_TAG_UNKNOWN;
  bool text = false;
  TextMeasure own;  // text nodes only
  std::string class_id;
};

// The flat tree and the side tables of one extraction attempt.
class Extractor {
 public:
  Extractor(const GumboNode* root, std::string_view title)
      : title_(to_lower_ascii(collapse_whitespace(title))) {
    flatten(root);
  }

  // Runs one attempt with the given flags; returns the indices of the top-level content nodes.
  std::vector<int> run(int flags) {
    flags_ = flags;
    removed_.assign(nodes_.size(), 0);
    score_.assign(nodes_.size(), 0);
    candidate_.assign(nodes_.size(), 0);
    candidates_ = 0;
    mark_removed();
    compute_stats();
    score_paragraphs();
    return select_content();
  }

  void clean(const std::vector<int>& content) {
    for (int top : content) clean_subtree(top);
  }

  std::string serialize(const std::vector<int>& content, std::string_view base_url) const;
  [[nodiscard]] std::size_t candidates() const { return candidates_; }
  [[nodiscard]] int body() const { return body_; }

 private:
  void flatten(const GumboNode* root);
  void mark_removed();
  void compute_stats();
  void score_paragraphs();
  std::vector<int> select_content();
  void clean_subtree(int top);
  [[nodiscard]] int class_weight(int i) const;
  void init_candidate(int i);
  [[nodiscard]] bool has_ancestor(int i, GumboTag tag, int max_depth = 1 << 30) const;
  [[nodiscard]] bool is_data_table(int i) const;
  [[nodiscard]] bool is_p_wrapper(int i) const;

  std::vector<Node> nodes_;
  std::vector<char> removed_;
  std::vector<double> score_;
  std::vector<char> candidate_;
  std::vector<Stats> stats_;
  std::string title_;
  int flags_ = 0;
  int body_ = -1;
  std::size_t candidates_ = 0;
};

void Extractor::flatten(const GumboNode* root) {
  struct Frame {
    const GumboNode* g;
    int index;
    unsigned next;
  };
  nodes_.reserve(1024);
  std::vector<Frame> stack;
  nodes_.push_back(Node{root, -1, -1, -1, 0, root->v.element.tag, false, {}, detail::class_and_id(root)});
  stack.push_back({root, 0, 0});
  std::vector<int> last_child(1, -1);
  while (!stack.empty()) {
    Frame& f = stack.back();
    const GumboVector& kids = f.g->v.element.children;
    if (f.next >= kids.length) {
      nodes_[static_cast<std::size_t>(f.index)].end = static_cast<int>(nodes_.size());
      stack.pop_back();
      continue;
    }
    const auto* child = static_cast<const GumboNode*>(kids.data[f.next++]);
    const int parent = f.index;
    Node n;
    n.g = child;
    n.parent = parent;
    if (child->type == GUMBO_NODE_TEXT || child->type == GUMBO_NODE_WHITESPACE ||
        child->type == GUMBO_NODE_CDATA) {
      n.text = true;
      n.own = measure(child->v.text.text);
    } else if (child->type == GUMBO_NODE_ELEMENT) {
      n.tag = child->v.element.tag;
      n.class_id = detail::class_and_id(child);
    } else {
      continue;  // comments, templates
    }
    const int index = static_cast<int>(nodes_.size());
    n.end = index + 1;
    nodes_.push_back(std::move(n));
    last_child.push_back(-1);
    auto& lc = last_child[static_cast<std::size_t>(parent)];
    if (lc < 0) {
      nodes_[static_cast<std::size_t>(parent)].first_child = index;
    } else {
      nodes_[static_cast<std::size_t>(lc)].next_sibling = index;
    }
    lc = index;
    if (child->type == GUMBO_NODE_ELEMENT) {
      if (child->v.element.tag == GUMBO_TAG_BODY && body_ < 0) body_ = index;
      stack.push_back({child, index, 0});
    }
  }
  if (body_ < 0) body_ = 0;
}

bool Extractor::has_ancestor(int i, GumboTag tag, int max_depth) const {
  for (int p = nodes_[static_cast<std::size_t>(i)].parent, d = 0; p >= 0 && d < max_depth;
       p = nodes_[static_cast<std::size_t>(p)].parent, ++d)
    if (nodes_[static_cast<std::size_t>(p)].tag == tag) return true;
  return false;
}

void Extractor::mark_removed() {
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    if (removed_[i]) continue;
    const Node& n = nodes_[i];
    if (n.text) continue;
    bool drop = false;
    switch (n.tag) {
      case GUMBO_TAG_HEAD:
      case GUMBO_TAG_SCRIPT:
      case GUMBO_TAG_STYLE:
      case GUMBO_TAG_NOSCRIPT:
      case GUMBO_TAG_TEMPLATE:
      case GUMBO_TAG_LINK:
      case GUMBO_TAG_META:
      case GUMBO_TAG_NAV:
      case GUMBO_TAG_ASIDE:
      case GUMBO_TAG_FOOTER:
      case GUMBO_TAG_BUTTON:
      case GUMBO_TAG_INPUT:
      case GUMBO_TAG_SELECT:
      case GUMBO_TAG_TEXTAREA:
      case GUMBO_TAG_IFRAME:
      case GUMBO_TAG_OBJECT:
      case GUMBO_TAG_EMBED:
      case GUMBO_TAG_FORM:
      case GUMBO_TAG_FIELDSET:
        drop = true;
        break;
      default:
        break;
    }
    if (!drop && detail::is_hidden(n.g)) drop = true;
    if (!drop && is_unlikely_role(to_lower_ascii(attr(n.g, "role")))) drop = true;
    if (!drop && (flags_ & kFlagStripUnlikely) && n.tag != GUMBO_TAG_BODY && n.tag != GUMBO_TAG_A &&
        n.tag != GUMBO_TAG_HTML && is_unlikely(n.class_id) && !maybe_candidate(n.class_id) &&
        !has_ancestor(static_cast<int>(i), GUMBO_TAG_TABLE) &&
        !has_ancestor(static_cast<int>(i), GUMBO_TAG_CODE))
      drop = true;
    // A heading that repeats the page title is the title, not content.
    if (!drop && (n.tag == GUMBO_TAG_H1 || n.tag == GUMBO_TAG_H2) && !title_.empty()) {
      const std::string heading = to_lower_ascii(collapse_whitespace(detail::inner_text(n.g)));
      if (!heading.empty() &&
          (heading == title_ || (heading.size() > 15 && title_.find(heading) != std::string::npos)))
        drop = true;
    }
    if (drop) std::fill(removed_.begin() + static_cast<long>(i), removed_.begin() + n.end, 1);
  }
}

// Bottom-up statistics: reverse pre-order visits every descendant before its ancestor.
void Extractor::compute_stats() {
  stats_.assign(nodes_.size(), Stats{});
  for (std::size_t k = nodes_.size(); k-- > 0;) {
    if (removed_[k]) continue;
    const Node& n = nodes_[k];
    Stats& s = stats_[k];
    if (n.text) {
      s.chars = n.own.chars;
      s.commas = n.own.commas;
    } else {
      switch (n.tag) {
        case GUMBO_TAG_A: {
          const double weight = attr(n.g, "href").starts_with("#") ? 0.3 : 1.0;
          s.link_chars = s.chars * weight;
          break;
        }
        case GUMBO_TAG_P:
          ++s.p;
          break;
        case GUMBO_TAG_IMG:
          ++s.img;
          break;
        case GUMBO_TAG_LI:
          ++s.li;
          break;
        case GUMBO_TAG_INPUT:
          ++s.input;
          break;
        case GUMBO_TAG_EMBED:
        case GUMBO_TAG_OBJECT:
        case GUMBO_TAG_IFRAME:
        case GUMBO_TAG_VIDEO:
          ++s.embed;
          break;
        case GUMBO_TAG_UL:
        case GUMBO_TAG_OL:
          s.list_chars = s.chars;
          break;
        default:
          break;
      }
      if (is_heading(n.tag)) s.heading_chars = s.chars;
    }
    if (n.parent >= 0) {
      Stats& ps = stats_[static_cast<std::size_t>(n.parent)];
      ps.add(s);
      if (!n.text && is_div_to_p_block(n.tag)) ps.block_desc = true;
    }
  }
}

int Extractor::class_weight(int i) const {
  if (!(flags_ & kFlagWeightClasses)) return 0;
  const Node& n = nodes_[static_cast<std::size_t>(i)];
  int weight = 0;
  const std::string cls = to_lower_ascii(attr(n.g, "class"));
  const std::string id = to_lower_ascii(attr(n.g, "id"));
  for (const std::string* s : {&cls, &id}) {
    if (s->empty()) continue;
    if (is_negative(*s)) weight -= 25;
    if (is_positive(*s)) weight += 25;
  }
  return weight;
}

void Extractor::init_candidate(int i) {
  const auto k = static_cast<std::size_t>(i);
  if (candidate_[k]) return;
  candidate_[k] = 1;
  ++candidates_;
  double base = 0;
  switch (nodes_[k].tag) {
    case GUMBO_TAG_DIV:
      base = 5;
      break;
    case GUMBO_TAG_PRE:
    case GUMBO_TAG_TD:
    case GUMBO_TAG_BLOCKQUOTE:
      base = 3;
      break;
    case GUMBO_TAG_ADDRESS:
    case GUMBO_TAG_OL:
    case GUMBO_TAG_UL:
    case GUMBO_TAG_DL:
    case GUMBO_TAG_DD:
    case GUMBO_TAG_DT:
    case GUMBO_TAG_LI:
    case GUMBO_TAG_FORM:
      base = -3;
      break;
    case GUMBO_TAG_H1:
    case GUMBO_TAG_H2:
    case GUMBO_TAG_H3:
    case GUMBO_TAG_H4:
    case GUMBO_TAG_H5:
    case GUMBO_TAG_H6:
    case GUMBO_TAG_TH:
      base = -5;
      break;
    default:
      break;
  }
  score_[k] = base + class_weight(i);
}

void Extractor::score_paragraphs() {
  auto add_to_ancestors = [&](int parent, double content_score) {
    int level = 0;
    for (int a = parent; a >= 0 && level < 5; a = nodes_[static_cast<std::size_t>(a)].parent, ++level) {
      if (nodes_[static_cast<std::size_t>(a)].tag == GUMBO_TAG_HTML) break;
      init_candidate(a);
      const double divider = level == 0 ? 1.0 : level == 1 ? 2.0 : level * 3.0;
      score_[static_cast<std::size_t>(a)] += content_score / divider;
    }
  };
  for (std::size_t k = 0; k < nodes_.size(); ++k) {
    if (removed_[k] || nodes_[k].text) continue;
    const Node& n = nodes_[k];
    if (!(k >= static_cast<std::size_t>(body_) &&
          static_cast<int>(k) < nodes_[static_cast<std::size_t>(body_)].end))
      continue;
    const Stats& s = stats_[k];
    bool paragraph = false;
    switch (n.tag) {
      case GUMBO_TAG_P:
      case GUMBO_TAG_PRE:
      case GUMBO_TAG_TD:
      case GUMBO_TAG_SECTION:
      case GUMBO_TAG_H2:
      case GUMBO_TAG_H3:
      case GUMBO_TAG_H4:
      case GUMBO_TAG_H5:
      case GUMBO_TAG_H6:
        paragraph = true;
        break;
      case GUMBO_TAG_DIV:
        paragraph = !s.block_desc;  // a div of inline content is a paragraph
        break;
      default:
        break;
    }
    if (n.tag == GUMBO_TAG_DIV && s.block_desc) {
      // Runs of inline content directly inside a container div are paragraphs of that div.
      TextMeasure inline_text;
      for (int c = n.first_child; c >= 0; c = nodes_[static_cast<std::size_t>(c)].next_sibling) {
        const auto ck = static_cast<std::size_t>(c);
        if (removed_[ck]) continue;
        if (!nodes_[ck].text && (is_div_to_p_block(nodes_[ck].tag) || stats_[ck].block_desc)) continue;
        inline_text.chars += stats_[ck].chars;
        inline_text.commas += stats_[ck].commas;
      }
      if (inline_text.chars >= kMinParagraphChars)
        add_to_ancestors(static_cast<int>(k),
                         1 + inline_text.commas + std::min(std::floor(inline_text.chars / 100), 3.0));
    }
    if (!paragraph || s.chars < kMinParagraphChars || n.parent < 0) continue;
    const int parent = n.tag == GUMBO_TAG_P && is_p_wrapper(n.parent)
                           ? nodes_[static_cast<std::size_t>(n.parent)].parent
                           : n.parent;
    if (parent < 0) continue;
    add_to_ancestors(parent, 1 + s.commas + std::min(std::floor(s.chars / 100), 3.0));
  }
  // Links are navigation, not prose: scale every candidate by its link density.
  for (std::size_t k = 0; k < nodes_.size(); ++k)
    if (candidate_[k]) score_[k] *= 1 - stats_[k].link_density();
}

std::vector<int> Extractor::select_content() {
  std::vector<int> top;  // best first
  for (std::size_t k = 0; k < nodes_.size(); ++k) {
    if (!candidate_[k] || removed_[k]) continue;
    top.push_back(static_cast<int>(k));
  }
  std::partial_sort(top.begin(), top.begin() + static_cast<long>(std::min(top.size(), kTopCandidates)),
                    top.end(), [&](int a, int b) {
                      return score_[static_cast<std::size_t>(a)] > score_[static_cast<std::size_t>(b)];
                    });
  if (top.size() > kTopCandidates) top.resize(kTopCandidates);
  auto S = [&](int i) { return score_[static_cast<std::size_t>(i)]; };
  auto parent_of = [&](int i) { return nodes_[static_cast<std::size_t>(i)].parent; };

  if (top.empty() || top[0] == body_ || nodes_[static_cast<std::size_t>(top[0])].tag == GUMBO_TAG_BODY) {
    return {body_};
  }
  int best = top[0];
  // When several strong candidates share an ancestor, the article is that ancestor.
  std::vector<int> alternatives;
  for (std::size_t i = 1; i < top.size(); ++i)
    if (S(top[i]) / S(best) >= 0.75) alternatives.push_back(top[i]);
  if (alternatives.size() >= 3) {
    auto contains = [&](int ancestor, int node) {
      return node > ancestor && node < nodes_[static_cast<std::size_t>(ancestor)].end;
    };
    for (int p = parent_of(best); p >= 0 && p != body_; p = parent_of(p)) {
      int inside = 0;
      for (int alt : alternatives)
        if (contains(p, alt)) ++inside;
      if (inside >= 3) {
        best = p;
        break;
      }
    }
    if (!candidate_[static_cast<std::size_t>(best)]) init_candidate(best);
  }
  // Climb while the parent scores better: the top paragraph container is often one level too deep.
  {
    double last = S(best);
    const double threshold = last / 3;
    for (int p = parent_of(best); p >= 0 && p != body_; p = parent_of(p)) {
      if (!candidate_[static_cast<std::size_t>(p)]) continue;
      const double ps = S(p);
      if (ps < threshold) break;
      if (ps > last) {
        best = p;
        break;
      }
      last = ps;
    }
  }
  // An only child says nothing its parent does not.
  while (true) {
    const int p = parent_of(best);
    if (p < 0 || p == body_ || nodes_[static_cast<std::size_t>(p)].tag == GUMBO_TAG_HTML) break;
    int elements = 0;
    for (int c = nodes_[static_cast<std::size_t>(p)].first_child; c >= 0;
         c = nodes_[static_cast<std::size_t>(c)].next_sibling)
      if (!nodes_[static_cast<std::size_t>(c)].text && !removed_[static_cast<std::size_t>(c)]) ++elements;
    if (elements != 1) break;
    best = p;
  }

  // Siblings that look like part of the article join it.
  std::vector<int> content;
  const int parent = parent_of(best);
  if (parent < 0) return {best};
  const double threshold = std::max(10.0, S(best) * 0.2);
  const std::string best_class(attr(nodes_[static_cast<std::size_t>(best)].g, "class"));
  for (int c = nodes_[static_cast<std::size_t>(parent)].first_child; c >= 0;
       c = nodes_[static_cast<std::size_t>(c)].next_sibling) {
    const auto ck = static_cast<std::size_t>(c);
    if (nodes_[ck].text || removed_[ck]) continue;
    if (c == best) {
      content.push_back(c);
      continue;
    }
    double bonus = 0;
    if (!best_class.empty() && attr(nodes_[ck].g, "class") == best_class) bonus += S(best) * 0.2;
    if (candidate_[ck] && S(c) + bonus >= threshold) {
      content.push_back(c);
      continue;
    }
    const bool paragraph_like = nodes_[ck].tag == GUMBO_TAG_P || is_p_wrapper(c);
    if (paragraph_like) {
      const Stats& s = stats_[ck];
      const double ld = s.link_density();
      const std::string text = collapse_whitespace(detail::inner_text(nodes_[ck].g));
      if ((s.chars > 80 && ld < 0.25) || (s.chars > 0 && s.chars < 80 && ld == 0 &&
                                          (text.ends_with(".") || text.find(". ") != std::string::npos)))
        content.push_back(c);
    }
  }
  return content;
}

// A <div> whose only content is one <p> (and little of it links) stands for that paragraph:
// Readability replaces such a div by its <p>, so the paragraph scores the div's parent.
bool Extractor::is_p_wrapper(int i) const {
  const Node& n = nodes_[static_cast<std::size_t>(i)];
  if (n.text || n.tag != GUMBO_TAG_DIV || removed_[static_cast<std::size_t>(i)]) return false;
  int elements = 0;
  bool p = false;
  for (int c = n.first_child; c >= 0; c = nodes_[static_cast<std::size_t>(c)].next_sibling) {
    const Node& child = nodes_[static_cast<std::size_t>(c)];
    if (removed_[static_cast<std::size_t>(c)]) continue;
    if (child.text) {
      if (child.own.chars > 0) return false;
      continue;
    }
    ++elements;
    p = child.tag == GUMBO_TAG_P;
  }
  return elements == 1 && p && stats_[static_cast<std::size_t>(i)].link_density() < 0.25;
}

bool Extractor::is_data_table(int i) const {
  const Node& n = nodes_[static_cast<std::size_t>(i)];
  if (attr(n.g, "role") == "presentation") return false;
  if (attr(n.g, "datatable") == "0") return false;
  if (!attr(n.g, "summary").empty()) return true;
  int rows = 0;
  int max_cols = 0;
  int cols = 0;
  for (int k = i + 1; k < n.end; ++k) {
    const Node& d = nodes_[static_cast<std::size_t>(k)];
    if (d.text) continue;
    switch (d.tag) {
      case GUMBO_TAG_CAPTION:
      case GUMBO_TAG_TH:
      case GUMBO_TAG_THEAD:
      case GUMBO_TAG_TFOOT:
      case GUMBO_TAG_COLGROUP:
      case GUMBO_TAG_COL:
        return true;
      case GUMBO_TAG_TABLE:
        return false;  // layout tables nest
      case GUMBO_TAG_TR:
        ++rows;
        cols = 0;
        break;
      case GUMBO_TAG_TD:
        max_cols = std::max(max_cols, ++cols);
        break;
      default:
        break;
    }
  }
  if (rows >= 10 || max_cols > 4) return true;
  return rows * max_cols > 10;
}

// Cleans one content subtree bottom-up: statistics are re-aggregated as nodes go, so an outer block
// is judged on what is left of it after its inner blocks were cleaned.
void Extractor::clean_subtree(int top) {
  const int end = nodes_[static_cast<std::size_t>(top)].end;
  std::vector<Stats> live(static_cast<std::size_t>(end - top));
  auto L = [&](int k) -> Stats& { return live[static_cast<std::size_t>(k - top)]; };
  for (int k = end; k-- > top;) {
    const auto ku = static_cast<std::size_t>(k);
    if (removed_[ku]) continue;
    const Node& n = nodes_[ku];
    Stats& s = L(k);
    bool drop = false;
    if (n.text) {
      s.chars = n.own.chars;
      s.commas = n.own.commas;
    } else {
      // Own-tag statistics on top of the children already summed into s.
      s.p += n.tag == GUMBO_TAG_P;
      s.img += n.tag == GUMBO_TAG_IMG;
      s.li += n.tag == GUMBO_TAG_LI;
      if (n.tag == GUMBO_TAG_A) s.link_chars = s.chars * (attr(n.g, "href").starts_with("#") ? 0.3 : 1.0);
      if (is_heading(n.tag)) s.heading_chars = s.chars;
      if (n.tag == GUMBO_TAG_UL || n.tag == GUMBO_TAG_OL) s.list_chars = s.chars;
      const bool in_code = has_ancestor(k, GUMBO_TAG_PRE, 64) || has_ancestor(k, GUMBO_TAG_CODE, 64);
      // Share widgets and headers with negative hints.
      if (k != top && is_share(n.class_id) && s.chars < 500 && !in_code) drop = true;
      if ((n.tag == GUMBO_TAG_H1 || n.tag == GUMBO_TAG_H2) && class_weight(k) < 0) drop = true;
      if (n.tag == GUMBO_TAG_P && s.chars == 0 && s.img == 0 && s.embed == 0) drop = true;
      const bool conditional = n.tag == GUMBO_TAG_TABLE || n.tag == GUMBO_TAG_UL || n.tag == GUMBO_TAG_OL ||
                               n.tag == GUMBO_TAG_DIV || n.tag == GUMBO_TAG_SECTION;
      if (!drop && conditional && k != top && (flags_ & kFlagCleanConditionally) && !in_code &&
          !(n.tag == GUMBO_TAG_TABLE && is_data_table(k))) {
        const bool is_list =
            n.tag == GUMBO_TAG_UL || n.tag == GUMBO_TAG_OL || (s.chars > 0 && s.list_chars / s.chars > 0.9);
        const int weight = class_weight(k);
        // Only the class hints count here: a low paragraph score is not a reason to drop a block.
        if (weight < 0) {
          drop = true;
        } else if (s.commas < 10) {
          const double ld = s.link_density();
          const double heading_density = s.chars > 0 ? s.heading_chars / s.chars : 0;
          const bool in_figure = has_ancestor(k, GUMBO_TAG_FIGURE, 8);
          const int li = s.li - 100;
          drop = (s.img > 1 && static_cast<double>(s.p) / s.img < 0.5 && !in_figure) ||
                 (!is_list && li > s.p) || (s.input > s.p / 3) ||
                 (!is_list && heading_density < 0.9 && s.chars < 25 && (s.img == 0 || s.img > 2) &&
                  !in_figure) ||
                 (!is_list && weight < 25 && ld > 0.2) || (weight >= 25 && ld > 0.5) ||
                 (s.embed == 1 && s.chars < 75) || s.embed > 1;
        }
      }
    }
    if (drop) {
      std::fill(removed_.begin() + k, removed_.begin() + n.end, 1);
      continue;
    }
    if (k != top && n.parent >= top) L(n.parent).add(s);
  }
}

bool is_void_tag(GumboTag t) {
  switch (t) {
    case GUMBO_TAG_AREA:
    case GUMBO_TAG_BASE:
    case GUMBO_TAG_BR:
    case GUMBO_TAG_COL:
    case GUMBO_TAG_EMBED:
    case GUMBO_TAG_HR:
    case GUMBO_TAG_IMG:
    case GUMBO_TAG_INPUT:
    case GUMBO_TAG_LINK:
    case GUMBO_TAG_META:
    case GUMBO_TAG_PARAM:
    case GUMBO_TAG_SOURCE:
    case GUMBO_TAG_TRACK:
    case GUMBO_TAG_WBR:
      return true;
    default:
      return false;
  }
}

// Attributes worth keeping in extracted content; everything else (style, on*, class, data-*) goes.
bool keep_attribute(std::string_view name) {
  for (std::string_view keep : {"href", "src", "alt", "title", "colspan", "rowspan", "datetime", "cite",
                                "start", "lang", "dir", "width", "height"})
    if (name == keep) return true;
  return false;
}

std::string Extractor::serialize(const std::vector<int>& content, std::string_view base_url) const {
  std::string out = "<div id=\"readability-page-1\" class=\"page\">";
  for (int top : content) {
    const int end = nodes_[static_cast<std::size_t>(top)].end;
    std::vector<int> open;  // element indices whose end tag is pending
    for (int k = top; k < end; ++k) {
      // Close the elements this node is not inside of.
      while (!open.empty() && k >= nodes_[static_cast<std::size_t>(open.back())].end) {
        out += "</";
        out += detail::tag_name(nodes_[static_cast<std::size_t>(open.back())].g);
        out += '>';
        open.pop_back();
      }
      const Node& n = nodes_[static_cast<std::size_t>(k)];
      if (removed_[static_cast<std::size_t>(k)]) {
        k = n.end - 1;
        continue;
      }
      if (n.text) {
        append_html_escaped(out, n.g->v.text.text);
        continue;
      }
      const std::string name = detail::tag_name(n.g);
      // The page's <body> becomes a <div>: content is a fragment.
      const std::string emitted = (n.tag == GUMBO_TAG_BODY || n.tag == GUMBO_TAG_HTML) ? "div" : name;
      out += '<';
      out += emitted;
      const GumboVector& attrs = n.g->v.element.attributes;
      for (unsigned a = 0; a < attrs.length; ++a) {
        const auto* at = static_cast<const GumboAttribute*>(attrs.data[a]);
        const std::string_view aname = at->name;
        if (!keep_attribute(aname)) continue;
        std::string value = at->value;
        if (aname == "href" || aname == "src") {
          const std::string_view v = trim(value);
          if (starts_with_icase(v, "javascript:")) continue;
          if (!v.starts_with("#")) {
            if (auto resolved = resolve_url(base_url, v)) value = *resolved;
          }
        }
        out += ' ';
        out += aname;
        out += "=\"";
        append_html_escaped(out, value);
        out += '"';
      }
      out += '>';
      if (is_void_tag(n.tag)) {
        k = n.end - 1;
        continue;
      }
      open.push_back(k);
    }
    while (!open.empty()) {
      const Node& n = nodes_[static_cast<std::size_t>(open.back())];
      out += "</";
      out +=
          (n.tag == GUMBO_TAG_BODY || n.tag == GUMBO_TAG_HTML) ? std::string("div") : detail::tag_name(n.g);
      out += '>';
      open.pop_back();
    }
  }
  out += "</div>";
  return out;
}

// The first element with this tag in pre-order, iteratively.
const GumboNode* find_first(const GumboNode* root, GumboTag tag) {
  std::vector<const GumboNode*> stack{root};
  while (!stack.empty()) {
    const GumboNode* n = stack.back();
    stack.pop_back();
    if (!is_element(n)) continue;
    if (n->v.element.tag == tag) return n;
    const GumboVector& kids = n->v.element.children;
    for (unsigned i = kids.length; i > 0; --i)
      stack.push_back(static_cast<const GumboNode*>(kids.data[i - 1]));
  }
  return nullptr;
}

// <title> without its site-name suffix ("Post | Blog" -> "Post") when what is left is at least three words.
std::string page_title(const GumboNode* root) {
  std::string title;
  if (const GumboNode* t = find_first(root, GUMBO_TAG_TITLE))
    title = collapse_whitespace(detail::inner_text(t));
  if (title.empty()) {
    if (const GumboNode* h1 = find_first(root, GUMBO_TAG_H1))
      title = collapse_whitespace(detail::inner_text(h1));
    return title;
  }
  std::size_t cut = std::string::npos;
  for (std::string_view sep :
       {" | ", " - ", " \xE2\x80\x93 ", " \xE2\x80\x94 ", " \xC2\xBB ", " :: ", " / "}) {
    const auto at = title.rfind(sep);
    if (at != std::string::npos && (cut == std::string::npos || at > cut)) cut = at;
  }
  if (cut != std::string::npos) {
    const std::string head = title.substr(0, cut);
    if (count_words(head) >= 3) return head;
  }
  return title;
}

}  // namespace

Result<Extracted> extract_main_content(std::string_view page_html, std::string_view page_url) {
  if (page_html.size() > kMaxInputBytes)
    return fail(ErrorKind::kTooLarge, "html: page is larger than 10 MB", "The page is too large to extract.");
  const detail::Document doc(page_html);
  const GumboNode* root = doc.root();
  if (root == nullptr || !is_element(root)) return fail(ErrorKind::kNotFound, "html: no main content found");

  std::string base(page_url);
  if (const GumboNode* b = find_first(root, GUMBO_TAG_BASE)) {
    const auto href = attr(b, "href");
    if (!href.empty()) {
      if (auto resolved = resolve_url(page_url, href)) base = *resolved;
    }
  }

  Extracted result;
  result.title = page_title(root);
  Extractor extractor(root, result.title);
  // Readability's retry ladder: each attempt relaxes one filter; the longest result wins if none is long.
  std::string best_html;
  std::string best_text;
  std::size_t best_candidates = 0;
  for (int flags : {kFlagStripUnlikely | kFlagWeightClasses | kFlagCleanConditionally,
                    kFlagWeightClasses | kFlagCleanConditionally, kFlagCleanConditionally, 0}) {
    const auto content = extractor.run(flags);
    extractor.clean(content);
    std::string content_html = extractor.serialize(content, base);
    std::string text = html_to_text(content_html);
    const std::size_t length = measure(text).chars;
    const bool better = best_html.empty() || length > measure(best_text).chars;
    if (better) {
      best_html = std::move(content_html);
      best_text = std::move(text);
      best_candidates = extractor.candidates();
    }
    if (length >= kCharThreshold) break;
  }
  if (trim(best_text).empty()) return fail(ErrorKind::kNotFound, "html: no main content found");
  result.content_html = std::move(best_html);
  result.text = std::move(best_text);
  result.candidates = best_candidates;
  return result;
}

}  // namespace longread::html
