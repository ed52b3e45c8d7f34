#!/bin/bash
# Makes the tight references of the acceptance suite: Scilab's records of a
# demo run at tolerances tighter than the ones the demo stores, so that
# blocksim can be compared with Scilab where the demo's own tolerances leave
# Scilab's integration error larger than the suite's criteria (docs/xcos.md,
# "Scilab's demos"). The demo's .xcos (exported by Scilab 6.1.1, as in
# <demo>/<demo>.xcos.gz) gets its integratorRelativeTolerance and
# integratorAbsoluteTolerance replaced, nothing else; Scilab's own simulator
# runs it through ../shared/xcos_ref/xcos_ref.sh (to TF when given) and each
# sink's record goes, thinned as import_demos.py thins records, to
# <demo>/<DIR>/<sink>.csv.gz, with the settings in <demo>/<DIR>/settings.
# Scilab names an unlabelled sink by its place in the file it ran, so a
# record here may be named otherwise than the demo's own (susp: CSCOPE_32
# here is CSCOPE_33 there); tests/unit/xcos_demos.c names each.
# Run from this folder: ./make_tight.sh DEMO DIR RTOL ATOL [TF]
# (XCOS_REF: path of xcos_ref.sh, default /work/shared/xcos_ref/xcos_ref.sh)
set -eu
demo=$1 dir=$2 rtol=$3 atol=$4 tf=${5:-}
ref=${XCOS_REF:-/work/shared/xcos_ref/xcos_ref.sh}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
zcat "$demo/$demo.xcos.gz" |
  sed -E "0,/<XcosDiagram /s/(<XcosDiagram [^>]*integratorAbsoluteTolerance=\")[^\"]*/\1$atol/; \
          0,/<XcosDiagram /s/(<XcosDiagram [^>]*integratorRelativeTolerance=\")[^\"]*/\1$rtol/" \
    > "$work/$demo.xcos"
grep -q "integratorRelativeTolerance=\"$rtol\"" "$work/$demo.xcos"
grep -q "integratorAbsoluteTolerance=\"$atol\"" "$work/$demo.xcos"
XREF_TIMEOUT=${XREF_TIMEOUT:-600} "$ref" "$work/$demo.xcos" "$work/out" $tf
mkdir -p "$demo/$dir"
rm -f "$demo/$dir"/*.csv.gz
here=$(cd "$(dirname "$0")" && pwd)
for f in "$work"/out/*.csv; do
  python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import import_demos
import_demos.write_record(open(sys.argv[2]).read(), sys.argv[3])' \
    "$here" "$f" "$demo/$dir/$(basename "$f").gz"
done
{
  echo "Scilab 6.1.1 scicos_simulate (xcos_ref.sh) on $demo.xcos.gz with"
  echo "rtol $rtol"
  echo "atol $atol"
  [ -n "$tf" ] && echo "tf $tf"
  grep -E '^(status|tol|solver_effective|rows_total|simulate_wall_s):' "$work/out/meta.txt"
} > "$demo/$dir/settings"
cat "$demo/$dir/settings"
