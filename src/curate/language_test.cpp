#include <gtest/gtest.h>

#include "curate/curate.h"

namespace longread::curate {
namespace {

TEST(LanguageTest, DetectsCommonLanguages) {
  EXPECT_EQ(detect_language(
                "The committee met on Tuesday to discuss the budget for next year, and after a long "
                "debate they agreed to fund the new library and to repair the old bridge over the river."),
            "en");
  EXPECT_EQ(detect_language(
                "Der Ausschuss traf sich am Dienstag, um über den Haushalt für das nächste Jahr zu "
                "beraten, und nach einer langen Debatte einigte man sich darauf, die neue Bibliothek zu "
                "finanzieren und die alte Brücke über den Fluss zu reparieren."),
            "de");
  EXPECT_EQ(detect_language(
                "Le comité s'est réuni mardi pour discuter du budget de l'année prochaine et, après un "
                "long débat, a accepté de financer la nouvelle bibliothèque et de réparer le vieux pont "
                "sur la rivière."),
            "fr");
}

TEST(LanguageTest, UnknownWhenTooLittleOrInvalid) {
  EXPECT_EQ(detect_language(""), "");
  EXPECT_EQ(detect_language("12345 67890 !!! ???"), "");
  EXPECT_EQ(detect_language(std::string("\xff\xfe\xfd invalid", 11)), "");
}

TEST(LanguageTest, LongTextIsCutAtACharacterBoundary) {
  std::string text;
  while (text.size() < 10000) text += "Über die Brücke gehen wir täglich zur Arbeit und zurück nach Hause. ";
  EXPECT_EQ(detect_language(text), "de");
}

}  // namespace
}  // namespace longread::curate
