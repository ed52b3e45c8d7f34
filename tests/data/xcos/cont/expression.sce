// EXPRESSION (blocks/expression.c, expr_compile.c): expressions of three
// scalar inputs (with zero crossings, one of them integrated so that the
// located crossings matter) and of one vector input, a boolean-valued one,
// and Scilab's functions; dd comes from the context. Sampled every 0.1 s.
// Makes expression.xcos; reference: xcos_ref.sh expression.xcos ref_expression
exec(get_absolute_file_path("expression.sce") + "mkdiagram.sci", -1);
d = mk_new(5);
d.props.tol = [1e-10; 1e-10; 1e-10; 100001; 0; 1; 0];
d.props.context = ["dd = 0.4"];
[d, s] = mk_add(d, "GENSIN_f", ["1"; "1"; "0"]);
[d, c] = mk_add(d, "GENSIN_f", ["1"; "1"; "%pi/2"]);
[d, k2] = mk_add(d, "CONST_f", ["2"]);
[d, e1] = mk_add(d, "EXPRESSION", ["3"; "(u1>dd)*u2 + (u1<=dd)*u3"; "1"]);
d = mk_link(d, s, 1, e1, 1); d = mk_link(d, c, 1, e1, 2); d = mk_link(d, k2, 1, e1, 3);
[d, it] = mk_add(d, "INTEGRAL_f", ["0"]);
d = mk_link(d, e1, 1, it, 1);
[d, mx] = mk_add(d, "MUX_f", ["2"]);
d = mk_link(d, s, 1, mx, 1); d = mk_link(d, c, 1, mx, 2);
[d, e2] = mk_add(d, "EXPRESSION", ["1"; "max(u1,u2)*2 + abs(u1) - floor(3*u2) + u5"; "1"]);
d = mk_link(d, mx, 1, e2, 1);
[d, e3] = mk_add(d, "EXPRESSION", ["2"; "~(u1>0.3) | u2<-0.5"; "1"]);
d = mk_link(d, s, 1, e3, 1); d = mk_link(d, c, 1, e3, 2);
[d, e4] = mk_add(d, "EXPRESSION", ["2"; "u1^2 + log10(1+u2^2) - atan(u1)*tanh(u2) + 1e-1*%pi - -u1/2"; "0"]);
d = mk_link(d, s, 1, e4, 1); d = mk_link(d, c, 1, e4, 2);
[d, sc] = mk_add(d, "CMSCOPE", ["1 1 1 1 1"; "1 3 5 7 9"; "-1"; "[]"; "[]"; "-3 -3 -3 -3 -3"; "3 3 3 3 3"; "30 30 30 30 30"; "20"; "0"; ""]);
d = mk_link(d, e1, 1, sc, 1); d = mk_link(d, it, 1, sc, 2); d = mk_link(d, e2, 1, sc, 3);
d = mk_link(d, e3, 1, sc, 4); d = mk_link(d, e4, 1, sc, 5);
[d, ck] = mk_add(d, "SampleCLK", ["0.1"; "0"]);
d = mk_clk(d, ck, 1, sc, 1);
mk_save(d, get_absolute_file_path("expression.sce") + "expression.xcos");
