// Test diagram for scifunc_block_m and scifunc_block with continuous
// states and feedthrough (tests/unit/test_xcos_scifunc.c): a sine feeds
// C, a scifunc_block_m integrating xd = -rpar(1) x + u1 (x(0) = 1, rpar =
// 2) whose output is [x; x + u1], and O, the older scifunc_block, giving
// 3 u1 + 1 (its code as the GUI leaves it: Xcos runs no genfunc on this
// older block before a run). A clock (period 0.1) activates the two
// scopes. Tolerances rtol = atol = 1e-10.
//   scilab -nw -f scifunc_cont.sce        (writes scifunc_cont.xcos here)
//   xcos_ref.sh scifunc_cont.xcos ref_cont
here = get_absolute_file_path("scifunc_cont.sce");
exec(here + "../cont/mkdiagram.sci", -1);
d = mk_new(3);
d.props.tol(1) = 1e-10;
d.props.tol(2) = 1e-10;
[d, clk] = mk_add(d, "CLOCK_c", []);
d.objs(clk).model.rpar.objs(2).graphics.exprs = ["0.1"; "0"];
[d, src] = mk_add(d, "GENSIN_f", ["1"; "1"; "0"]);
c_exprs = list(["[1,1]"; "[2,1]"; "[]"; "[]"; "1"; "[]"; "2"; "[]"; "0"], ..
    list("y1=[x; x+u1]", "xd=-rpar(1)*x+u1", " ", " ", " ", " ", " "));
[d, c] = mk_add(d, "scifunc_block_m", c_exprs);
o_exprs = list(["1"; "1"; "[]"; "[]"; "[]"; "[]"; "[]"; "[]"; "0"], ..
    list("y1=3*u1+1", "xd=[]", " ", " ", " ", " ", "y1=[]"));
[d, o] = mk_add(d, "scifunc_block", o_exprs);
[d, sc1] = mk_add(d, "CSCOPE", []);
[d, sc2] = mk_add(d, "CSCOPE", []);
[d, sp] = mk_add(d, "SPLIT_f", []);
[d, cs] = mk_add(d, "CLKSPLIT_f", []);
d = mk_link(d, src, 1, sp, 1);
d = mk_link(d, sp, 1, c, 1);
d = mk_link(d, sp, 2, o, 1);
d = mk_link(d, c, 1, sc1, 1);
d = mk_link(d, o, 1, sc2, 1);
d = mk_clk(d, clk, 1, cs, 1);
d = mk_clk(d, cs, 1, sc1, 1);
d = mk_clk(d, cs, 2, sc2, 1);
mk_save(d, here + "scifunc_cont.xcos");
exit
