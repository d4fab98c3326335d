# torchsmith's stand-in for pybind11's source tree. Two rules use it:
#  - build.fetch-local: written by the build run to OUT/.torchsmith/pyshim/fetch/pybind11/CMakeLists.txt.
#    A project whose CMake downloads pybind11 with FetchContent (k2-fsa's fast_rnnt:
#    FetchContent_Declare(pybind11 URL github.com/...) then add_subdirectory(${pybind11_SOURCE_DIR})) gets
#    -DFETCHCONTENT_SOURCE_DIR_PYBIND11=<this directory>, so FetchContent downloads nothing and
#    add_subdirectory() reads this file;
#  - build.pybind11-torch: a vendored pybind11 that the project add_subdirectory()s, older than the target
#    Python needs, gets this file as its CMakeLists.txt in the build's copy of the source (src/source/
#    vendored_pybind11.h writes it with _torchsmith_pybind11_need and _torchsmith_pybind11_vendored set
#    before this text, journaled, so `torchsmith fix --revert` puts the original back).
# It finds a pybind11 the build environment already has (new enough, when a version is needed): the target
# Python's `pybind11` package, else one CMake finds on this system (Debian's pybind11-dev), else the
# headers torch ships under torch/include (torch has no CMake config for them: the targets are made here).
# Its targets are made global, as add_subdirectory() of the real tree makes them visible to the whole
# project; pybind11_add_module() is a function (global); the variables the old tree cached for parent
# projects (PYBIND11_INCLUDE_DIR, PYTHON_MODULE_EXTENSION, ...) are cached too.
cmake_minimum_required(VERSION 3.11)
if(NOT _torchsmith_rule)
  set(_torchsmith_rule build.fetch-local)
  if(_torchsmith_pybind11_vendored)
    set(_torchsmith_rule build.pybind11-torch)
  endif()
endif()
set(_torchsmith_pythons)
# The plan's Python first (_torchsmith_python, written before this text by the build run), then the project's.
foreach(_py IN ITEMS "${_torchsmith_python}" "${PYTHON_EXECUTABLE}" "${Python_EXECUTABLE}" "${Python3_EXECUTABLE}")
  if(_py AND EXISTS "${_py}")
    list(APPEND _torchsmith_pythons "${_py}")
  endif()
endforeach()
# pybind11's classic Python search (FindPythonLibsNew) reads PYTHON_EXECUTABLE only: the project's Python
# (torch's config found it as Python_EXECUTABLE) rather than whichever python3 is first on PATH.
if(_torchsmith_pythons AND NOT PYTHON_EXECUTABLE)
  list(GET _torchsmith_pythons 0 _py)
  set(PYTHON_EXECUTABLE "${_py}" CACHE FILEPATH "the project's Python (torchsmith's pybind11 stand-in)")
endif()
set(_torchsmith_hints)
foreach(_py IN LISTS _torchsmith_pythons)
  execute_process(COMMAND "${_py}" -c "import pybind11; print(pybind11.get_cmake_dir())"
                  OUTPUT_VARIABLE _dir OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _rc ERROR_QUIET)
  if(_rc EQUAL 0 AND EXISTS "${_dir}")
    list(APPEND _torchsmith_hints "${_dir}")
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
# With a version: pybind11's config accepts any newer one, and refuses an older one found on the system.
find_package(pybind11 ${_torchsmith_pybind11_need} CONFIG QUIET HINTS ${_torchsmith_hints})
set(_torchsmith_pybind11_include)
if(pybind11_FOUND)
  set(_torchsmith_pybind11_include "${pybind11_INCLUDE_DIR}")
  message(STATUS "torchsmith [${_torchsmith_rule}]: pybind11 ${pybind11_VERSION} from ${pybind11_DIR}, not downloaded")
else()
  # torch's own pybind11 headers: what torch compiled its Python bindings with, so new enough for its Python.
  set(_torchsmith_torch_include)
  if(TORCH_INSTALL_PREFIX AND EXISTS "${TORCH_INSTALL_PREFIX}/include/pybind11/detail/common.h")
    set(_torchsmith_torch_include "${TORCH_INSTALL_PREFIX}/include")
  endif()
  foreach(_py IN LISTS _torchsmith_pythons)
    if(NOT _torchsmith_torch_include)
      execute_process(COMMAND "${_py}" -c "import os, torch; print(os.path.join(os.path.dirname(torch.__file__), 'include'))"
                      OUTPUT_VARIABLE _dir OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _rc ERROR_QUIET)
      if(_rc EQUAL 0 AND EXISTS "${_dir}/pybind11/detail/common.h")
        set(_torchsmith_torch_include "${_dir}")
      endif()
    endif()
  endforeach()
  if(_torchsmith_torch_include)
    file(STRINGS "${_torchsmith_torch_include}/pybind11/detail/common.h" _v REGEX "#[ \t]*define[ \t]+PYBIND11_VERSION_(MAJOR|MINOR)[ \t]")
    string(REGEX REPLACE ".*MAJOR[ \t]+([0-9]+).*" "\\1" _major "${_v}")
    string(REGEX REPLACE ".*MINOR[ \t]+([0-9]+).*" "\\1" _minor "${_v}")
    if(NOT _torchsmith_pybind11_need OR NOT "${_major}.${_minor}" VERSION_LESS "${_torchsmith_pybind11_need}")
      set(_torchsmith_pybind11_include "${_torchsmith_torch_include}")
      set(pybind11_VERSION "${_major}.${_minor}")
    endif()
  endif()
