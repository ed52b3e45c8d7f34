#!/bin/bash
# record_demo_times.sh [XCOS_REF_DIR [DEMO...]]
# Records Scilab 6.1.1's scicos_simulate time for every demo of
# scilab_demo_times.txt (beside this script) again, on this machine, so that
# bench/xcos compares with Scilab as measured where blocksim is measured:
# each demo of the acceptance suites (tests/data/xcos/demos/NAME/
# NAME.orig.zcos, Scilab's own file; tests/data/acausal/demos/NAME/
# NAME.xcos.gz, unpacked) is run twice by the project's Scilab reference
# tool (default ../shared/xcos_ref beside the repository: xcos_ref.sh, which
# times scicos_simulate with tic/toc) and the faster simulate_wall_s
# replaces the demo's figure in scilab_demo_times.txt (only the DEMOs named,
# when some are); a demo Scilab cannot run keeps its old figure, and the
# goal column is kept. Needs scilab,
# xvfb-run, gcc, scilab-include and bc (docs/xcos.md). Keep the machine
# otherwise idle while it runs: it measures wall-clock time.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
REF=${1:-$ROOT/../shared/xcos_ref}
shift $(($# > 0 ? 1 : 0))
DEMOS="$*"
DATA="$HERE/scilab_demo_times.txt"
[ -x "$REF/xcos_ref.sh" ] || { echo "no $REF/xcos_ref.sh" >&2; exit 2; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/demo_times.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
cp -r "$REF" "$TMP/ref" && chmod -R u+w "$TMP/ref" # it builds into its folder
: > "$TMP/new"
for d in "$ROOT"/tests/data/xcos/demos/*/ "$ROOT"/tests/data/acausal/demos/*/; do
    n=$(basename "$d")
    [ -z "$DEMOS" ] || [[ " $DEMOS " == *" $n "* ]] || continue
    if [ -f "$d/$n.orig.zcos" ]; then
        f="$d/$n.orig.zcos"
    elif [ -f "$d/$n.xcos.gz" ]; then
        gunzip -c "$d/$n.xcos.gz" > "$TMP/$n.xcos" || exit 2
        f="$TMP/$n.xcos"
    else
        continue
    fi
    best=""
    for _ in 1 2; do
        XREF_TIMEOUT=300 "$TMP/ref/xcos_ref.sh" "$f" "$TMP/out" > /dev/null 2>&1
        v=$(grep -m1 '^simulate_wall_s:' "$TMP/out/meta.txt" | sed 's/.*: //')
        [ -n "$v" ] || continue
        if [ -z "$best" ] || [ "$(echo "$v < $best" | bc)" = 1 ]; then best=$v; fi
    done
    echo "record_demo_times: $n ${best:-(Scilab did not run it)}" >&2
    [ -n "$best" ] && echo "$n $best" >> "$TMP/new"
done
# the data file with each recorded demo's figure replaced
awk 'NR == FNR { t[$1] = $2; next }
     /^#/ || NF == 0 { print; next }
     { if ($1 in t) $2 = t[$1]; print }' "$TMP/new" "$DATA" > "$TMP/data" &&
    mv "$TMP/data" "$DATA"
