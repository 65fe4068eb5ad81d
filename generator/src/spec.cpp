// spec.cpp: reading and validating schedule specs (format v1). See spec.hpp and docs/spec.md.
#include "spec.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <set>
#include <sstream>
#include <toml++/toml.h>

namespace chapoly::gen {

const std::vector<SpecKey> &spec_keys() {
  static const std::vector<SpecKey> keys = {
      {"version", "integer", "-", "1",
       "Spec format version. Only version 1 exists.", "1", "all"},
      {"name", "string", "-", "lower-case letters, digits and '_', 1-48 characters",
       "Kernel family name. Emitted files are NAME.cpp/NAME.h; exported symbols chapoly_k_NAME_*.",
       "\"avx512_ifma_fused\"", "all"},
      {"rationale", "string", "-", "any text",
       "Why this schedule: copied into the emitted header as the design note.", "\"\"\"...\"\"\"", "all"},
      {"target.isa", "string", "-", "\"x86_64-avx512\", \"x86_64-avx2\", \"scalar\", \"riscv64\" or \"riscv64-rvv\"",
       "Instruction set the kernels are written for. Every target builds the whole kernel as "
       "structured IR (generator/src/kir) and spells it through generator/targets/<target>/target.toml. "
       "\"x86_64-avx512\": ChaCha20 on zmm/ymm, Poly1305 on the 52-bit IFMA multiplier "
       "(generator/targets/avx512/target.toml); \"scalar\": plain "
       "C++ on uint32_t/uint64_t/unsigned __int128, no intrinsics, for any 64-bit CPU; "
       "\"x86_64-avx2\" is the same IR with ChaCha20 word-sliced in ymm registers "
       "(generator/targets/avx2/target.toml); \"riscv64\" is the scalar IR spelled for 64-bit RISC-V "
       "(generator/targets/rv64/target.toml) and \"riscv64-rvv\" the same with ChaCha20 word-sliced "
       "in RVV 1.0 vectors, vector-length agnostic (generator/targets/rvv/target.toml). Keys marked with targets below are required for "
       "those targets and rejected for the others.",
       "\"x86_64-avx512\"", "all"},
      {"target.features", "array of strings", "-",
       "x86_64-avx512: must include avx512f, avx512vl, avx512bw, avx512ifma, bmi2; x86_64-avx2: "
       "avx2, bmi2; riscv64-rvv: v; scalar, riscv64: empty",
       "CPU features the kernels need; the runtime dispatches on them and the build compiles the "
       "emitted file with the matching -m flags.", "[\"avx512f\", \"avx512vl\", \"avx512bw\", \"avx512ifma\", \"bmi2\"]", "all"},
      {"chacha20.bulk_blocks", "integer", "blocks of 64 bytes", "8 or 16 (x86_64-avx2: 8)",
       "Blocks per fused-loop iteration, word-sliced: word j of every block in one register "
       "(16: zmm, 1 KiB per iteration; 8: ymm, 512 bytes). Equivalent scalar loop: "
       "for (i = 0; i + 64*B <= len; i += 64*B) for (b = 0; b < B; ++b) block(ctr + i/64 + b).",
       "16", "x86_64-avx512 x86_64-avx2"},
      {"chacha20.short_blocks_per_vector", "integer", "blocks of 64 bytes", "4",
       "Layout of the short kernel and of tails: one block per 128-bit lane of a zmm, the four "
       "state rows in four registers, diagonals by in-lane word shuffles.", "4", "x86_64-avx512"},
      {"chacha20.rotate", "string", "-", "\"vprold\" or \"vpshufb\"",
       "How 32-bit rotations are done: vprold for all four (AVX-512 rotate, 1 op each), or byte "
       "shuffles (vpshufb) for the 16- and 8-bit rotations and vprold for 12 and 7. vprold "
       "needs no constant register; vpshufb runs on a different port on some cores.",
       "\"vprold\"", "x86_64-avx512"},
      {"poly1305.radix_bits", "integer", "bits", "44 (ifma52), 64 (mul64)",
       "Radix of the limb representation: limb i has weight 2^(radix*i).", "44", "all"},
      {"poly1305.limbs", "integer", "limbs", "3 (ifma52: 44/44/42; mul64: 64/64/2); limbs*radix_bits >= 130",
       "Number of limbs per accumulator.", "3", "all"},
      {"poly1305.limb_bits", "array of integers", "bits",
       "radix_bits for every limb but the top one; the top limb has 130 - radix*(limbs-1)",
       "Width of each fully carried limb (44/44/42 tiles 2^130).", "[44, 44, 42]", "all"},
      {"poly1305.lanes", "integer", "64-bit lanes", "4 or 8 (a power of two)",
       "Independent Horner lanes; lane j holds key power r^(lanes-j), so one vector multiply "
       "absorbs lanes*16 bytes (8: zmm, 4: ymm). Equivalent scalar: h = (h + m_i) * r per block.",
       "8", "x86_64-avx512"},
      {"poly1305.multiplier", "string", "-", "\"ifma52\" (x86_64-avx512) or \"mul64\" (scalar, x86_64-avx2, riscv64, riscv64-rvv)",
       "Multiplier: \"ifma52\" is AVX-512 IFMA vpmadd52luq/vpmadd52huq (52x52->104 bit, lo and hi "
       "halves); \"mul64\" is the general-purpose 64x64->128-bit multiply in radix 2^64 (h = "
       "h0 + h1*2^64 + h2*2^128 with h2 small; the generator derives the clamp masks, the 5/4 fold "
       "s1 = r1 + (r1 >> 2) and the h2 bound).",
       "\"ifma52\"", "all"},
      {"poly1305.carry_chain", "array of strings", "-",
       "each \"i>j\" with j = i+1, or i = top limb and j = 0 (the x5 wrap at 2^130)",
       "Carries done after every multiply, in order: c = d_i >> limb_bits[i]; d_i &= mask; "
       "d_j += c (times 5 for the wrap). Fewer carries are lazier; chapoly-verify rejects a "
       "chain that lets a limb outgrow the 52-bit multiplier.",
       "[\"0>1\", \"1>2\", \"2>0\", \"0>1\"]", "x86_64-avx512"},
      {"schedule.interleave", "integer", "Poly1305 steps per double round",
       "x86_64-avx512: 0, 1 or 2; x86_64-avx2: 0 to 4; riscv64-rvv: 0 or 1",
       "Interleave ratio in the fused loop: this many Poly1305 steps (x86_64-avx512: lanes-wide "
       "vector steps; x86_64-avx2: 16-byte mul64 block steps in general-purpose registers) are "
       "woven statement by statement into each ChaCha20 double round (steps left over go into the "
       "last double round). riscv64-rvv: 1 spreads the 4 * VL block steps of a chunk (VL known only "
       "at run time) evenly over the ten double rounds, floor(4 * VL / 10) each, the rest after "
       "them. 0 keeps the two passes apart inside the iteration.", "1",
       "x86_64-avx512 x86_64-avx2 riscv64-rvv"},
      {"chacha20.gpr_blocks", "integer", "blocks of 64 bytes", "1 or 2",
       "Blocks computed together in general-purpose registers, their double rounds interleaved "
       "instruction by instruction for instruction-level parallelism (2: 32 live state words, "
       "128 bytes per bulk-loop iteration). Equivalent scalar loop: one block at a time.",
       "2", "scalar riscv64"},
      {"chacha20.lmul", "integer", "vector registers per value", "1 or 2",
       "RVV register grouping (LMUL) of the word-sliced ChaCha20 state: each of the 16 state words "
       "is one vuint32m<LMUL>_t holding word j of VL blocks, VL = vsetvl(blocks left) <= "
       "LMUL * VLEN / 32 (VLEN 256, LMUL 1: 8 blocks, 512 bytes per iteration). 16 words * LMUL "
       "registers must leave room in the 32 vector registers: 1 or 2. Equivalent scalar loop: "
       "for (i = 0; i + 64 <= len; i += 64 * VL) for (b = 0; b < VL; ++b) block(ctr + i/64 + b).",
       "1", "riscv64-rvv"},
      {"cutoffs.short_max_bytes", "integer", "bytes", "64*(4*k) - 64 for k = 1 or 2: 192 or 448",
       "Messages of at most this length take the one-pass short kernel (k zmm of 4 blocks: "
       "block 0 is the one-time key, the rest keystream); longer ones the fused bulk kernel.",
       "192", "x86_64-avx512"},
  };
  return keys;
}

namespace {

// What a TOML value is, for messages ("an integer", "an array", ...).
std::string type_name(const toml::node &n) {
  switch (n.type()) {
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a float";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::date: return "a date";
    case toml::node_type::time: return "a time";
    case toml::node_type::date_time: return "a date-time";
    default: return "a value";
  }
}

struct Reader {
  std::string file;
  toml::table root;

