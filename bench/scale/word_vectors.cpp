// word_vectors URL: writes into every article's search_vector the tsvector of every word of its title and
// text, split by the search's own tokenizer (without positions, common words included): what longread
// stored there before PostgreSQL's migration 0015, when the index kept the words themselves rather than
// their ids. For the analysis scripts that count words with ts_stat or copy the vectors
// (common_words_list.sh, gin_common_words.sh), on a throwaway database: the rows then have both forms.
#include <fmt/format.h>

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "article_texts.h"
#include "storage/postgres/database.h"
#include "storage/postgres/search_vectors.h"
#include "storage/postgres/statement.h"

namespace pg = longread::storage::postgres;

int main(int argc, char** argv) {
  if (argc != 2) {
    fmt::print(stderr, "usage: word_vectors postgresql://...\n");
    return 2;
  }
  auto db = pg::Database::open(argv[1], 1);
  auto conn = pg::Connection::open(argv[1]);
  if (!db || !conn) {
    fmt::print(stderr, "word_vectors: {}\n", !db ? db.error().message : conn.error().message);
    return 1;
  }
  std::int64_t written = 0;
  longread::bench::for_each_article_text(
      *conn, **db, "true", [&](const longread::bench::ArticleTexts& batch) {
        std::vector<std::string> vectors;
        for (std::size_t i = 0; i < batch.ids.size(); ++i) {
          std::set<std::string> words;
          for (const std::string* part : {&batch.titles[i], &batch.texts[i]}) {
            (*db)->tokenizer().for_each_token(*part, [&](std::string_view word) {
              if (!word.empty() && word.size() <= pg::kMaxLexemeBytes) words.emplace(word);
              return true;
            });
          }
          vectors.push_back(pg::text_array(words));
        }
        auto done = conn->exec(
            "UPDATE articles a SET search_vector = array_to_tsvector(u.words::text[])"
            " FROM unnest($1::bigint[], $2::text[]) AS u(id, words) WHERE a.id = u.id",
            pg::Params(pg::id_array(batch.ids), pg::text_array(vectors)));
        if (!done) {
          fmt::print(stderr, "word_vectors: {}\n", done.error().message);
          std::exit(1);
        }
        written += static_cast<std::int64_t>(batch.ids.size());
      });
  fmt::print(stderr, "word_vectors: {} articles\n", written);
  return 0;
}
