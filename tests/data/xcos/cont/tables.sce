// Xcos's tabulated functions and older generators (blocks/tables.c,
// blocks/curve.c): LOOKUP_f and INTRPLBLK_f on 3 sin(t) (beyond their
// tables too), CURV_f, GENSQR_f and SAWTOOTH_f on their clocks, and
// CURVE_c with every method, each looped on its own event input as in
// Xcos's Sigbuilder. Breakpoints avoid the scope's sample times (the
// order of simultaneous events is not what this tests).
// Makes tables.xcos; reference: xcos_ref.sh tables.xcos ref_tables
exec(get_absolute_file_path("tables.sce") + "mkdiagram.sci", -1);
d = mk_new(7);
d.props.tol = [1e-10; 1e-10; 1e-10; 100001; 0; 1; 0];
[d, u] = mk_add(d, "GENSIN_f", ["3"; "1"; "0"]);
[d, lk] = mk_add(d, "LOOKUP_f", []);
d.objs(lk).model.rpar = [-1; 0.3; 1.2; 2; 0.5; -1; 1.5; 0];   // x; y
d = mk_link(d, u, 1, lk, 1);
[d, ip] = mk_add(d, "INTRPLBLK_f", ["[-2 -0.5 0.7 1.9]"; "[1 0 3 -1]"]);
d = mk_link(d, u, 1, ip, 1);
[d, cv] = mk_add(d, "CURV_f", []);
d.objs(cv).model.rpar = [0.3; 1.7; 1.7; 4.2; 5.5; -1; 2; 0.5; 3; 1; 0; -5; 6; 5];
d.objs(cv).model.ipar = [5; 2; 10; 2; 10];
[d, gq] = mk_add(d, "GENSQR_f", ["2.5"]);
[d, sw] = mk_add(d, "SAWTOOTH_f", []);
[d, k1] = mk_add(d, "SampleCLK", ["0.63"; "0.21"]);
d = mk_clk(d, k1, 1, gq, 1); d = mk_clk(d, k1, 1, sw, 1);
xs = "[0 0.53 1.41 2.07 3.1]"; ys = "[1 -1 2 0.5 1]";
cs = [];
per = ["y" "n" "y" "y" "y" "n" "y" "n"];
for m = 0:7
    [d, c] = mk_add(d, "CURVE_c", [string(m); xs; ys; per(m + 1); "n"]);
    d = mk_clk(d, c, 1, c, 1);
    cs = [cs c];
end
[d, c9] = mk_add(d, "CURVE_c", ["3"; "[2.5 -1 0.4 1]"; "[-2 5 1 3]"; "y"; "n"]);
d = mk_clk(d, c9, 1, c9, 1);
[d, sc] = mk_add(d, "CMSCOPE", ["1 1 1 1 1"; "1 3 5 7 9"; "-1"; "[]"; "[]"; ..
    "-3 -3 -3 -3 -3"; "3 3 3 3 3"; "30 30 30 30 30"; "20"; "0"; ""]);
d = mk_link(d, lk, 1, sc, 1); d = mk_link(d, ip, 1, sc, 2); d = mk_link(d, cv, 1, sc, 3);
d = mk_link(d, gq, 1, sc, 4); d = mk_link(d, sw, 1, sc, 5);
[d, sc2] = mk_add(d, "CMSCOPE", ["1 1 1 1 1 1 1 1 1"; "1 3 5 7 9 11 13 15 17"; "-1"; "[]"; "[]"; ..
    "-3 -3 -3 -3 -3 -3 -3 -3 -3"; "3 3 3 3 3 3 3 3 3"; "30 30 30 30 30 30 30 30 30"; "20"; "0"; ""]);
for m = 1:8
    d = mk_link(d, cs(m), 1, sc2, m);
end
d = mk_link(d, c9, 1, sc2, 9);
[d, ck] = mk_add(d, "SampleCLK", ["0.1"; "0"]);
d = mk_clk(d, ck, 1, sc, 1); d = mk_clk(d, ck, 1, sc2, 1);
mk_save(d, get_absolute_file_path("tables.sce") + "tables.xcos");
