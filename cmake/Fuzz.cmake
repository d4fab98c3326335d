# libFuzzer targets (tests/fuzz/<name>_fuzz.cpp), built with clang by a fixture test and each run
# for a bounded time by ctest. Only where clang with libFuzzer is at hand.
find_program(TS_FUZZ_CXX NAMES clang++-14 clang++)
# Seconds each target runs under ctest: the targets together stay under two minutes of CI.
set(TS_FUZZ_SECONDS 12 CACHE STRING "libFuzzer time per target in ctest")

# ts_fuzz(GROUP g TARGETS t... SOURCES file... [FLAGS flag...] [LIBS lib...])
function(ts_fuzz)
  if(NOT TORCHSMITH_TESTS OR NOT TS_FUZZ_CXX)
    return()
  endif()
  cmake_parse_arguments(F "" "GROUP" "TARGETS;SOURCES;FLAGS;LIBS" ${ARGN})
  set(outs)
  foreach(t ${F_TARGETS})
    set(out ${PROJECT_BINARY_DIR}/fuzz_${t})
    add_custom_command(OUTPUT ${out}
      COMMAND ${TS_FUZZ_CXX} -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined ${F_FLAGS}
              -I${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/tests/fuzz/${t}_fuzz.cpp
              ${F_SOURCES} ${F_LIBS} -o ${out}
      DEPENDS ${PROJECT_SOURCE_DIR}/tests/fuzz/${t}_fuzz.cpp ${F_SOURCES}
      COMMENT "Building libFuzzer target fuzz_${t} with clang" VERBATIM)
    list(APPEND outs ${out})
    file(MAKE_DIRECTORY ${PROJECT_BINARY_DIR}/fuzz_corpus_${t})
    add_test(NAME fuzz_${t}
      COMMAND ${out} -max_total_time=${TS_FUZZ_SECONDS} -max_len=65536 -timeout=10
              -artifact_prefix=${out}-
              ${PROJECT_BINARY_DIR}/fuzz_corpus_${t} ${PROJECT_SOURCE_DIR}/tests/fuzz/corpus_${t})
    set_tests_properties(fuzz_${t} PROPERTIES FIXTURES_REQUIRED ${F_GROUP}_fuzz TIMEOUT 120)
  endforeach()
  add_custom_target(${F_GROUP}_fuzz DEPENDS ${outs})
  add_test(NAME fuzz_${F_GROUP}_build
           COMMAND ${CMAKE_COMMAND} --build ${PROJECT_BINARY_DIR} --target ${F_GROUP}_fuzz)
  set_tests_properties(fuzz_${F_GROUP}_build PROPERTIES FIXTURES_SETUP ${F_GROUP}_fuzz TIMEOUT 900)
endfunction()
