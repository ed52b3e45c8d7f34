#!/usr/bin/env python3
"""Copies Scilab's Xcos demos and the records Scilab's own simulator made
of them into this folder, for the acceptance suite (tests/unit/
xcos_demos.c). The records come from the shared reference runs
(../shared/reference, made by ../shared/xcos_ref/run_demos.sh with
Scilab 6.1.1's scicos_simulate); the diagrams from there and from
Scilab 6.1.1's modules/xcos/demos. For each demo that uses no Modelica
block and that Scilab itself ran:
  <demo>/<demo>.xcos.gz    the demo exported by Scilab 6.1.1, unchanged
  <demo>/<demo>.orig.zcos  the demo as Scilab ships it (Scilab 5.5 or 6.0
                           format), unchanged
  <demo>/<sink>.csv.gz     Scilab's record of each sink; a record of more
                           than MAX_VALUES numbers keeps every k-th row
                           (the first and the last included) after a
                           first line '# rows N every K', to keep the
                           test data small
  <demo>/simulate_wall_s   Scilab's scicos_simulate time (for bench/)
The tight references in <demo>/rtol*/ (Scilab's records at tighter
tolerances) come from make_tight.sh.
The .zcos copies of some demos saved again by Scilab 6.1.1 (make_zcos.sce)
sit beside them as <demo>.zcos.
Run from this folder: python3 import_demos.py REFERENCE_DIR SCILAB_DEMOS
"""
import gzip
import os
import shutil
import sys

MAX_VALUES = 3000
ORIGINALS = {'CodeGen-controller': 'CodeGen/controller.zcos',
             'CodeGen-fibo': 'CodeGen/fibo.zcos',
             'Event-event_and': 'Event/event_and.zcos',
             'Event-if_then_else': 'Event/if_then_else.zcos'}


def write_record(text, dst):
    """Scilab's CSV record (text) gzipped to dst, thinned to about
    MAX_VALUES numbers (make_tight.sh uses it too)."""
    lines = text.splitlines()
    header, rows = lines[0], [l for l in lines[1:] if l]
    out = [header] + rows
    max_rows = max(100, MAX_VALUES // header.count(','))
    if len(rows) > max_rows:
        k = -(-len(rows) // max_rows)
        kept = rows[::k]
        if (len(rows) - 1) % k:
            kept.append(rows[-1])
        out = ['# rows %d every %d' % (len(rows), k), header] + kept
    with gzip.GzipFile(dst, 'wb', mtime=0) as f:
        f.write(('\n'.join(out) + '\n').encode())


def main(ref_root, demos_root):
    for demo in sorted(os.listdir(ref_root)):
        src = os.path.join(ref_root, demo)
        if demo.startswith(('Electrical-', 'ModelicaBlocks-')):
            continue
        xcos = os.path.join(src, demo + '.xcos.gz')
        csvs = sorted(f for f in os.listdir(src) if f.endswith('.csv.gz')) \
            if os.path.isdir(src) else []
        if not os.path.exists(xcos) or not csvs:
            continue
        os.makedirs(demo, exist_ok=True)
        shutil.copyfile(xcos, os.path.join(demo, demo + '.xcos.gz'))
        orig = os.path.join(demos_root, ORIGINALS.get(demo, demo + '.zcos'))
        if os.path.exists(orig):
            shutil.copyfile(orig, os.path.join(demo, demo + '.orig.zcos'))
        for name in csvs:
            with gzip.open(os.path.join(src, name), 'rt') as f:
                write_record(f.read(), os.path.join(demo, name))
        for line in open(os.path.join(src, 'meta.txt')):
            if line.startswith('simulate_wall_s:'):
                open(os.path.join(demo, 'simulate_wall_s'), 'w').write(
                    line.split(':', 1)[1].strip() + '\n')


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
