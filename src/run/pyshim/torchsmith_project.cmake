# torchsmith's CMake helper: written beside sitecustomize.py, which passes it to the build's cmake
# configure call as -DCMAKE_PROJECT_INCLUDE_BEFORE (so it runs first in every project() call).
# It carries out two remedies the plan decides (src/plan/cmake_remedies.cpp) for a package whose
# CMake files hard-code what a -D from the command line cannot change:
#  - build.cmake-arch, TORCHSMITH_CMAKE_ARCHES="86-real;90": CMAKE_CUDA_ARCHITECTURES is the plan's
#    before project() enables CUDA (a set() ahead of project() would otherwise reach nvcc's
#    compiler check) and stays the plan's wherever the project sets it later (a variable_watch: a
#    set() between project() and enable_language(CUDA) never reaches the compiler check); once the
#    top-level CMakeLists.txt is read, every target's CUDA_ARCHITECTURES is the plan's and
#    -gencode/-arch flags in its compile options are dropped, and so are those in CMAKE_CUDA_FLAGS
#    of any directory (watched as they are set), so CMake derives them from the plan's list;
#  - build.cmake-std, TORCHSMITH_CMAKE_STD="17": CXX_STANDARD/CUDA_STANDARD below it on a target,
#    and -std=c++NN below it in its compile options or any directory's CMAKE_CXX/CUDA_FLAGS, become
#    it (and a CMake without an nvcc flag for that dialect is given -std=c++NN for it);
#  - build.no-lto, TORCHSMITH_NO_LTO=1 (a live trigger: the linker could not run GCC's lto-wrapper):
#    CMAKE_INTERPROCEDURAL_OPTIMIZATION is OFF before project() (defined, so pybind11_add_module links
#    no pybind11::lto), and once the project is read every target's own INTERPROCEDURAL_OPTIMIZATION
#    is off, pybind11::lto/thin_lto leave its link libraries and -flto* its compile and link options
#    (and any directory's CMAKE_C/CXX/CUDA_FLAGS and CMAKE_*_LINKER_FLAGS, watched as they are set).
#  - build.cmake-toolchain, TORCHSMITH_CMAKE_TOOLCHAIN=1: the compilers and the CUDA toolkit are the
#    build's (CUDACXX, CUDA_HOME, CC/CXX/CUDAHOSTCXX from the plan, else CMake's own choice), not the
#    author's paths the CMake files set (sphconv: set(CMAKE_CUDA_COMPILER /usr/local/cuda-10.2/bin/nvcc)
#    ahead of project(), which wins over CUDACXX).
# The package's files are not edited; what changed is said on stderr as "torchsmith: [rule] ...".

set(_ts_arches "$ENV{TORCHSMITH_CMAKE_ARCHES}")
set(_ts_std "$ENV{TORCHSMITH_CMAKE_STD}")
set(_ts_no_lto "$ENV{TORCHSMITH_NO_LTO}")

if(_ts_no_lto)
  set(CMAKE_INTERPROCEDURAL_OPTIMIZATION OFF)
endif()

# build.cmake-toolchain: what the build names for VAR ("" when nothing).
function(_ts_toolchain_value var out)
  set(v "")
  if(var STREQUAL "CMAKE_CUDA_COMPILER" OR var STREQUAL "CUDA_NVCC_EXECUTABLE")
    set(v "$ENV{CUDACXX}")
  elseif(var STREQUAL "CUDA_TOOLKIT_ROOT_DIR" OR var STREQUAL "CUDAToolkit_ROOT")
    set(v "$ENV{CUDA_HOME}")
  elseif(var STREQUAL "CMAKE_CUDA_HOST_COMPILER" OR var STREQUAL "CUDA_HOST_COMPILER")
    set(v "$ENV{CUDAHOSTCXX}")
  elseif(var STREQUAL "CMAKE_CXX_COMPILER")
    set(v "$ENV{CXX}")
  elseif(var STREQUAL "CMAKE_C_COMPILER")
    set(v "$ENV{CC}")
  endif()
  set(${out} "${v}" PARENT_SCOPE)
endfunction()

# The language whose compiler VAR chooses ("" for FindCUDA's and the toolkit's variables).
function(_ts_toolchain_lang var out)
  set(l "")
  if(var MATCHES "^CMAKE_(C|CXX|CUDA)_COMPILER$")
    set(l "${CMAKE_MATCH_1}")
  elseif(var STREQUAL "CMAKE_CUDA_HOST_COMPILER")
    set(l "CUDA")
  endif()
  set(${out} "${l}" PARENT_SCOPE)
