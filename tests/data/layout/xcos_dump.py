#!/usr/bin/env python3
"""Print the run-time data Scilab stored for blocks of an .xcos(.gz) file in
the layout-file format of this folder (README.md), with the block's exprs
as comments, so that a layout case can be written from a Scilab-made
diagram. The `param` lines are left for a person to write: they are our
native names for the exprs, evaluated in the diagram's context.

    xcos_dump.py FILE.xcos[.gz] INTERFACE_NAME...
"""
import gzip
import sys
import xml.etree.ElementTree as ET


def matrix(el):
    """Values of a ScilabDouble/ScilabInteger/ScilabString, column-major."""
    if el is None:
        return []
    h = int(el.get("height", 0))
    w = int(el.get("width", 0))
    cells = {}
    for d in el.findall("data"):
        key = (int(d.get("line")), int(d.get("column")))
        cells[key] = d.get("realPart", d.get("value"))
    return [cells.get((i, j)) for j in range(w) for i in range(h)]


def num(s):
    f = float(s)
    return repr(int(f)) if f == int(f) and abs(f) < 1e15 else repr(f)


def main():
    path, names = sys.argv[1], set(sys.argv[2:])
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as fh:
        root = ET.parse(fh).getroot()
    elems = list(root.iter())
    ports = {}
    for e in elems:
        if e.tag.endswith("Port") and e.get("parent"):
            ports.setdefault(e.get("parent"), []).append(e)
    for e in elems:
        ifn = e.get("interfaceFunctionName")
        if ifn not in names:
            continue
        kids = {c.get("as"): c for c in e}
        print("# %s in %s, id %s, label %r, sim %s (%s)" % (
            ifn, path, e.get("id"), e.get("value"),
            e.get("simulationFunctionName"), e.get("simulationFunctionType")))
        print("# exprs: %r" % matrix(kids.get("exprs")))
        print("type", ifn)
        for key, tag in (("rpar", "realParameters"), ("ipar", "integerParameters"),
                         ("x0", "state"), ("z0", "dState")):
            vals = matrix(kids.get(tag))
            if vals:
                print(key, " ".join(num(v) for v in vals))
        op = kids.get("objectsParameters")
        if op is not None and len(op):
            for o in op:
                print("# opar element: %s %sx%s %s" % (
                    o.tag, o.get("height"), o.get("width"),
                    " ".join(str(v) for v in matrix(o))))
        byk = {}
        for p in ports.get(e.get("id"), []):
            byk.setdefault(p.tag, []).append(p)
        for tag, rows, cols in (("ExplicitInputPort", "in", "in2"),
                                ("ExplicitOutputPort", "out", "out2")):
            ps = sorted(byk.get(tag, []), key=lambda p: int(p.get("ordering")))
            if ps:
                print(rows, " ".join(p.get("dataLines", "?") for p in ps))
                print(cols, " ".join(p.get("dataColumns", "?") for p in ps))
        ev = sorted(byk.get("CommandPort", []), key=lambda p: int(p.get("ordering")))
        if ev:
            print("firing", " ".join(num(p.get("initialState")) for p in ev))
        print("dep_t", e.get("dependsOnT"))
        print("# dependsOnU", e.get("dependsOnU"))
        for key, tag in (("ng", "nbZerosCrossing"), ("nmode", "nmode")):
            vals = matrix(kids.get(tag))
            if vals:
                print(key, vals[0])
        print("nevin", len(byk.get("ControlPort", [])))
        print("nevout", len(ev))
        print()


if __name__ == "__main__":
    main()
