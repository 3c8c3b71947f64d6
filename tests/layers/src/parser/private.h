#pragma once
// Exposes libpg_query to whoever includes it.
#include <pg_query.h>