endfunction()

# How VAR becomes the build's, into HOW: "unset" for a language's compiler (CMake then reads CC, CXX,
# CUDACXX, CUDAHOSTCXX itself, flags in them included, else searches), "set" to WANT for the toolkit
# and FindCUDA's variables, "unset" where the build names nothing.
function(_ts_toolchain_how var want how)
  _ts_toolchain_lang(${var} l)
  if(l OR NOT want)
    set(${how} "unset" PARENT_SCOPE)
  else()
    set(${how} "set" PARENT_SCOPE)
  endif()
endfunction()

set(_ts_toolchain_vars CMAKE_CUDA_COMPILER CMAKE_CUDA_HOST_COMPILER CMAKE_CXX_COMPILER CMAKE_C_COMPILER
    CUDA_TOOLKIT_ROOT_DIR CUDAToolkit_ROOT CUDA_NVCC_EXECUTABLE CUDA_HOST_COMPILER)

# At project(): a variable the CMake files set (a plain set() ahead of project()) is the build's; one
# from the cache (a -D, a CACHE set(), or an earlier configure's own choice) only when it names a path
# that is not there. A language already enabled keeps its compiler.
macro(_ts_toolchain_at_project)
  foreach(_ts_v IN LISTS _ts_toolchain_vars)
    _ts_toolchain_lang(${_ts_v} _ts_l)
    if((_ts_l AND CMAKE_${_ts_l}_COMPILER_LOADED) OR NOT DEFINED ${_ts_v})
      continue()
    endif()
    _ts_toolchain_value(${_ts_v} _ts_want)
    set(_ts_had "${${_ts_v}}")
    if("${_ts_had}" STREQUAL "${_ts_want}")
      continue()
    endif()
    if(DEFINED CACHE{${_ts_v}} AND "$CACHE{${_ts_v}}" STREQUAL "${_ts_had}" AND
       (EXISTS "${_ts_had}" OR NOT IS_ABSOLUTE "${_ts_had}"))
      continue()  # the cache's, and there: a -D, or CMake's own choice at an earlier configure
    endif()
    unset(${_ts_v})
    unset(${_ts_v} CACHE)
    _ts_toolchain_how(${_ts_v} "${_ts_want}" _ts_how)
    if(_ts_how STREQUAL "set")
      set(${_ts_v} "${_ts_want}" CACHE PATH "the build's (torchsmith build.cmake-toolchain)" FORCE)
      message(NOTICE "torchsmith: [build.cmake-toolchain] ${_ts_v}=${_ts_had}: the build's ${_ts_want} instead "
                     "(TORCHSMITH_CMAKE_TOOLCHAIN)")
    else()
      message(NOTICE "torchsmith: [build.cmake-toolchain] ${_ts_v}=${_ts_had}: unset, so CMake takes the build's "
                     "own (from CC/CXX/CUDACXX/CUDAHOSTCXX/CUDA_HOME, else its search; TORCHSMITH_CMAKE_TOOLCHAIN)")
    endif()
  endforeach()
endmacro()

# A variable set again by the project's own files after project() (never CMake's modules or the files
# it generates in the build tree, FindCUDA's cache of what it found included): the build's again.
function(_ts_watch_toolchain var access value file)
  if(NOT access STREQUAL "MODIFIED_ACCESS" OR "${value}" STREQUAL "")
    return()
  endif()
  string(FIND "${file}" "${CMAKE_SOURCE_DIR}/" in_source)
  string(FIND "${file}" "${CMAKE_BINARY_DIR}/" in_binary)
  if(NOT in_source EQUAL 0 OR in_binary EQUAL 0)
    return()
  endif()
  _ts_toolchain_lang(${var} l)
  if(l AND CMAKE_${l}_COMPILER_LOADED)
    return()
  endif()
  _ts_toolchain_value(${var} want)
  if("${value}" STREQUAL "${want}")
    return()
  endif()
  _ts_toolchain_how(${var} "${want}" how)
  if(how STREQUAL "set")
    set(${var} "${want}" PARENT_SCOPE)
  else()
    unset(${var} PARENT_SCOPE)
  endif()
  file(RELATIVE_PATH where "${CMAKE_SOURCE_DIR}" "${file}")
  message(NOTICE "torchsmith: [build.cmake-toolchain] ${var}=${value} (${where}): ${how} for the build's own "
                 "(TORCHSMITH_CMAKE_TOOLCHAIN)")
endfunction()

