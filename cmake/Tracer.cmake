# The GPU tracer's injection library and device patches (src/inject/), built
# only where the CUDA toolkit and its Compute Sanitizer headers are found.
# Everything host-side that can be tested without a GPU (SASS decoding, the
# message stream, trace writing) lives in src/tracer/ and is always built.
set(WARPSCOPE_TRACER "AUTO" CACHE STRING "Build the GPU tracer's injection library: AUTO, ON or OFF")
set(WARPSCOPE_SANITIZER_ROOT "" CACHE PATH
    "Directory holding include/sanitizer.h and libsanitizer-public.so (default: <CUDA toolkit>/compute-sanitizer)")
set(WARPSCOPE_PATCH_ARCHS "75;80;86;89;90;100;120" CACHE STRING "SASS targets of the device patches")

if(WARPSCOPE_TRACER STREQUAL "OFF")
  message(STATUS "GPU tracer: off (WARPSCOPE_TRACER=OFF)")
  return()
endif()

find_package(CUDAToolkit QUIET)
set(_ws_sanitizer_roots ${WARPSCOPE_SANITIZER_ROOT})
if(CUDAToolkit_FOUND)
  list(APPEND _ws_sanitizer_roots "${CUDAToolkit_BIN_DIR}/../compute-sanitizer")
endif()
find_path(WARPSCOPE_SANITIZER_INCLUDE sanitizer.h PATHS ${_ws_sanitizer_roots} PATH_SUFFIXES include NO_DEFAULT_PATH)
find_library(WARPSCOPE_SANITIZER_LIB sanitizer-public PATHS ${_ws_sanitizer_roots} NO_DEFAULT_PATH)

set(_ws_missing "")
if(NOT CUDAToolkit_FOUND)
  set(_ws_missing "the CUDA toolkit (nvcc)")
elseif(NOT WARPSCOPE_SANITIZER_INCLUDE OR NOT WARPSCOPE_SANITIZER_LIB)
  set(_ws_missing "sanitizer.h / libsanitizer-public.so under ${_ws_sanitizer_roots}")
endif()
if(_ws_missing)
  if(WARPSCOPE_TRACER STREQUAL "ON")
    message(FATAL_ERROR "GPU tracer: WARPSCOPE_TRACER=ON but ${_ws_missing} not found; set CUDAToolkit_ROOT or "
                        "WARPSCOPE_SANITIZER_ROOT")
  endif()
  message(STATUS "GPU tracer: not built, ${_ws_missing} not found (warpscope trace will say so; set "
                 "CUDAToolkit_ROOT / WARPSCOPE_SANITIZER_ROOT to build it)")
  return()
endif()
message(STATUS "GPU tracer: building with ${WARPSCOPE_SANITIZER_INCLUDE}")

get_filename_component(_ws_sanitizer_libdir "${WARPSCOPE_SANITIZER_LIB}" DIRECTORY)
add_library(warpscope_inject SHARED ${CMAKE_SOURCE_DIR}/src/inject/inject.cpp)
target_include_directories(warpscope_inject PRIVATE ${CMAKE_SOURCE_DIR}/src ${WARPSCOPE_SANITIZER_INCLUDE}
                                                    ${CUDAToolkit_INCLUDE_DIRS})
target_link_libraries(warpscope_inject PRIVATE ${WARPSCOPE_SANITIZER_LIB} ${CMAKE_DL_LIBS} pthread warpscope_warnings)
target_link_options(warpscope_inject PRIVATE -static-libstdc++ -static-libgcc)
# At run time the toolkit's own copy is used where the build machine's path does not exist.
set_target_properties(warpscope_inject PROPERTIES
  LIBRARY_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}"
  BUILD_RPATH "${_ws_sanitizer_libdir};/usr/local/cuda/compute-sanitizer"
  INSTALL_RPATH "/usr/local/cuda/compute-sanitizer")

set(_ws_gencode "")
foreach(a ${WARPSCOPE_PATCH_ARCHS})
  list(APPEND _ws_gencode -gencode arch=compute_${a},code=sm_${a})
endforeach()
set(_ws_patches "${CMAKE_BINARY_DIR}/warpscope_patches.fatbin")
add_custom_command(
  OUTPUT ${_ws_patches}
  COMMAND ${CUDAToolkit_NVCC_EXECUTABLE} --fatbin --compile-as-tools-patch -O3 ${_ws_gencode}
          -I${WARPSCOPE_SANITIZER_INCLUDE} -I${CMAKE_SOURCE_DIR}/src -o ${_ws_patches}
          ${CMAKE_SOURCE_DIR}/src/inject/patches.cu
  DEPENDS ${CMAKE_SOURCE_DIR}/src/inject/patches.cu ${CMAKE_SOURCE_DIR}/src/inject/ring.h
  COMMENT "nvcc: GPU tracer patches (${WARPSCOPE_PATCH_ARCHS})"
  VERBATIM)
add_custom_target(warpscope_patches ALL DEPENDS ${_ws_patches})
add_dependencies(warpscope_inject warpscope_patches)
install(TARGETS warpscope_inject LIBRARY DESTINATION lib/warpscope)
install(FILES ${_ws_patches} DESTINATION lib/warpscope)
