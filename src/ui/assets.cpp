#include "ui/assets.h"

#include "web/gzip.h"
#include "web/handle.h"

namespace longread::ui {

AssetTable::AssetTable() {
  for (const auto& asset : embedded_assets()) {
    const std::string name = asset.name;
    const auto dot = name.rfind('.');
    const std::string hashed = dot == std::string::npos
                                   ? name + "." + asset.hash
                                   : name.substr(0, dot) + "." + asset.hash + name.substr(dot);
    web::Response res;
    res.content_type = asset.content_type;
    res.shared_body = std::make_shared<const std::string>(asset.bytes);
    if (web::is_compressible(res.content_type)) {
      if (auto gz = web::gzip_compress(asset.bytes, 9))
        res.gzip_body = std::make_shared<const std::string>(*gz);
    }
    res.set_header("ETag", "\"" + std::string(asset.hash) + "\"");
    res.set_header("Cache-Control", "public, max-age=31536000, immutable");
    entries_.push_back(Entry{name, hashed, std::move(res)});
  }
}

std::string AssetTable::url(std::string_view name) const {
  for (const auto& entry : entries_) {
    if (entry.name == name) return "/static/" + entry.hashed_name;
  }
  return "/static/" + std::string(name);
}

std::optional<web::Response> AssetTable::response(std::string_view hashed_name) const {
  for (const auto& entry : entries_) {
    if (entry.hashed_name == hashed_name) return entry.response;
  }
  return std::nullopt;
}

}  // namespace longread::ui
