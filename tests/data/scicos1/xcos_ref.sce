// The Xcos side of the type-1 test: compiles xs_crossings1.c (the file
// blocksim's test plugin is built from) into Scilab, links it, and builds
// crossings1.xcos, whose generic_block3 calls it as a function of type 1.
// The reference CSV then comes from
//   XREF_PRELOAD=$XS_BUILD/loader.sce xcos_ref.sh crossings1.xcos ref_crossings1
// (run_refs.sh does all of it).
here = get_absolute_file_path("xcos_ref.sce");
exec(here + "../xcos/cont/mkdiagram.sci", -1);

build = getenv("XS_BUILD", TMPDIR + "/xs_blocks1");
mkdir(build);
copyfile(here + "../../plugins/xcos/xs_crossings1.c", build);
cd(build);
ilib_for_link("xs_crossings1", "xs_crossings1.c", [], "c");
exec(build + "/loader.sce", -1);

// generic_block3's dialog: function, type, in, intyp, out, outtyp, evtin,
// evtout, state, dstate, odstate, rpar, ipar, opar, nmode, nzcross,
// firing, feedthrough, always active.
e = ["xs_crossings1"; "1"; "[1 1]"; "1"; "[2 1]"; "1"; "[]"; "[]"; "0"; ..
     "[0; 0]"; "list()"; "0.5"; "[]"; "list()"; "0"; "1"; "[]"; "n"; "y"];
d = mk_new(10);
d.props.tol = [1e-12; 1e-10; 1e-10; 100001; 0; 0; 0];
[d, s] = mk_add(d, "GENSIN_f", ["1"; "1"; "0"]);
[d, c] = mk_add(d, "generic_block3", e);
d = mk_link(d, s, 1, c, 1);
[d, sc] = mk_add(d, "CSCOPE", []);
d = mk_link(d, c, 1, sc, 1);
[d, ck] = mk_add(d, "SampleCLK", ["0.1"; "0"]);
d = mk_clk(d, ck, 1, sc, 1);
mk_save(d, here + "crossings1.xcos");
