// cpu_x86.cpp: can this CPU and OS run the AVX-512 IFMA kernels (avx512_missing_feature) or the AVX2
// ones (avx2_missing_feature: AVX2 and BMI2, OSXSAVE, XCR0 SSE and AVX state)? One named predicate per piece:
// the CPU must report AVX512F, AVX512VL, AVX512BW, AVX512IFMA and BMI2 (CPUID leaf 7, subleaf 0,
// EBX; the specs' [target] features list names all five),
// and the OS must have enabled XSAVE (CPUID leaf 1 ECX.OSXSAVE) and the SSE, AVX, opmask,
// ZMM_Hi256 and Hi16_ZMM state components in XCR0 (bits 1, 2, 5, 6, 7), or the first use of a zmm
// register faults even on a CPU that has AVX-512.
#include <atomic>

#include "internal/chapoly_internal.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace chapoly::internal {
namespace {

std::atomic<uint32_t> g_hidden{0};

// Not CpuFeatures (tests cannot hide them): the short-message routing's CPU models, cached with
// the features.
constexpr uint32_t kCpuAmdZen5 = 1u << 30;
constexpr uint32_t kCpuIntel = 1u << 29;

#if defined(__x86_64__) || defined(__i386__)
// XGETBV with ECX = 0 reads XCR0. Only valid when CPUID reports OSXSAVE.
uint64_t read_xcr0() {
  uint32_t eax = 0, edx = 0;
  __asm__ __volatile__("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return (static_cast<uint64_t>(edx) << 32) | eax;
}

// CPUID leaf 0's vendor string (EBX, EDX, ECX) and, for AMD, leaf 1's family: kCpuIntel for
// "GenuineIntel", kCpuAmdZen5 for "AuthenticAMD" of family 1Ah (base 0Fh + extended 0Bh), else 0.
uint32_t detect_model() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(0, &eax, &ebx, &ecx, &edx) == 0) return 0;
  if (ebx == 0x756e6547u && edx == 0x49656e69u && ecx == 0x6c65746eu) return kCpuIntel;
  if (ebx != 0x68747541u || edx != 0x69746e65u || ecx != 0x444d4163u) return 0;
  if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) == 0) return 0;
  const unsigned base = (eax >> 8) & 0xf, ext = (eax >> 20) & 0xff;
  return base == 0xf && base + ext == 0x1a ? kCpuAmdZen5 : 0;
}

uint32_t detect_uncached() {
  uint32_t have = 0;
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid_max(0, nullptr) < 7) return 0;
  __cpuid_count(1, 0, eax, ebx, ecx, edx);
  if (ecx & (1u << 27)) {
    have |= kCpuOsxsave;
    constexpr uint64_t kZmmState = (1u << 1) | (1u << 2) | (1u << 5) | (1u << 6) | (1u << 7);
    if ((read_xcr0() & kZmmState) == kZmmState) have |= kCpuXcr0Zmm;
    constexpr uint64_t kYmmState = (1u << 1) | (1u << 2);
    if ((read_xcr0() & kYmmState) == kYmmState) have |= kCpuXcr0Ymm;
  }
  __cpuid_count(7, 0, eax, ebx, ecx, edx);
  if (ebx & (1u << 5)) have |= kCpuAvx2;
  if (ebx & (1u << 8)) have |= kCpuBmi2;
  if (ebx & (1u << 16)) have |= kCpuAvx512F;
  if (ebx & (1u << 21)) have |= kCpuAvx512Ifma;
  if (ebx & (1u << 30)) have |= kCpuAvx512Bw;
  if (ebx & (1u << 31)) have |= kCpuAvx512Vl;
  return have | detect_model();
}

// CPUID and XCR0 once per process (neither changes while it runs): a backend's feature test runs
// on every stream init and backend choice, the short routes' CPU tests (cpu_is_amd_zen5,
// cpu_is_intel) on every short one-shot call, and
// under a hypervisor each CPUID is a VM exit (about 1.2 us on an Intel Xeon under KVM: before
// every answer was cached, every 16-192 byte seal on Intel paid it, 5x the scalar kernel's whole
// call). The
// cache is a constant-initialized atomic, not a function-local static: a static with a dynamic
// initializer takes __cxa_guard_acquire from the C++ runtime, and libchapoly.a links into C
// programs that do not link one (tests/consumer). Two threads racing here store the same value.
constexpr uint32_t kCpuDetected = 1u << 31;
std::atomic<uint32_t> g_have{0};

uint32_t detect() {
  uint32_t have = g_have.load(std::memory_order_relaxed);
  if (!(have & kCpuDetected)) {
    have = detect_uncached() | kCpuDetected;
    g_have.store(have, std::memory_order_relaxed);
  }
  return have;
}
#endif

}  // namespace

const char *avx512_missing_feature() {
#if defined(__x86_64__) || defined(__i386__)
  const uint32_t have = detect() & ~g_hidden.load(std::memory_order_relaxed);
  if (!(have & kCpuAvx512F)) return "AVX512F (CPUID.(EAX=7,ECX=0):EBX[16])";
  if (!(have & kCpuAvx512Vl)) return "AVX512VL (CPUID.(EAX=7,ECX=0):EBX[31])";
  if (!(have & kCpuAvx512Bw)) return "AVX512BW (CPUID.(EAX=7,ECX=0):EBX[30])";
  if (!(have & kCpuAvx512Ifma)) return "AVX512IFMA (CPUID.(EAX=7,ECX=0):EBX[21])";
  if (!(have & kCpuBmi2)) return "BMI2 (CPUID.(EAX=7,ECX=0):EBX[8])";
  if (!(have & kCpuOsxsave)) return "OSXSAVE (CPUID.1:ECX[27]: the OS has not enabled XSAVE)";
  if (!(have & kCpuXcr0Zmm)) {
    return "OS support for AVX-512 state (XCR0 bits 1,2,5,6,7: SSE, AVX, opmask, ZMM_Hi256, "
           "Hi16_ZMM)";
  }
  return nullptr;
#else
  return "an x86-64 CPU (AVX512F, AVX512VL, AVX512BW, AVX512IFMA, BMI2)";
#endif
}

const char *avx2_missing_feature() {
#if defined(__x86_64__) || defined(__i386__)
  const uint32_t have = detect() & ~g_hidden.load(std::memory_order_relaxed);
  if (!(have & kCpuAvx2)) return "AVX2 (CPUID.(EAX=7,ECX=0):EBX[5])";
  if (!(have & kCpuBmi2)) return "BMI2 (CPUID.(EAX=7,ECX=0):EBX[8])";
  if (!(have & kCpuOsxsave)) return "OSXSAVE (CPUID.1:ECX[27]: the OS has not enabled XSAVE)";
  if (!(have & kCpuXcr0Ymm)) return "OS support for AVX state (XCR0 bits 1,2: SSE, AVX)";
  return nullptr;
#else
  return "an x86-64 CPU (AVX2, BMI2)";
#endif
}

void hide_cpu_features_for_testing(uint32_t mask) {
  g_hidden.store(mask, std::memory_order_relaxed);
}

namespace {
// Whether the cached CPU model bit is set (always false off x86-64).
bool cpu_model_is(uint32_t bit) {
#if defined(__x86_64__) || defined(__i386__)
  return (detect() & bit) != 0;
#else
  (void)bit;
  return false;
#endif
}
}  // namespace

bool cpu_is_amd_zen5() { return cpu_model_is(kCpuAmdZen5); }
bool cpu_is_intel() { return cpu_model_is(kCpuIntel); }

}  // namespace chapoly::internal
