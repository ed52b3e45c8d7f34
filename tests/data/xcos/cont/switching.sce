// Xcos's comparison, selection and conversion blocks (blocks/switching.c,
// blocks/convert.c): RELATIONALOP with and without zero crossings (one of
// them integrated, so that the crossing instants matter), SELECT_m on two
// clocks, M_SWITCH on a control sine, CONVERT of 200 sin(t) to int8 and
// uint8 by wrapping and saturating, and back. Sampled every 0.1 s; the
// clocks' ticks avoid the samples.
// Makes switching.xcos; reference: xcos_ref.sh switching.xcos ref_switching
exec(get_absolute_file_path("switching.sce") + "mkdiagram.sci", -1);
d = mk_new(6);
d.props.tol = [1e-10; 1e-10; 1e-10; 100001; 0; 1; 0];
[d, s] = mk_add(d, "GENSIN_f", ["1"; "1"; "0"]);
[d, c] = mk_add(d, "GENSIN_f", ["1"; "1"; "%pi/2"]);
[d, h] = mk_add(d, "CONST_f", ["0.5"]);
[d, r1] = mk_add(d, "RELATIONALOP", ["4"; "1"; "1"]);
d = mk_link(d, s, 1, r1, 1); d = mk_link(d, h, 1, r1, 2);
[d, it] = mk_add(d, "INTEGRAL_f", ["0"]);
d = mk_link(d, r1, 1, it, 1);
[d, r2] = mk_add(d, "RELATIONALOP", ["3"; "0"]);
d = mk_link(d, c, 1, r2, 1); d = mk_link(d, s, 1, r2, 2);
[d, sel] = mk_add(d, "SELECT_m", ["1"; "2"; "2"]);
d = mk_link(d, s, 1, sel, 1); d = mk_link(d, c, 1, sel, 2);
[d, k1] = mk_add(d, "SampleCLK", ["0.7"; "0.05"]);
[d, k2] = mk_add(d, "SampleCLK", ["1.3"; "0.42"]);
d = mk_clk(d, k1, 1, sel, 1); d = mk_clk(d, k2, 1, sel, 2);
[d, ctl] = mk_add(d, "GENSIN_f", ["2.2"; "1.3"; "0"]);
[d, a10] = mk_add(d, "CONST_f", ["10"]);
[d, a20] = mk_add(d, "CONST_f", ["20"]);
[d, a30] = mk_add(d, "CONST_f", ["30"]);
[d, ms] = mk_add(d, "M_SWITCH", ["3"; "1"; "1"]);
d = mk_link(d, ctl, 1, ms, 1); d = mk_link(d, a10, 1, ms, 2); d = mk_link(d, a20, 1, ms, 3); d = mk_link(d, a30, 1, ms, 4);
[d, vec] = mk_add(d, "CONST_f", ["[5; 6; 7]"]);
[d, ms1] = mk_add(d, "M_SWITCH", ["1"; "0"; "3"]);
d = mk_link(d, ctl, 1, ms1, 1); d = mk_link(d, vec, 1, ms1, 2);
[d, big] = mk_add(d, "GENSIN_f", ["200"; "1"; "0"]);
convs = [5 0; 5 1; 8 0; 8 1; 3 1];
back = [];
for r = 1:size(convs, 1)
    [d, cv] = mk_add(d, "CONVERT", ["1"; string(convs(r, 1)); string(convs(r, 2))]);
    d = mk_link(d, big, 1, cv, 1);
    [d, bk] = mk_add(d, "CONVERT", [string(convs(r, 1)); "1"; "0"]);
    d = mk_link(d, cv, 1, bk, 1);
    back = [back bk];
end
[d, sc] = mk_add(d, "CMSCOPE", ["1 1 1 1 1 1 1 1 1 1 1"; "1 3 5 7 9 11 13 15 17 19 21"; "-1"; "[]"; "[]"; ..
    strcat(string(-ones(1, 11)), " "); strcat(string(ones(1, 11)), " "); strcat(string(30 * ones(1, 11)), " "); "20"; "0"; ""]);
outs = [r1 it r2 sel ms ms1 back];
for p = 1:size(outs, "*")
    d = mk_link(d, outs(p), 1, sc, p);
end
[d, ck] = mk_add(d, "SampleCLK", ["0.1"; "0"]);
d = mk_clk(d, ck, 1, sc, 1);
mk_save(d, get_absolute_file_path("switching.sce") + "switching.xcos");
