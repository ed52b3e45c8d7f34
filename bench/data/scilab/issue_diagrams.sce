// The four diagrams of issue 12, built with Scilab's own block macros and
// saved as .xcos, so that Scilab and blocksim run the very same files
// (bench/scilab). Run from this folder:
//   xvfb-run -a scilab -nw -quit -f issue_diagrams.sce
// Solver code 0 (LSodar) everywhere: Scilab's fastest integrator on these
// ODE diagrams, the one to beat.
here = get_absolute_file_path("issue_diagrams.sce");
exec(here + "../../../tests/data/xcos/cont/mkdiagram.sci", -1);

// A sampled-data loop: a PI controller (DLR, z-domain) on a 0.01 s clock
// tracks a sine through a zero-order hold (SAMPHOLD_m) around the plant
// 1/(s+1); every tick changes the plant's input.
d = mk_new(100);
d.props.tol = [1e-10; 1e-8; 1e-10; 100001; 0; 0; 0];
[d, r] = mk_add(d, "GENSIN_f", ["1"; "1"; "0"]);
[d, e] = mk_add(d, "SUMMATION", ["1"; "[1;-1]"; "0"]);
[d, c] = mk_add(d, "DLR", ["2.03*z-2"; "z-1"]);
[d, h] = mk_add(d, "SAMPHOLD_m", ["1"]);
[d, p] = mk_add(d, "CLR", ["1"; "1+s"]);
[d, sc] = mk_add(d, "CMSCOPE", ["1 1"; "1 3"; "-1"; "[]"; "[]"; "-2 -2"; "2 2"; "30 30"; "20"; "0"; ""]);
[d, ck] = mk_add(d, "SampleCLK", ["0.01"; "0"]);
d = mk_link(d, r, 1, e, 1); d = mk_link(d, p, 1, e, 2);
d = mk_link(d, e, 1, c, 1); d = mk_link(d, c, 1, h, 1);
d = mk_link(d, h, 1, p, 1);
d = mk_link(d, p, 1, sc, 1); d = mk_link(d, h, 1, sc, 2);
d = mk_clk(d, ck, 1, c, 1); d = mk_clk(d, ck, 1, h, 1);
d = mk_clk(d, ck, 1, sc, 1);
mk_save(d, here + "sampled_loop.xcos");

// Lorenz: x' = 10 (y - x), y' = x (28 - z) - y, z' = x y - 8/3 z, to t = 30.
d = mk_new(30);
d.props.tol = [1e-10; 1e-8; 1e-10; 100001; 0; 0; 0];
[d, x] = mk_add(d, "INTEGRAL_m", ["1"; "0"; "0"; "1"; "-1"]);
[d, y] = mk_add(d, "INTEGRAL_m", ["1"; "0"; "0"; "1"; "-1"]);
[d, z] = mk_add(d, "INTEGRAL_m", ["1"; "0"; "0"; "1"; "-1"]);
[d, dx] = mk_add(d, "SUMMATION", ["1"; "[1;-1]"; "0"]);
[d, gx] = mk_add(d, "GAINBLK", ["10"]);
[d, rz] = mk_add(d, "SUMMATION", ["1"; "[-1;1]"; "0"]);
[d, c28] = mk_add(d, "CONST_m", ["28"]);
[d, pxz] = mk_add(d, "PRODUCT", ["[1;1]"]);
[d, dy] = mk_add(d, "SUMMATION", ["1"; "[1;-1]"; "0"]);
[d, pxy] = mk_add(d, "PRODUCT", ["[1;1]"]);
[d, bz] = mk_add(d, "GAINBLK", ["8/3"]);
[d, dz] = mk_add(d, "SUMMATION", ["1"; "[1;-1]"; "0"]);
[d, sc] = mk_add(d, "CMSCOPE", ["1 1 1"; "1 3 5"; "-1"; "[]"; "[]"; "-30 -30 0"; "30 30 50"; "30 30 30"; "20"; "0"; ""]);
[d, ck] = mk_add(d, "SampleCLK", ["0.03"; "0"]);
d = mk_link(d, y, 1, dx, 1); d = mk_link(d, x, 1, dx, 2);
d = mk_link(d, dx, 1, gx, 1); d = mk_link(d, gx, 1, x, 1);
d = mk_link(d, z, 1, rz, 1); d = mk_link(d, c28, 1, rz, 2);
d = mk_link(d, x, 1, pxz, 1); d = mk_link(d, rz, 1, pxz, 2);
d = mk_link(d, pxz, 1, dy, 1); d = mk_link(d, y, 1, dy, 2);
d = mk_link(d, dy, 1, y, 1);
d = mk_link(d, x, 1, pxy, 1); d = mk_link(d, y, 1, pxy, 2);
d = mk_link(d, z, 1, bz, 1);
d = mk_link(d, pxy, 1, dz, 1); d = mk_link(d, bz, 1, dz, 2);
d = mk_link(d, dz, 1, z, 1);
d = mk_link(d, x, 1, sc, 1); d = mk_link(d, y, 1, sc, 2); d = mk_link(d, z, 1, sc, 3);
d = mk_clk(d, ck, 1, sc, 1);
mk_save(d, here + "lorenz.xcos");

