// Eigen with its SSE packet math, translated into wasm SIMD by Emscripten's SSE headers (Eigen 3.4
// has no wasm backend of its own): force-included before everything in the SIMD build
// (cmake/wasm.cmake). Eigen's SSE code holds x86 inline assembly (register hints, a GCC bug's
// work-around) chosen by the GCC version that clang claims; with __GNUC__ hidden while Eigen's
// headers are read Eigen takes its plain paths. The standard headers come first, read with
// __GNUC__ as usual.
#pragma once
#ifdef __cplusplus
#include <algorithm>
#include <array>
#include <cassert>
#include <cerrno>
#include <climits>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <limits>
#include <new>
#include <sstream>
#include <string>
#include <type_traits>
#include <immintrin.h>

#pragma push_macro("__GNUC__")
#pragma push_macro("__GNUC_MINOR__")
#undef __GNUC__
#undef __GNUC_MINOR__
#include <Eigen/Core>
#pragma pop_macro("__GNUC_MINOR__")
#pragma pop_macro("__GNUC__")
#endif
