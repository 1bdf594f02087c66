#include "storage/postgres/reader_filter.h"

#include <fmt/format.h>

namespace longread::storage::postgres {

std::string read_expression(std::string_view x) {
  return fmt::format(
      "COALESCE((SELECT r.is_read FROM article_reads r WHERE r.reader_id = :filter_reader::bigint"
      " AND r.article_id = {0}.id), CASE WHEN {0}.display_at < GREATEST(COALESCE((SELECT h.read_before FROM"
      " read_horizons h WHERE h.reader_id = :filter_reader::bigint AND h.blog_id = 0), 0), COALESCE((SELECT"
      " h.read_before FROM read_horizons h WHERE h.reader_id = :filter_reader::bigint AND h.blog_id ="
      " {0}.blog_id), 0)) THEN 1 ELSE 0 END)",
      x);
}

std::string reader_filter_sql(const ReaderFilter& filter, std::string_view alias) {
  // Each NOT EXISTS is one probe of a partial unique index of reader_mutes.
  std::string sql = fmt::format(
      " AND NOT EXISTS (SELECT 1 FROM reader_mutes m WHERE m.reader_id = :filter_reader::bigint AND"
      " m.blog_id = {0}.blog_id) AND NOT EXISTS (SELECT 1 FROM reader_mutes m WHERE m.reader_id ="
      " :filter_reader::bigint AND m.category = {0}.category)",
      alias);
  if (filter.hide_read) sql += " AND " + read_expression(alias) + " = 0";
  if (filter.newsletter_categories) {
    sql += fmt::format(
        " AND (NOT EXISTS (SELECT 1 FROM reader_newsletter_categories n WHERE n.reader_id ="
        " :filter_reader::bigint) OR EXISTS (SELECT 1 FROM reader_newsletter_categories n WHERE n.reader_id ="
        " :filter_reader::bigint AND n.category = {}.category))",
        alias);
  }
  return sql;
}

void bind_reader_filter(Query& q, const ReaderFilter& filter) {
  q.bind(":filter_reader", filter.reader_id);
}

}  // namespace longread::storage::postgres