  [[noreturn]] void fail(const toml::source_region &r, const std::string &msg) const {
    throw SpecError(file, r.begin.line ? static_cast<int>(r.begin.line) : 1,
                    r.begin.column ? static_cast<int>(r.begin.column) : 1, msg);
  }

  const toml::node &need(const std::string &dotted) const {
    auto view = root.at_path(dotted);
    if (!view) {
      // Point at the table that should hold it, or at the top of the file.
      auto dot = dotted.rfind('.');
      if (dot != std::string::npos) {
        auto parent = root.at_path(dotted.substr(0, dot));
        if (parent) fail(parent.node()->source(), fmt::format("missing key '{}'", dotted));
      }
      throw SpecError(file, 1, 1, fmt::format("missing key '{}'", dotted));
    }
    return *view.node();
  }

  int64_t integer(const std::string &k) const {
    const auto &n = need(k);
    if (!n.is_integer()) fail(n.source(), fmt::format("'{}' must be an integer", k));
    return n.as_integer()->get();
  }
  std::string string(const std::string &k) const {
    const auto &n = need(k);
    if (!n.is_string()) fail(n.source(), fmt::format("'{}' must be a string", k));
    return n.as_string()->get();
  }
  std::vector<std::string> strings(const std::string &k) const {
    const auto &n = need(k);
    if (!n.is_array()) fail(n.source(), fmt::format("'{}' must be an array of strings", k));
    std::vector<std::string> out;
    for (const auto &e : *n.as_array()) {
      if (!e.is_string()) fail(e.source(), fmt::format("'{}' must be an array of strings", k));
      out.push_back(e.as_string()->get());
    }
    return out;
  }
  std::vector<int64_t> integers(const std::string &k) const {
    const auto &n = need(k);
    if (!n.is_array()) fail(n.source(), fmt::format("'{}' must be an array of integers", k));
    std::vector<int64_t> out;
    for (const auto &e : *n.as_array()) {
      if (!e.is_integer()) fail(e.source(), fmt::format("'{}' must be an array of integers", k));
      out.push_back(e.as_integer()->get());
    }
    return out;
  }
  const toml::source_region &where(const std::string &k) const { return need(k).source(); }