endif()
if(NOT pybind11_FOUND AND NOT _torchsmith_pybind11_include)
  if(_torchsmith_pybind11_vendored)
    message(FATAL_ERROR "torchsmith [build.pybind11-torch]: this directory's pybind11 is older than the target Python "
      "needs (${_torchsmith_pybind11_need}), and the build environment has none new enough (neither the target "
      "Python's `pybind11` package, nor a pybind11Config.cmake CMake finds, nor torch's headers under torch/include): "
      "install it into the target Python (python -m pip install pybind11), or give torchsmith build a --wheelhouse "
      "DIR that holds a pybind11 wheel")
  endif()
  message(FATAL_ERROR "torchsmith [build.fetch-local]: the project downloads pybind11 with FetchContent, which "
    "this build does not let it do, and the build environment has no pybind11 (neither the target Python's "
    "`pybind11` package nor a pybind11Config.cmake CMake finds, nor torch's headers): install it into the target Python "
    "(python -m pip install pybind11), give torchsmith build a --wheelhouse DIR that holds a pybind11 wheel, or pass -DFETCHCONTENT_SOURCE_DIR_PYBIND11=DIR, DIR a pybind11 source tree")
endif()

# What the targets and the cached variables need from the Python: its headers and module suffix.
set(_torchsmith_py_include)
set(_torchsmith_py_suffix)
foreach(_py IN LISTS _torchsmith_pythons)
  if(NOT _torchsmith_py_include)
    execute_process(COMMAND "${_py}" -c "import sysconfig; print(sysconfig.get_paths()['include'] + ';' + (sysconfig.get_config_var('EXT_SUFFIX') or '.so'))"
                    OUTPUT_VARIABLE _out OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _rc ERROR_QUIET)
    if(_rc EQUAL 0)
      list(GET _out 0 _torchsmith_py_include)
      list(GET _out 1 _torchsmith_py_suffix)
    endif()
  endif()
endforeach()

# pybind11's own config puts the Python headers on pybind11::pybind11 (pybind11::python_headers) only when
# it finds Python's development files itself: a project that found Python with the Interpreter alone
# first (torch 2.11's CUDA config does) leaves them out, and `#include <Python.h>` fails. As its
# pybind11NewTools.cmake does, they are added from the plan's Python.
if(pybind11_FOUND AND TARGET pybind11::pybind11 AND NOT TARGET pybind11::python_headers AND _torchsmith_py_include)
  get_target_property(_torchsmith_has pybind11::pybind11 INTERFACE_INCLUDE_DIRECTORIES)
  if(NOT _torchsmith_has OR NOT "${_torchsmith_py_include}" IN_LIST _torchsmith_has)
    add_library(pybind11::python_headers INTERFACE IMPORTED)
    set_property(TARGET pybind11::python_headers PROPERTY INTERFACE_INCLUDE_DIRECTORIES "${_torchsmith_py_include}")
    set_property(TARGET pybind11::pybind11 APPEND PROPERTY INTERFACE_LINK_LIBRARIES pybind11::python_headers)
    message(STATUS "torchsmith [${_torchsmith_rule}]: pybind11's targets had no Python headers (Python was found "
                   "without its development files before): ${_torchsmith_py_include} added")
  endif()
endif()

