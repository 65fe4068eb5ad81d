// no_avx512.cpp: compiled instead of avx512/backend.cpp when this build has no AVX-512 kernels
// (no chapoly_kernels_avx512 target, or not an x86-64 build): the avx512 backend is absent, so
// "avx512" is an unknown name to chapoly_select_backend and CHAPOLY_BACKEND.
#include "internal/chapoly_internal.h"

namespace chapoly::internal {

const Backend *avx512_backend() { return nullptr; }

}  // namespace chapoly::internal
