// Static assets (static/*.css, *.js, *.svg) embedded into the binary at build time and served under
// content-hashed URLs (/static/site.<hash>.css) with a one-year immutable Cache-Control (RFC 9111 section
// 5.2.2.1, RFC 8246), so a new build changes the URL instead of waiting for caches to expire.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "web/http.h"

namespace longread::ui {

// One file of static/ as the generated assets_embedded.cpp describes it.
struct EmbeddedAsset {
  const char* name;          // "site.css"
  const char* content_type;  // "text/css; charset=utf-8"
  std::string_view bytes;
  const char* hash;  // first 12 hex digits of the file's SHA-256
};
const std::vector<EmbeddedAsset>& embedded_assets();

// Ready-made responses for every asset (ETag, Cache-Control, pre-gzipped body), built once at start.
class AssetTable {
 public:
  AssetTable();
  // "site.css" -> "/static/site.3f2a9c1b7e0d.css"; an unknown name is a bug and returns "/static/<name>".
  [[nodiscard]] std::string url(std::string_view name) const;
  // The response for a hashed file name ("site.3f2a9c1b7e0d.css"), if it names a current asset.
  [[nodiscard]] std::optional<web::Response> response(std::string_view hashed_name) const;

 private:
  struct Entry {
    std::string name;
    std::string hashed_name;
    web::Response response;
  };
  std::vector<Entry> entries_;
};

}  // namespace longread::ui
