// tune.hpp: the pieces of chapoly-tune (README.md beside src/): the knob space of each target,
// spec editing, child processes, the correctness check against the portable reference and the
// interleaved in-process benchmark. main.cpp strings them together.
#ifndef CHAPOLY_TUNE_HPP
#define CHAPOLY_TUNE_HPP

#include <csignal>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "internal/chapoly_internal.h"

namespace chapoly::tune {

/// Knobs: spec key ("table.key") -> TOML literal of its value ("8", "\"vpshufb\"", "[\"0>1\"]").
using Knobs = std::map<std::string, std::string>;

/// Knob: one schedule key the tuner varies and the values it tries (TOML literals; the base spec's
/// own value is always among them, first).
struct Knob {
  std::string key;
  std::vector<std::string> values;
};

/// knob_space returns the knobs the tuner varies for a target ISA ("x86_64-avx512",
/// "x86_64-avx2", "scalar"), with the legal values docs/spec.md lists; `base` holds the base
/// spec's values (read with read_knobs) and is put first in each list. Unknown ISA: empty.
std::vector<Knob> knob_space(const std::string &isa, const Knobs &base);

/// enumerate returns every combination of the knobs' values, the base first, then ordered by
/// how many knobs differ from the base (one-knob changes before pairs ...), at most `max` of them.
std::vector<Knobs> enumerate(const std::vector<Knob> &space, const Knobs &base, size_t max);

/// read_knobs returns the current TOML literal of each of `keys` in a spec text (keys absent from
/// the spec are left out). Line-based: `[table]` headers and `key = value  # comment` lines.
Knobs read_knobs(const std::string &spec_text, const std::vector<std::string> &keys);

/// edit_spec returns `spec_text` with each key of `set` given its new value (comments kept), the
/// top-level `name` replaced by `name`, the `rationale` replaced by `rationale` (when not empty)
/// and `header` lines (each already starting with "#") inserted after the leading comment block.
/// Throws std::runtime_error naming a key of `set` the spec does not have.
std::string edit_spec(const std::string &spec_text, const Knobs &set, const std::string &name,
                      const std::string &rationale, const std::vector<std::string> &header);

/// variant_id returns the kernel family name of a variant: "tune_" + 8 hex digits of a hash of
/// the knobs, so the same knobs always get the same name (resuming finds them in the log).
std::string variant_id(const Knobs &k);

/// Set by the SIGINT/SIGTERM/SIGHUP handler that install_interrupt_handlers() installs: run_argv
/// then kills its child at once (status 130), and the tuner stops after the current step, records
/// nothing for the cut variant, removes its temporary files and writes no spec.
extern volatile std::sig_atomic_t g_interrupted;
void install_interrupt_handlers();

/// RunResult: how a child process ended. status: exit status, 128 + signal, -1 not started,
/// 124 timed out (killed). `output` is the tail (at most 2000 bytes) of its stdout+stderr.
struct RunResult {
  int status = -1;
  std::string output;
  double seconds = 0;
};

/// run_argv runs args[0] with exactly `args` (posix_spawnp, never a shell), its stdout and
/// stderr going to `log_path`; kills it after `timeout_s` seconds (status 124).
RunResult run_argv(const std::vector<std::string> &args, const std::string &log_path, double timeout_s);

/// cpu_model returns the CPU's brand string (CPUID leaves 0x80000002-4 on x86-64, else
/// /proc/cpuinfo "model name"), trimmed; "unknown-cpu" when neither says.
std::string cpu_model();

/// cpu_signature returns the CPUID family and model as "fam19h-model11h" (x86-64: display family
/// and model from leaf 1, which name the microarchitecture where a virtual machine's brand string
/// is generic, e.g. "AMD EPYC"), or "" elsewhere.
std::string cpu_signature();

/// file_safe returns `s` lower-cased with every run of characters other than [a-z0-9] turned
/// into one '-', without leading/trailing '-' ("AMD EPYC 9454 96-Core" -> "amd-epyc-9454-96-core").
std::string file_safe(const std::string &s);

/// write_atomic writes `text` to `path` through a temporary file in the same folder and a
/// rename, so a reader sees the old file or the new one, never a partial one. Throws on error.
void write_atomic(const std::string &path, const std::string &text);

/// Kernels: the four entry points of one kernel family (the kernel ABI, chapoly_internal.h).
struct Kernels {
  chapoly::internal::SealFn seal = nullptr;
  chapoly::internal::OpenFn open = nullptr;
  chapoly::internal::Poly1305Fn poly1305 = nullptr;
  chapoly::internal::ChaCha20Fn chacha20 = nullptr;
};

/// check_lengths returns the message lengths (bytes) the check runs: the block edges 0, 1, 15,
/// 16, 17, 63, 64, 65, ..., the key and tail passes' cut-overs (320, 704, 768, 896, 960 +-1),
/// every multiple of one bulk chunk (`chunk_bytes`) +-1 up to three chunks, `short_max` +-1 (0:
/// none), 1 KiB, 4 KiB + 3 and 16 KiB + 17.
std::vector<size_t> check_lengths(size_t chunk_bytes, size_t short_max);

/// check_against_reference runs seal, open, poly1305 and chacha20 of `k` on every length of
/// `lengths` (with several AAD lengths, misaligned buffers, counters 1 and the largest legal one)
/// and compares each output byte with the portable reference. Returns "" or the first mismatch.
std::string check_against_reference(const Kernels &k, const std::vector<size_t> &lengths);

/// SizeResult: one message size of the benchmark: medians over the rounds of the default's and
/// the variant's seal time per byte (ns), and the median of the per-round ratio default/variant.
struct SizeResult {
  size_t bytes = 0;
  double default_ns_per_byte = 0;
  double variant_ns_per_byte = 0;
  double speedup = 0;
};

/// bench_seal times the seal kernel of `variant` against `def` on each size (13-byte AAD, as in
/// TLS), interleaved: in each of `rounds` rounds both run three batches of the same number of calls
/// (calibrated so one batch takes about `batch_ms`), alternating which goes first, and each
/// kernel's round time is its fastest batch (a preemption on a shared machine only adds time).
std::vector<SizeResult> bench_seal(const Kernels &def, const Kernels &variant,
                                   const std::vector<size_t> &sizes, int rounds, double batch_ms);

}  // namespace chapoly::tune

#endif