  // Every key in the file must be in the table (or be a table that prefixes one).
  void reject_unknown(const toml::table &t, const std::string &prefix) const {
    for (const auto &[key, value] : t) {
      std::string dotted = prefix.empty() ? std::string(key.str()) : prefix + "." + std::string(key.str());
      bool known = false, is_table_prefix = false;
      for (const auto &sk : spec_keys()) {
        std::string p = sk.path;
        if (p == dotted) known = true;
        if (p.rfind(dotted + ".", 0) == 0) is_table_prefix = true;
      }
      if (is_table_prefix && value.is_table()) {
        reject_unknown(*value.as_table(), dotted);
      } else if (is_table_prefix) {
        fail(value.source().begin.line ? value.source() : key.source(),
             fmt::format("'{}' must be a table ([{}]), not {}", dotted, dotted, type_name(value)));
      } else if (!known) {
        fail(key.source(), fmt::format("unknown key '{}' (see docs/spec.md for the keys of format v1)", dotted));
      } else if (is_table_prefix || (known && value.is_table())) {
        fail(key.source(), fmt::format("'{}' must be a value, not a table", dotted));
      }
    }
  }
};

// The whole spec file, refusing what is not a regular file of at most kMaxSpecBytes: opened with
// O_NONBLOCK so that a FIFO does not hang the open, then checked with fstat before any read (a
// device such as /dev/zero would otherwise be read until memory runs out).
constexpr off_t kMaxSpecBytes = 1 << 20;
std::string read_spec_file(const std::string &path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) throw SpecError(path, 1, 1, fmt::format("cannot open spec file: {}", std::strerror(errno)));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0)
    throw SpecError(path, 1, 1, fmt::format("cannot stat spec file: {}", std::strerror(errno)));
  if (S_ISDIR(st.st_mode)) throw SpecError(path, 1, 1, "is a directory, not a spec file");
  if (!S_ISREG(st.st_mode))
    throw SpecError(path, 1, 1, "is not a regular file (a device, FIFO or socket); a spec is a TOML file");
  if (st.st_size > kMaxSpecBytes)
    throw SpecError(path, 1, 1, fmt::format("spec file is {} bytes; the limit is {} bytes (1 MiB)",
                                            static_cast<long long>(st.st_size), static_cast<long long>(kMaxSpecBytes)));
  std::string text;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw SpecError(path, 1, 1, fmt::format("cannot read spec file: {}", std::strerror(errno)));
    if (n == 0) break;
    text.append(buf, static_cast<size_t>(n));
    // The file may grow between fstat and read: the limit holds for what is read too.
    if (text.size() > static_cast<size_t>(kMaxSpecBytes))
      throw SpecError(path, 1, 1, "spec file is larger than the limit of 1 MiB");
  }
  return text;
}