if(NOT pybind11_FOUND)
  message(STATUS "torchsmith [${_torchsmith_rule}]: pybind11 ${pybind11_VERSION} from torch's headers in "
                 "${_torchsmith_pybind11_include} (torch has no CMake config for them: targets made here)")
  add_library(pybind11::headers INTERFACE IMPORTED GLOBAL)
  set_property(TARGET pybind11::headers PROPERTY INTERFACE_INCLUDE_DIRECTORIES
               "${_torchsmith_pybind11_include}" ${_torchsmith_py_include})
  foreach(_t pybind11::pybind11 pybind11::module pybind11::embed)
    add_library(${_t} INTERFACE IMPORTED GLOBAL)
    set_property(TARGET ${_t} PROPERTY INTERFACE_LINK_LIBRARIES pybind11::headers)
  endforeach()
  function(pybind11_add_module name)
    cmake_parse_arguments(ARG "MODULE;SHARED;EXCLUDE_FROM_ALL;NO_EXTRAS;SYSTEM;THIN_LTO;OPT_SIZE;WITHOUT_SOABI" "" "" ${ARGN})
    set(kind MODULE)
    if(ARG_SHARED)
      set(kind SHARED)
    endif()
    add_library(${name} ${kind} ${ARG_UNPARSED_ARGUMENTS})
    target_link_libraries(${name} PRIVATE pybind11::module)
    set_target_properties(${name} PROPERTIES PREFIX "" SUFFIX "${PYTHON_MODULE_EXTENSION}" CXX_VISIBILITY_PRESET hidden)
  endfunction()
endif()

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
# Cached for the parent project, as pybind11's own CMakeLists.txt did (a sibling directory's target
# names its suffix from PYTHON_MODULE_EXTENSION, its headers from PYBIND11_INCLUDE_DIR).
if(NOT PYTHON_MODULE_EXTENSION)
  set(PYTHON_MODULE_EXTENSION "${_torchsmith_py_suffix}")
endif()
if(NOT PYTHON_INCLUDE_DIRS)
  set(PYTHON_INCLUDE_DIRS "${_torchsmith_py_include}")
endif()
set(PYBIND11_INCLUDE_DIR "${_torchsmith_pybind11_include}" CACHE INTERNAL "")
set(PYTHON_INCLUDE_DIRS "${PYTHON_INCLUDE_DIRS}" CACHE INTERNAL "")
set(PYTHON_MODULE_PREFIX "${PYTHON_MODULE_PREFIX}" CACHE INTERNAL "")
set(PYTHON_MODULE_EXTENSION "${PYTHON_MODULE_EXTENSION}" CACHE INTERNAL "")

# build.pybind11-torch: a target that names the old tree's include/ itself (spconv's
# target_include_directories(... third_party/pybind11/include)) would still compile the old headers;
# once the whole project is read, each such entry becomes the new pybind11's include directory.
function(_torchsmith_pybind11_targets dir out)
  get_property(own DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(s IN LISTS subs)
    _torchsmith_pybind11_targets("${s}" more)
    list(APPEND own ${more})
  endforeach()
  set(${out} "${own}" PARENT_SCOPE)
endfunction()

function(_torchsmith_pybind11_redirect)
  get_property(old GLOBAL PROPERTY _TORCHSMITH_PYBIND11_OLD)
  get_property(new GLOBAL PROPERTY _TORCHSMITH_PYBIND11_NEW)
  _torchsmith_pybind11_targets("${CMAKE_SOURCE_DIR}" targets)
  foreach(t IN LISTS targets)
    foreach(prop INCLUDE_DIRECTORIES INTERFACE_INCLUDE_DIRECTORIES)
      get_target_property(dirs ${t} ${prop})
      if(NOT dirs)
        continue()
      endif()
      set(out "")
      set(changed FALSE)
      foreach(d IN LISTS dirs)
        set(real "")
        if(NOT d MATCHES "\\$<")
          get_filename_component(real "${d}" REALPATH)
        endif()
        if(real AND real STREQUAL old)
          list(APPEND out "${new}")
          set(changed TRUE)
        else()
          list(APPEND out "${d}")
        endif()
      endforeach()
      if(changed)
        set_property(TARGET ${t} PROPERTY ${prop} "${out}")
        message(NOTICE "torchsmith: [build.pybind11-torch] ${t}: ${prop} ${old} (pybind11 older than the target "
                       "Python needs) -> ${new}")
      endif()
    endforeach()
  endforeach()
endfunction()

if(_torchsmith_pybind11_vendored AND _torchsmith_pybind11_include)
  get_filename_component(_old "${_torchsmith_pybind11_vendored}" REALPATH)
  set_property(GLOBAL PROPERTY _TORCHSMITH_PYBIND11_OLD "${_old}")
  set_property(GLOBAL PROPERTY _TORCHSMITH_PYBIND11_NEW "${_torchsmith_pybind11_include}")
  if(CMAKE_VERSION VERSION_LESS 3.19)
    message(WARNING "torchsmith: CMake ${CMAKE_VERSION} cannot run code after the project is read (3.19 can): a "
                    "target naming ${_torchsmith_pybind11_vendored} itself still compiles the old headers")
  else()
    cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _torchsmith_pybind11_redirect)
  endif()
endif()
