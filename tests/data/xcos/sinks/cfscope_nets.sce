// A floating scope (CFSCOPE) reading every element of every link buffer
// of a diagram whose links pass through split points, superblock ports
// and GOTO/FROM pairs (local, scoped and global), where Scilab's compiler
// numbers the buffers otherwise than the links' order in the file
// (diagrams/xcos/linknum.c; tests/unit/test_xcos_linknum.c): 12 buffers,
// two of which hold two elements; the scope reads all 14 elements. Every
// signal is a distinct constant, sine or gain of one, so a buffer read in
// the wrong place shows.
//   scilab -nw -f cfscope_nets.sce     (writes cfscope_nets.xcos)
//   xcos_ref.sh cfscope_nets.xcos ref_cfscope_nets   (Scilab's records)
loadXcosLibs(); loadScicos();
function d = add(d, o)
    o.graphics.sz = [40 40]; o.graphics.orig = [60 * length(d.objs), 0];
    d.objs($+1) = o;
endfunction
function d = ev(d, f, fp, t, tp)
    d.objs($+1) = scicos_link(xx=[0;0], yy=[0;0], ct=[5,-1], from=[f fp 0], to=[t tp 1]);
endfunction
function d = dat(d, f, fp, t, tp)
    d.objs($+1) = scicos_link(xx=[0;0], yy=[0;0], ct=[1,1], from=[f fp 0], to=[t tp 1]);
endfunction
function b = blk(gui, exprs)
    execstr("b = " + gui + "(""define"");");
    if exprs <> [] then b.graphics.exprs = exprs; end
endfunction
function b = tagged(gui, tag, vis)
    execstr("b = " + gui + "(""define"");");
    if vis > 0 then
        b.graphics.exprs = [tag; string(vis)]; b.model.ipar = vis;
    else
        b.graphics.exprs = tag;
    end
    b.model.opar = list(tag);
endfunction
function b = port(gui, k)
    execstr("b = " + gui + "(""define"");");
    b.graphics.exprs = string(k); b.model.ipar = k;
endfunction
function sb = superblock(d, nin, nout)
    sb = SUPER_f("define");
    m = sb.model;
    m.in = -ones(nin, 1); m.in2 = -2 * ones(nin, 1); m.intyp = ones(nin, 1);
    m.out = -ones(nout, 1); m.out2 = -2 * ones(nout, 1); m.outtyp = ones(nout, 1);
    m.rpar = d; sb.model = m;
    sb.graphics.pin = zeros(nin, 1); sb.graphics.pout = zeros(nout, 1);
    sb.graphics.in_implicit = emptystr(nin, 1) + "E"; sb.graphics.out_implicit = emptystr(nout, 1) + "E";
    sb.graphics.in_style = emptystr(nin, 1); sb.graphics.out_style = emptystr(nout, 1);
    sb.graphics.in_label = emptystr(nin, 1); sb.graphics.out_label = emptystr(nout, 1);
endfunction
function s = split(n)
    s = SPLIT_f("define"); s.model.out = -ones(n, 1); s.graphics.pout = zeros(n, 1);
    s.graphics.out_implicit = emptystr(n, 1) + "E"; s.graphics.out_style = emptystr(n, 1);
    s.graphics.out_label = emptystr(n, 1);
