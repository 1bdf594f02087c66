#include "ui/format.h"

#include <fmt/format.h>

#include <array>
#include <chrono>

namespace longread::ui {
namespace {

std::string ago(long long n, std::string_view unit) {
  return fmt::format("{} {}{} ago", n, unit, n == 1 ? "" : "s");
}

}  // namespace

std::string plural(long long n, std::string_view singular, std::string_view plural_form) {
  return fmt::format("{} {}", n, n == 1 ? singular : plural_form);
}

std::string relative_age(TimePoint then, TimePoint now) {
  const long long seconds = (now - then).count();
  if (seconds < 60) return "just now";
  const long long minutes = seconds / 60;
  if (minutes < 60) return ago(minutes, "minute");
  const long long hours = minutes / 60;
  if (hours < 24) return ago(hours, "hour");
  const long long days = hours / 24;
  if (days < 2) return "yesterday";
  if (days < 7) return ago(days, "day");
  if (days < 30) return ago(days / 7, "week");
  if (days < 365) return ago(std::min(days / 30, 11LL), "month");
  return ago(days / 365, "year");
}

std::string ordinal_date(TimePoint t) {
  static constexpr std::array<const char*, 12> kMonths = {"January",   "February", "March",    "April",
                                                          "May",       "June",     "July",     "August",
                                                          "September", "October",  "November", "December"};
  const std::chrono::year_month_day ymd{std::chrono::floor<std::chrono::days>(t)};
  const unsigned day = static_cast<unsigned>(ymd.day());
  // 11th, 12th, 13th are the exceptions to 1st/2nd/3rd.
  const char* suffix = "th";
  if (day % 100 < 11 || day % 100 > 13) {
    if (day % 10 == 1) suffix = "st";
    if (day % 10 == 2) suffix = "nd";
    if (day % 10 == 3) suffix = "rd";
  }
  return fmt::format("{}{} {} {}", day, suffix, kMonths[static_cast<unsigned>(ymd.month()) - 1],
                     static_cast<int>(ymd.year()));
}

std::string iso_date(TimePoint t) {
  const std::chrono::year_month_day ymd{std::chrono::floor<std::chrono::days>(t)};
  return fmt::format("{:04}-{:02}-{:02}", static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
                     static_cast<unsigned>(ymd.day()));
}

std::string reading_time(int minutes) {
  return fmt::format("{} min read", std::max(minutes, 1));
}

}  // namespace longread::ui
