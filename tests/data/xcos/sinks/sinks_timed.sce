// Sinks that a file stores as time-dependent (dependsOnT, as older Scilab
// versions saved scopes): Xcos also calls them, without event bits, at
// every other event of the diagram (tests/unit/test_xcos_sinks.c). Clock A
// (period 0.25) activates a CSCOPE, an AFFICH_m, a TOWS_c, a WRITEC_f and
// a CFSCOPE reading sin t; clock B (period 0.3 from 0.13, never with A)
// activates a Counter. All five sinks are saved as time-dependent (dependsOnT="1").
// In Scilab, CFSCOPE's dialog sets dep_ut again (it is called at A only);
// the other four are also called at B's ticks: TOWS_c keeps a sample
// there, WRITEC_f writes nothing then.
//   scilab -nw -f sinks_timed.sce        (writes sinks_timed.xcos)
//   xcos_ref.sh sinks_timed.xcos ref_sinks_timed   (Scilab's records)
//   scilab -nw -f timed_ref.sce          (TOWS_c's variable, WRITEC_f's file)
exec(get_absolute_file_path("sinks_timed.sce") + "../cont/mkdiagram.sci", -1);
d = mk_new(2);
[d, ca] = mk_add(d, "SampleCLK", ["0.25"; "0"]);
[d, cb] = mk_add(d, "SampleCLK", ["0.3"; "0.13"]);
[d, s1] = mk_add(d, "GENSIN_f", ["1"; "1"; "0"]);
[d, n] = mk_add(d, "Counter", ["1"; "1000"; "1"]);
d = mk_clk(d, cb, 1, n, 1);
[d, sc] = mk_add(d, "CSCOPE", []);
d = mk_link(d, s1, 1, sc, 1); d = mk_clk(d, ca, 1, sc, 1);
[d, af] = mk_add(d, "AFFICH_m", ["[1,1]"; "1"; "1"; "1"; "8"; "3"; "0"]);
d = mk_link(d, s1, 1, af, 1); d = mk_clk(d, ca, 1, af, 1);
[d, tw] = mk_add(d, "TOWS_c", ["20"; "T"; "0"]);
d = mk_link(d, s1, 1, tw, 1); d = mk_clk(d, ca, 1, tw, 1);
[d, wd] = mk_add(d, "WRITEC_f", ["1"; "sinks_timed_d.bin"; "d"; "3"; "0"]);
d = mk_link(d, s1, 1, wd, 1); d = mk_clk(d, ca, 1, wd, 1);
[d, fs] = mk_add(d, "CFSCOPE", ["1 3 5 7 9 11 13 15"; "-1"; "[]"; "[600;400]"; "-2"; "2"; "30"; "2"; "1"]);
d = mk_clk(d, ca, 1, fs, 1);
alreadyran = %f; // WRITEC_f's dialog asks whether a simulation is running
f = get_absolute_file_path("sinks_timed.sce") + "sinks_timed.xcos";
mk_save(d, f);
// time-dependent in the file, as an older Scilab saved scopes (editing
// the loaded diagram instead detaches the blocks' links in Scilab 6.1)
t = mgetl(f);
for g = ["CSCOPE" "AFFICH_m" "TOWS_c" "WRITEC_f" "CFSCOPE"]
    k = grep(t, "interfaceFunctionName=""" + g + """");
    t(k) = strsubst(t(k), "dependsOnT=""0""", "dependsOnT=""1""");
end
mputl(t, f);
exit
