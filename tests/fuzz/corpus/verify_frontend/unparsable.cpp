// Not C++: chapoly-verify must stop with exit status 2 and clang's message, no stamp.
#include <cstdint>
extern "C" void chapoly_k_broken_poly1305(uint8_t tag[16], const uint8_t *msg, size_t len {
  return 0
}
