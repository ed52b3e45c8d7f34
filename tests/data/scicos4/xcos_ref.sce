// The Xcos side of the type-4 tests: compiles the test blocks of
// tests/plugins/xcos/ (the same C files blocksim's plugin is built from)
// with Scilab's own scicos_block4.h, links them, and builds oscillator,
// satmode and runmean as .xcos diagrams whose generic_block3 blocks call
// them (GUI generic_block3). The reference CSVs then come from
//   XREF_PRELOAD=$XS_BUILD/loader.sce xcos_ref.sh X.xcos ref_X
// (run_refs.sh does all of it). Scilab integrates at rtol 1e-10,
// atol 1e-12, so that its own error stays far below the tests' tolerance.
here = get_absolute_file_path("xcos_ref.sce");
exec(here + "../xcos/cont/mkdiagram.sci", -1);

build = getenv("XS_BUILD", TMPDIR + "/xs_blocks");
mkdir(build);
names = ["xs_oscillator", "xs_satmode", "xs_runmean"];
for n = names
    copyfile(here + "../../plugins/xcos/" + n + ".c", build);
end
cd(build);
ilib_for_link(names, names + ".c", [], "c");
exec(build + "/loader.sce", -1);

// generic_block3's dialog: function, type, in, intyp, out, outtyp, evtin,
// evtout, state, dstate, odstate, rpar, ipar, opar, nmode, nzcross,
// firing, feedthrough, always active.
function e = generic(fn, inp, out, evtin, x0, rpar, ipar, nmode, nzc, depu, dept)
    e = [fn; "4"; inp; "1"; out; "1"; evtin; "[]"; x0; "[]"; "list()"; ..
         rpar; ipar; "list()"; nmode; nzc; "[]"; depu; dept];
endfunction

function d = tight(d)
    d.props.tol = [1e-12; 1e-10; 1e-10; 100001; 0; 0; 0];
endfunction

// oscillator: a unit step into xs_oscillator (w = 2, zeta = 0.25). Always
// active (dep_t), as a block with states must say in Xcos (CLSS does):
// otherwise Xcos never updates its outputs after the start.
d = tight(mk_new(10));
[d, u] = mk_add(d, "CONST_m", ["1"]);
[d, o] = mk_add(d, "generic_block3", generic("xs_oscillator", "[1 1]", ..
    "[2 1]", "[]", "[0; 0]", "[2; 0.25]", "[]", "0", "0", "n", "y"));
d = mk_link(d, u, 1, o, 1);
[d, sc] = mk_add(d, "CSCOPE", []);
d = mk_link(d, o, 1, sc, 1);
[d, ck] = mk_add(d, "SampleCLK", ["0.1"; "0"]);
d = mk_clk(d, ck, 1, sc, 1);
mk_save(d, here + "oscillator.xcos");

// satmode: sin(t) saturated at +-0.5 by xs_satmode, and its integral.
d = tight(mk_new(10));
[d, s] = mk_add(d, "GENSIN_f", ["1"; "1"; "0"]);
[d, st] = mk_add(d, "generic_block3", generic("xs_satmode", "[1 1]", ..
    "[1 1]", "[]", "[]", "[0.5; -0.5]", "[]", "1", "2", "y", "n"));
d = mk_link(d, s, 1, st, 1);
[d, it] = mk_add(d, "INTEGRAL_m", []);
d = mk_link(d, st, 1, it, 1);
[d, mx] = mk_add(d, "MUX", ["2"]);
d = mk_link(d, st, 1, mx, 1); d = mk_link(d, it, 1, mx, 2);
[d, sc] = mk_add(d, "CSCOPE", []);
d = mk_link(d, mx, 1, sc, 1);
[d, ck] = mk_add(d, "SampleCLK", ["0.1"; "0"]);
d = mk_clk(d, ck, 1, sc, 1);
mk_save(d, here + "satmode.xcos");

// runmean: the running mean of the time at ticks 0.25 + 0.5 k.
d = tight(mk_new(5));
[d, t] = mk_add(d, "TIME_f", []);
[d, m] = mk_add(d, "generic_block3", generic("xs_runmean", "[1 1]", ..
    "[1 1]", "1", "[]", "[]", "[]", "0", "0", "y", "n"));
d = mk_link(d, t, 1, m, 1);
[d, tk] = mk_add(d, "SampleCLK", ["0.5"; "0.25"]);
d = mk_clk(d, tk, 1, m, 1);
[d, sc] = mk_add(d, "CSCOPE", []);
d = mk_link(d, m, 1, sc, 1);
[d, ck] = mk_add(d, "SampleCLK", ["0.1"; "0"]);
d = mk_clk(d, ck, 1, sc, 1);
mk_save(d, here + "runmean.xcos");
