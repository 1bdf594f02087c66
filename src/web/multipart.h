// multipart/form-data bodies (RFC 7578, framed as RFC 2046 section 5.1 says): what an HTML form with a
// file input sends. Beast reads the body; this splits it into its parts. No I/O.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace longread::web {

struct FormPart {
  std::string name{};                     // Content-Disposition's name
  std::optional<std::string> filename{};  // set for a file input (may be empty: no file chosen)
  std::string content_type{};             // the part's Content-Type ("" when it gives none)
  std::string value{};                    // the bytes, as sent
};

// The boundary of a "multipart/form-data; boundary=…" Content-Type (quoted or not), else nullopt
// (another type, no boundary, or one RFC 2046 does not allow: 1 to 70 characters).
std::optional<std::string> multipart_boundary(std::string_view content_type);

// The parts of `body`, in order. kInvalidInput (message "web: …") for a body that is not framed by the
// boundary, a part without a form-data name, a closing delimiter missing, or more than `max_parts` parts.
[[nodiscard]] Result<std::vector<FormPart>> parse_multipart(std::string_view body, std::string_view boundary,
                                                            std::size_t max_parts = 64);

}  // namespace longread::web
