# Compile flags of the WebAssembly build (top-level CMakeLists.txt under Emscripten, configured by
# scripts/build-web.sh), for every library of the runtime:
# - native wasm exceptions: the C API turns C++ exceptions into messages (client/c_api_support.h);
#   Emscripten's default build would abort at the first throw, its JavaScript exceptions cost
#   speed on every call;
# - SZ_WASM_SIMD: 128-bit wasm SIMD, for browsers that have it, with Eigen's SSE packet math
#   translated into it (web/wasm/eigen_core.h).
option(SZ_WASM_SIMD "wasm SIMD (128-bit), for browsers that have it" ON)
add_compile_options(-fwasm-exceptions)
add_link_options(-fwasm-exceptions)
add_compile_options(-flto)
add_link_options(-flto)
if(SZ_WASM_SIMD)
  find_path(SZ_EIGEN_INCLUDE Eigen/Core PATHS /usr/include/eigen3 NO_CMAKE_FIND_ROOT_PATH REQUIRED)
  add_compile_options(-msimd128 -msse4.1 "SHELL:-include ${PROJECT_SOURCE_DIR}/web/wasm/eigen_core.h"
                      "SHELL:-isystem ${PROJECT_SOURCE_DIR}/web/wasm" "SHELL:-isystem ${SZ_EIGEN_INCLUDE}")
endif()
