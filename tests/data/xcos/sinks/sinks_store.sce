// The sinks of Xcos's Sinks palette that show or store values rather than
// curves (tests/unit/test_xcos_sinks.c): AFFICH_m, CMATVIEW and CMAT3D on
// a 2x3 random matrix (RAND_m, seeded: Scilab's generator), TRASH_f,
// TOWS_c and two WRITEC_f. Clock A (period 0.25) drives the random matrix
// and all sinks; clock B (period 0.5) activates TOWS_c too, at the same
// times as A (exact binary times), where TOWS_c keeps one sample per time;
// its buffer (5) wraps. The WRITEC_f write sinks_store_d.bin (doubles) and
// sinks_store_sb.bin (16-bit big endian of 1000 sin(t), truncated) in the
// current folder.
//   scilab -nw -f sinks_store.sce             (writes sinks_store.xcos)
//   xcos_ref.sh sinks_store.xcos ref_sinks_store     (Scilab's records)
//   scilab -nw -f tows_ref.sce                (TOWS_c's workspace variable)
exec(get_absolute_file_path("sinks_store.sce") + "../cont/mkdiagram.sci", -1);
d = mk_new(2.2);
[d, ca] = mk_add(d, "SampleCLK", ["0.25"; "0.25"]);
[d, cb] = mk_add(d, "SampleCLK", ["0.5"; "0.5"]);
[d, rm] = mk_add(d, "RAND_m", ["1"; "0"; "[1 2 3; 4 5 6]"; "[1 1 1; 2 2 2]"; "[4242 0]"]);
d = mk_clk(d, ca, 1, rm, 1);
[d, s1] = mk_add(d, "GENSIN_f", ["1"; "1"; "0"]);
[d, tm] = mk_add(d, "TIME_f", []);
[d, af] = mk_add(d, "AFFICH_m", ["[2,3]"; "1"; "1"; "1"; "8"; "3"; "0"]);
d = mk_link(d, rm, 1, af, 1); d = mk_clk(d, ca, 1, af, 1);
[d, mv] = mk_add(d, "CMATVIEW", ["jetcolormap(25)"; "1"; "7"]);
d = mk_link(d, rm, 1, mv, 1); d = mk_clk(d, ca, 1, mv, 1);
[d, m3] = mk_add(d, "CMAT3D", ["[1 2 3]"; "[1 2 3]"; "hotcolormap(12)"; "0"; "8"]);
d = mk_link(d, rm, 1, m3, 1); d = mk_clk(d, ca, 1, m3, 1);
[d, tr] = mk_add(d, "TRASH_f", []);
d = mk_link(d, tm, 1, tr, 1); d = mk_clk(d, ca, 1, tr, 1);
[d, sm] = mk_add(d, "CLKSOMV_f", []);
d = mk_clk(d, ca, 1, sm, 1); d = mk_clk(d, cb, 1, sm, 2);
[d, tw] = mk_add(d, "TOWS_c", ["5"; "A"; "0"]);
d = mk_link(d, rm, 1, tw, 1); d = mk_clk(d, sm, 1, tw, 1);
[d, mx] = mk_add(d, "MUX", ["2"]);
d = mk_link(d, tm, 1, mx, 1); d = mk_link(d, s1, 1, mx, 2);
[d, wd] = mk_add(d, "WRITEC_f", ["2"; "sinks_store_d.bin"; "d"; "3"; "0"]);
d = mk_link(d, mx, 1, wd, 1); d = mk_clk(d, ca, 1, wd, 1);
[d, g] = mk_add(d, "GAINBLK", ["1000"]);
d = mk_link(d, s1, 1, g, 1);
[d, ws] = mk_add(d, "WRITEC_f", ["1"; "sinks_store_sb.bin"; "sb"; "2"; "0"]);
d = mk_link(d, g, 1, ws, 1); d = mk_clk(d, ca, 1, ws, 1);
alreadyran = %f; // WRITEC_f's dialog asks whether a simulation is running
mk_save(d, get_absolute_file_path("sinks_store.sce") + "sinks_store.xcos");
