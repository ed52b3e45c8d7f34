#!/usr/bin/env python3
"""Variants of ../basic/basic.xcos (written by Scilab 6.1.1 with
../basic/basic.sce) for the reader's tests. Run from this folder:
python3 make_variants.py"""
import re

xcos = open('../basic/basic.xcos', encoding='utf-8').read()

# The link from the superblock into the integrator removed: Xcos ignores
# the integrator (undefined input), then the scope it fed.
link = re.search(r'\s*<ExplicitLink [^>]*source="-d628116:1a20f97f72c:-7fec"'
                 r'.*?</ExplicitLink>', xcos, re.S)
open('unconnected.xcos', 'w', encoding='utf-8').write(
    xcos[:link.start()] + xcos[link.end():])

# The gain's dialog field names a variable no context defines: Xcos keeps
# the stored gain (3) and warns; blocksim does the same, with a note.
gain = re.search(r'(interfaceFunctionName="GAINBLK".*?<ScilabString as="exprs"'
                 r'[^>]*>\s*<data line="0" column="0" value=")3(")', xcos, re.S)
open('stale_gain.xcos', 'w', encoding='utf-8').write(
    xcos[:gain.start(2) - 1] + 'k_undefined' + xcos[gain.start(2):])
