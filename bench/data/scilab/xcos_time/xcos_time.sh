#!/bin/bash
# xcos_time.sh DIAGRAM OUTDIR [TF]
# A copy of the project's shared/xcos_ref/xcos_ref.sh that runs
# xcos_time.sce: meta.txt then also holds cpu_/wall_ eval, pass1, pass2 and
# simulate, each the fastest of XTIME_REPEATS (3) runs. The recorder is
# built in OUTDIR/.build, not here.
# Runs an Xcos diagram with Scilab's own simulator (scicos_simulate, headless)
# and writes OUTDIR/<scope>.csv (one per sink/scope block) and OUTDIR/meta.txt.
# Env: XREF_TIMEOUT        seconds for the whole Scilab run (default 0 = no limit)
#      XREF_KEEP_REALTIME  1 = keep the diagram's real-time scaling (default: off)
#      SCILAB              scilab launcher (default: scilab)
set -u
if [ $# -lt 2 ]; then
    echo "usage: $0 DIAGRAM OUTDIR [TF]" >&2
    exit 2
fi
HERE=$(cd "$(dirname "$0")" && pwd)
DIAG=$(readlink -f "$1")
OUT=$2
TF=${3:-}
TIMEOUT=${XREF_TIMEOUT:-0}
SCILAB=${SCILAB:-scilab}

if [ ! -f "$DIAG" ]; then
    echo "xcos_time: no such diagram: $1" >&2
    exit 2
fi
mkdir -p "$OUT" || exit 2
OUT=$(cd "$OUT" && pwd)
rm -f "$OUT"/*.csv "$OUT"/meta.txt "$OUT"/scilab.log "$OUT"/.xref_done; rm -rf "$OUT"/.xref

# build the recorder block (C, Scicos type 4) once
LIB="$OUT/.build/libxref_rec.so"
if [ ! -f "$LIB" ] || [ "$HERE/xref_rec.c" -nt "$LIB" ]; then
    mkdir -p "$OUT/.build"
    if ! gcc -shared -fPIC -O2 -I/usr/include/scilab "$HERE/xref_rec.c" \
        -L/usr/lib/scilab -lsciscicos -Wl,-rpath,/usr/lib/scilab \
        -o "$LIB.tmp.$$" || ! mv -f "$LIB.tmp.$$" "$LIB"; then
        echo "xcos_time: cannot build $LIB (need gcc and scilab-include)" >&2
        printf 'diagram: %s\nstatus: error\nerror: cannot build recorder library\n' "$DIAG" > "$OUT/meta.txt"
        exit 3
    fi
fi

export XREF_DIAGRAM="$DIAG" XREF_OUTDIR="$OUT" XREF_TF="$TF" XREF_LIB="$LIB" XREF_HOME="$HERE"
export LC_NUMERIC=C
# private temporary directory (Scilab's TMPDIR, Modelica/C builds, Java temp
# files), removed afterwards: Scilab is often killed and cannot clean up
RUNTMP=$(mktemp -d "${TMPDIR:-/tmp}/xcos_time.XXXXXX") || exit 2
export TMPDIR="$RUNTMP"
export JAVA_TOOL_OPTIONS="-Djava.io.tmpdir=$RUNTMP${JAVA_TOOL_OPTIONS:+ $JAVA_TOOL_OPTIONS}"

# own session/process group, so that scilab-bin, its JVM and Xvfb can all be
# stopped together
start=$(date +%s.%N)
setsid xvfb-run -a "$SCILAB" -nw -quit -f "$HERE/xcos_time.sce" > "$OUT/scilab.log" 2>&1 < /dev/null &
pg=$!
timed_out=0
killed_after_done=0
done_since=""
while kill -0 "$pg" 2>/dev/null; do
    now=$(date +%s)
    if [ -f "$OUT/.xref_done" ]; then
        # results are complete; give Scilab 5 s to exit by itself
        [ -z "$done_since" ] && done_since=$now
        if [ $((now - done_since)) -ge 5 ]; then
            killed_after_done=1
            kill -TERM -- "-$pg" 2>/dev/null; sleep 1; kill -KILL -- "-$pg" 2>/dev/null
            break
        fi
    elif [ "$TIMEOUT" != "0" ] && [ "$(echo "$(date +%s.%N) - $start > $TIMEOUT" | bc)" = 1 ]; then
        timed_out=1
        kill -TERM -- "-$pg" 2>/dev/null; sleep 2; kill -KILL -- "-$pg" 2>/dev/null
        break
    fi
    sleep 0.2
done
wait "$pg" 2>/dev/null
rc=$?
end=$(date +%s.%N)
total=$(echo "$end - $start" | bc)

if [ $timed_out -eq 1 ]; then
    printf 'status: timeout\nerror: killed after %s s (XREF_TIMEOUT), before the simulation finished\n' "$TIMEOUT" >> "$OUT/meta.txt"
elif [ ! -f "$OUT/meta.txt" ]; then
    printf 'diagram: %s\nstatus: error\nerror: scilab exited with code %d before writing meta.txt (see scilab.log)\n' "$DIAG" "$rc" > "$OUT/meta.txt"
elif [ ! -f "$OUT/.xref_done" ]; then
    reason=$(grep -a -m1 -E 'double free|corrupt|Segmentation|SIGSEGV|Abort' "$OUT/scilab.log" | cut -c1-200)
    printf 'status: error\nerror: scilab died (exit code %d) before finishing: %s\n' "$rc" "${reason:-see scilab.log}" >> "$OUT/meta.txt"
fi
# effective solver: scicos_simulate switches solver for implicit/explicit diagrams
sol=$(grep -m1 '^solver:' "$OUT/meta.txt" | sed 's/^solver: //')
if grep -q 'switching to implicit solver' "$OUT/scilab.log"; then
    echo "solver_effective: 100 (switched to implicit by scicos_simulate)" >> "$OUT/meta.txt"
elif grep -q 'switching to explicit solver' "$OUT/scilab.log"; then
    echo "solver_effective: 0 (switched to explicit by scicos_simulate)" >> "$OUT/meta.txt"
elif [ -n "$sol" ]; then
    echo "solver_effective: $sol" >> "$OUT/meta.txt"
fi
echo "scilab_process_wall_s: $total" >> "$OUT/meta.txt"
if [ $killed_after_done -eq 1 ]; then
    echo "scilab_exit: killed after results were complete (Scilab hung on exit)" >> "$OUT/meta.txt"
else
    echo "scilab_exit: code $rc" >> "$OUT/meta.txt"
fi
rm -f "$OUT/.xref_done"
rm -rf "$RUNTMP"
st=$(grep '^status:' "$OUT/meta.txt" | tail -1 | sed 's/^status: //')
echo "xcos_time: $(basename "$DIAG") -> $OUT  status=$st"
[ "$st" = "ok" ] && exit 0 || exit 1
