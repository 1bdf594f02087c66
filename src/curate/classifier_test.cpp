#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "curate/curate.h"

namespace longread::curate {
namespace {

using Examples = std::vector<std::pair<std::string, std::string>>;

// A few realistic paragraphs per category.
Examples training_set() {
  return {
      {"The compiler inlines the function call, so the loop body runs without a branch. Profiling the binary "
       "with perf showed that most cycles were spent in the hash map lookup, which we replaced with a sorted "
       "vector and binary search. The code is simpler and the benchmark improved by a third.",
       "programming"},
      {"Rust's borrow checker rejected the first version of the parser because two mutable references to the "
       "token buffer were alive at once. Splitting the lexer from the parser and passing slices fixed the "
       "compile error, and the resulting API is easier to test with unit tests.",
       "programming"},
      {"I rewrote the build scripts in Python and added type annotations to every function. The refactoring "
       "exposed three bugs where a string was passed instead of a list, and the test suite now runs in "
       "half the time because the fixtures are created once per module.",
       "programming"},
      {"Garbage collection pauses in the JVM were hurting tail latency, so we tuned the heap size and "
       "switched "
       "collectors. The debugger and the profiler agreed: allocation in the request handler was the culprit, "
       "and reusing buffers removed most of the pressure on the garbage collector.",
       "programming"},
      {"The cathedral's nave was vaulted in stone in the thirteenth century, and the flying buttresses carry "
       "the thrust of the vault outward to the piers. The facade, rebuilt after a fire, mixes Romanesque "
       "arches at ground level with Gothic tracery above the portal.",
       "architecture"},
      {"The new library by the river is a concrete building with a cantilevered reading room. The architect "
       "used a timber roof structure and large windows on the north facade so that daylight fills the "
       "interior without glare; the plan arranges the stacks around a central atrium.",
       "architecture"},
      {"Brutalist housing estates of the 1960s were designed around elevated walkways and shared courtyards. "
       "Many towers have been demolished, but the best buildings, with generous floor plans and solid "
       "masonry, are now listed and being restored by their residents.",
       "architecture"},
      {"Urban planners in the city proposed rezoning the old rail yards for mid-rise apartment buildings "
       "with "
       "shops on the ground floor. The design guidelines require brick facades, street trees and courtyards, "
       "echoing the historic warehouses that surround the site.",
       "architecture"},
      {"The central bank raised interest rates again to fight inflation, and bond yields rose across the "
       "curve. Economists expect unemployment to increase as credit tightens, while wage growth has so far "
       "kept pace with consumer prices in most sectors of the economy.",
       "economics"},
      {"Trade deficits are often misread as a sign of weakness. A country that imports more than it exports "
       "is also attracting capital, and the exchange rate adjusts to balance the two accounts. Tariffs "
       "rarely "
       "change the overall deficit, though they do change prices for consumers and producers.",
       "economics"},
      {"Housing markets respond slowly to demand because supply is constrained by zoning and construction "
       "costs. When mortgage rates fall, prices rise faster than the stock of homes, and households spend a "
       "larger share of income on rent, which shows up in measures of inflation.",
       "economics"},
      {"Fiscal policy during the recession relied on transfers to households and tax credits for firms. "
       "The deficit widened, but GDP recovered faster than after previous downturns, and the debt ratio "
       "stabilised once growth and inflation resumed.",
       "economics"},
  };
}

TEST(ClassifierTest, UntrainedGivesNothing) {
  CategoryClassifier c;
  EXPECT_FALSE(c.trained());
  EXPECT_FALSE(c.classify("The compiler inlines the function call so the loop runs without a branch and the "
                          "profiler shows the hash map lookup dominating the benchmark results today.")
                   .has_value());
  EXPECT_TRUE(c.posteriors("anything at all").empty());
}

TEST(ClassifierTest, ClassifiesUnseenParagraphs) {
  CategoryClassifier c;
  c.train(training_set());
  ASSERT_TRUE(c.trained());
  EXPECT_EQ(c.categories(), (std::vector<std::string>{"architecture", "economics", "programming"}));

  const auto prog = c.classify(
      "We profiled the service and found that the parser allocated a new string for every token. Changing "
      "the "
      "function to return slices of the input buffer removed the allocations, and the unit tests caught one "
      "off-by-one bug in the refactoring. The compiler now inlines the hot loop.");
  ASSERT_TRUE(prog.has_value());
  EXPECT_EQ(prog->first, "programming");
  EXPECT_GT(prog->second, 0.5);

  const auto arch = c.classify(
      "The museum extension sits behind the old facade, a glass and steel building whose roof is carried by "
      "slender columns. Inside, the architect kept the original masonry walls and opened the plan into a "
      "courtyard that brings daylight into the galleries on every floor.");
  ASSERT_TRUE(arch.has_value());
  EXPECT_EQ(arch->first, "architecture");

  const auto econ = c.classify(
      "Rising interest rates make mortgages more expensive, and house prices have begun to fall in cities "
      "where "
      "supply grew fastest. Inflation is easing, but economists warn that unemployment may rise as firms cut "
      "investment and consumer spending slows.");
  ASSERT_TRUE(econ.has_value());
  EXPECT_EQ(econ->first, "economics");

  // Posteriors are a probability distribution.
  double sum = 0;
  for (const auto& [_, p] :
       c.posteriors("Rising interest rates make mortgages more expensive for households and "
                    "firms, and house prices fall while inflation eases slowly over the year."))
    sum += p;
  EXPECT_NEAR(sum, 1.0, 1e-9);
}

TEST(ClassifierTest, TooShortOrUnknownWordsGiveNothing) {
  CategoryClassifier c;
  c.train(training_set());
  EXPECT_FALSE(c.classify("Interest rates and inflation.").has_value());  // under kMinWords words
  EXPECT_FALSE(c.classify("zzq xxv qqw vvb nnm kkj hhg ffd ssa ppo iiu yyt rre wwq aas ddf ggh jjk lll "
                          "mmn bbv ccx zza")
                   .has_value());  // no known word: no evidence
}

TEST(ClassifierTest, TrainingIsDeterministicAndSerializationRoundTrips) {
  CategoryClassifier a, b;
  a.train(training_set());
  b.train(training_set());
  EXPECT_EQ(a.serialize(), b.serialize());

  auto restored = CategoryClassifier::deserialize(a.serialize());
  ASSERT_TRUE(restored.has_value()) << restored.error().message;
  EXPECT_EQ(restored->serialize(), a.serialize());
  const std::string text =
      "The architect designed a timber building with a courtyard and a brick facade facing the street, and "
      "the "
      "plan puts the stairs and the atrium at the centre so daylight reaches every room of the house.";
  EXPECT_EQ(restored->posteriors(text), a.posteriors(text));
}

TEST(ClassifierTest, DeserializeRejectsGarbage) {
  EXPECT_FALSE(CategoryClassifier::deserialize("not json").has_value());
  EXPECT_FALSE(CategoryClassifier::deserialize("{\"format\":\"other\",\"version\":1}").has_value());
  auto bad = CategoryClassifier::deserialize(
      R"({"format":"longread-category-classifier","version":1,"categories":["a","b"],"bias":[0],"terms":[]})");
  ASSERT_FALSE(bad.has_value());
  EXPECT_TRUE(bad.error().message.starts_with("curate: "));
  EXPECT_FALSE(
      CategoryClassifier::deserialize(
          R"({"format":"longread-category-classifier","version":1,"categories":["a"],"bias":[0],"terms":[["x",1.0,[0.1,0.2]]]})")
          .has_value());
}

TEST(ClassifierTest, ChooseCategory) {
  CategoryClassifier c;
  c.train(training_set());
  const std::string econ_text =
      "Rising interest rates make mortgages more expensive, and house prices have begun to fall in cities "
      "where "
      "supply grew fastest. Inflation is easing, but economists warn that unemployment may rise as firms cut "
      "investment and consumer spending slows. The central bank expects the deficit and trade balance to "
      "widen.";
  const auto best = c.classify(econ_text);
  ASSERT_TRUE(best.has_value());
  ASSERT_EQ(best->first, "economics");

  // No classifier, or an untrained one: always the blog's category.
  EXPECT_EQ(choose_category(nullptr, econ_text, "programming"), "programming");
  CategoryClassifier untrained;
  EXPECT_EQ(choose_category(&untrained, econ_text, "programming"), "programming");
  // Same category as the blog: the blog's.
  EXPECT_EQ(choose_category(&c, econ_text, "economics"), "economics");
  // Confident enough (threshold below the posterior) and the blog's category unlikely: the classifier's.
  EXPECT_EQ(choose_category(&c, econ_text, "programming", best->second - 0.01), "economics");
  // Not confident enough: the blog's.
  EXPECT_EQ(choose_category(&c, econ_text, "programming", best->second + 0.01), "programming");
  // A blog category the classifier does not know only needs the threshold.
  EXPECT_EQ(choose_category(&c, econ_text, "history", best->second - 0.01), "economics");
  // Too short to classify: the blog's.
  EXPECT_EQ(choose_category(&c, "Inflation.", "programming", 0.0), "programming");
}

}  // namespace
}  // namespace longread::curate
