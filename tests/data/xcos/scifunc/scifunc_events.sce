// Test diagram for scifunc_block_m's events (tests/unit/test_xcos_scifunc.c):
// E has two event inputs and two event outputs. A clock (period 1, first
// tick 0.5) activates input 1; output 2 loops back to input 2 and first
// fires at 0.25. The events code schedules output 1 at t + 0.3 after an
// activation by input 1 and output 2 at t + 0.7 after one by input 2; the
// update code counts n_evi into z(1) (which the init code starts at 100)
// and keeps t in z(2); the outputs are [z; n_evi]. Scope S1 records at
// E's output 1, scope S2 at the clock's ticks.
//   scilab -nw -f scifunc_events.sce      (writes scifunc_events.xcos here)
//   xcos_ref.sh scifunc_events.xcos ref_events
here = get_absolute_file_path("scifunc_events.sce");
exec(here + "../cont/mkdiagram.sci", -1);
d = mk_new(4.9);
[d, clk] = mk_add(d, "CLOCK_c", []);
d.objs(clk).model.rpar.objs(2).graphics.exprs = ["1"; "0.5"];
e_exprs = list(["[]"; "[3,1]"; "[1;1]"; "[1;1]"; "[]"; "[0;0]"; "[]"; ..
    "[-1;0.25]"; "0"], ..
    list("y1=[z; n_evi]", "xd=[]", ["z(1)=z(1)+n_evi"; "z(2)=t"], ..
    ["if n_evi==1 then"; "  t_evo=[t+0.3; -1]"; "else"; ..
     "  t_evo=[-1; t+0.7]"; "end"], "z(1)=100", " ", "y1=[]"));
[d, e] = mk_add(d, "scifunc_block_m", e_exprs);
[d, sc1] = mk_add(d, "CSCOPE", []);
[d, sc2] = mk_add(d, "CSCOPE", []);
[d, sp] = mk_add(d, "SPLIT_f", []);
[d, cs] = mk_add(d, "CLKSPLIT_f", []);
d = mk_clk(d, clk, 1, cs, 1);
d = mk_clk(d, cs, 1, e, 1);
d = mk_clk(d, cs, 2, sc2, 1);
d = mk_clk(d, e, 1, sc1, 1);
d = mk_clk(d, e, 2, e, 2);
d = mk_link(d, e, 1, sp, 1);
d = mk_link(d, sp, 1, sc1, 1);
d = mk_link(d, sp, 2, sc2, 1);
mk_save(d, here + "scifunc_events.xcos");
exit