if("$ENV{TORCHSMITH_CMAKE_TOOLCHAIN}")
  _ts_toolchain_at_project()
  get_property(_ts_watching GLOBAL PROPERTY _TORCHSMITH_TOOLCHAIN_WATCH)
  if(NOT _ts_watching)
    set_property(GLOBAL PROPERTY _TORCHSMITH_TOOLCHAIN_WATCH TRUE)
    foreach(_ts_v IN LISTS _ts_toolchain_vars)
      variable_watch(${_ts_v} _ts_watch_toolchain)
    endforeach()
  endif()
endif()

if(_ts_arches)
  if(DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT "${CMAKE_CUDA_ARCHITECTURES}" STREQUAL "${_ts_arches}")
    message(NOTICE "torchsmith: [build.cmake-arch] CMAKE_CUDA_ARCHITECTURES=${CMAKE_CUDA_ARCHITECTURES} before "
                   "project(): kept the plan's ${_ts_arches} (TORCHSMITH_CMAKE_ARCHES)")
  endif()
  set(CMAKE_CUDA_ARCHITECTURES "${_ts_arches}")
endif()

# A CMake that knows no nvcc flag for the standard torch's headers need is told it before project()
# enables CUDA: CMake 3.25 stops at CUDA17, so a CUDA_STANDARD raised to 20 would stop the configure
# ("Target requires the language dialect CUDA20 ... CMake does not know the flags").
if(_ts_std AND NOT DEFINED CMAKE_CUDA${_ts_std}_STANDARD_COMPILE_OPTION)
  set(CMAKE_CUDA${_ts_std}_STANDARD_COMPILE_OPTION "-std=c++${_ts_std}")
  set(CMAKE_CUDA${_ts_std}_EXTENSION_COMPILE_OPTION "-std=c++${_ts_std}")
endif()

# "c++14" / "gnu++1z" -> 14 / 17 into OUT; 0 when not a C++ standard.
function(_ts_std_year value out)
  set(y 0)
  if(value MATCHES "^(c|gnu)\\+\\+([0-9][0-9a-z])$")
    set(v "${CMAKE_MATCH_2}")
    if(v STREQUAL "0x")
      set(y 11)
    elseif(v STREQUAL "1y")
      set(y 14)
    elseif(v STREQUAL "1z")
      set(y 17)
    elseif(v STREQUAL "2a")
      set(y 20)
    elseif(v STREQUAL "2b")
      set(y 23)
    elseif(v MATCHES "^[0-9][0-9]$")
      set(y "${v}")
    endif()
  endif()
  if(y EQUAL 98)
    set(y 3)
  endif()
  set(${out} "${y}" PARENT_SCOPE)
endfunction()

# A flag list without arch flags (arches != ""), with an old -std raised (std != "") and without
# -flto* (TORCHSMITH_NO_LTO); what changed goes to CHANGED.
function(_ts_rewrite_flags flags arches std out changed)
  set(no_lto "$ENV{TORCHSMITH_NO_LTO}")
  set(kept "")
  set(notes "")
  set(skip_next FALSE)
  foreach(f IN LISTS flags)
    if(skip_next)
      set(skip_next FALSE)
      list(APPEND notes "${f}")
      continue()
    endif()
    if(arches AND f MATCHES "^(-gencode|--generate-code|-arch|--gpu-architecture|-code|--gpu-code)(=.*)?$")
      list(APPEND notes "${f}")
      if(NOT CMAKE_MATCH_2)
        set(skip_next TRUE)
      endif()
      continue()
    endif()
    # An arch value with no flag before it: torch's own Caffe2/public/cuda.cmake appends its
    # `-gencode;arch=compute_86,code=sm_86` one token at a time, so the flag went at the first
    # append and its value comes alone at the next (nvcc: "A single input file is required").
    if(arches AND f MATCHES "^(arch=(compute|sm)_[0-9]+[af]?(,code=.*)?|(sm|compute)_[0-9]+[af]?)$")
      list(APPEND notes "${f}")
      continue()
    endif()
    if(no_lto AND f MATCHES "^(-Xcompiler=)?(-flto(=.*)?|-f(no-)?fat-lto-objects|-fuse-linker-plugin)$")
      list(APPEND notes "${f}")
      continue()
    endif()
    if(std AND f MATCHES "^--?std=(.*)$")
      _ts_std_year("${CMAKE_MATCH_1}" y)
      if(y GREATER 0 AND y LESS std)
        list(APPEND notes "${f} -> -std=c++${std}")
        list(APPEND kept "-std=c++${std}")
        continue()
      endif()
    endif()
    list(APPEND kept "${f}")
  endforeach()
  set(${out} "${kept}" PARENT_SCOPE)
  set(${changed} "${notes}" PARENT_SCOPE)
