// Xcos's other continuous linear blocks (blocks/linear_f.c) driven by
// sin(t), with state jumps on a clock at 0.55 + k (not at a sample time:
// the order of simultaneous events is not what this tests); every output
// goes to one scope sampled every 0.1 s. Tolerances 1e-10 so that the two
// simulators' integration errors stay far below the test's 1e-6.
// Makes linear_f.xcos; reference: xcos_ref.sh linear_f.xcos ref_linear_f
exec(get_absolute_file_path("linear_f.sce") + "mkdiagram.sci", -1);
d = mk_new(5);
d.props.tol = [1e-10; 1e-10; 1e-10; 100001; 0; 1; 0];
[d, u] = mk_add(d, "GENSIN_f", ["1"; "1"; "0"]);
[d, ss] = mk_add(d, "CLSS_f", ["[0 1; -2 -0.5]"; "[0; 1]"; "[1 0; 0 1]"; "[0.5; 0]"; "[1; 0]"]);
d = mk_link(d, u, 1, ss, 1);
[d, tf] = mk_add(d, "CLR_f", ["2+s"; "1+1.5*s+s^2"]);
d = mk_link(d, u, 1, tf, 1);
[d, c3] = mk_add(d, "CONST_f", ["3"]);
[d, t1] = mk_add(d, "TCLSS", ["-1"; "1"; "2"; "0.5"; "1"]);
d = mk_link(d, u, 1, t1, 1); d = mk_link(d, c3, 1, t1, 2);
[d, c2] = mk_add(d, "CONST_f", ["[1; -1]"]);
[d, t2] = mk_add(d, "TCLSS_f", ["[-1 0; 0 -2]"; "[]"; "[1 1]"; "[]"; "[0; 1]"]);
d = mk_link(d, c2, 1, t2, 1);
[d, v] = mk_add(d, "GENSIN_f", ["1"; "1"; "%pi/2"]);   // cos(t)
[d, mx] = mk_add(d, "MUX_f", ["2"]);
d = mk_link(d, u, 1, mx, 1); d = mk_link(d, v, 1, mx, 2);
[d, it] = mk_add(d, "INTEGRAL", ["[0; 0]"; "0"; "1"; "[0.5; 1]"; "[-0.5; -0.2]"]);
d = mk_link(d, mx, 1, it, 1);
[d, itf] = mk_add(d, "INTEGRAL_f", ["1"]);
d = mk_link(d, u, 1, itf, 1);
[d, sh] = mk_add(d, "SAMPLEHOLD_f", []);
d = mk_link(d, u, 1, sh, 1);
[d, dv] = mk_add(d, "DERIV", []);
d = mk_link(d, u, 1, dv, 1);
[d, dum] = mk_add(d, "CLINDUMMY_f", []);
[d, sc] = mk_add(d, "CMSCOPE", ["2 1 1 1 2 1 1"; "1 3 5 7 9 11 13 15 17"; "-1"; "[]"; "[]"; ..
    "-3 -3 -3 -3 -3 -3 -3"; "3 3 3 3 3 3 3"; "30 30 30 30 30 30 30"; "20"; "0"; ""]);
d = mk_link(d, ss, 1, sc, 1); d = mk_link(d, tf, 1, sc, 2); d = mk_link(d, t1, 1, sc, 3);
d = mk_link(d, t2, 1, sc, 4); d = mk_link(d, it, 1, sc, 5); d = mk_link(d, itf, 1, sc, 6);
d = mk_link(d, sh, 1, sc, 7);
[d, sc2] = mk_add(d, "CSCOPE", []);
d = mk_link(d, dv, 1, sc2, 1);
[d, ck] = mk_add(d, "SampleCLK", ["0.1"; "0"]);
d = mk_clk(d, ck, 1, sc, 1); d = mk_clk(d, ck, 1, sc2, 1);
[d, jk] = mk_add(d, "SampleCLK", ["1"; "0.55"]);
d = mk_clk(d, jk, 1, t1, 1); d = mk_clk(d, jk, 1, t2, 1); d = mk_clk(d, jk, 1, sh, 1);
mk_save(d, get_absolute_file_path("linear_f.sce") + "linear_f.xcos");
