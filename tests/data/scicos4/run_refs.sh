#!/bin/sh
# Remakes the Xcos references of the type-4 tests: compiles the test
# blocks into Scilab and builds the .xcos diagrams (xcos_ref.sce), then
# records what Scilab's simulator computes for each (ref_<name>/*.csv).
# Needs Scilab 6.1 and /work/shared/xcos_ref (see its README).
set -e
here=$(cd "$(dirname "$0")" && pwd)
XS_BUILD=${XS_BUILD:-/tmp/xs_blocks_$$}
export XS_BUILD
mkdir -p "$XS_BUILD"
(cd "$here" && xvfb-run -a scilab -nw -f xcos_ref.sce -quit)
for d in oscillator satmode runmean; do
  rm -rf "$here/ref_$d"
  XREF_PRELOAD="$XS_BUILD/loader.sce" XREF_TIMEOUT=120 \
    /work/shared/xcos_ref/xcos_ref.sh "$here/$d.xcos" "$here/ref_$d"
  rm -rf "$here/ref_$d/.xref" "$here/ref_$d/scilab.log"
done
rm -rf "$XS_BUILD"
