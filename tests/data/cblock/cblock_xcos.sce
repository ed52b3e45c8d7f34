// An Xcos diagram with a CBLOCK: a first-order lag tau x' = u - x
// (tau = rpar(1) = 0.5) in C, fed by a unit step, recorded every 0.1 s,
// so x = 1 - exp(-2 t). Makes cblock.xcos. The test compares with that
// closed form: Scilab 6.1 cannot simulate a CBLOCK headless (its dialog
// evaluation opens the code editor), so there is no recorded reference.
here = get_absolute_file_path("cblock_xcos.sce");
exec(here + "../xcos/cont/mkdiagram.sci", -1);
d = mk_new(3);
d.props.tol = [1e-12; 1e-10; 1e-10; 100001; 0; 0; 0];
[d, u] = mk_add(d, "CONST_m", ["1"]);
[d, c] = mk_add(d, "CBLOCK", []);
code = ["#include <math.h>"
        "#include ""scicos_block4.h"""
        ""
        "void xcos_lag(scicos_block *block, int flag)"
        "{"
        "  double *x = GetState(block), *u = GetRealInPortPtrs(block, 1);"
        "  if (flag == 0)"
        "    GetDerState(block)[0] = (u[0] - x[0]) / GetRparPtrs(block)[0];"
        "  else if (flag == 1 || flag == 6)"
        "    GetRealOutPortPtrs(block, 1)[0] = x[0];"
        "}"];
// function, implicit, in, out, evtin, evtout, state, nzcross, dstate,
// rpar, ipar, firing, feedthrough, always active
e = ["xcos_lag"; "n"; "1"; "1"; "[]"; "[]"; "0"; "0"; "[]"; "0.5"; "[]"; ..
     "[]"; "n"; "y"];
b = d.objs(c);
b.graphics.exprs = list(e, code);
b.model.sim = list("xcos_lag", 2004);
b.model.state = 0;
b.model.rpar = 0.5;
b.model.dep_ut = [%f %t];
d.objs(c) = b;
d = mk_link(d, u, 1, c, 1);
[d, sc] = mk_add(d, "CSCOPE", []);
d = mk_link(d, c, 1, sc, 1);
[d, ck] = mk_add(d, "SampleCLK", ["0.1"; "0"]);
d = mk_clk(d, ck, 1, sc, 1);
xcosDiagramToScilab(here + "cblock.xcos", d);