// toml++ builds a dotted key (a.b.c... = 1, [a.b.c...]) one nested table per part, recursively
// and without a limit: some 50 000 parts, well under the 1 MiB size limit, overflow the stack.
// Spec keys have two parts at most, and outside strings and comments a '.' occurs only in keys
// and in float or time values, so a line with more than kMaxDots of them is refused before
// parsing, at the first dot over the limit. The scan skips "...", '...', """...""", '''...'''
// strings and # comments; a malformed file it misreads is still refused by the parser.
constexpr int kMaxDots = 16;
void check_key_depth(const std::string &text, const std::string &path) {
  int line = 1, col = 0, dots = 0;
  size_t i = 0;
  auto starts = [&](const char *tok) { return text.compare(i, std::strlen(tok), tok) == 0; };
  // Skips the rest of a string opened by `quote` (one or three characters), counting lines.
  auto skip_string = [&](char quote, bool multi) {
    while (i < text.size()) {
      char c = text[i];
      if (c == '\n') {
        if (!multi) return;  // an unterminated one-line string: the parser reports it
        ++line, col = 0, ++i;
      } else if (c == '\\' && quote == '"') {  // an escape; "\<newline>" continues the line
        bool nl = i + 1 < text.size() && text[i + 1] == '\n';
        i += 2;
        nl ? (++line, col = 0) : (col += 2);
      } else if (c == quote && (!multi || (i + 2 < text.size() && text[i + 1] == quote &&
                                           text[i + 2] == quote))) {
        i += multi ? 3 : 1, col += multi ? 3 : 1;
        return;
      } else {
        ++i, ++col;
      }
    }
  };
  while (i < text.size()) {
    char c = text[i];
    if (c == '\n') { ++line; col = 0; dots = 0; ++i; continue; }
    if (c == '#') { while (i < text.size() && text[i] != '\n') ++i; continue; }
    if (starts("\"\"\"") || starts("\'\'\'")) { i += 3; col += 3; skip_string(c, true); continue; }
    if (c == '"' || c == '\'') { ++i; ++col; skip_string(c, false); continue; }
    ++col;
    if (c == '.' && ++dots > kMaxDots)
      throw SpecError(path, line, col,
                      fmt::format("more than {} '.' outside strings on one line: a spec key has "
                                  "at most two parts (table.key)", kMaxDots));
    ++i;
  }
}

bool valid_name(const std::string &s) {
  if (s.empty() || s.size() > 48) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

}  // namespace

