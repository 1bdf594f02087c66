// longread-generate, run as the benchmarks run it: deterministic for a seed, a realistic vocabulary by
// default (many distinct words, frequencies from very common to rare) and the old tiny one with
// --worst-case; the built-in corpus model is the checked-in file, and that file is what
// bench/scale/corpus_model learns from the real-feeds corpus.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "storage/sqlite/article_body.h"

namespace {

namespace fs = std::filesystem;

const std::string kGenerate = LONGREAD_BINARY_DIR "/src/storage/longread-generate";
const std::string kCorpusModelTool = LONGREAD_BINARY_DIR "/bench/scale/corpus_model";
const std::string kModelFile = LONGREAD_SOURCE_DIR "/src/storage/tools/corpus_model.txt";

class GenerateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("longread-generate-test-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs the generator into a new database and returns its path.
  std::string generate(const std::string& name, const std::string& options) {
    const std::string db = (dir_ / name).string();
    const std::string command = kGenerate + " --db " + db + " -n 300 -b 3 " + options + " > /dev/null";
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
    return db;
  }

  // Each article's guid, title and text, in id order.
  static std::vector<std::string> rows(const std::string& db) {
    std::vector<std::string> out;
    sqlite3* handle = nullptr;
    EXPECT_EQ(sqlite3_open_v2(db.c_str(), &handle, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    // The text is in the compressed body (migration 0021), read with the store's function.
    longread::storage::sqlite::register_body_functions(
        handle, std::make_shared<longread::storage::sqlite::BodyDictionaries>());
    sqlite3_stmt* stmt = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(
                  handle, "SELECT guid, title, longread_body_part(body, 2, text) FROM articles ORDER BY id",
                  -1, &stmt, nullptr),
              SQLITE_OK);
    while (stmt != nullptr && sqlite3_step(stmt) == SQLITE_ROW) {
      std::string row;
      for (int c = 0; c < 3; ++c)
        row += std::string(reinterpret_cast<const char*>(sqlite3_column_text(stmt, c))) + "\x1f";
      out.push_back(row);
    }
    sqlite3_finalize(stmt);
    sqlite3_close(handle);
    return out;
  }

  // For each lower-cased word, the number of articles whose text has it.
  static std::map<std::string, int> document_frequencies(const std::vector<std::string>& articles) {
    std::map<std::string, int> df;
    for (const auto& article : articles) {
      std::set<std::string> words;
      std::string w;
      for (const char c : article.substr(article.find('\x1f', article.find('\x1f') + 1))) {
        if (std::isalpha(static_cast<unsigned char>(c)) != 0) {
          w += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        } else if (!w.empty()) {
          words.insert(w);
          w.clear();
        }
      }
      for (const auto& word : words) ++df[word];
    }
    return df;
  }

  fs::path dir_;
};

TEST_F(GenerateTest, SameSeedSameArticlesOtherSeedOthers) {
  const auto a = rows(generate("a.db", "--seed 5"));
  const auto b = rows(generate("b.db", "--seed 5"));
  const auto c = rows(generate("c.db", "--seed 6"));
  ASSERT_EQ(a.size(), 300u);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  const auto worst_a = rows(generate("wa.db", "--worst-case --seed 5"));
  EXPECT_EQ(worst_a, rows(generate("wb.db", "--worst-case --seed 5")));
  EXPECT_NE(worst_a, a);
}

TEST_F(GenerateTest, RealisticTextHasManyWordsFromCommonToRare) {
  const auto df = document_frequencies(rows(generate("r.db", "")));
  EXPECT_GT(df.size(), 3000u);   // distinct words in 300 articles
  EXPECT_GE(df.at("the"), 240);  // a function word is in most articles (short posts are real too)
  const auto rare = std::count_if(df.begin(), df.end(), [](const auto& e) { return e.second <= 3; });
  EXPECT_GT(rare, static_cast<long>(df.size() / 2));  // and most words are in 1 % of them or fewer
}

TEST_F(GenerateTest, WorstCaseTextIsTheTinyVocabulary) {
  const auto df = document_frequencies(rows(generate("w.db", "--worst-case")));
  EXPECT_LT(df.size(), 120u);
  EXPECT_GE(df.at("compiler"), 200);  // every noun is in most articles
}

TEST_F(GenerateTest, BuiltInModelIsTheCheckedInFile) {
  EXPECT_EQ(rows(generate("builtin.db", "--seed 9")),
            rows(generate("file.db", "--seed 9 --model " + kModelFile)));
  // A broken model is refused with a message, not used.
  const std::string bad = (dir_ / "bad.txt").string();
  std::ofstream(bad) << "w the 10\nnonsense\n";
  const std::string command =
      kGenerate + " --db " + (dir_ / "bad.db").string() + " -n 10 --model " + bad + " 2>/dev/null";
  EXPECT_NE(std::system(command.c_str()), 0);
}

TEST_F(GenerateTest, CheckedInModelIsWhatCorpusModelLearnsFromTheCorpus) {
  const fs::path feeds = fs::path(LONGREAD_CORPUS_DIR) / "real-feeds";
  if (!fs::exists(feeds)) GTEST_SKIP() << "skipped: ../shared not present";
  const std::string out = (dir_ / "model.txt").string();
  ASSERT_EQ(std::system((kCorpusModelTool + " " + feeds.string() + " > " + out).c_str()), 0);
  auto read = [](const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  EXPECT_TRUE(read(out) == read(kModelFile))
      << "re-make src/storage/tools/corpus_model.txt with bench/scale/corpus_model";
}

}  // namespace
