# libFuzzer targets (tests/fuzz/<name>_fuzz.cpp), built with clang by a fixture test and each run
# for a bounded time by ctest. Only where clang with libFuzzer is at hand.
find_program(TS_FUZZ_CXX NAMES clang++-14 clang++)
# Seconds each target runs under ctest: the targets together stay under two minutes of CI.
set(TS_FUZZ_SECONDS 12 CACHE STRING "libFuzzer time per target in ctest")

# The binaries link libstdc++ and libgcc statically (as torchsmith does), so a bundle of them runs on
# another distribution (bench/fuzz_campaign.sh, `fuzz_bundle` below).
set(TS_FUZZ_LINK -static-libstdc++ -static-libgcc)

# tests/fuzz/<t>.options holds the target's max_len (libFuzzer's .options file convention).
function(ts_fuzz_max_len t out)
  file(STRINGS ${PROJECT_SOURCE_DIR}/tests/fuzz/${t}.options line REGEX "^max_len *= *[0-9]+")
  string(REGEX REPLACE "^max_len *= *" "" n "${line}")
  if(NOT n MATCHES "^[0-9]+$")
    message(FATAL_ERROR "tests/fuzz/${t}.options has no max_len line")
  endif()
  set(${out} ${n} PARENT_SCOPE)
endfunction()

# Each source is compiled once per set of flags into build/fuzz-objects/<flags digest>/, shared by every
# target and group that asks for the same (source, flags): the targets of a group, and groups with the
# same sources, no longer compile them again (most of the fuzz build's time on CI).
function(ts_fuzz_objects flags sources out)
  string(MD5 key "${flags}")
  string(SUBSTRING ${key} 0 12 key)
  set(dir ${PROJECT_BINARY_DIR}/fuzz-objects/${key})
  set(objs)
  foreach(src ${sources})
    string(MAKE_C_IDENTIFIER "${src}" id)
    set(obj ${dir}/${id}.o)
    get_property(known GLOBAL PROPERTY TS_FUZZ_OBJ_${key}_${id} SET)
    if(NOT known)
      set_property(GLOBAL PROPERTY TS_FUZZ_OBJ_${key}_${id} 1)
      add_custom_command(OUTPUT ${obj}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
        COMMAND ${TS_FUZZ_CXX} -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined ${flags}
                -I${PROJECT_SOURCE_DIR}/src -MD -MF ${obj}.d -c ${src} -o ${obj}
        DEPENDS ${src} DEPFILE ${obj}.d
        COMMENT "Compiling ${src} for libFuzzer (flags ${key})" VERBATIM)
    endif()
    list(APPEND objs ${obj})
  endforeach()
  set(${out} ${objs} PARENT_SCOPE)
endfunction()

# ts_fuzz(GROUP g TARGETS t... SOURCES file... [SECONDS n] [FLAGS flag...] [LIBS lib...])
# SECONDS: each target's time under ctest when shorter than TS_FUZZ_SECONDS suits it.
function(ts_fuzz)
  if(NOT TORCHSMITH_TESTS OR NOT TS_FUZZ_CXX)
    return()
  endif()
  cmake_parse_arguments(F "" "GROUP;SECONDS" "TARGETS;SOURCES;FLAGS;LIBS" ${ARGN})
  if(NOT F_SECONDS)
    set(F_SECONDS ${TS_FUZZ_SECONDS})
  endif()
  ts_fuzz_objects("${F_FLAGS}" "${F_SOURCES}" objs)
  set(outs)
  foreach(t ${F_TARGETS})
    set(out ${PROJECT_BINARY_DIR}/fuzz_${t})
    ts_fuzz_objects("${F_FLAGS}" ${PROJECT_SOURCE_DIR}/tests/fuzz/${t}_fuzz.cpp main)
    add_custom_command(OUTPUT ${out}
      COMMAND ${TS_FUZZ_CXX} -fsanitize=fuzzer,address,undefined ${main} ${objs} ${F_LIBS} ${TS_FUZZ_LINK}
              -o ${out}
      COMMAND ${CMAKE_COMMAND} -E copy ${PROJECT_SOURCE_DIR}/tests/fuzz/${t}.options ${out}.options
      DEPENDS ${main} ${objs} ${PROJECT_SOURCE_DIR}/tests/fuzz/${t}.options
      COMMENT "Linking libFuzzer target fuzz_${t}" VERBATIM)
    list(APPEND outs ${out})
    file(MAKE_DIRECTORY ${PROJECT_BINARY_DIR}/fuzz_corpus_${t})
    ts_fuzz_max_len(${t} max_len)
    add_test(NAME fuzz_${t}
      COMMAND ${out} -max_total_time=${F_SECONDS} -max_len=${max_len} -timeout=10
              -artifact_prefix=${out}-
              ${PROJECT_BINARY_DIR}/fuzz_corpus_${t} ${PROJECT_SOURCE_DIR}/tests/fuzz/corpus_${t})
    # Not quick: it needs the clang build below (ctest -L quick would pull that in).
    set_tests_properties(fuzz_${t} PROPERTIES FIXTURES_REQUIRED fuzz_targets TIMEOUT 120 LABELS "slow;fuzz")
  endforeach()
  add_custom_target(${F_GROUP}_fuzz DEPENDS ${outs})
  set_property(GLOBAL APPEND PROPERTY TS_FUZZ_GROUPS ${F_GROUP}_fuzz)
endfunction()

# build/fuzz-bundle.tar.gz: every fuzz binary with its .options and seed corpus, and the campaign
# script, to run the long campaign on a bigger machine: tar xf; fuzz-bundle/fuzz_campaign.sh fuzz-bundle
function(ts_fuzz_bundle)
  get_property(groups GLOBAL PROPERTY TS_FUZZ_GROUPS)
  if(NOT groups)
    return()
  endif()
  # One build of every group, so that no two ninja runs share the build tree and its shared objects;
  # ninja spreads the compiles over both cores. Over 60 s with ASan+UBSan: not quick.
  add_custom_target(fuzz_targets DEPENDS ${groups})
  add_test(NAME fuzz_build COMMAND ${CMAKE_COMMAND} --build ${PROJECT_BINARY_DIR} --target fuzz_targets)
  set_tests_properties(fuzz_build PROPERTIES FIXTURES_SETUP fuzz_targets TIMEOUT 1500 PROCESSORS 2
                       LABELS "slow;compiles;fuzz")
  # The campaign script's sums and crash count, on the fatbin target (its fastest) and a stand-in.
  add_test(NAME fuzz_campaign_script
           COMMAND bash ${PROJECT_SOURCE_DIR}/tests/fuzz/campaign_test.sh ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR})
  set_tests_properties(fuzz_campaign_script PROPERTIES FIXTURES_REQUIRED fuzz_targets TIMEOUT 120
                       PASS_REGULAR_EXPRESSION "PASS" LABELS "slow;fuzz")
  add_custom_target(fuzz_bundle
    COMMAND ${CMAKE_COMMAND} -E env bash ${PROJECT_SOURCE_DIR}/bench/fuzz_bundle.sh
            ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR} ${PROJECT_BINARY_DIR}/fuzz-bundle.tar.gz
    DEPENDS ${groups} VERBATIM)
endfunction()