endfunction()

# The rules a flag rewrite speaks for: build.no-lto joins them when it is asked.
function(_ts_label out)
  if("$ENV{TORCHSMITH_NO_LTO}")
    set(${out} "build.cmake-arch/std/no-lto" PARENT_SCOPE)
  else()
    set(${out} "build.cmake-arch/std" PARENT_SCOPE)
  endif()
endfunction()

# Every target made by the project's directories, the top one and those add_subdirectory reached.
function(_ts_targets dir out)
  get_property(own DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(s IN LISTS subs)
    _ts_targets("${s}" more)
    list(APPEND own ${more})
  endforeach()
  set(${out} "${own}" PARENT_SCOPE)
endfunction()

function(_ts_apply)
  set(arches "$ENV{TORCHSMITH_CMAKE_ARCHES}")
  set(std "$ENV{TORCHSMITH_CMAKE_STD}")
  _ts_targets("${CMAKE_SOURCE_DIR}" targets)
  foreach(t IN LISTS targets)
    get_target_property(type ${t} TYPE)
    if(type STREQUAL "INTERFACE_LIBRARY" OR type STREQUAL "UTILITY")
      continue()
    endif()
    if(arches)
      get_target_property(had ${t} CUDA_ARCHITECTURES)
      if(NOT "${had}" STREQUAL "${arches}")
        set_property(TARGET ${t} PROPERTY CUDA_ARCHITECTURES "${arches}")
        if(had AND NOT had MATCHES "-NOTFOUND$")
          message(NOTICE "torchsmith: [build.cmake-arch] ${t}: CUDA_ARCHITECTURES ${had} -> ${arches} "
                         "(TORCHSMITH_CMAKE_ARCHES)")
        endif()
      endif()
    endif()
    if(std)
      foreach(lang CXX CUDA)
        get_target_property(had ${t} ${lang}_STANDARD)
        if(had AND NOT had MATCHES "-NOTFOUND$")
          set(y "${had}")
          if(y EQUAL 98)
            set(y 3)
          endif()
          if(y LESS std)
            set_property(TARGET ${t} PROPERTY ${lang}_STANDARD "${std}")
            message(NOTICE "torchsmith: [build.cmake-std] ${t}: ${lang}_STANDARD ${had} -> ${std} (the torch's "
                           "headers need C++${std}; TORCHSMITH_CMAKE_STD)")
          endif()
        endif()
      endforeach()
    endif()
    get_target_property(opts ${t} COMPILE_OPTIONS)
    if(opts AND NOT opts MATCHES "-NOTFOUND$")
      _ts_rewrite_flags("${opts}" "${arches}" "${std}" new changed)
      if(changed)
        set_property(TARGET ${t} PROPERTY COMPILE_OPTIONS "${new}")
        _ts_label(label)
        message(NOTICE "torchsmith: [${label}] ${t}: compile options ${changed}")
      endif()
    endif()
    if("$ENV{TORCHSMITH_NO_LTO}")
      _ts_no_lto_target(${t})
    endif()
  endforeach()
endfunction()

# build.no-lto on one target: its IPO off (every configuration), pybind11's LTO interface targets
# out of its link libraries, -flto* out of its link options (compile options: _ts_rewrite_flags).
function(_ts_no_lto_target t)
  set(notes "")
  string(TOUPPER "${CMAKE_BUILD_TYPE}" build_type)
  set(props INTERPROCEDURAL_OPTIMIZATION)
  foreach(c DEBUG RELEASE RELWITHDEBINFO MINSIZEREL ${build_type})
    list(APPEND props INTERPROCEDURAL_OPTIMIZATION_${c})
  endforeach()
  list(REMOVE_DUPLICATES props)
  foreach(p IN LISTS props)
    get_target_property(v ${t} ${p})
    if(v AND NOT v MATCHES "-NOTFOUND$")
      set_property(TARGET ${t} PROPERTY ${p} OFF)
      list(APPEND notes "${p} ${v} -> OFF")
    endif()
  endforeach()
  get_target_property(libs ${t} LINK_LIBRARIES)
  if(libs AND NOT libs MATCHES "-NOTFOUND$")
    set(kept "")
    foreach(l IN LISTS libs)
      if(l MATCHES "^pybind11::(thin_)?lto$")
        list(APPEND notes "${l} unlinked")
      else()
        list(APPEND kept "${l}")
      endif()
    endforeach()
    if(NOT kept STREQUAL libs)
      set_property(TARGET ${t} PROPERTY LINK_LIBRARIES "${kept}")
    endif()
  endif()
  get_target_property(opts ${t} LINK_OPTIONS)
  if(opts AND NOT opts MATCHES "-NOTFOUND$")
    _ts_rewrite_flags("${opts}" "" "" new changed)
    if(changed)
      set_property(TARGET ${t} PROPERTY LINK_OPTIONS "${new}")
      list(APPEND notes "link options ${changed}")
    endif()
  endif()
  if(notes)
    list(JOIN notes ", " said)
    message(NOTICE "torchsmith: [build.no-lto] ${t}: ${said} (the linker cannot run GCC's link-time "
                   "optimisation; TORCHSMITH_NO_LTO)")
  endif()
endfunction()

# variable_watch callbacks: CMake calls them in the scope that reads or sets the variable (a
# subdirectory's, a function's), and PARENT_SCOPE is that scope; a read looks the value up again
# after the callback, so the reader (enable_language's compiler check, the generator) sees ours.
# Writes fire MODIFIED_ACCESS; reads also catch a value set where no write fired in this scope
# (a CACHE FORCE, a function's PARENT_SCOPE).
function(_ts_watch_arches var access value file)
  set(arches "$ENV{TORCHSMITH_CMAKE_ARCHES}")
  if(NOT access MATCHES "^(READ|MODIFIED)_ACCESS$" OR "${value}" STREQUAL "${arches}")
    return()
  endif()
  set(${var} "${arches}" PARENT_SCOPE)
  file(RELATIVE_PATH where "${CMAKE_SOURCE_DIR}" "${file}")
  message(NOTICE "torchsmith: [build.cmake-arch] CMAKE_CUDA_ARCHITECTURES=${value} (${where}): kept the plan's "
                 "${arches} (TORCHSMITH_CMAKE_ARCHES)")
endfunction()

function(_ts_watch_flags var access value file)
  if(NOT access MATCHES "^(READ|MODIFIED)_ACCESS$" OR NOT value)
    return()
  endif()
  set(a "")
  if(var STREQUAL "CMAKE_CUDA_FLAGS")
    set(a "$ENV{TORCHSMITH_CMAKE_ARCHES}")
  endif()
  separate_arguments(flags UNIX_COMMAND "${value}")
  set(s "$ENV{TORCHSMITH_CMAKE_STD}")
  if(var MATCHES "LINKER_FLAGS$")
    set(s "")
  endif()
  _ts_rewrite_flags("${flags}" "${a}" "${s}" new changed)
  if(changed)
    list(JOIN new " " joined)
    set(${var} "${joined}" PARENT_SCOPE)
    file(RELATIVE_PATH where "${CMAKE_SOURCE_DIR}" "${file}")
    list(JOIN changed " " said)
    _ts_label(label)
    message(NOTICE "torchsmith: [${label}] ${var} (${where}): ${said}")
  endif()
endfunction()

get_property(_ts_deferred GLOBAL PROPERTY _TORCHSMITH_DEFERRED)
if((_ts_arches OR _ts_std OR _ts_no_lto) AND NOT _ts_deferred AND CMAKE_CURRENT_SOURCE_DIR STREQUAL CMAKE_SOURCE_DIR)
  set_property(GLOBAL PROPERTY _TORCHSMITH_DEFERRED TRUE)
  # Watches are global and this include runs at every project(): installed once.
  if(_ts_arches)
    variable_watch(CMAKE_CUDA_ARCHITECTURES _ts_watch_arches)
  endif()
  if(_ts_std OR _ts_no_lto)
    variable_watch(CMAKE_CXX_FLAGS _ts_watch_flags)
  endif()
  if(_ts_no_lto)
    foreach(v CMAKE_C_FLAGS CMAKE_SHARED_LINKER_FLAGS CMAKE_MODULE_LINKER_FLAGS CMAKE_EXE_LINKER_FLAGS)
      variable_watch(${v} _ts_watch_flags)
    endforeach()
  endif()
  variable_watch(CMAKE_CUDA_FLAGS _ts_watch_flags)
  if(CMAKE_VERSION VERSION_LESS 3.19)
    message(WARNING "torchsmith: CMake ${CMAKE_VERSION} cannot run code after the project is read (3.19 can): "
                    "the plan's arches and standard reach the project's variables and flags, not its targets' "
                    "own properties")
  else()
    cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _ts_apply)
  endif()
endif()
