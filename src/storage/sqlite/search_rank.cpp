#include "storage/sqlite/search_rank.h"

#include <cmath>
#include <cstdlib>
#include <vector>

namespace longread::storage::sqlite {
namespace {

// What is the same for every row of one query: computed at the first row, kept as FTS5 auxdata.
struct RankData {
  double average_length = 1;
  std::vector<double> idf;
  std::vector<double> frequency;  // per phrase, for the current row
};

int count_row(const Fts5ExtensionApi* /*api*/, Fts5Context* /*fts*/, void* user) {
  ++*static_cast<sqlite3_int64*>(user);
  return SQLITE_OK;
}

// Reads the statistics and document frequencies; nullptr (with *rc set) on error.
RankData* rank_data(const Fts5ExtensionApi* api, Fts5Context* fts, int nval, sqlite3_value** args, int* rc) {
  if (auto* data = static_cast<RankData*>(api->xGetAuxdata(fts, 0))) return data;
  auto* data = new RankData;
  sqlite3_int64 rows = 0, tokens = 0;
  *rc = api->xRowCount(fts, &rows);
  if (*rc == SQLITE_OK) *rc = api->xColumnTotalSize(fts, -1, &tokens);
  const int phrases = api->xPhraseCount(fts);
  data->average_length = rows > 0 ? static_cast<double>(tokens) / static_cast<double>(rows) : 1.0;
  data->frequency.assign(static_cast<std::size_t>(phrases), 0.0);
  // The document frequencies: space-separated numbers, one per phrase, in the query's order.
  std::vector<double> given;
  if (nval > 2 && sqlite3_value_type(args[2]) == SQLITE_TEXT) {
    const char* p = reinterpret_cast<const char*>(sqlite3_value_text(args[2]));
    for (char* end = nullptr; p != nullptr && *p != '\0'; p = end) {
      const double v = std::strtod(p, &end);
      if (end == p) break;
      given.push_back(v);
    }
  }
  for (int i = 0; *rc == SQLITE_OK && i < phrases; ++i) {
    double df = 0;
    if (static_cast<std::size_t>(i) < given.size()) {
      df = std::min(static_cast<double>(rows), std::max(0.0, given[static_cast<std::size_t>(i)]));
    } else {
      sqlite3_int64 hits = 0;
      *rc = api->xQueryPhrase(fts, i, &hits, count_row);
      df = static_cast<double>(hits);
    }
    const double idf = std::log((0.5 + static_cast<double>(rows) - df) / (0.5 + df));
    data->idf.push_back(idf <= 0.0 ? 1e-6 : idf);
  }
  if (*rc == SQLITE_OK) {
    *rc = api->xSetAuxdata(fts, data, [](void* p) { delete static_cast<RankData*>(p); });
    if (*rc == SQLITE_OK) return data;  // xSetAuxdata owns it now (and frees it on failure too)
    return nullptr;
  }
  delete data;
  return nullptr;
}

void longread_rank(const Fts5ExtensionApi* api, Fts5Context* fts, sqlite3_context* context, int nval,
                   sqlite3_value** args) {
  constexpr double k1 = 1.2;
  constexpr double b = 0.75;
  int rc = SQLITE_OK;
  RankData* data = rank_data(api, fts, nval, args, &rc);
  if (data == nullptr) {
    sqlite3_result_error_code(context, rc == SQLITE_OK ? SQLITE_ERROR : rc);
    return;
  }
  std::fill(data->frequency.begin(), data->frequency.end(), 0.0);
  int instances = 0;
  rc = api->xInstCount(fts, &instances);
  for (int i = 0; rc == SQLITE_OK && i < instances; ++i) {
    int phrase = 0, column = 0, offset = 0;
    rc = api->xInst(fts, i, &phrase, &column, &offset);
    if (rc == SQLITE_OK && phrase >= 0 && static_cast<std::size_t>(phrase) < data->frequency.size())
      data->frequency[static_cast<std::size_t>(phrase)] +=
          column < 2 && column < nval ? sqlite3_value_double(args[column]) : 1.0;
  }
  int length = 0;
  if (rc == SQLITE_OK) rc = api->xColumnSize(fts, -1, &length);
  if (rc != SQLITE_OK) {
    sqlite3_result_error_code(context, rc);
    return;
  }
  double score = 0;
  for (std::size_t i = 0; i < data->idf.size(); ++i) {
    const double f = data->frequency[i];
    score += data->idf[i] * (f * (k1 + 1.0)) /
             (f + k1 * (1 - b + b * static_cast<double>(length) / data->average_length));
  }
  sqlite3_result_double(context, -score);
}

}  // namespace

std::string register_search_rank(sqlite3* db) {
  // The FTS5 API pointer is handed out through SELECT fts5(?1) (https://sqlite.org/fts5.html#extending_fts5).
  fts5_api* api = nullptr;
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &stmt, nullptr) != SQLITE_OK) return sqlite3_errmsg(db);
  sqlite3_bind_pointer(stmt, 1, static_cast<void*>(&api), "fts5_api_ptr", nullptr);
  sqlite3_step(stmt);
  sqlite3_finalize(stmt);
  if (api == nullptr || api->iVersion < 2) return "FTS5 is not available";
  if (api->xCreateFunction(api, "longread_rank", nullptr, longread_rank, nullptr) != SQLITE_OK)
    return sqlite3_errmsg(db);
  return "";
}

}  // namespace longread::storage::sqlite
