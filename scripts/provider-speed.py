#!/usr/bin/env python3
"""provider-speed.py: `openssl speed -evp chacha20-poly1305` through the chapoly provider against
OpenSSL's default provider, encrypt and -decrypt, the two interleaved, median of three, pinned to
one core (taskset), and the table with the speed-ups written into docs/benchmarks.md between the
markers of the section `scenario` names.

Usage: scripts/provider-speed.py [--build build] [--cpu N] [--seconds 1] [--reps 3]
                                 [--scenario native|avx2|noifma] [--no-write]
  native: chapoly's automatic backend vs the default provider as it is on this CPU (written to
          the section `native`, or `native-<backend>` where the automatic backend is not avx512).
  noifma: chapoly's automatic backend vs the default provider with AVX512IFMA cleared
          (OPENSSL_ia32cap=":~0x200000", the default provider's run only): how the reference
          fused design measured itself (against the same OpenSSL with IFMA cleared).
  avx2:   the "AVX2 CPU" target: CHAPOLY_BACKEND=avx2, and OPENSSL_ia32cap=":~0xC0230000"
          (AVX-512 F/DQ/IFMA/BW/VL cleared, docs/benchmarks.md) for both runs.
Every program runs from an argument vector (subprocess, no shell). Exit status 0, 1 on a failed
run, 2 on usage errors.
"""
import argparse
import os
import platform
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZES = [16, 64, 256, 1024, 8192, 16384]
AVX2_MASK = ":~0xC0230000"
NOIFMA_MASK = ":~0x200000"  # CPUID.(EAX=7,ECX=0):EBX[21], AVX512IFMA


def cpu_name():
    """The model name with its family and model numbers (a VM's "AMD EPYC" alone names no core)."""
    info = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if ":" in line:
                    k, v = (x.strip() for x in line.split(":", 1))
                    info.setdefault(k, v)
    except OSError:
        pass
    name = info.get("model name") or platform.processor() or "unknown CPU"
    if "cpu family" in info and "model" in info:
        name += f" (family {info['cpu family']}, model {info['model']})"
    return name


