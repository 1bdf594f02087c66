// The routes table: every path of the site and the page that answers it, in one place.
#pragma once

#include "ui/view.h"
#include "web/router.h"

namespace longread::ui {

web::Router make_routes(SiteContext& context);

}  // namespace longread::ui
