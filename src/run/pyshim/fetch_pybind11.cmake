# torchsmith's stand-in for pybind11's source tree (build.fetch-local), written by the build run to
# OUT/.torchsmith/pyshim/fetch/pybind11/CMakeLists.txt. A project whose CMake downloads pybind11 with
# FetchContent (k2-fsa's fast_rnnt: FetchContent_Declare(pybind11 URL github.com/...) then
# add_subdirectory(${pybind11_SOURCE_DIR})) gets -DFETCHCONTENT_SOURCE_DIR_PYBIND11=<this directory>,
# so FetchContent downloads nothing and add_subdirectory() reads this file, which finds the pybind11
# the build environment already has: the target Python's `pybind11` package, else one CMake finds
# on this system (Debian's pybind11-dev). Its targets are made global, as add_subdirectory() of the
# real tree makes them visible to the whole project; pybind11_add_module() is a function (global).
cmake_minimum_required(VERSION 3.11)
set(_torchsmith_hints)
foreach(_py IN ITEMS "${PYTHON_EXECUTABLE}" "${Python_EXECUTABLE}" "${Python3_EXECUTABLE}")
  if(_py AND EXISTS "${_py}")
    execute_process(COMMAND "${_py}" -c "import pybind11; print(pybind11.get_cmake_dir())"
                    OUTPUT_VARIABLE _dir OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _rc ERROR_QUIET)
    if(_rc EQUAL 0 AND EXISTS "${_dir}")
      list(APPEND _torchsmith_hints "${_dir}")
    endif()
  endif()
endforeach()
# The build overlay's pybind11 (a --wheelhouse's wheel, pip --target): its package, CMake config
# inside, is a directory of a PYTHONPATH entry, whichever Python the project runs.
string(REPLACE ":" ";" _torchsmith_pypath "$ENV{PYTHONPATH}")
foreach(_p IN LISTS _torchsmith_pypath)
  if(_p AND EXISTS "${_p}/pybind11/share/cmake/pybind11/pybind11Config.cmake")
    list(APPEND _torchsmith_hints "${_p}/pybind11/share/cmake/pybind11")
  endif()
endforeach()
find_package(pybind11 CONFIG HINTS ${_torchsmith_hints})
if(NOT pybind11_FOUND)
  message(FATAL_ERROR "torchsmith [build.fetch-local]: the project downloads pybind11 with FetchContent, which "
    "this build does not let it do, and the build environment has no pybind11 (neither the target Python's "
    "`pybind11` package nor a pybind11Config.cmake CMake finds): install it into the target Python "
    "(python -m pip install pybind11), give torchsmith build a --wheelhouse DIR that holds a pybind11 wheel, or pass -DFETCHCONTENT_SOURCE_DIR_PYBIND11=DIR, DIR a pybind11 source tree")
endif()
message(STATUS "torchsmith [build.fetch-local]: pybind11 ${pybind11_VERSION} from ${pybind11_DIR}, not downloaded")
if(NOT CMAKE_VERSION VERSION_LESS 3.21)
  get_property(_torchsmith_targets DIRECTORY PROPERTY IMPORTED_TARGETS)
else()
  set(_torchsmith_targets pybind11::pybind11 pybind11::headers pybind11::module pybind11::embed
      pybind11::python_link_helper pybind11::lto pybind11::thin_lto pybind11::opt_size pybind11::windows_extras)
endif()
foreach(_t IN LISTS _torchsmith_targets)
  if(TARGET ${_t})
    set_property(TARGET ${_t} PROPERTY IMPORTED_GLOBAL TRUE)
  endif()
endforeach()
