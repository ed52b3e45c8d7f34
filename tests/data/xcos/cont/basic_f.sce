// Xcos's older elementary blocks (blocks/basic_f.c) on smooth signals:
// each output goes to one scope sampled every 0.1 s; no state, so the
// values are exact functions of time. Makes basic_f.xcos; the reference
// CSVs come from /work/shared/xcos_ref/xcos_ref.sh basic_f.xcos ref_basic_f
exec(get_absolute_file_path("basic_f.sce") + "mkdiagram.sci", -1);
d = mk_new(3);
[d, s1] = mk_add(d, "GENSIN_f", ["1"; "1"; "0"]);      // sin(t)
[d, s2] = mk_add(d, "GENSIN_f", ["2"; "3"; "0.5"]);    // 2 sin(3t + 0.5)
[d, c3] = mk_add(d, "CONST_f", ["3"]);
[d, sm] = mk_add(d, "SUM_f", []);
d = mk_link(d, s1, 1, sm, 1); d = mk_link(d, s2, 1, sm, 2); d = mk_link(d, c3, 1, sm, 3);
[d, bs] = mk_add(d, "BIGSOM_f", ["[2;-0.5]"]);
d = mk_link(d, s1, 1, bs, 1); d = mk_link(d, s2, 1, bs, 2);
[d, pr] = mk_add(d, "PROD_f", []);
d = mk_link(d, s1, 1, pr, 1); d = mk_link(d, s2, 1, pr, 2);
[d, mx] = mk_add(d, "MUX_f", ["3"]);
d = mk_link(d, s1, 1, mx, 1); d = mk_link(d, s2, 1, mx, 2); d = mk_link(d, sm, 1, mx, 3);
[d, g1] = mk_add(d, "GAIN_f", ["[1 2 3; -1 0.5 4]"]);
d = mk_link(d, mx, 1, g1, 1);
[d, dm] = mk_add(d, "DEMUX_f", ["[1;1]"]);
d = mk_link(d, g1, 1, dm, 1);
[d, g2] = mk_add(d, "GAINBLK_f", ["-2.5"]);
d = mk_link(d, dm, 2, g2, 1);
[d, iv] = mk_add(d, "INVBLK_f", []);
d = mk_link(d, sm, 1, iv, 1);
[d, sq] = mk_add(d, "SQRT", ["1"]);
d = mk_link(d, sm, 1, sq, 1);
[d, sa] = mk_add(d, "SAT_f", ["-0.75"; "1.5"; "2"]);
d = mk_link(d, s2, 1, sa, 1);
[d, sc] = mk_add(d, "CMSCOPE", ["1 1 1 1 1 1 1"; "1 3 5 7 9 11 13"; "-1"; "[]"; "[]"; ..
    "-3 -3 -3 -3 -3 -3 -3"; "3 3 3 3 3 3 3"; "30 30 30 30 30 30 30"; "20"; "0"; ""]);
d = mk_link(d, sm, 1, sc, 1); d = mk_link(d, bs, 1, sc, 2); d = mk_link(d, pr, 1, sc, 3);
d = mk_link(d, dm, 1, sc, 4); d = mk_link(d, g2, 1, sc, 5); d = mk_link(d, iv, 1, sc, 6);
d = mk_link(d, sq, 1, sc, 7);
[d, sc2] = mk_add(d, "CSCOPE", []);
d = mk_link(d, sa, 1, sc2, 1);
[d, ck] = mk_add(d, "SampleCLK", ["0.1"; "0"]);
d = mk_clk(d, ck, 1, sc, 1); d = mk_clk(d, ck, 1, sc2, 1);
mk_save(d, get_absolute_file_path("basic_f.sce") + "basic_f.xcos");
