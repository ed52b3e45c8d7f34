#!/usr/bin/env python3
"""The 50-block study diagram of bench/study.c, written once here and
emitted twice from the same list, so that the two are the same model:
study50.xml (blocksim's native format) and study50.sce (a Scilab script
that builds it with Xcos's own block macros and saves study50.xcos, for
timing the same study with scicos_simulate).

A two-mass spring-damper plant (4 states) moved by a saturated actuator
with a first-order lag, a discrete PID controller with feedforward sampled
every T, a filtered reference, a disturbance step at t = 1, measurement
noise, and monitoring integrals (squared error, control effort, work,
spread between the masses, time above an alarm threshold): continuous
states, a clock, zero crossings (saturation, |u|, hysteresis).

usage: python3 make_study50.py [--scope DIR]
  rewrites both files beside it; with --scope, writes into DIR a variant
  with a CMSCOPE on the observed signals (study50s.xml, study50s.sce), to
  check once that Scilab and blocksim compute the same thing (README.md).
"""
import sys
import os

CONTEXT = [("Kp", "8"), ("Ki", "4"), ("Kd", "0.4"), ("T", "0.1"),
           ("m1", "1"), ("m2", "0.5"), ("k1", "10"), ("k2", "20"),
           ("c1", "4"), ("c2", "2"), ("umax", "15"), ("tauf", "0.05"),
           ("r0", "1"), ("d0", "2"), ("noise", "0.01"), ("tau_a", "0.05"),
           ("kff", "10")]
TF, SAMPLES, RTOL, ATOL = 5, 51, 1e-6, 1e-8
# The model is not stiff: blocksim's rk45 (GSL's variable-step
# Runge-Kutta-Fehlberg 4(5)); Scilab's solver 4 (CVODE Adams, functional
# iteration), its variable-step non-stiff one (its "RK45", solver 6, is
# fixed-step: at these settings it is off by 20 % after 0.1 s). At rtol
# 1e-6 / atol 1e-8 the two agree to 2e-6 relative on every signal.
SOLVER, SCILAB_SOLVER = "rk45", 4

def integ():
    return ("INTEGRAL_m", {"x0": "0"}, ["0", "0", "0", "1", "-1"])

def gain(g):
    return ("GAINBLK", {"gain": g}, [g])

def summ(signs):
    return ("SUMMATION", {"signs": signs}, [signs])

def lag(tau):  # 1/(tau s + 1)
    return ("CLR", {"num": "1", "den": "[%s 1]" % tau}, ["1", "1+%s*s" % tau])

def hold():
    return ("SAMPHOLD_m", {}, None)

def prod():
    return ("PRODUCT", {"ops": "[1 1]"}, ["[1;1]", "1"])

# (id, (type, native params, Xcos dialog exprs or None for the defaults))
BLOCKS = [
    ("ref", ("CONST_m", {"value": "r0"}, ["r0"])),
    ("reffilt", lag("0.2")),
    ("dstep", ("STEP_FUNCTION", {}, None)),
    ("dgain", gain("d0")),
    ("noise", ("GENSIN_f", {"amplitude": "noise", "frequency": "3",
                            "phase": "0"}, ["noise", "3", "0"])),
    ("v1", integ()), ("x1", integ()), ("v2", integ()), ("x2", integ()),
    ("dx", summ("[1 -1]")), ("dv", summ("[1 -1]")),
    ("k1x1", gain("k1")), ("c1v1", gain("c1")), ("k2dx", gain("k2")),
    ("c2dv", gain("c2")), ("coup", summ("[1 1]")),
    ("f1", summ("[1 -1 -1 -1]")), ("a1", gain("1/m1")),
    ("f2", summ("[1 -1]")), ("a2", gain("1/m2")),
    ("meas", summ("[1 1]")), ("sfilt", lag("tauf")),
    ("clk", ("SampleCLK", {"period": "T", "offset": "0"}, ["T", "0"])),
    ("sr", hold()), ("sy", hold()), ("err", summ("[1 -1]")),
    ("P", gain("Kp")),
    ("I", ("DLR", {"num": "[Ki*T]", "den": "[1 -1]"}, ["Ki*T", "-1+z"])),
    ("D", ("DLR", {"num": "[Kd/T, -Kd/T]", "den": "[1 0]"},
           ["(Kd/T)*z-Kd/T", "z"])),
    ("pid", summ("[1 1 1]")), ("ff", gain("kff")), ("usum", summ("[1 1]")),
    ("hold", hold()), ("act", lag("tau_a")),
    ("sat", ("SATURATION", {"upper": "umax", "lower": "-umax",
                            "zero-crossing": "1"}, ["umax", "-umax", "1"])),
    ("econt", summ("[1 -1]")), ("e2", prod()), ("J", integ()),
    ("absu", ("ABS_VALUE", {"zero-crossing": "1"}, ["1"])), ("E", integ()),
    ("pw", prod()), ("W", integ()),
    ("alarm", ("HYSTHERESIS", {"high": "1.05*r0", "low": "0.95*r0",
                               "out-high": "1", "out-low": "0",
                               "zero-crossing": "1"},
               ["1.05*r0", "0.95*r0", "1", "0", "1"])),
    ("m1pos", lag("tauf")), ("spread", summ("[1 -1]")), ("s2", prod()),
    ("Jspread", integ()), ("wE", gain("0.01")), ("cost", summ("[1 1 1]")),
    ("above", integ()),
]

