// A block activated by an event both directly and through a synchronous
// router (IFTHEL_f) that the same event activates runs once per event in
// Xcos: its compiler activates it through every output of the router
// instead (tests/unit/test_scilab_events.c, native replica reroute.xml).
// Clock A (period 0.1) activates the IFTHEL_f (input sin 2t), a Counter
// (also on the IFTHEL_f's then-output, both through an event union
// CLKSOMV_f: +1 per tick, not +2) and event
// input 2 of a CEVENTSCOPE whose input 1 is on the then-output (one row
// per tick, ev1 set while sin 2t > 0). Clock B (period 0.3 from 0.05, never with A) also
// activates the IFTHEL_f: its then-output then runs the Counter and the
// CEVENTSCOPE alone (Xcos's compiler keeps a copy of the router for A).
// A scope on clock A records the Counter.
//   scilab -nw -f reroute.sce    (writes reroute.xcos)
//   xcos_ref.sh reroute.xcos OUT; OUT/CEVENTSCOPE_7.csv and CSCOPE_8.csv
//   are kept here as reroute_CEVENTSCOPE_7.csv and reroute_CSCOPE_8.csv
exec(get_absolute_file_path("reroute.sce") + "../cont/mkdiagram.sci", -1);
d = mk_new(3.05);
[d, ca] = mk_add(d, "SampleCLK", ["0.1"; "0"]);
[d, cb] = mk_add(d, "SampleCLK", ["0.3"; "0.05"]);
[d, s] = mk_add(d, "GENSIN_f", ["1"; "2"; "0"]);
[d, r] = mk_add(d, "IFTHEL_f", ["1"; "0"]);
d = mk_link(d, s, 1, r, 1);
d = mk_clk(d, ca, 1, r, 1); d = mk_clk(d, cb, 1, r, 1);
[d, u] = mk_add(d, "CLKSOMV_f", []);
d = mk_clk(d, ca, 1, u, 1); d = mk_clk(d, r, 1, u, 2);
[d, n] = mk_add(d, "Counter", ["1"; "1000"; "1"]);
d = mk_clk(d, u, 1, n, 1);
[d, ev] = mk_add(d, "CEVENTSCOPE", ["2"; "1 3"; "-1"; "[]"; "[600;400]"; "30"]);
d = mk_clk(d, r, 1, ev, 1); d = mk_clk(d, ca, 1, ev, 2);
[d, sc] = mk_add(d, "CSCOPE", []);
d = mk_link(d, n, 1, sc, 1); d = mk_clk(d, ca, 1, sc, 1);
mk_save(d, get_absolute_file_path("reroute.sce") + "reroute.xcos");
exit