def automatic_backend(build):
    """The backend libchapoly picks on this CPU, from `chapoly info` ("backend:  avx2 (chosen by CPU)")."""
    tool = os.path.join(build, "runtime", "tools", "chapoly")
    try:
        p = subprocess.run([tool, "info"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, timeout=60)
    except OSError:
        return None
    m = re.search(r"^backend:\s+(\S+)", p.stdout, re.M)
    return m.group(1) if m else None


def run_speed(openssl, cpu, seconds, provider_dir, decrypt, env):
    argv = ["taskset", "-c", str(cpu), openssl, "speed", "-mr", "-seconds", str(seconds)]
    if provider_dir:
        argv += ["-provider-path", provider_dir, "-provider", "chapoly", "-provider", "default",
                 "-propquery", "provider=chapoly"]
    argv += ["-evp", "chacha20-poly1305"]
    if decrypt:
        argv.append("-decrypt")
    p = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
    if p.returncode != 0:
        sys.exit(f"provider-speed: {' '.join(argv)} failed ({p.returncode}):\n{p.stderr}")
    for line in p.stdout.splitlines():  # +F:<n>:<name>:<bytes/s for each size>
        m = re.match(r"^\+F:\d+:([^:]+):(.*)$", line)
        if m and "chacha20-poly1305" in m.group(1).lower():
            vals = [float(x) for x in m.group(2).split(":") if x]
            return [v / 1e6 for v in vals[:len(SIZES)]]  # MB/s
    sys.exit(f"provider-speed: no ChaCha20-Poly1305 row in the output of {' '.join(argv)}:\n{p.stdout}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--cpu", type=int, default=None, help="core to pin to (default: the last one allowed)")
    ap.add_argument("--seconds", type=int, default=1)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--scenario", choices=["native", "avx2", "noifma"], default="native")
    ap.add_argument("--openssl", default="openssl")
    ap.add_argument("--no-write", action="store_true", help="print the table only")
    a = ap.parse_args()
    build = a.build if os.path.isabs(a.build) else os.path.join(ROOT, a.build)
    prov = os.path.join(build, "runtime", "provider")
    if not os.path.exists(os.path.join(prov, "chapoly.so")):
        print(f"provider-speed: {prov}/chapoly.so not built", file=sys.stderr)
        return 2
    cpu = a.cpu if a.cpu is not None else max(os.sched_getaffinity(0))
    base = {k: v for k, v in os.environ.items() if k not in ("OPENSSL_CONF", "CHAPOLY_BACKEND", "OPENSSL_ia32cap")}
    env_chapoly, env_default = dict(base), dict(base)
    if a.scenario == "avx2":
        env_chapoly["CHAPOLY_BACKEND"] = "avx2"
        env_chapoly["OPENSSL_ia32cap"] = AVX2_MASK
        env_default["OPENSSL_ia32cap"] = AVX2_MASK
    if a.scenario == "noifma":
        env_default["OPENSSL_ia32cap"] = NOIFMA_MASK

    res = {}  # (who, direction) -> list of runs
    for rep in range(a.reps):
        for direction in ("encrypt", "decrypt"):
            for who in ("chapoly", "default"):  # interleaved: each pair back to back
                r = run_speed(a.openssl, cpu, a.seconds, prov if who == "chapoly" else None,
                              direction == "decrypt", env_chapoly if who == "chapoly" else env_default)
                res.setdefault((who, direction), []).append(r)
                print(f"rep {rep + 1} {direction:7} {who:7}: " + " ".join(f"{x:9.1f}" for x in r), file=sys.stderr)

    med = {k: [statistics.median(run[i] for run in v) for i in range(len(SIZES))] for k, v in res.items()}
    ver = subprocess.run([a.openssl, "version"], stdout=subprocess.PIPE, text=True).stdout.strip()
    auto = automatic_backend(build) if a.scenario != "avx2" else "avx2"
    label = {"native": f"chapoly's automatic backend ({auto or 'unknown'} on this CPU) vs the default provider",
             "avx2": "\"AVX2 CPU\": CHAPOLY_BACKEND=avx2 vs the default provider, both with "
                     f"OPENSSL_ia32cap=\"{AVX2_MASK}\" (AVX-512 cleared)",
             "noifma": "chapoly's automatic backend vs the default provider with "
                       f"OPENSSL_ia32cap=\"{NOIFMA_MASK}\" (its AVX512IFMA Poly1305 cleared, its AVX-512 ChaCha20 kept)"}[a.scenario]
    lines = [f"{label}. {cpu_name()}, {ver}, `openssl speed -evp chacha20-poly1305 -seconds {a.seconds}`, "
             f"pinned to core {cpu} (taskset), median of {a.reps} interleaved runs, MB/s (10^6 bytes/s):", ""]
    lines.append("| bytes | chapoly encrypt | default encrypt | speed-up | chapoly decrypt | default decrypt | speed-up |")
    lines.append("|---:|---:|---:|---:|---:|---:|---:|")
    for i, n in enumerate(SIZES):
        ce, de = med[("chapoly", "encrypt")][i], med[("default", "encrypt")][i]
        cd, dd = med[("chapoly", "decrypt")][i], med[("default", "decrypt")][i]
        lines.append(f"| {n} | {ce:.1f} | {de:.1f} | {ce / de:.2f}x | {cd:.1f} | {dd:.1f} | {cd / dd:.2f}x |")
    table = "\n".join(lines)
    print(table)
    if a.no_write:
        return 0
    doc = os.path.join(ROOT, "docs", "benchmarks.md")
    # The native table of a CPU whose automatic backend is not avx512 (a CPU without AVX-512) has
    # its own section, so that one CPU's run does not replace the other's.
    section = a.scenario if a.scenario != "native" or auto == "avx512" else f"native-{auto}"
    begin, end = f"<!-- provider-speed:{section}:begin -->", f"<!-- provider-speed:{section}:end -->"
    with open(doc) as f:
        text = f.read()
    block = f"{begin}\n{table}\n{end}"
    if begin in text and end in text:
        text = text[:text.index(begin)] + block + text[text.index(end) + len(end):]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    with open(doc, "w") as f:
        f.write(text)
    print(f"provider-speed: wrote the {section} table into docs/benchmarks.md", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