endfunction
// Inner superblock SB2: FROM 'Q' (scoped in SB1), gain 3, out 1
d2 = scicos_diagram();
d2 = add(d2, port("OUT_f", 1));                           // 1
d2 = add(d2, blk("GAINBLK", ["3"; "0"]));                 // 2
d2 = add(d2, tagged("FROM", "Q", 0));                     // 3
d2 = dat(d2, 2, 1, 1, 1); d2 = dat(d2, 3, 1, 2, 1);
// SB1: in 1 (split to a gain -1 -> out 1 and to a sum), in 2 (to the sum
// -> out 2), a scoped GOTO 'Q' of a constant 7, SB2, a FROM 'P' (global)
// times 100 whose output feeds nothing
d1 = scicos_diagram();
d1 = add(d1, port("IN_f", 2));                            // 1
d1 = add(d1, blk("SUMMATION", ["1"; "[1;1]"; "0"]));      // 2
d1 = add(d1, split(2));                                   // 3
d1 = add(d1, blk("GAINBLK", ["-1"; "0"]));                // 4
d1 = add(d1, port("OUT_f", 2));                           // 5
d1 = add(d1, port("IN_f", 1));                            // 6
d1 = add(d1, port("OUT_f", 1));                           // 7
d1 = add(d1, tagged("GotoTagVisibility", "Q", 0));        // 8
d1 = add(d1, blk("CONST_m", "7"));                        // 9
d1 = add(d1, tagged("GOTO", "Q", 2));                     // 10
d1 = add(d1, superblock(d2, 0, 1));                       // 11
d1 = add(d1, tagged("FROM", "P", 0));                     // 12
d1 = add(d1, blk("GAINBLK", ["100"; "0"]));               // 13
d1 = add(d1, port("OUT_f", 3));                           // 14
d1 = dat(d1, 2, 1, 5, 1);
d1 = dat(d1, 6, 1, 3, 1); d1 = dat(d1, 3, 1, 4, 1); d1 = dat(d1, 3, 2, 2, 1);
d1 = dat(d1, 1, 1, 2, 2); d1 = dat(d1, 4, 1, 7, 1);
d1 = dat(d1, 9, 1, 10, 1); d1 = dat(d1, 12, 1, 13, 1); d1 = dat(d1, 11, 1, 14, 1);
// top level
scs_m = scicos_diagram(); scs_m.props.tf = 1.05;
clk = CLOCK_c("define");
clk.model.rpar.objs(2).graphics.exprs = ["0.1"; "0"];
clk.model.rpar.objs(2).model.rpar = [0.1; 0]; clk.model.rpar.objs(2).model.firing = 0;
scs_m = add(scs_m, clk);                                  // 1
scs_m = add(scs_m, blk("GENSIN_f", ["1"; "1"; "0"]));     // 2 sin t
scs_m = add(scs_m, blk("GENSIN_f", ["2"; "3"; "0"]));     // 3 2 sin 3t
scs_m = add(scs_m, split(3));                             // 4
scs_m = add(scs_m, blk("GAINBLK", ["10"; "0"]));          // 5
scs_m = add(scs_m, superblock(d1, 2, 3));                 // 6
scs_m = add(scs_m, tagged("GOTO", "P", 3));               // 7
scs_m = add(scs_m, blk("CONST_m", "[42; 43]"));           // 8 feeds nothing
scs_m = add(scs_m, blk("MUX", "2"));                      // 9
scs_m = add(scs_m, split(2));                             // 10
scs_m = add(scs_m, blk("GAINBLK", ["0.5"; "0"]));         // 11
scs_m = add(scs_m, blk("CFSCOPE", ["1 3 5 7 9 11 13 15"; "-1"; "[]"; "[600;400]"; "-100"; "100"; "30"; "2"; "1:14"]));  // 12
scs_m = add(scs_m, tagged("GOTO", "R", 1));               // 13
scs_m = add(scs_m, tagged("FROM", "R", 0));               // 14
scs_m = add(scs_m, blk("GAINBLK", ["-2"; "0"]));          // 15
scs_m = dat(scs_m, 11, 1, 13, 1);
scs_m = dat(scs_m, 10, 1, 11, 1);
scs_m = dat(scs_m, 2, 1, 4, 1);
scs_m = dat(scs_m, 4, 1, 5, 1); scs_m = dat(scs_m, 4, 2, 6, 1); scs_m = dat(scs_m, 4, 3, 7, 1);
scs_m = dat(scs_m, 3, 1, 6, 2);
scs_m = dat(scs_m, 6, 1, 9, 1); scs_m = dat(scs_m, 6, 2, 10, 1); scs_m = dat(scs_m, 10, 2, 9, 2);
scs_m = dat(scs_m, 14, 1, 15, 1);
scs_m = ev(scs_m, 1, 1, 12, 1);
xcosDiagramToScilab(get_absolute_file_path("cfscope_nets.sce") + "cfscope_nets.xcos", scs_m);
exit