LINKS = [  # (from, port, to, port)
    ("ref", 1, "reffilt", 1), ("dstep", 1, "dgain", 1),
    ("a1", 1, "v1", 1), ("v1", 1, "x1", 1), ("a2", 1, "v2", 1),
    ("v2", 1, "x2", 1),
    ("x1", 1, "dx", 1), ("x2", 1, "dx", 2), ("v1", 1, "dv", 1),
    ("v2", 1, "dv", 2), ("x1", 1, "k1x1", 1), ("v1", 1, "c1v1", 1),
    ("dx", 1, "k2dx", 1), ("dv", 1, "c2dv", 1), ("k2dx", 1, "coup", 1),
    ("c2dv", 1, "coup", 2),
    ("sat", 1, "f1", 1), ("k1x1", 1, "f1", 2), ("c1v1", 1, "f1", 3),
    ("coup", 1, "f1", 4), ("f1", 1, "a1", 1),
    ("coup", 1, "f2", 1), ("dgain", 1, "f2", 2), ("f2", 1, "a2", 1),
    ("x2", 1, "meas", 1), ("noise", 1, "meas", 2), ("meas", 1, "sfilt", 1),
    ("reffilt", 1, "sr", 1), ("sfilt", 1, "sy", 1), ("sr", 1, "err", 1),
    ("sy", 1, "err", 2), ("err", 1, "P", 1), ("err", 1, "I", 1),
    ("err", 1, "D", 1), ("P", 1, "pid", 1), ("I", 1, "pid", 2),
    ("D", 1, "pid", 3), ("sr", 1, "ff", 1), ("pid", 1, "usum", 1),
    ("ff", 1, "usum", 2), ("usum", 1, "hold", 1), ("hold", 1, "act", 1),
    ("act", 1, "sat", 1),
    ("reffilt", 1, "econt", 1), ("x2", 1, "econt", 2), ("econt", 1, "e2", 1),
    ("econt", 1, "e2", 2), ("e2", 1, "J", 1), ("sat", 1, "absu", 1),
    ("absu", 1, "E", 1), ("sat", 1, "pw", 1), ("v1", 1, "pw", 2),
    ("pw", 1, "W", 1), ("x2", 1, "alarm", 1), ("x1", 1, "m1pos", 1),
    ("m1pos", 1, "spread", 1), ("sfilt", 1, "spread", 2),
    ("spread", 1, "s2", 1), ("spread", 1, "s2", 2), ("s2", 1, "Jspread", 1),
    ("E", 1, "wE", 1), ("J", 1, "cost", 1), ("wE", 1, "cost", 2),
    ("Jspread", 1, "cost", 3), ("alarm", 1, "above", 1),
]
CLOCKED = ["sr", "sy", "I", "D", "hold"]
OBSERVE = [("x2", "x2"), ("u", "sat"), ("cost", "cost"), ("above", "above")]

HERE = os.path.dirname(os.path.abspath(__file__))

SCOPE = ("scope", ("CMSCOPE", {"in": "[1 1 1 1]", "ymin": "[-20 -20 -20 -20]",
                                "ymax": "[20 20 20 20]",
                                "refresh-period": "[30 30 30 30]"},
                    ["1 1 1 1", "1 3 5 7 9 11 13 15", "-1", "[]", "[]",
                     "-20 -20 -20 -20", "20 20 20 20", "30 30 30 30", "20",
                     "0", ""]))
