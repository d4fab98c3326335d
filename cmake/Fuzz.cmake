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
  set(outs)
  foreach(t ${F_TARGETS})
    set(out ${PROJECT_BINARY_DIR}/fuzz_${t})
    add_custom_command(OUTPUT ${out}
      COMMAND ${TS_FUZZ_CXX} -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined ${F_FLAGS}
              -I${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/tests/fuzz/${t}_fuzz.cpp
              ${F_SOURCES} ${F_LIBS} ${TS_FUZZ_LINK} -o ${out}
      COMMAND ${CMAKE_COMMAND} -E copy ${PROJECT_SOURCE_DIR}/tests/fuzz/${t}.options ${out}.options
      DEPENDS ${PROJECT_SOURCE_DIR}/tests/fuzz/${t}_fuzz.cpp ${PROJECT_SOURCE_DIR}/tests/fuzz/${t}.options ${F_SOURCES}
      COMMENT "Building libFuzzer target fuzz_${t} with clang" VERBATIM)
    list(APPEND outs ${out})
    file(MAKE_DIRECTORY ${PROJECT_BINARY_DIR}/fuzz_corpus_${t})
    ts_fuzz_max_len(${t} max_len)
    add_test(NAME fuzz_${t}
      COMMAND ${out} -max_total_time=${F_SECONDS} -max_len=${max_len} -timeout=10
              -artifact_prefix=${out}-
              ${PROJECT_BINARY_DIR}/fuzz_corpus_${t} ${PROJECT_SOURCE_DIR}/tests/fuzz/corpus_${t})
    # Not quick: it needs its group's clang build below (ctest -L quick would pull that in).
    set_tests_properties(fuzz_${t} PROPERTIES FIXTURES_REQUIRED ${F_GROUP}_fuzz TIMEOUT 120 LABELS "slow;fuzz")
  endforeach()
  add_custom_target(${F_GROUP}_fuzz DEPENDS ${outs})
  set_property(GLOBAL APPEND PROPERTY TS_FUZZ_GROUPS ${F_GROUP}_fuzz)
  add_test(NAME fuzz_${F_GROUP}_build
           COMMAND ${CMAKE_COMMAND} --build ${PROJECT_BINARY_DIR} --target ${F_GROUP}_fuzz)
  # Over 60 s: clang with ASan+UBSan compiles each target with all its sources (the whole of kb, core
  # and util for triage and kb); labelled so that ctest -L quick leaves it out.
  set_tests_properties(fuzz_${F_GROUP}_build PROPERTIES FIXTURES_SETUP ${F_GROUP}_fuzz TIMEOUT 900
                       LABELS "slow;compiles;fuzz")
endfunction()

# build/fuzz-bundle.tar.gz: every fuzz binary with its .options and seed corpus, and the campaign
# script, to run the long campaign on a bigger machine: tar xf; fuzz-bundle/fuzz_campaign.sh fuzz-bundle
function(ts_fuzz_bundle)
  get_property(groups GLOBAL PROPERTY TS_FUZZ_GROUPS)
  if(NOT groups)
    return()
  endif()
  # The campaign script's sums and crash count, on the fatbin target (its fastest) and a stand-in.
  add_test(NAME fuzz_campaign_script
           COMMAND bash ${PROJECT_SOURCE_DIR}/tests/fuzz/campaign_test.sh ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR})
  set_tests_properties(fuzz_campaign_script PROPERTIES FIXTURES_REQUIRED verify_fuzz TIMEOUT 120
                       PASS_REGULAR_EXPRESSION "PASS" LABELS "slow;fuzz")
  add_custom_target(fuzz_bundle
    COMMAND ${CMAKE_COMMAND} -E env bash ${PROJECT_SOURCE_DIR}/bench/fuzz_bundle.sh
            ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR} ${PROJECT_BINARY_DIR}/fuzz-bundle.tar.gz
    DEPENDS ${groups} VERBATIM)
endfunction()
