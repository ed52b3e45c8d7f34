#!/usr/bin/env python3
"""Copies the Electrical and ModelicaBlocks demos of Scilab 6.1.1 that use
only acausal components, with the records Scilab's own simulator made of
their sinks, for tests/unit/acausal_demos.c. Source: the shared reference
runs (xcos_ref.sh). For each demo:
  <demo>/<demo>.xcos.gz   the demo as Scilab 6.1.1 exports it, unchanged
  <demo>/<sink>.csv.gz    Scilab's record; when longer than LIMIT numbers,
                          every k-th row is kept (and the last), after a
                          first line '# rows N every K' (xcos_compare.h)
  <demo>/simulate_wall_s  Scilab's scicos_simulate time, for bench/
Run from this folder: python3 import_demos.py REFERENCE_DIR
"""
import gzip
import os
import shutil
import sys

DEMOS = ['ModelicaBlocks-RLC_Modelica', 'ModelicaBlocks-Hydraulics',
         'Electrical-Bridge_Rectifier', 'Electrical-Opamp_Amplifier',
         'Electrical-Boost_Converter', 'Electrical-DC_DC_Buck_Converter',
         'Electrical-Switched_capacitor_integrator', 'Electrical-Transformer',
         'Electrical-Difference_amplifier', 'Electrical-Colpitts_Oscillator',
         'Electrical-AND_Gate']
LIMIT = 1500


def decimate(lines):
    header, rows = lines[0], [r for r in lines[1:] if r]
    keep = max(100, LIMIT // max(1, header.count(',')))
    if len(rows) <= keep:
        return [header] + rows
    k = -(-len(rows) // keep)
    kept = rows[::k]
    if (len(rows) - 1) % k:
        kept.append(rows[-1])
    return ['# rows %d every %d' % (len(rows), k), header] + kept


root = sys.argv[1]
for demo in DEMOS:
    src = os.path.join(root, demo)
    os.makedirs(demo, exist_ok=True)
    shutil.copyfile(os.path.join(src, demo + '.xcos.gz'),
                    os.path.join(demo, demo + '.xcos.gz'))
    for name in sorted(os.listdir(src)):
        if not name.endswith('.csv.gz'):
            continue
        with gzip.open(os.path.join(src, name), 'rt') as f:
            out = decimate(f.read().splitlines())
        with gzip.GzipFile(os.path.join(demo, name), 'wb', mtime=0) as f:
            f.write(('\n'.join(out) + '\n').encode())
    with open(os.path.join(src, 'meta.txt')) as meta:
        for line in meta:
            if line.startswith('simulate_wall_s:'):
                with open(os.path.join(demo, 'simulate_wall_s'), 'w') as w:
                    w.write(line.split(':', 1)[1].strip() + '\n')
