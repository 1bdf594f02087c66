// Adapters from each format's raw structure to the Feed model: text constructs to plain text or
// HTML, links resolved, dates parsed, identity fields chosen.
#pragma once

#include <string>

#include "feed/atom.h"
#include "feed/feed.h"
#include "feed/json_feed.h"
#include "feed/rss.h"

namespace longread::feed {

Feed adapt_rss(const rss::Channel& channel);
Feed adapt_atom(const atom::Feed& raw);
Feed adapt_json_feed(const json_feed::Document& doc, const std::string& base_url);

}  // namespace longread::feed
