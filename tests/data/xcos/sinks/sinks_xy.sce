// The XY scopes, the animations, the event scope, the floating scope,
// WRITEAU_f and the autoscaling scopes of Xcos's Sinks palette on smooth
// signals (tests/unit/test_xcos_sinks.c).
// A SampleCLK of period 0.1 activates the data sinks; two others, which
// never tick together, the two event inputs of the CEVENTSCOPE. The
// CFSCOPE reads signals by number: in a diagram without split points
// Scilab numbers its link buffers by the first link that carries each
// output (s1 = 1, s2 = 2, t = 3, m12 = 4..5, m21 = 6..7, the
// sample-and-holds 8 and 9..10), then the outputs that feed nothing (the
// CONST_m: 11..12).
//   scilab -nw -f sinks_xy.sce                   (writes sinks_xy.xcos)
//   xcos_ref.sh sinks_xy.xcos ref_sinks_xy        (Scilab's records)
exec(get_absolute_file_path("sinks_xy.sce") + "../cont/mkdiagram.sci", -1);
d = mk_new(2);
[d, s1] = mk_add(d, "GENSIN_f", ["1"; "1"; "0"]);      // sin(t)
[d, s2] = mk_add(d, "GENSIN_f", ["2"; "3"; "0.5"]);    // 2 sin(3t + 0.5)
[d, tm] = mk_add(d, "TIME_f", []);
[d, m12] = mk_add(d, "MUX", ["2"]);
d = mk_link(d, s1, 1, m12, 1); d = mk_link(d, s2, 1, m12, 2);
[d, m21] = mk_add(d, "MUX", ["2"]);
d = mk_link(d, tm, 1, m21, 1); d = mk_link(d, s1, 1, m21, 2);
[d, xy] = mk_add(d, "CSCOPXY", ["2"; "1"; "1"; "-1"; "[]"; "[600;400]"; "-3"; "3"; "-3"; "3"; "2"]);
d = mk_link(d, m12, 1, xy, 1); d = mk_link(d, m21, 1, xy, 2);
[d, xyz] = mk_add(d, "CSCOPXY3D", ["1"; "1 2 3"; "1 1 1"; "-1"; "[]"; "[600;400]"; "-3 3"; "-3 3"; "0 5"; "50 280"; "2"]);
d = mk_link(d, s1, 1, xyz, 1); d = mk_link(d, s2, 1, xyz, 2); d = mk_link(d, tm, 1, xyz, 3);
[d, an] = mk_add(d, "CANIMXY", ["1"; "-4"; "3"; "-1"; "[]"; "[]"; "-3"; "3"; "-3"; "3"; "5"]);
d = mk_link(d, s1, 1, an, 1); d = mk_link(d, s2, 1, an, 2);
[d, an3] = mk_add(d, "CANIMXY3D", ["2"; "1 2"; "1 1"; "-1"; "[]"; "[]"; "-3 3"; "-3 3"; "0 5"; "50 280"; "10"]);
d = mk_link(d, m12, 1, an3, 1); d = mk_link(d, m21, 1, an3, 2); d = mk_link(d, m12, 1, an3, 3);
[d, bar] = mk_add(d, "BARXY", ["-3"; "3"; "-3"; "3"; "2"]);
d = mk_link(d, m12, 1, bar, 1); d = mk_link(d, m21, 1, bar, 2);
[d, bxy] = mk_add(d, "BOUNCEXY", ["[1;2]"; "[0.5;0.3]"; "-1"; "0"; "-3"; "3"; "-3"; "3"]);
d = mk_link(d, m12, 1, bxy, 1); d = mk_link(d, m21, 1, bxy, 2);
[d, bpl] = mk_add(d, "BPLATFORM", ["2"; "2"; "0.1"; "-5"; "5"; "0"; "15"]);
d = mk_link(d, s1, 1, bpl, 1); d = mk_link(d, s2, 1, bpl, 2);
[d, fs] = mk_add(d, "CFSCOPE", ["1 3 5 7 9 11 13 15"; "-1"; "[]"; "[600;400]"; "-3"; "3"; "30"; "2"; "[12 1 5 6 2 3]"]);
[d, cst] = mk_add(d, "CONST_m", ["[5;6]"]);
[d, ck] = mk_add(d, "SampleCLK", ["0.1"; "0"]);
d = mk_clk(d, ck, 1, xy, 1); d = mk_clk(d, ck, 1, xyz, 1); d = mk_clk(d, ck, 1, an, 1);
d = mk_clk(d, ck, 1, an3, 1); d = mk_clk(d, ck, 1, bar, 1); d = mk_clk(d, ck, 1, bxy, 1);
d = mk_clk(d, ck, 1, bpl, 1); d = mk_clk(d, ck, 1, fs, 1);
[d, ev] = mk_add(d, "CEVENTSCOPE", ["2"; "1 3"; "-1"; "[]"; "[600;400]"; "30"]);
[d, c1] = mk_add(d, "SampleCLK", ["0.4"; "0.1"]);
[d, c2] = mk_add(d, "SampleCLK", ["0.25"; "0.075"]);
d = mk_clk(d, c1, 1, ev, 1); d = mk_clk(d, c2, 1, ev, 2);
[d, au] = mk_add(d, "WRITEAU_f", ["2"; "0"]);   // recorded only: no audio here
d = mk_link(d, s1, 1, au, 1); d = mk_clk(d, ck, 1, au, 1);
// the autoscaling scopes; the second inherits its activation (heritance
// 1) from the two sample-and-holds feeding it, on clock c1
[d, sc] = mk_add(d, "SCALE_CSCOPE", ["1 3 5 7 9 11 13 15"; "-1"; "[]"; "[600;400]"; "-3"; "3"; "30"; "20"; "0"; ""; "1"]);
d = mk_link(d, s2, 1, sc, 1); d = mk_clk(d, ck, 1, sc, 1);
[d, h1] = mk_add(d, "SAMPHOLD_m", []);
d = mk_link(d, s1, 1, h1, 1); d = mk_clk(d, c1, 1, h1, 1);
[d, h2] = mk_add(d, "SAMPHOLD_m", []);
d = mk_link(d, m12, 1, h2, 1); d = mk_clk(d, c1, 1, h2, 1);
[d, sm] = mk_add(d, "SCALE_CMSCOPE", ["1 2"; "1 3 5"; "-1"; "[]"; "[]"; "-3 -3"; "3 3"; "30 30"; "20"; "1"; ""; "0"]);
d = mk_link(d, h1, 1, sm, 1); d = mk_link(d, h2, 1, sm, 2);
alreadyran = %f; // WRITEAU_f's dialog asks whether a simulation is running
mk_save(d, get_absolute_file_path("sinks_xy.sce") + "sinks_xy.xcos");
