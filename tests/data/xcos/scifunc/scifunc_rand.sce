// Test diagram for scifunc_block_m and Scilab's random generator
// (tests/unit/test_xcos_scifunc.c): how many draws Scilab makes before the
// run, and that the blocks share one generator. The context draws twice;
// block A draws once at flag 4 (into z(1)), counts its flag-6 calls in
// z(2) and its flag-2 calls (by 10), and draws at every flag 1; block B
// reads A's output (so it runs after A) and draws at every flag 1 too.
// One clock (period 1, first tick 0.5) activates both and the scope that
// records B: [A's z; A's draw; B's draw].
//   scilab -nw -f scifunc_rand.sce        (writes scifunc_rand.xcos here)
//   xcos_ref.sh scifunc_rand.xcos ref_rand
here = get_absolute_file_path("scifunc_rand.sce");
exec(here + "../cont/mkdiagram.sci", -1);
d = mk_new(3.9);
d.props.context = ["c1 = rand();"; "c2 = rand();"];
[d, clk] = mk_add(d, "CLOCK_c", []);
d.objs(clk).model.rpar.objs(2).graphics.exprs = ["1"; "0.5"];
a_exprs = list(["[]"; "[3,1]"; "1"; "[]"; "[]"; "[0;0]"; "[]"; "[]"; "0"], ..
    list("y1=[z; rand()]", "xd=[]", "z(2)=z(2)+10", " ", "z(1)=rand()", " ", ..
    ["z(2)=z(2)+1"; "y1=[]"]));
[d, a] = mk_add(d, "scifunc_block_m", a_exprs);
b_exprs = list(["[3,1]"; "[4,1]"; "1"; "[]"; "[]"; "[]"; "[]"; "[]"; "0"], ..
    list("y1=[u1; rand()]", "xd=[]", " ", " ", " ", " ", "y1=[]"));
[d, b] = mk_add(d, "scifunc_block_m", b_exprs);
[d, sc] = mk_add(d, "CSCOPE", []);
[d, s1] = mk_add(d, "CLKSPLIT_f", []);
[d, s2] = mk_add(d, "CLKSPLIT_f", []);
d = mk_clk(d, clk, 1, s1, 1);
d = mk_clk(d, s1, 1, a, 1);
d = mk_clk(d, s1, 2, s2, 1);
d = mk_clk(d, s2, 1, b, 1);
d = mk_clk(d, s2, 2, sc, 1);
d = mk_link(d, a, 1, b, 1);
d = mk_link(d, b, 1, sc, 1);
mk_save(d, here + "scifunc_rand.xcos");
exit
