// Test diagram for GOTO / FROM and their event forms, at the three
// visibilities (tests/unit/test_scilab_events.c, native replica tags.xml).
// Top level: a clock E (CLOCK_c 0.1 from 0) feeds a global CLKGOTO 'T';
// a sine feeds a local GOTO 'S'; a FROM 'S', and the two outputs of
// superblock SB1, go to a scope activated by a CLKFROM 'T'.
// SB1: GotoTagVisibility 'V' and CLKGotoTagVisibility 'W'; TIME_f feeds a
// scoped GOTO 'V'; a CLKFROM 'T' feeds a scoped CLKGOTO 'W'; a local GOTO
// 'S' fed by a constant 5 and a FROM 'S' (which must see 5, not the top
// level's sine) give output 2; superblock SB2 gives output 1.
// SB2: a CLKFROM 'W' activates a sample-and-hold of FROM 'V' (the time),
// times 3, to its output.
//   scilab -nw -f tags.sce   ->  tags.xcos;  xcos_ref.sh tags.xcos ref
loadXcosLibs(); loadScicos();
function d = add(d, o)
    o.graphics.sz = [40 40]; d.objs($+1) = o;
endfunction
function d = ev(d, f, fp, t, tp)
    d.objs($+1) = scicos_link(xx=[0;0], yy=[0;0], ct=[5,-1], from=[f fp 0], to=[t tp 1]);
endfunction
function d = dat(d, f, fp, t, tp)
    d.objs($+1) = scicos_link(xx=[0;0], yy=[0;0], ct=[1,1], from=[f fp 0], to=[t tp 1]);
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
function b = outport(k)
    b = OUT_f("define"); b.graphics.exprs = string(k); b.model.ipar = k;
endfunction
function sb = superblock(d, nout)
    sb = SUPER_f("define");
    m = sb.model; m.in = []; m.in2 = []; m.intyp = [];
    m.out = -ones(nout, 1); m.out2 = -2 * ones(nout, 1); m.outtyp = ones(nout, 1);
    m.rpar = d; sb.model = m;
    sb.graphics.pin = []; sb.graphics.pout = zeros(nout, 1);
    sb.graphics.in_implicit = []; sb.graphics.out_implicit = emptystr(nout, 1) + "E";
    sb.graphics.in_style = []; sb.graphics.out_style = emptystr(nout, 1);
    sb.graphics.in_label = []; sb.graphics.out_label = emptystr(nout, 1);
endfunction
// SB2
d2 = scicos_diagram();
d2 = add(d2, tagged("CLKFROM", "W", 0));                  // 1
d2 = add(d2, tagged("FROM", "V", 0));                     // 2
d2 = add(d2, SAMPHOLD_m("define"));                       // 3
g = GAINBLK("define"); g.graphics.exprs = ["3"; "0"]; g.model.rpar = 3;
d2 = add(d2, g);                                          // 4
d2 = add(d2, outport(1));                                 // 5
d2 = ev(d2, 1, 1, 3, 1);
d2 = dat(d2, 2, 1, 3, 1); d2 = dat(d2, 3, 1, 4, 1); d2 = dat(d2, 4, 1, 5, 1);
// SB1
d1 = scicos_diagram();
d1 = add(d1, tagged("GotoTagVisibility", "V", 0));        // 1
d1 = add(d1, tagged("CLKGotoTagVisibility", "W", 0));     // 2
d1 = add(d1, TIME_f("define"));                           // 3
d1 = add(d1, tagged("GOTO", "V", 2));                     // 4
d1 = add(d1, tagged("CLKFROM", "T", 0));                  // 5
d1 = add(d1, tagged("CLKGOTO", "W", 2));                  // 6
c = CONST_m("define"); c.graphics.exprs = "5"; c.model.rpar = []; c.model.opar = list(5);
d1 = add(d1, c);                                          // 7
d1 = add(d1, tagged("GOTO", "S", 1));                     // 8
d1 = add(d1, tagged("FROM", "S", 0));                     // 9
d1 = add(d1, superblock(d2, 1));                          // 10
d1 = add(d1, outport(1));                                 // 11
d1 = add(d1, outport(2));                                 // 12
d1 = dat(d1, 3, 1, 4, 1); d1 = ev(d1, 5, 1, 6, 1); d1 = dat(d1, 7, 1, 8, 1);
d1 = dat(d1, 10, 1, 11, 1); d1 = dat(d1, 9, 1, 12, 1);
// top
scs_m = scicos_diagram(); scs_m.props.tf = 3.05;
clk = CLOCK_c("define");
clk.model.rpar.objs(2).graphics.exprs = ["0.1"; "0"];
clk.model.rpar.objs(2).model.rpar = [0.1; 0]; clk.model.rpar.objs(2).model.firing = 0;
scs_m = add(scs_m, clk);                                  // 1
scs_m = add(scs_m, tagged("CLKGOTO", "T", 3));            // 2
G = GENSIN_f("define"); G.graphics.exprs = ["1"; "2"; "0"]; G.model.rpar = [1; 2; 0];
scs_m = add(scs_m, G);                                    // 3
scs_m = add(scs_m, tagged("GOTO", "S", 1));               // 4
scs_m = add(scs_m, tagged("FROM", "S", 0));               // 5
X = MUX("define"); X.graphics.exprs = "3";
m = X.model; m.in = -[1:3]'; m.in2 = ones(3, 1); m.intyp = ones(3, 1); m.ipar = 3; X.model = m;
X.graphics.pin = zeros(3, 1); X.graphics.in_implicit = emptystr(3, 1) + "E";
X.graphics.in_style = emptystr(3, 1); X.graphics.in_label = emptystr(3, 1);
scs_m = add(scs_m, X);                                    // 6
scs_m = add(scs_m, superblock(d1, 2));                    // 7
scs_m = add(scs_m, tagged("CLKFROM", "T", 0));            // 8
scs_m = add(scs_m, CSCOPE("define"));                     // 9
scs_m = ev(scs_m, 1, 1, 2, 1);
scs_m = dat(scs_m, 3, 1, 4, 1);
scs_m = dat(scs_m, 5, 1, 6, 1); scs_m = dat(scs_m, 7, 1, 6, 2); scs_m = dat(scs_m, 7, 2, 6, 3);
scs_m = dat(scs_m, 6, 1, 9, 1);
scs_m = ev(scs_m, 8, 1, 9, 1);
xcosDiagramToScilab(get_absolute_file_path("tags.sce") + "tags.xcos", scs_m);
exit
