# Generates a .cpp defining `std::string_view NAME()` in namespace longread::app with the bytes of INPUT.
file(READ "${INPUT}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${hex}")
file(WRITE "${OUTPUT}" "// generated from ${INPUT}\n#include <string_view>\nnamespace longread::app {\nnamespace { constexpr char kData[] = {${bytes} 0}; }\nstd::string_view ${NAME}() { return {kData, sizeof(kData) - 1}; }\n}\n")
