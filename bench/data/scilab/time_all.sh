#!/bin/bash
# time_all.sh OUT.csv [DIAGRAM...]
# Records Scilab 6.1.1's times for bench/scilab: the four diagrams of issue
# 12 (this folder), every demo of the Xcos acceptance suite
# (tests/data/xcos/demos/*/NAME.orig.zcos, Scilab's own files) and of the
# acausal one (tests/data/acausal/demos/*/NAME.xcos.gz, unpacked), or only
# the DIAGRAMs given (.xcos, .zcos or .xcos.gz), each run by
# xcos_time/xcos_time.sh (Scilab's simulator with the sinks recording, as
# the project's reference tool runs it, compilation and simulation timed
# apart). One CSV row per diagram Scilab ran:
#   name,solver,tf,cpu_eval,cpu_pass1,cpu_pass2,cpu_simulate,
#   wall_eval,wall_pass1,wall_pass2,wall_simulate
# Needs scilab, xvfb-run, gcc, scilab-include, python3, bc.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
OUT=${1:?usage: time_all.sh OUT.csv [DIAGRAM...]}
shift
TMP=$(mktemp -d "${TMPDIR:-/tmp}/time_all.XXXXXX") || exit 2
if [ $# -gt 0 ]; then
    given=("$@")
else
    given=("$HERE"/*.xcos)
    for d in "$ROOT"/tests/data/xcos/demos/*/; do
        n=$(basename "$d")
        [ -f "$d/$n.orig.zcos" ] && given+=("$d/$n.orig.zcos")
    done
    for d in "$ROOT"/tests/data/acausal/demos/*/; do
        n=$(basename "$d")
        [ -f "$d/$n.xcos.gz" ] && given+=("$d/$n.xcos.gz")
    done
fi
diagrams=()
for f in "${given[@]}"; do
    case "$f" in
    *.xcos.gz) # Scilab reads the XML itself, not gzip'ed
        n=$(basename "$f" .xcos.gz)
        gunzip -c "$f" > "$TMP/$n.xcos" || exit 2
        diagrams+=("$TMP/$n.xcos") ;;
    *) diagrams+=("$f") ;;
    esac
done
echo "name,solver,tf,cpu_eval,cpu_pass1,cpu_pass2,cpu_simulate,wall_eval,wall_pass1,wall_pass2,wall_simulate" > "$OUT.tmp"
for f in "${diagrams[@]}"; do
    n=$(basename "$f"); n=${n%.xcos}; n=${n%.orig.zcos}
    XREF_TIMEOUT=${XREF_TIMEOUT:-900} "$HERE/xcos_time/xcos_time.sh" "$f" "$TMP/$n" > /dev/null 2>&1
    m="$TMP/$n/meta.txt"
    v() { grep -m1 "^$1:" "$m" | sed "s/^$1: //"; }
    if [ "$(grep '^status:' "$m" | tail -1)" != "status: ok" ] || [ -z "$(v cpu_simulate)" ]; then
        echo "time_all: $n: $(grep '^error:' "$m" | tail -1)" >&2
        continue
    fi
    echo "$n,$(v solver_effective),$(v tf_used),$(v cpu_eval),$(v cpu_pass1),$(v cpu_pass2),$(v cpu_simulate),$(v wall_eval),$(v wall_pass1),$(v wall_pass2),$(v wall_simulate)" >> "$OUT.tmp"
    echo "time_all: $n: simulate $(v cpu_simulate) s" >&2
done
mv "$OUT.tmp" "$OUT"
rm -rf "$TMP"
