// shared.cpp: RFC 8439 constants shared by the KIR builders (see shared.hpp).
#include "shared.hpp"

namespace chapoly::gen::kir {

const std::array<uint32_t, 4> &chacha20_sigma() {
  static const std::array<uint32_t, 4> sigma = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
  return sigma;
}

const int kChachaQuarterRounds[8][4] = {{0, 4, 8, 12}, {1, 5, 9, 13}, {2, 6, 10, 14}, {3, 7, 11, 15},
                                         {0, 5, 10, 15}, {1, 6, 11, 12}, {2, 7, 8, 13}, {3, 4, 9, 14}};

const QrStep kChachaQuarterRoundSteps[12] = {{0, 1, -1}, {3, 0, 0}, {3, 3, 16}, {2, 3, -1}, {1, 2, 0}, {1, 1, 12},
                                             {0, 1, -1}, {3, 0, 0}, {3, 3, 8},  {2, 3, -1}, {1, 2, 0}, {1, 1, 7}};

// RFC 8439 2.5: "r[3], r[7], r[11], and r[15] are required to have their top four bits clear
// (be smaller than 16); r[4], r[8], and r[12] are required to have their bottom two bits clear".
std::pair<uint64_t, uint64_t> poly1305_clamp_masks() {
  uint8_t mask[16];
  for (int i = 0; i < 16; ++i) {
    mask[i] = 0xff;
    if (i % 4 == 3) mask[i] &= 0x0f;
    if (i % 4 == 0 && i > 0) mask[i] &= 0xfc;
  }
  uint64_t lo = 0, hi = 0;
  for (int i = 7; i >= 0; --i) lo = (lo << 8) | mask[i];
  for (int i = 15; i >= 8; --i) hi = (hi << 8) | mask[i];
  return {lo, hi};
}

}  // namespace chapoly::gen::kir