Spec load_spec(const std::string &path) {
  std::string text = read_spec_file(path);
  Spec s;
  s.path = path;
  s.text = std::move(text);

  check_key_depth(s.text, path);
  Reader r{path, {}};
  try {
    r.root = toml::parse(s.text, path);
  } catch (const toml::parse_error &e) {
    throw SpecError(path, static_cast<int>(e.source().begin.line),
                    static_cast<int>(e.source().begin.column),
                    fmt::format("TOML syntax error: {}", e.description()));
  }
  r.reject_unknown(r.root, "");
  // The target decides which keys the spec must have (SpecKey::targets): read it first.
  s.isa = r.string("target.isa");
  if (s.isa != "x86_64-avx512" && s.isa != "x86_64-avx2" && s.isa != "scalar" && s.isa != "riscv64" &&
      s.isa != "riscv64-rvv")
    r.fail(r.where("target.isa"),
           fmt::format("'target.isa' = \"{}\" is not supported; allowed: \"x86_64-avx512\", "
                       "\"x86_64-avx2\", \"scalar\", \"riscv64\", \"riscv64-rvv\"", s.isa));
  for (const auto &k : spec_keys()) {
    bool applies = std::string(k.targets) == "all";
    std::istringstream ts(k.targets);
    for (std::string t; ts >> t;) applies |= (t == s.isa);
    if (applies) {
      (void)r.need(k.path);
      s.line_of[k.path] = static_cast<int>(r.where(k.path).begin.line);
    } else if (auto v = r.root.at_path(k.path)) {
      r.fail(v.node()->source(), fmt::format("'{}' is a key of target.isa {}; it does not "
                                             "apply to \"{}\"", k.path, k.targets, s.isa));
    }
  }
  const bool avx512 = s.isa == "x86_64-avx512";
  const bool avx2 = s.isa == "x86_64-avx2";
  const bool rvv = s.isa == "riscv64-rvv";

  auto check = [&](bool ok, const std::string &key, const std::string &msg) {
    if (!ok) r.fail(r.where(key), msg);
  };
  auto pick = [&](const std::string &key, auto... allowed) {
    auto v = r.integer(key);
    bool ok = ((v == allowed) || ...);
    std::string list;
    ((list += (list.empty() ? "" : ", ") + std::to_string(allowed)), ...);
    check(ok, key, fmt::format("'{}' = {} is not supported; allowed: {}", key, v, list));
    return static_cast<int>(v);
  };

  s.version = pick("version", 1);
  s.name = r.string("name");
  check(valid_name(s.name), "name", "'name' must be 1-48 characters of [a-z0-9_]");
  s.rationale = r.string("rationale");
  // The rationale is copied into comments of the emitted code: a carriage return or another
  // control character would end the comment and turn the rest of the line into code.
  for (char ch : s.rationale) {
    auto u = static_cast<unsigned char>(ch);
    check(u >= 0x20 || ch == '\n' || ch == '\t', "rationale",
          fmt::format("'rationale' contains control character 0x{:02x}; only newlines and tabs are allowed", u));
  }

  s.features = r.strings("target.features");
  check(avx512 || avx2 || rvv || s.features.empty(), "target.features",
        fmt::format("'target.features' must be empty for target.isa = \"{}\" (the kernels use no CPU feature)", s.isa));
  const std::vector<const char *> needed =
      avx512 ? std::vector<const char *>{"avx512f", "avx512vl", "avx512bw", "avx512ifma", "bmi2"}
             : avx2 ? std::vector<const char *>{"avx2", "bmi2"}
             : rvv  ? std::vector<const char *>{"v"} : std::vector<const char *>{};
  for (const char *need : needed) {
    bool have = false;
    for (const auto &f : s.features) have |= (f == need);
    check(have, "target.features",
          fmt::format("'target.features' lacks \"{}\", which the {} kernels use", need, s.isa));
  }
  for (const auto &f : s.features) {
    static const std::set<std::string> known = {"avx512f", "avx512vl", "avx512bw", "avx512ifma",
                                                "avx512vbmi", "avx2", "bmi2", "v"};
    check(known.count(f) != 0, "target.features", fmt::format("unknown CPU feature \"{}\"", f));
  }

  if (avx512) {
    s.bulk_blocks = pick("chacha20.bulk_blocks", 8, 16);
    s.short_blocks_per_vector = pick("chacha20.short_blocks_per_vector", 4);
    s.rotate = r.string("chacha20.rotate");
    check(s.rotate == "vprold" || s.rotate == "vpshufb", "chacha20.rotate",
          fmt::format("'chacha20.rotate' = \"{}\" is not supported; allowed: \"vprold\", \"vpshufb\"", s.rotate));
  } else if (avx2) {
    s.bulk_blocks = pick("chacha20.bulk_blocks", 8);
    s.interleave = pick("schedule.interleave", 0, 1, 2, 3, 4);
  } else if (rvv) {
    s.lmul = pick("chacha20.lmul", 1, 2);
    s.interleave = pick("schedule.interleave", 0, 1);
  } else {
    s.gpr_blocks = pick("chacha20.gpr_blocks", 1, 2);
  }

  // Representation: first the rules any radix must obey, then what the ifma52 templates do.
  auto radix = r.integer("poly1305.radix_bits");
  check(radix >= 1 && radix <= 64, "poly1305.radix_bits", "'poly1305.radix_bits' must be in 1..64");
  auto limbs = r.integer("poly1305.limbs");
  check(limbs >= 1 && limbs <= 8, "poly1305.limbs", "'poly1305.limbs' must be in 1..8");
  check(limbs * radix >= 130, "poly1305.limbs",
        fmt::format("impossible representation: limbs * radix_bits = {} * {} = {} < 130 bits",
                    limbs, radix, limbs * radix));
  check((limbs - 1) * radix < 130, "poly1305.limbs",
        fmt::format("impossible representation: the limbs below the top one already hold "
                    "(limbs - 1) * radix_bits = {} * {} = {} >= 130 bits, leaving the top limb none",
                    limbs - 1, radix, (limbs - 1) * radix));
  auto lb = r.integers("poly1305.limb_bits");
  check(static_cast<int64_t>(lb.size()) == limbs, "poly1305.limb_bits",
        fmt::format("'poly1305.limb_bits' has {} entries but 'poly1305.limbs' = {}", lb.size(), limbs));
  int64_t total = 0;
  for (size_t i = 0; i < lb.size(); ++i) {
    bool top = (i + 1 == lb.size());
    int64_t want = top ? 130 - radix * (limbs - 1) : radix;
    check(lb[i] == want, "poly1305.limb_bits",
          fmt::format("limb {} must be {} bits wide (radix {}, {} limbs tiling 2^130), not {}", i,
                      want, radix, limbs, lb[i]));
    total += lb[i];
    s.limb_bits.push_back(static_cast<int>(lb[i]));
  }
  (void)total;
  s.multiplier = r.string("poly1305.multiplier");
  const char *want_mul = avx512 ? "ifma52" : "mul64";
  check(s.multiplier == want_mul, "poly1305.multiplier",
        fmt::format("'poly1305.multiplier' = \"{}\" is not supported on {}; allowed: \"{}\"",
                    s.multiplier, s.isa, want_mul));
  if (avx512)
    check(radix == 44 && limbs == 3, "poly1305.radix_bits",
          fmt::format("the ifma52 kernel builder implements radix 2^44 with 3 limbs, not radix 2^{} with {}",
                      radix, limbs));
  else
    check(radix == 64 && limbs == 3, "poly1305.radix_bits",
          fmt::format("the mul64 representation is radix 2^64 with 3 limbs (64/64/2), not radix 2^{} "
                      "with {}", radix, limbs));
  s.radix_bits = static_cast<int>(radix);
  s.limbs = static_cast<int>(limbs);

  if (!avx512) return s;  // the remaining keys belong to the x86_64-avx512 target

  auto lanes = r.integer("poly1305.lanes");
  check(lanes > 0 && (lanes & (lanes - 1)) == 0, "poly1305.lanes",
        fmt::format("'poly1305.lanes' = {} is not a power of two", lanes));
  s.lanes = pick("poly1305.lanes", 4, 8);

  for (const auto &c : r.strings("poly1305.carry_chain")) {
    int from = -1, to = -1;
    char sep = 0;
    std::istringstream cs(c);
    cs >> from >> sep >> to;
    bool ok = cs && sep == '>' && cs.peek() == EOF && from >= 0 && from < limbs && to >= 0 && to < limbs;
    check(ok, "poly1305.carry_chain",
          fmt::format("carry \"{}\" must be \"i>j\" with limbs i, j in 0..{}", c, limbs - 1));
    bool legal = (to == from + 1) || (from == limbs - 1 && to == 0);
    check(legal, "poly1305.carry_chain",
          fmt::format("carry \"{}\": a limb carries into the next one, or the top limb into limb 0", c));
    s.carry_chain.push_back({from, to});
  }
  check(!s.carry_chain.empty(), "poly1305.carry_chain", "'poly1305.carry_chain' is empty");

  s.interleave = pick("schedule.interleave", 0, 1, 2);
  s.short_max_bytes = pick("cutoffs.short_max_bytes", 192, 448);
  return s;
}

}  // namespace chapoly::gen
