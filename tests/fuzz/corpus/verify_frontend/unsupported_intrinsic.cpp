// A kernel using an intrinsic the semantics table does not have (_mm512_sad_epu8): the verifier
// cannot prove it and says which one, exit status 1 (an unprovable kernel), no stamp.
#include <immintrin.h>
#include <cstddef>
#include <cstdint>
extern "C" void chapoly_k_bogus_poly1305(uint8_t tag[16], const uint8_t *msg, size_t len,
                                         const uint8_t key[32]) {
  __m512i a = _mm512_loadu_si512(key);
  __m512i b = _mm512_sad_epu8(a, a);
  _mm512_storeu_si512(tag, b);
}
