# One static library per folder of src/ (shears_<folder>), each linking the folders below it.
# The levels are scripts/check_layers.cmake's, which checks the includes on every build and as
# ctest `layers`; src/README.md draws them. Sources are globbed, so a new file joins its
# folder's library with no edit here.
#
# Included from the top CMakeLists.txt after the third-party packages are found; defines
# `shears` (an interface library: every layer up to main/ and tools/, what the tests, the
# Python module, benchmarks and fuzz targets link) and `shears_shell` (the shell and readline).

set(SHEARS_LAYERS
  "common"
  "function"
  "expression"
  "dynfilter"
  "storage,parser,output"
  "catalog,tools"
  "planner"
  "optimizer"
  "execution"
  "main"
  "shell")

# Every build checks the includes first (a fraction of a second).
add_custom_target(check_layers
  COMMAND ${CMAKE_COMMAND} -DSRC=${CMAKE_SOURCE_DIR}/src -P ${CMAKE_SOURCE_DIR}/scripts/check_layers.cmake
  COMMENT "Checking the layers of src/ (scripts/check_layers.cmake)"
  VERBATIM)

set(below "")
foreach(level IN LISTS SHEARS_LAYERS)
  string(REPLACE "," ";" folders "${level}")
  foreach(folder IN LISTS folders)
    file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/${folder}/*.cpp)
    add_library(shears_${folder} STATIC ${sources})
    target_include_directories(shears_${folder} PUBLIC ${CMAKE_SOURCE_DIR}/src)
    target_compile_options(shears_${folder} PRIVATE ${SHEARS_WARNINGS})
    if(SHEARS_PYTHON)
      # Linked into the Python extension, a shared object. Without semantic interposition GCC
      # still inlines and calls directly as for an executable, so the shell and tests lose
      # nothing.
      set_target_properties(shears_${folder} PROPERTIES POSITION_INDEPENDENT_CODE ON)
      target_compile_options(shears_${folder} PRIVATE
                             $<$<CXX_COMPILER_ID:GNU>:-fno-semantic-interposition>)
    endif()
    foreach(lower IN LISTS below)
      target_link_libraries(shears_${folder} PUBLIC shears_${lower})
    endforeach()
    add_dependencies(shears_${folder} check_layers)
  endforeach()
  list(APPEND below ${folders})
endforeach()

# Third-party libraries in the layer that owns them (scripts/check_layers.cmake holds their
# headers there too).
target_link_libraries(shears_common PUBLIC
  absl::flat_hash_set absl::hash fmt::fmt Threads::Threads ZLIB::ZLIB
  PkgConfig::SNAPPY PkgConfig::ZSTD PkgConfig::LZ4 PkgConfig::BROTLI PkgConfig::XXHASH
  PkgConfig::SQLITE3 PkgConfig::RE2 PkgConfig::LIBCRYPTO)
target_link_libraries(shears_storage PUBLIC shears_thrift)
target_link_libraries(shears_parser PUBLIC ${PG_QUERY_LIB})
target_link_libraries(shears_shell PUBLIC ${READLINE_LIB})

add_library(shears INTERFACE)
target_link_libraries(shears INTERFACE shears_main shears_tools)

