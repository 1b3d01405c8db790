/* Emscripten translates SSE intrinsics into wasm SIMD but has no MMX header; Eigen's SSE packet
 * math includes <mmintrin.h> without using MMX (eigen_core.h). */
#pragma once
