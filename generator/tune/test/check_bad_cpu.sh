#!/bin/sh
# tune.bad_cpu: `--cpu` names a CPU of the process's affinity mask or the run stops at once:
# exit 2, a message naming the CPUs it may use, nothing written to --out-dir (stop 35 review:
# --cpu 999 warned and went on, and --cpu -1 was reported as "pinned to CPU 0").
# Usage: check_bad_cpu.sh CHAPOLY_TUNE WORK_DIR
set -u
tune=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
status=0
for cpu in 1023 99999 -1; do
  "$tune" --target scalar --out-dir "$work/out" --cpu "$cpu" --budget 1 > "$work/out.txt" 2> "$work/err.txt"
  rc=$?
  if [ "$rc" -ne 2 ]; then echo "FAIL --cpu $cpu: exit $rc, want 2"; cat "$work/err.txt"; status=1; fi
  if [ "$cpu" = 1023 ] && ! grep -q "not a CPU this process may run on (allowed: " "$work/err.txt"; then
    echo "FAIL --cpu $cpu: no clear message:"; cat "$work/err.txt"; status=1
  fi
  if [ -e "$work/out" ]; then echo "FAIL --cpu $cpu: --out-dir was written"; status=1; rm -rf "$work/out"; fi
done
[ $status -eq 0 ] && echo "ok   --cpu outside the affinity mask refused"
exit $status
