#!/bin/sh
# Remakes the Xcos reference of the type-1 test: compiles the test block
# into Scilab and builds crossings1.xcos (xcos_ref.sce), then records what
# Scilab's simulator computes (ref_crossings1/*.csv).
# Needs Scilab 6.1 and /work/shared/xcos_ref (see its README).
set -e
here=$(cd "$(dirname "$0")" && pwd)
XS_BUILD=${XS_BUILD:-/tmp/xs_blocks1_$$}
export XS_BUILD
mkdir -p "$XS_BUILD"
(cd "$here" && xvfb-run -a scilab -nw -f xcos_ref.sce -quit)
rm -rf "$here/ref_crossings1"
XREF_PRELOAD="$XS_BUILD/loader.sce" XREF_TIMEOUT=120 \
  /work/shared/xcos_ref/xcos_ref.sh "$here/crossings1.xcos" "$here/ref_crossings1"
rm -rf "$here/ref_crossings1/.xref" "$here/ref_crossings1/scilab.log"
rm -rf "$XS_BUILD"
