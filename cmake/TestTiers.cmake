# Test tiers (issue 33): `ctest -L quick` is every test that needs no compiler run, no network and no
# network namespace; it has a budget of 5 minutes on 2 cores. Every other test is labelled `slow` and
# with what makes it so (`compiles`, `network`, `netns`, `fuzz`), in tests/tiers.cmake, one line per
# group of tests with the reason; a test over 60 s also says why in its own file.

# ts_slow(TARGET LABEL FILTER [TIMEOUT s] [COST c] [REGISTER_IF var]): the gtest tests of TARGET
# matching FILTER (gtest filter syntax, ':' between patterns) are slow for LABEL. REGISTER_IF: the
# group is registered only when var is ON, and is never in the quick tier either way.
function(ts_slow target label filter)
  cmake_parse_arguments(S "" "TIMEOUT;COST;REGISTER_IF" "" ${ARGN})
  get_property(groups GLOBAL PROPERTY TS_TIER_${target}_N)
  if(NOT groups)
    set(groups 0)
  endif()
  math(EXPR groups "${groups} + 1")
  set_property(GLOBAL PROPERTY TS_TIER_${target}_N ${groups})
  set_property(GLOBAL PROPERTY TS_TIER_${target}_${groups}_LABEL ${label})
  set_property(GLOBAL PROPERTY TS_TIER_${target}_${groups}_FILTER "${filter}")
  set_property(GLOBAL PROPERTY TS_TIER_${target}_${groups}_TIMEOUT "${S_TIMEOUT}")
  set_property(GLOBAL PROPERTY TS_TIER_${target}_${groups}_COST "${S_COST}")
  set_property(GLOBAL PROPERTY TS_TIER_${target}_${groups}_IF "${S_REGISTER_IF}")
endfunction()

# ts_discover(TARGET TIMEOUT s): gtest_discover_tests once per slow group and once for the rest,
# which is the quick tier.
function(ts_discover target)
  cmake_parse_arguments(D "" "TIMEOUT" "" ${ARGN})
  get_property(groups GLOBAL PROPERTY TS_TIER_${target}_N)
  set(slow "")
  if(groups)
    foreach(i RANGE 1 ${groups})
      get_property(label GLOBAL PROPERTY TS_TIER_${target}_${i}_LABEL)
      get_property(filter GLOBAL PROPERTY TS_TIER_${target}_${i}_FILTER)
      get_property(timeout GLOBAL PROPERTY TS_TIER_${target}_${i}_TIMEOUT)
      get_property(cost GLOBAL PROPERTY TS_TIER_${target}_${i}_COST)
      get_property(cond GLOBAL PROPERTY TS_TIER_${target}_${i}_IF)
      if(slow)
        string(APPEND slow ":")
      endif()
      string(APPEND slow "${filter}")
      if(cond AND NOT ${cond})
        continue()
      endif()
      if(NOT timeout)
        set(timeout ${D_TIMEOUT})
      endif()
      set(props TIMEOUT ${timeout} LABELS "slow;${label}")
      if(cost)
        list(APPEND props COST ${cost})
      endif()
      gtest_discover_tests(${target} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR} TEST_FILTER "${filter}"
        DISCOVERY_TIMEOUT 60 PROPERTIES ${props})
    endforeach()
  endif()
  set(rest "")
  if(slow)
    set(rest "-${slow}")
  endif()
  gtest_discover_tests(${target} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR} TEST_FILTER "${rest}"
    DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT ${D_TIMEOUT} LABELS quick)
endfunction()