// Van der Pol, mu = 10 (stiff in its relaxation phases):
// x'' = mu (1 - x^2) x' - x, x(0) = 2, x'(0) = 0, to t = 100.
d = mk_new(100);
d.props.tol = [1e-10; 1e-8; 1e-10; 100001; 0; 0; 0];
[d, x] = mk_add(d, "INTEGRAL_m", ["2"; "0"; "0"; "1"; "-1"]);
[d, v] = mk_add(d, "INTEGRAL_m", ["0"; "0"; "0"; "1"; "-1"]);
[d, x2] = mk_add(d, "PRODUCT", ["[1;1]"]);
[d, one] = mk_add(d, "CONST_m", ["1"]);
[d, om] = mk_add(d, "SUMMATION", ["1"; "[1;-1]"; "0"]);
[d, pv] = mk_add(d, "PRODUCT", ["[1;1]"]);
[d, mu] = mk_add(d, "GAINBLK", ["10"]);
[d, acc] = mk_add(d, "SUMMATION", ["1"; "[1;-1]"; "0"]);
[d, sc] = mk_add(d, "CMSCOPE", ["1 1"; "1 3"; "-1"; "[]"; "[]"; "-3 -20"; "3 20"; "30 30"; "20"; "0"; ""]);
[d, ck] = mk_add(d, "SampleCLK", ["0.1"; "0"]);
d = mk_link(d, v, 1, x, 1);
d = mk_link(d, x, 1, x2, 1); d = mk_link(d, x, 1, x2, 2);
d = mk_link(d, one, 1, om, 1); d = mk_link(d, x2, 1, om, 2);
d = mk_link(d, om, 1, pv, 1); d = mk_link(d, v, 1, pv, 2);
d = mk_link(d, pv, 1, mu, 1);
d = mk_link(d, mu, 1, acc, 1); d = mk_link(d, x, 1, acc, 2);
d = mk_link(d, acc, 1, v, 1);
d = mk_link(d, x, 1, sc, 1); d = mk_link(d, v, 1, sc, 2);
d = mk_clk(d, ck, 1, sc, 1);
mk_save(d, here + "vanderpol.xcos");

// A bouncing ball: v' = -9.81, h' = v; when h falls through 0 (POSTONEG_f)
// v is re-initialised to -0.8 v (INTEGRAL_m with re-initialisation).
// The bounces pile up at t = 12.85 s; the run ends at 10 s.
d = mk_new(10);
d.props.tol = [1e-10; 1e-8; 1e-10; 100001; 0; 0; 0];
[d, g] = mk_add(d, "CONST_m", ["-9.81"]);
[d, v] = mk_add(d, "INTEGRAL_m", ["0"; "1"; "0"; "1"; "-1"]);
[d, h] = mk_add(d, "INTEGRAL_m", ["10"; "0"; "0"; "1"; "-1"]);
[d, reb] = mk_add(d, "GAINBLK", ["-0.8"]);
[d, fl] = mk_add(d, "POSTONEG_f", []);
[d, sc] = mk_add(d, "CMSCOPE", ["1 1"; "1 3"; "-1"; "[]"; "[]"; "0 -20"; "12 20"; "30 30"; "20"; "0"; ""]);
[d, ck] = mk_add(d, "SampleCLK", ["0.01"; "0"]);
d = mk_link(d, g, 1, v, 1);
d = mk_link(d, v, 1, reb, 1); d = mk_link(d, reb, 1, v, 2);
d = mk_link(d, v, 1, h, 1); d = mk_link(d, h, 1, fl, 1);
d = mk_link(d, h, 1, sc, 1); d = mk_link(d, v, 1, sc, 2);
d = mk_clk(d, fl, 1, v, 1);
d = mk_clk(d, ck, 1, sc, 1);
mk_save(d, here + "bouncing_ball.xcos");
exit(0);
