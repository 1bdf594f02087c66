// How the site words numbers and dates: relative ages, ordinal dates, plurals. Pure functions.
#pragma once

#include <string>
#include <string_view>

#include "core/time.h"

namespace longread::ui {

// "1 vote", "2 votes", "0 votes".
std::string plural(long long n, std::string_view singular, std::string_view plural_form);
// "just now", "1 minute ago", "5 minutes ago", "1 hour ago", "yesterday", "3 days ago", "1 week ago",
// "4 months ago", "2 years ago". A time in the future (clock skew) is "just now".
std::string relative_age(TimePoint then, TimePoint now);
// "1st May 2022", "23rd May 2022", "11th June 2021" (UTC).
std::string ordinal_date(TimePoint t);
// "2022-05-23" for <time datetime>.
std::string iso_date(TimePoint t);
// "8 min read".
std::string reading_time(int minutes);

}  // namespace longread::ui
