// BOUNCE (blocks/bounce.c): three balls of different masses and radii in
// a box with drag, over 4 s (a few dozen collisions), positions sampled
// every 0.02 s. Tolerances 1e-10 in both simulators so that the located
// collision instants agree closely.
// Makes bounce.xcos; reference: xcos_ref.sh bounce.xcos ref_bounce
exec(get_absolute_file_path("bounce.sce") + "mkdiagram.sci", -1);
d = mk_new(4);
d.props.tol = [1e-10; 1e-10; 1e-10; 100001; 0; 1; 0];
[d, b] = mk_add(d, "BOUNCE", ["[1;2;1.5]"; "[0.3;0.5;0.4]"; "[0;5;0;5]"; "[1;2.5;4]"; "[1;-0.5;0.3]"; ..
    "[3;1;4]"; "[0;2;-1]"; "9.81"; "0.1"]);
[d, sc] = mk_add(d, "CMSCOPE", ["3 3"; "1 3 5 7 9 11"; "-1"; "[]"; "[]"; "0 0"; "5 5"; "30 30"; "20"; "0"; ""]);
d = mk_link(d, b, 1, sc, 1); d = mk_link(d, b, 2, sc, 2);
[d, ck] = mk_add(d, "SampleCLK", ["0.02"; "0"]);
d = mk_clk(d, ck, 1, sc, 1);
mk_save(d, get_absolute_file_path("bounce.sce") + "bounce.xcos");
