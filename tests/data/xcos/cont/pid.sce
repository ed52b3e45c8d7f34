// PID (blocks/linear_f.c): Xcos's PID superblock (P = 2, I = 1, D = 0.1)
// controlling 1/(s+1) toward the set point 1; the error, the command
// and the output are sampled every 0.05 s.
// Makes pid.xcos; reference: xcos_ref.sh pid.xcos ref_pid
exec(get_absolute_file_path("pid.sce") + "mkdiagram.sci", -1);
d = mk_new(8);
d.props.tol = [1e-10; 1e-10; 1e-10; 100001; 0; 1; 0];
[d, r] = mk_add(d, "CONST_f", ["1"]);
[d, e] = mk_add(d, "SUMMATION", ["1"; "[1;-1]"; "0"]);
// the gains live in the superblock's GAINBLKs (objects 3, 5, 6 of PID's
// own diagram: to the sum, to the integrator, to DERIV)
[d, c] = mk_add(d, "PID", []);
g = [3 2; 5 1; 6 0.1];
for k = 1:3
    d.objs(c).model.rpar.objs(g(k, 1)).graphics.exprs = string(g(k, 2));
end
[d, p] = mk_add(d, "CLR", ["1"; "1+s"]);
// unit gains around the superblock: Scilab 6.1 fails on a diagram whose
// links fan out at a superblock's ports once exported (generic_i_s)
[d, ge] = mk_add(d, "GAINBLK", ["1"]);
[d, gc] = mk_add(d, "GAINBLK", ["1"]);
d = mk_link(d, r, 1, e, 1); d = mk_link(d, p, 1, e, 2);
d = mk_link(d, e, 1, ge, 1); d = mk_link(d, ge, 1, c, 1);
d = mk_link(d, c, 1, gc, 1); d = mk_link(d, gc, 1, p, 1);
[d, sc] = mk_add(d, "CMSCOPE", ["1 1 1"; "1 3 5"; "-1"; "[]"; "[]"; "-5 -5 -5"; "5 5 5"; "30 30 30"; "20"; "0"; ""]);
d = mk_link(d, e, 1, sc, 1); d = mk_link(d, gc, 1, sc, 2); d = mk_link(d, p, 1, sc, 3);
[d, ck] = mk_add(d, "SampleCLK", ["0.05"; "0.01"]);
d = mk_clk(d, ck, 1, sc, 1);
mk_save(d, get_absolute_file_path("pid.sce") + "pid.xcos");
