// The secrets role of the Store: named keys every process sharing the database agrees on.
#pragma once

#include <string>
#include <string_view>

#include "core/error.h"
#include "core/time.h"
#include "storage/types.h"

namespace longread::storage {

// Named secrets.
// Every method is safe to call from several threads; implementations serialise as needed.
class SecretStore {
 public:
  virtual ~SecretStore() = default;

  // A named secret (keys for CSRF tokens and signed links): `candidate` is stored when the name has none
  // yet; the stored value is returned, so every process sharing the database uses the same key.
  virtual Result<std::string> secret(std::string_view name, std::string_view candidate) = 0;
};

}  // namespace longread::storage
