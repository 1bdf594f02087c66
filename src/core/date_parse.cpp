// parse_feed_date: the date forms feeds actually carry. Two grammars are tried in turn:
//  1. ISO 8601 / RFC 3339 / W3CDTF: "2024-05-23T10:00:00.123+02:00", "2024-05-23 10:00Z", "2024-05-23",
//     "2024-05", "20240523T100000Z", "2024-144" (ordinal), "2024/05/23 10:00".
//  2. RFC 822 / RFC 2822 section 3.3 and their broken variants: weekday optional or wrong, "Sept", full month
//     names, "May 23, 2024", two-digit years (RFC 2822 section 4.3), missing seconds, extra spaces and
//     commas, named zones (UT, GMT, EST, PDT, ...), military zones (RFC 822 section 5.1), "+0200"/"+02:00",
//     a trailing "(comment)".
// A time without a zone is read as UTC. Calendar arithmetic uses <chrono> civil dates, which are defined for
// every year from 1 to 9999, so Hugo's "0001-01-01T00:00:00Z" parses (to year 1) without overflow.
#include <array>
#include <cctype>
#include <optional>
#include <string>
#include <string_view>

#include "core/time.h"

namespace longread {
namespace {
using namespace std::chrono;

struct Fields {
  int year = 0, month = 0, day = 1, hour = 0, minute = 0, second = 0;
  int zone_minutes = 0;  // east of UTC
};

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
char lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

std::optional<TimePoint> to_time_point(const Fields& f) {
  if (f.year < 1 || f.year > 9999 || f.hour < 0 || f.hour > 24 || f.minute < 0 || f.minute > 59 ||
      f.second < 0 || f.second > 60)
    return std::nullopt;
  const year_month_day ymd{year{f.year}, month{static_cast<unsigned>(f.month)},
                           day{static_cast<unsigned>(f.day)}};
  if (!ymd.ok()) return std::nullopt;
  // A leap second is folded into the next second; 24:00 is midnight of the next day (ISO 8601).
  const auto t =
      sys_days{ymd} + hours{f.hour} + minutes{f.minute} + seconds{f.second} - minutes{f.zone_minutes};
  return time_point_cast<seconds>(t);
}

// A cursor over the text with the small reads both grammars need.
class Cursor {
 public:
  explicit Cursor(std::string_view s) : s_(s) {}
  [[nodiscard]] bool done() const { return i_ >= s_.size(); }
  [[nodiscard]] char peek(std::size_t ahead = 0) const {
    return i_ + ahead < s_.size() ? s_[i_ + ahead] : '\0';
  }
  [[nodiscard]] std::size_t pos() const { return i_; }
  void advance(std::size_t n = 1) { i_ += n; }
  void reset(std::size_t p) { i_ = p; }
  bool eat(char c) {
    if (peek() != c) return false;
    ++i_;
    return true;
  }
  void skip_spaces() {
    while (!done() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) ++i_;
  }
  // Reads exactly `n` digits, or fails without moving.
  std::optional<int> digits(std::size_t n) {
    if (i_ + n > s_.size()) return std::nullopt;
    int v = 0;
    for (std::size_t k = 0; k < n; ++k) {
      if (!is_digit(s_[i_ + k])) return std::nullopt;
      v = v * 10 + (s_[i_ + k] - '0');
    }
    i_ += n;
    return v;
  }
  // Counts the digits ahead without moving.
  [[nodiscard]] std::size_t digit_run() const {
    std::size_t n = 0;
    while (i_ + n < s_.size() && is_digit(s_[i_ + n])) ++n;
    return n;
  }
  [[nodiscard]] std::string_view rest() const { return s_.substr(std::min(i_, s_.size())); }

