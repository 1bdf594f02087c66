// `longread train` end to end: real corpus feeds, labelled by category in an OPML list, crawled over
// file:// URLs, then the classifier trained, evaluated on held-out articles and saved.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include <sys/wait.h>
#include <unistd.h>

namespace {
namespace fs = std::filesystem;

std::string run(const std::string& command, int* exit_code = nullptr) {
  std::string out;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return out;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, pipe)) out += buf;
  const int status = pclose(pipe);
  if (exit_code) *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '&' ? "&amp;" : c == '"' ? "&quot;" : c == '<' ? "&lt;" : std::string(1, c);
  return out;
}

TEST(Train, HeldOutAccuracyIsReportedAndTheModelSaved) {
  const fs::path corpus = LONGREAD_CORPUS_DIR "/real-feeds";
  if (!fs::exists(corpus)) GTEST_SKIP() << "skipped: ../shared not present";
  std::ifstream labels(LONGREAD_SOURCE_DIR "/src/curate/testdata/feed_categories.tsv");
  std::map<std::string, std::vector<std::string>> by_category;
  for (std::string line; std::getline(labels, line);) {
    if (line.empty() || line[0] == '#' || line.starts_with("path\t")) continue;
    std::istringstream fields(line);
    std::string path, category;
    std::getline(fields, path, '\t');
    std::getline(fields, category, '\t');
    by_category[category].push_back(path);
  }
  ASSERT_GE(by_category.size(), 3u);
  const fs::path dir = fs::temp_directory_path() / ("longread_train_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream opml(dir / "list.opml");
  opml << "<?xml version=\"1.0\"?><opml version=\"2.0\"><body>";
  for (const auto& [category, paths] : by_category) {
    opml << "<outline text=\"" << category << "\">";
    for (const auto& p : paths)
      opml << "<outline type=\"rss\" text=\"" << xml_escape(p) << "\" xmlUrl=\""
           << xml_escape("file://" + (corpus / p).string()) << "\"/>";
    opml << "</outline>";
  }
  opml << "</body></opml>";
  opml.close();

  const std::string bin = LONGREAD_BINARY_DIR "/src/app/longread --db " + (dir / "t.db").string();
  run(bin + " import " + (dir / "list.opml").string());
  const auto crawl = run("LONGREAD_CRAWL_FETCH_FULL_TEXT=false " + bin + " --log-level error crawl --all");
  ASSERT_NE(crawl.find("new articles"), std::string::npos) << crawl;
  const auto train = run(bin + " train");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      train, m,
      std::regex(
          R"(held-out accuracy ([\d.]+)% \((\d+)/(\d+) correct; majority baseline ([\d.]+)%, always "[^"]+"; (\d+) categories, (\d+) articles\))")))
      << train;
  const double accuracy = std::stod(m[1]);
  const int correct = std::stoi(m[2]);
  const int total = std::stoi(m[3]);
  const double baseline = std::stod(m[4]);
  EXPECT_GT(total, 20);
  EXPECT_NEAR(accuracy, 100.0 * correct / total, 0.05);
  // Categories whose articles are all junk or too short to learn from are not counted.
  EXPECT_GE(std::stoul(m[5]), 3u);
  EXPECT_LE(std::stoul(m[5]), by_category.size());
  EXPECT_GT(std::stoi(m[6]), total);
  // Better than always answering the training set's commonest category, which is under half here (the
  // labelled set spans several categories).
  EXPECT_LT(baseline, 50.0) << train;
  EXPECT_GT(accuracy, baseline) << train;
  EXPECT_GT(2 * correct, total) << train;
  std::ifstream model(dir / "classifier.json");
  ASSERT_TRUE(model.good()) << train;
  const auto json = nlohmann::json::parse(model, nullptr, false);
  ASSERT_FALSE(json.is_discarded());
  EXPECT_GE(json["categories"].size(), 3u);
  fs::remove_all(dir);
}

// With one category every guess is right and nothing is learned: train says so and saves no model.
TEST(Train, OneCategoryIsRefused) {
  const fs::path corpus = LONGREAD_CORPUS_DIR "/real-feeds";
  if (!fs::exists(corpus / "dpzmick")) GTEST_SKIP() << "skipped: ../shared not present";
  const fs::path dir = fs::temp_directory_path() / ("longread_train_one_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream opml(dir / "list.opml");
  opml << "<?xml version=\"1.0\"?><opml version=\"2.0\"><body><outline text=\"programming\">";
  for (const char* feed : {"dpzmick/feed.xml@2025-06-22_8ebc524.xml", "netnewswire/russcox.atom"})
    opml << "<outline type=\"rss\" text=\"" << feed << "\" xmlUrl=\""
         << xml_escape("file://" + (corpus / feed).string()) << "\"/>";
  opml << "</outline></body></opml>";
  opml.close();
  const std::string bin = LONGREAD_BINARY_DIR "/src/app/longread --db " + (dir / "t.db").string();
  run(bin + " import " + (dir / "list.opml").string());
  const auto crawl = run("LONGREAD_CRAWL_FETCH_FULL_TEXT=false " + bin + " --log-level error crawl --all");
  ASSERT_NE(crawl.find("new articles"), std::string::npos) << crawl;
  int code = 0;
  const auto train = run(bin + " train", &code);
  EXPECT_EQ(code, 1) << train;
  EXPECT_NE(train.find("at least 2 categories"), std::string::npos) << train;
  EXPECT_NE(train.find("\"programming\""), std::string::npos) << train;
  EXPECT_EQ(train.find("accuracy"), std::string::npos) << train;
  EXPECT_FALSE(fs::exists(dir / "classifier.json"));
  fs::remove_all(dir);
}

}  // namespace