SCOPE_LINKS = [(b, 1, "scope", k + 1) for k, (_, b) in enumerate(OBSERVE)]

def with_scope(on):
    """The lists to emit: the study's, plus the scope when on."""
    if not on:
        return BLOCKS, LINKS, CLOCKED
    return BLOCKS + [SCOPE], LINKS + SCOPE_LINKS, CLOCKED + ["scope"]

def native(scope=False, name="study50"):
    blocks, links, clocked = with_scope(scope)
    out = ['<!-- Generated by make_study50.py: the 50-block study diagram of',
           '     bench/study.c (same model as %s.sce). -->' % name,
           '<diagram name="%s">' % name, '  <context>']
    out += ['    <var name="%s" value="%s"/>' % kv for kv in CONTEXT]
    out += ['  </context>',
            '  <simulation final-time="%g" solver="%s" rtol="%g" atol="%g"/>'
            % (TF, SOLVER, RTOL, ATOL), '  <output samples="%d"/>' % SAMPLES]
    for bid, (typ, params, _) in blocks:
        if not params:
            out.append('  <block id="%s" type="%s"/>' % (bid, typ))
            continue
        out.append('  <block id="%s" type="%s">' % (bid, typ))
        out += ['    <param name="%s" value="%s"/>' % kv for kv in params.items()]
        out.append('  </block>')
    out += ['  <link from="%s:%d" to="%s:%d"/>' % l for l in links]
    out += ['  <activation from="clk:1" to="%s:1"/>' % b for b in clocked]
    out += ['  <observe name="%s" signal="%s:1"/>' % o for o in OBSERVE]
    out.append('</diagram>')
    return "\n".join(out) + "\n"

def scilab(scope=False, name="study50", helpers="../../tests/data/xcos/cont"):
    blocks, links, clocked = with_scope(scope)
    index = {bid: k + 1 for k, (bid, _) in enumerate(blocks)}
    out = ['// Generated by make_study50.py: builds %s.xcos, the 50-block' % name,
           '// study diagram of bench/study.c (same model as %s.xml), with' % name,
           "// Xcos's own block macros. Run: scilab -nw -f %s.sce" % name,
           'here = get_absolute_file_path("%s.sce");' % name,
           'exec(%s, -1);' % ('"%s/mkdiagram.sci"' % helpers
                             if helpers.startswith("/")
                             else 'here + "%s/mkdiagram.sci"' % helpers),
           'd = mk_new(%g);' % TF,
           'd.props.tol = [%g; %g; 1e-10; 100001; 0; %d; 0];'
           % (ATOL, RTOL, SCILAB_SOLVER),
           'd.props.context = [%s];' %
           '; '.join('"%s = %s"' % kv for kv in CONTEXT)]
    for bid, (typ, _, exprs) in blocks:
        ex = "[]" if exprs is None else \
            "[" + "; ".join('"%s"' % e for e in exprs) + "]"
        out.append('[d, k] = mk_add(d, "%s", %s); // %d %s'
                   % (typ, ex, index[bid], bid))
    for a, pa, b, pb in links:
        out.append('d = mk_link(d, %d, %d, %d, %d);' % (index[a], pa, index[b], pb))
    for b in clocked:
        out.append('d = mk_clk(d, %d, 1, %d, 1);' % (index["clk"], index[b]))
    out.append('mk_save(d, here + "%s.xcos");' % name)
    out.append('// observed, as in study50.xml: ' +
               ", ".join("%s = block %d" % (n, index[b]) for n, b in OBSERVE))
    return "\n".join(out) + "\n"

if __name__ == "__main__":
    assert len(BLOCKS) == 50, len(BLOCKS)
    if len(sys.argv) == 3 and sys.argv[1] == "--scope":
        out = os.path.abspath(sys.argv[2])
        helpers = os.path.join(HERE, "../../tests/data/xcos/cont")
        with open(os.path.join(out, "study50s.xml"), "w") as f:
            f.write(native(True, "study50s"))
        with open(os.path.join(out, "study50s.sce"), "w") as f:
            f.write(scilab(True, "study50s", os.path.abspath(helpers)))
        sys.exit(0)
    with open(os.path.join(HERE, "study50.xml"), "w") as f:
        f.write(native())
    with open(os.path.join(HERE, "study50.sce"), "w") as f:
        f.write(scilab())
