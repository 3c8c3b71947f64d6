# The layers of src/, checked on every build and as ctest `layers`:
#   cmake -DSRC=<dir holding the folders of src/> -P scripts/check_layers.cmake
#
# A folder may include headers of its own folder and of folders on lower levels only; a
# third-party library's headers (directly, or through a header of ours that includes them)
# only in the folders that own it. A file that breaks a rule fails the check with the file,
# the include and the rule it breaks. src/README.md describes the layers.

cmake_minimum_required(VERSION 3.20)

if(NOT SRC)
  message(FATAL_ERROR "usage: cmake -DSRC=<src dir> -P check_layers.cmake")
endif()

# Level of each folder: it may include any folder of a lower level.
set(LEVEL_common 0)
set(LEVEL_function 1)
set(LEVEL_expression 2)
set(LEVEL_storage 3)
set(LEVEL_parser 3)
set(LEVEL_output 3)
set(LEVEL_catalog 4)
set(LEVEL_dynfilter 4)
set(LEVEL_tools 4)
set(LEVEL_planner 5)
set(LEVEL_optimizer 6)
set(LEVEL_execution 7)
set(LEVEL_main 8)
set(LEVEL_shell 9)
set(LEVEL_python 9)
set(LEVEL_distributed 9)
set(LEVEL_cli 10)

# Third-party headers (a regex over the include's name) and the folders allowed them.
set(THIRD_PARTY readline pg_query thrift mpi pybind11)
set(THIRD_PARTY_readline_REGEX "^readline/")
set(THIRD_PARTY_readline_OWNERS shell)
set(THIRD_PARTY_pg_query_REGEX "^pg_query")
set(THIRD_PARTY_pg_query_OWNERS parser)
set(THIRD_PARTY_thrift_REGEX "^thrift/")
set(THIRD_PARTY_thrift_OWNERS storage)
set(THIRD_PARTY_mpi_REGEX "^mpi\\.h$")
# The executable starts the MPI runtime, whose header is mpi.h's.
set(THIRD_PARTY_mpi_OWNERS distributed cli)
set(THIRD_PARTY_pybind11_REGEX "^pybind11/")
set(THIRD_PARTY_pybind11_OWNERS python)

# Upward includes that were there when the check came (issue 21), each to be removed by moving
# the concept down, never to be added to: "file -> include".
set(KNOWN_UPWARD
  # Pruning tests runtime filters, which sit above storage.
  "storage/split_pruning.h -> dynfilter/runtime_filter.h"
  "storage/partition_pruning.cpp -> dynfilter/join_legality.h"
  "storage/partition_pruning.h -> dynfilter/dynamic_filter.h"
  "storage/parquet/page_index_pruning.h -> dynfilter/runtime_filter.h"
  "storage/parquet/bloom_pruning.h -> dynfilter/runtime_filter.h"
  "storage/parquet/dictionary_pruning.h -> dynfilter/runtime_filter.h"
  # Join legality reads logical plans.
  "dynfilter/join_legality.h -> planner/logical_plan.h")

get_filename_component(SRC ${SRC} ABSOLUTE)
file(GLOB_RECURSE files RELATIVE ${SRC} ${SRC}/*.h ${SRC}/*.cpp)
list(SORT files)

# Pass 1: each file's includes, and which third-party libraries our headers expose.
foreach(f IN LISTS files)
  file(STRINGS ${SRC}/${f} lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
  set(local_${f} "")
  set(system_${f} "")
  foreach(line IN LISTS lines)
    if(line MATCHES "include[ \t]*\"([^\"]+)\"")
      list(APPEND local_${f} ${CMAKE_MATCH_1})
    elseif(line MATCHES "include[ \t]*<([^>]+)>")
      list(APPEND system_${f} ${CMAKE_MATCH_1})
    endif()
  endforeach()
  set(exposes_${f} "")
  foreach(lib IN LISTS THIRD_PARTY)
    foreach(inc IN LISTS system_${f})
      if(inc MATCHES "${THIRD_PARTY_${lib}_REGEX}")
        list(APPEND exposes_${f} ${lib})
        break()
      endif()
    endforeach()
  endforeach()
endforeach()
# A header including a header that exposes a library exposes it too.
set(changed TRUE)
while(changed)
  set(changed FALSE)
  foreach(f IN LISTS files)
    foreach(inc IN LISTS local_${f})
      if(DEFINED exposes_${inc})
        foreach(lib IN LISTS exposes_${inc})
          if(NOT lib IN_LIST exposes_${f})
            list(APPEND exposes_${f} ${lib})
            set(changed TRUE)
          endif()
        endforeach()
      endif()
    endforeach()
  endforeach()
endwhile()

set(errors "")
set(seen_known "")
foreach(f IN LISTS files)
  string(REGEX REPLACE "/.*" "" dir ${f})
  if(NOT DEFINED LEVEL_${dir})
    # A folder without a level would escape every rule.
    list(APPEND errors "${f}: folder src/${dir}/ has no layer: give it a level in scripts/check_layers.cmake and src/README.md")
    continue()
  endif()
  foreach(inc IN LISTS local_${f})
    if(NOT inc MATCHES "^([a-z_]+)/")
      continue()
    endif()
    set(target ${CMAKE_MATCH_1})
    if(target STREQUAL dir OR NOT DEFINED LEVEL_${target})
      continue()
    endif()
    if(NOT LEVEL_${target} LESS LEVEL_${dir})
      if("${f} -> ${inc}" IN_LIST KNOWN_UPWARD)
        list(APPEND seen_known "${f} -> ${inc}")
      else()
        list(APPEND errors "${f} includes \"${inc}\": ${dir}/ (level ${LEVEL_${dir}}) may include only folders below it, and ${target}/ is level ${LEVEL_${target}}: move what it needs down a layer instead")
      endif()
    endif()
  endforeach()
  foreach(lib IN LISTS THIRD_PARTY)
    if(dir IN_LIST THIRD_PARTY_${lib}_OWNERS)
      continue()
    endif()
    list(TRANSFORM THIRD_PARTY_${lib}_OWNERS REPLACE "(.+)" "src/\\1/" OUTPUT_VARIABLE owners)
    list(JOIN owners " and " owners)
    foreach(inc IN LISTS system_${f})
      if(inc MATCHES "${THIRD_PARTY_${lib}_REGEX}")
        list(APPEND errors "${f} includes <${inc}>: ${lib} belongs to ${owners}")
      endif()
    endforeach()
    foreach(inc IN LISTS local_${f})
      if(DEFINED exposes_${inc} AND lib IN_LIST exposes_${inc})
        list(APPEND errors "${f} includes \"${inc}\", which brings in ${lib}: ${lib} belongs to ${owners}")
      endif()
    endforeach()
  endforeach()
endforeach()

# An exception that no longer occurs is only reported: the list may shrink on any branch. (Not
# for the tree of violations tests/layers/src, which has none of them.)
foreach(known IN LISTS KNOWN_UPWARD)
  if(DEFINED KNOWN_UPWARD_STALE AND NOT KNOWN_UPWARD_STALE)
    break()
  endif()
  if(NOT known IN_LIST seen_known)
    message(STATUS "check_layers: \"${known}\" is gone: remove it from KNOWN_UPWARD")
  endif()
endforeach()

if(errors)
  list(JOIN errors "\n  " text)
  message(FATAL_ERROR "layer violations (scripts/check_layers.cmake):\n  ${text}")
endif()
