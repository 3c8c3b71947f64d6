// What catalog.cpp and catalog_schemas.cpp share and no other file needs.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace shears::catalog_internal {

// Set while a method calls another with a key it resolved: Catalog::Route then sends no name
// to an attached database (the key is this catalog's own).
bool& NoRouteFlag();

// Column ordinals as the catalog stores them ("0,2,5"): keys, indexes, file column maps.
std::string EncodeColumnMap(const std::vector<int>& map);
std::vector<int> DecodeColumnMap(const std::string& text);

struct NoRoute {
  NoRoute() : saved(std::exchange(NoRouteFlag(), true)) {}
  ~NoRoute() { NoRouteFlag() = saved; }
  NoRoute(const NoRoute&) = delete;
  NoRoute& operator=(const NoRoute&) = delete;
  bool saved;
};

}  // namespace shears::catalog_internal