 private:
  std::string_view s_;
  std::size_t i_ = 0;
};

// Named zones (RFC 822 section 5.1, plus those feeds use) and military letters, in minutes east of UTC.
std::optional<int> named_zone(std::string_view name) {
  std::string n;
  for (char c : name) n.push_back(lower(c));
  struct Zone {
    const char* name;
    int hours;
  };
  static constexpr std::array<Zone, 22> kZones{
      {{"ut", 0},   {"utc", 0},  {"gmt", 0},  {"z", 0},    {"wet", 0},  {"bst", 1},  {"cet", 1},  {"met", 1},
       {"cest", 2}, {"mest", 2}, {"eet", 2},  {"edt", -4}, {"est", -5}, {"cdt", -5}, {"cst", -6}, {"mdt", -6},
       {"mst", -7}, {"pdt", -7}, {"pst", -8}, {"adt", -3}, {"ast", -4}, {"jst", 9}}};
  for (const auto& z : kZones)
    if (n == z.name) return z.hours * 60;
  if (n == "et") return -5 * 60;
  if (n == "ct") return -6 * 60;
  if (n == "mt") return -7 * 60;
  if (n == "pt") return -8 * 60;
  if (n == "akst") return -9 * 60;
  if (n == "hst") return -10 * 60;
  if (n == "ist") return 5 * 60 + 30;
  if (n == "aest") return 10 * 60;
  if (n.size() == 1 && n[0] >= 'a' && n[0] <= 'y' && n[0] != 'j') {
    // RFC 822 military zones: A..I = -1..-9, K..M = -10..-12, N..Y = +1..+12.
    const char c = n[0];
    if (c <= 'i') return -(c - 'a' + 1) * 60;
    if (c <= 'm') return -(c - 'k' + 10) * 60;
    return (c - 'n' + 1) * 60;
  }
  return std::nullopt;
}

// "+02:00", "+0200", "+02", "-5"; the cursor is on the sign.
std::optional<int> numeric_zone(Cursor& c) {
  const std::size_t start = c.pos();
  const int sign = c.peek() == '-' ? -1 : 1;
  if (!c.eat('+') && !c.eat('-')) return std::nullopt;
  const std::size_t run = c.digit_run();
  int hh = 0, mm = 0;
  if (run == 4) {
    hh = *c.digits(2);
    mm = *c.digits(2);
  } else if (run == 2 || run == 1) {
    hh = *c.digits(run);
    if (c.eat(':')) {
      auto m = c.digits(2);
      if (!m) {
        c.reset(start);
        return std::nullopt;
      }
      mm = *m;
    }
  } else {
    c.reset(start);
    return std::nullopt;
  }
  if (hh > 23 || mm > 59) return std::nullopt;
  return sign * (hh * 60 + mm);
}

// Reads an optional zone after a time: "Z", numeric, or a name (possibly after spaces, possibly followed by
// an offset as in "GMT+2"). Returns false when something unreadable follows.
bool read_zone(Cursor& c, Fields& f) {
  c.skip_spaces();
  if (c.done()) return true;
  if (c.peek() == '+' || c.peek() == '-') {
    auto z = numeric_zone(c);
    if (!z) return false;
    f.zone_minutes = *z;
    return true;
  }
  if (is_alpha(c.peek())) {
    std::size_t n = 0;
    while (is_alpha(c.peek(n))) ++n;
    auto z = named_zone(c.rest().substr(0, n));
    if (!z) return false;
    c.advance(n);
    f.zone_minutes = *z;
    if (c.peek() == '+' || c.peek() == '-') {
      auto offset = numeric_zone(c);
      if (offset) f.zone_minutes += *offset;
    }
    return true;
  }
  return false;
}

// "HH:MM[:SS[.fff]]" or compact "HHMM[SS]"; the cursor is on the first digit.
bool read_time(Cursor& c, Fields& f) {
  const std::size_t run = c.digit_run();
  if (run == 4 || run == 6) {
    f.hour = *c.digits(2);
    f.minute = *c.digits(2);
    if (run == 6) f.second = *c.digits(2);
  } else {
    auto h = c.digits(run == 1 ? 1 : 2);
    if (!h || !c.eat(':')) return false;
    auto m = c.digits(2);
    if (!m) return false;
    f.hour = *h;
    f.minute = *m;
    if (c.eat(':')) {
      auto s = c.digits(2);
      if (!s) return false;
      f.second = *s;
    }
  }
  if (c.peek() == '.' || c.peek() == ',') {  // fractions of a second are dropped
    c.advance();
    while (is_digit(c.peek())) c.advance();
  }
  return true;
}

std::optional<TimePoint> parse_iso8601(std::string_view text) {
  Cursor c(text);
  Fields f;
  const std::size_t run = c.digit_run();
  if (run == 8) {  // compact 20240523
    f.year = *c.digits(4);
    f.month = *c.digits(2);
    f.day = *c.digits(2);
  } else if (run == 4) {
    f.year = *c.digits(4);
    const char sep = c.peek();
    if (sep == '-' || sep == '/' || sep == '.') {
      c.advance();
      const std::size_t next = c.digit_run();
      if (next == 3 && sep == '-') {  // ordinal date 2024-144
        const int ordinal = *c.digits(3);
        if (ordinal < 1 || ordinal > 366) return std::nullopt;
        const auto d = sys_days{year{f.year} / January / 1} + days{ordinal - 1};
        const year_month_day ymd{d};
        if (static_cast<int>(ymd.year()) != f.year) return std::nullopt;
        f.month = static_cast<int>(static_cast<unsigned>(ymd.month()));
        f.day = static_cast<int>(static_cast<unsigned>(ymd.day()));
      } else if (next == 1 || next == 2) {
        f.month = *c.digits(next);
        if (c.eat(sep)) {
          const std::size_t dr = c.digit_run();
          if (dr != 1 && dr != 2) return std::nullopt;
          f.day = *c.digits(dr);
        }
      } else {
        return std::nullopt;
      }
    } else if (c.done()) {
      f.month = 1;  // W3CDTF "YYYY"
    } else {
      return std::nullopt;
    }
  } else {
    return std::nullopt;
  }
  if (f.month == 0) f.month = 1;
  // Date only: midnight UTC.
  if (c.done()) return to_time_point(f);
  if (c.peek() == 'T' || c.peek() == 't') {
    c.advance();
  } else if (c.peek() == ' ') {
    c.skip_spaces();
  } else if (c.peek() == 'Z' || c.peek() == '+' || c.peek() == '-') {
    if (!read_zone(c, f)) return std::nullopt;
    return c.done() ? to_time_point(f) : std::nullopt;
  } else {
    return std::nullopt;
  }
  if (!is_digit(c.peek()) || !read_time(c, f)) return std::nullopt;
  if (!read_zone(c, f)) return std::nullopt;
  c.skip_spaces();
  return c.done() ? to_time_point(f) : std::nullopt;
}

int month_from_name(std::string_view word) {
  static constexpr std::array<const char*, 12> kMonths{"jan", "feb", "mar", "apr", "may", "jun",
                                                       "jul", "aug", "sep", "oct", "nov", "dec"};
  static constexpr std::array<const char*, 12> kFull{"january",   "february", "march",    "april",
                                                     "may",       "june",     "july",     "august",
                                                     "september", "october",  "november", "december"};
  std::string w;
  for (char c : word) w.push_back(lower(c));
  if (w.size() < 3) return 0;
  for (std::size_t m = 0; m < 12; ++m) {
    if (w == kMonths[m] || w == kFull[m]) return static_cast<int>(m) + 1;
    // Abbreviations longer than three letters ("Sept", "Febr.") are prefixes of the full name.
    if (w.size() > 3 && std::string_view(kFull[m]).starts_with(w)) return static_cast<int>(m) + 1;
  }
  return 0;
}

bool is_weekday(std::string_view word) {
  static constexpr std::array<const char*, 7> kDays{"mon", "tue", "wed", "thu", "fri", "sat", "sun"};
  std::string w;
  for (char c : word) w.push_back(lower(c));
  if (w.size() < 2) return false;
  for (const char* d : kDays)
    if (w.starts_with(std::string_view(d).substr(0, 2)) && (w.size() <= 3 || w.starts_with(d))) return true;
  return false;
}

// RFC 2822 section 4.3: two-digit years 00-49 are 2000-2049, 50-99 are 1950-1999; three digits add 1900.
int widen_year(int y, std::size_t ndigits) {
  if (ndigits <= 2) return y < 50 ? 2000 + y : 1900 + y;
  if (ndigits == 3) return 1900 + y;
  return y;
}

std::optional<TimePoint> parse_rfc822(std::string_view text) {
  Cursor c(text);
  Fields f;
  int day = 0, month = 0, year = -1;
  std::size_t year_digits = 0;
  bool have_time = false, have_zone = false, pm = false, am = false;
  while (true) {
    while (!c.done() && (c.peek() == ' ' || c.peek() == ',' || c.peek() == '\t' || c.peek() == '\n' ||
                         c.peek() == '\r' || (c.peek() == '.' && !is_digit(c.peek(1)))))
      c.advance();
    if (c.done()) break;
    const char ch = c.peek();
    if (ch == '(') {  // comment, e.g. "+0000 (UTC)"
      while (!c.done() && c.peek() != ')') c.advance();
      c.advance();
      continue;
    }
    if (is_alpha(ch)) {
      std::size_t n = 0;
      while (is_alpha(c.peek(n))) ++n;
      const std::string_view word = c.rest().substr(0, n);
      if (const int m = month_from_name(word); m != 0 && month == 0) {
        month = m;
        c.advance(n);
        if (c.peek() == '.') c.advance();
        // "23-May-2024": dashes join the fields.
        if (c.peek() == '-' && is_digit(c.peek(1))) c.advance();
        continue;
      }
      if (is_weekday(word) && !have_time) {
        c.advance(n);
        continue;
      }
      std::string w;
      for (char x : word) w.push_back(lower(x));
      if (have_time && (w == "am" || w == "pm")) {
        (w == "pm" ? pm : am) = true;
        c.advance(n);
        continue;
      }
      if (have_time && !have_zone) {
        if (!read_zone(c, f)) return std::nullopt;
        have_zone = true;
        continue;
      }
      return std::nullopt;
    }
    if ((ch == '+' || ch == '-') && have_time && !have_zone) {
      auto z = numeric_zone(c);
      if (!z) return std::nullopt;
      f.zone_minutes = *z;
      have_zone = true;
      continue;
    }
    if (is_digit(ch)) {
      const std::size_t run = c.digit_run();
      if (c.peek(run) == ':') {
        if (have_time || !read_time(c, f)) return std::nullopt;
        have_time = true;
        continue;
      }
      const int value = *c.digits(std::min<std::size_t>(run, 9));
      if (run > 9) return std::nullopt;
      if (c.peek() == '-' && is_alpha(c.peek(1))) c.advance();  // "23-May-2024"
      if (run >= 3 || value > 31 || (day != 0 && year < 0)) {
        if (year >= 0) return std::nullopt;
        year = value;
        year_digits = run;
      } else if (day == 0) {
        day = value;
      } else {
        return std::nullopt;
      }
      continue;
    }
    return std::nullopt;
  }
  if (month == 0 || day == 0 || year < 0) return std::nullopt;
  f.year = widen_year(year, year_digits);
  f.month = month;
  f.day = day;
  if (pm && f.hour < 12) f.hour += 12;
  if (am && f.hour == 12) f.hour = 0;
  return to_time_point(f);
}

}  // namespace

std::optional<TimePoint> parse_feed_date(std::string_view text) {
  while (!text.empty() &&
         (text.front() == ' ' || text.front() == '\t' || text.front() == '\n' || text.front() == '\r'))
    text.remove_prefix(1);
  while (!text.empty() &&
         (text.back() == ' ' || text.back() == '\t' || text.back() == '\n' || text.back() == '\r'))
    text.remove_suffix(1);
  if (text.empty() || text.size() > 200) return std::nullopt;
  if (is_digit(text.front())) {
    if (auto t = parse_iso8601(text)) return t;
  }
  return parse_rfc822(text);
}

}  // namespace longread
