#include "web/multipart.h"

#include "core/strings.h"

namespace longread::web {
namespace {

std::unexpected<Error> invalid(std::string_view what) {
  return fail(ErrorKind::kInvalidInput, "web: multipart body: " + std::string(what),
              "The form could not be read.");
}

// A header's parameters: `; name=value` or `; name="quoted \" value"` (RFC 7578 section 4.2 uses
// quoted-strings; browsers escape a quote in a file name as %22, which is kept as sent).
std::optional<std::string> header_parameter(std::string_view header, std::string_view wanted) {
  std::size_t i = header.find(';');
  while (i != std::string_view::npos && i < header.size()) {
    ++i;
    while (i < header.size() && (header[i] == ' ' || header[i] == '\t')) ++i;
    const std::size_t eq = header.find('=', i);
    if (eq == std::string_view::npos) return std::nullopt;
    const std::string_view name = trim(header.substr(i, eq - i));
    std::size_t j = eq + 1;
    std::string value;
    if (j < header.size() && header[j] == '"') {
      ++j;
      while (j < header.size() && header[j] != '"') {
        if (header[j] == '\\' && j + 1 < header.size()) ++j;
        value += header[j++];
      }
      if (j < header.size()) ++j;  // the closing quote
    } else {
      const std::size_t end = header.find(';', j);
      value = std::string(
          trim(header.substr(j, end == std::string_view::npos ? std::string_view::npos : end - j)));
      j = end == std::string_view::npos ? header.size() : end;
    }
    if (iequals(name, wanted)) return value;
    i = header.find(';', j);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> multipart_boundary(std::string_view content_type) {
  const std::size_t semi = content_type.find(';');
  if (!iequals(trim(content_type.substr(0, semi)), "multipart/form-data")) return std::nullopt;
  auto boundary = header_parameter(content_type, "boundary");
  if (!boundary || boundary->empty() || boundary->size() > 70) return std::nullopt;
  return boundary;
}

Result<std::vector<FormPart>> parse_multipart(std::string_view body, std::string_view boundary,
                                              std::size_t max_parts) {
  const std::string delimiter = "--" + std::string(boundary);
  // The first delimiter may follow a preamble; every later one starts on a new line (CRLF).
  std::size_t pos;
  if (body.starts_with(delimiter)) {
    pos = delimiter.size();
  } else {
    const std::size_t first = body.find("\r\n" + delimiter);
    if (first == std::string_view::npos) return invalid("no boundary");
    pos = first + 2 + delimiter.size();
  }
  const std::string next_delimiter = "\r\n" + delimiter;
  std::vector<FormPart> parts;
  for (;;) {
    if (body.substr(pos).starts_with("--")) return parts;  // the close delimiter
    // Transport padding (RFC 2046: spaces and tabs) then CRLF.
    while (pos < body.size() && (body[pos] == ' ' || body[pos] == '\t')) ++pos;
    if (!body.substr(pos).starts_with("\r\n")) return invalid("a delimiter is not followed by a line end");
    pos += 2;
    if (parts.size() == max_parts) return invalid("too many parts");
    const std::size_t headers_end = body.find("\r\n\r\n", pos);
    const std::size_t content_end = body.find(next_delimiter, pos);
    if (content_end == std::string_view::npos) return invalid("the closing boundary is missing");
    FormPart part;
    std::size_t content_start;
    if (body.substr(pos).starts_with("\r\n")) {  // a part without headers
      content_start = pos + 2;
    } else {
      if (headers_end == std::string_view::npos || headers_end > content_end)
        return invalid("a part's headers do not end");
      for (const std::string_view line : split(body.substr(pos, headers_end - pos), '\n')) {
        const std::string_view l = trim(line);
        const std::size_t colon = l.find(':');
        if (colon == std::string_view::npos) continue;
        const std::string_view name = trim(l.substr(0, colon));
        const std::string_view value = trim(l.substr(colon + 1));
        if (iequals(name, "Content-Disposition")) {
          if (!starts_with_icase(value, "form-data")) return invalid("a part is not form-data");
          part.name = header_parameter(value, "name").value_or("");
          part.filename = header_parameter(value, "filename");
        } else if (iequals(name, "Content-Type")) {
          part.content_type = std::string(value);
        }
      }
      content_start = headers_end + 4;
    }
    if (part.name.empty()) return invalid("a part has no name");
    part.value = std::string(body.substr(content_start, content_end - content_start));
    parts.push_back(std::move(part));
    pos = content_end + next_delimiter.size();
  }
}

}  // namespace longread::web
