// Valid code in the dialect but no exported kernel function (chapoly_k_*): exit status 2.
#include <cstdint>
static inline uint64_t add(uint64_t a, uint64_t b) { return a + b; }
uint64_t twice(uint64_t a) { return add(a, a); }
