// Test diagram for Xcos's synchronous event routing and clock dates
// (tests/unit/test_scilab_events.c, native replica sync_routing.xml).
// A clock E (CLOCK_c, period 0.1 from 0) activates:
//  - M1 = Modulo_Count(0, 4) and IFTHEL_f I (event input, no zero
//    crossing) fed by M1: I's 'else' (count 0) and 'then' outputs activate
//    counters Melse, Mthen inside E's activation;
//  - freq_div F (phase 1, factor 3) activating counter Mfd;
//  - ESELECT_f E3 (3 outputs, event input) fed by M1, activating Msel1..3;
//  - CLKSOMV_f U1 joining I's two outputs -> counter Mu1 (once per tick);
//  - CLKSOMV_f U2 with both inputs from E -> counter Mu2 (Xcos merges: once
//    per tick);
//  - IFTHEL_f Iz (event input, zero crossing requested) fed by a sine of
//    5 rad/s, 'then' -> counter Mz: Xcos never watches Iz's surface, so Mz
//    counts ticks where the sine is > 0 only;
//  - the scope S recording all counters through a MUX.
// A clock F2 (CLOCK_f, period 0.1 from 0) activates counter Mf and scope S2:
// its dates accumulate t + 0.1 (S2's times).
//   scilab -nw -f sync_routing.sce   ->  sync_routing.xcos
//   xcos_ref.sh sync_routing.xcos ref
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
function b = counter(ini, base)
    b = Modulo_Count("define");
    b.graphics.exprs = [string(ini); string(base)];
    b.model.ipar = base; b.model.dstate = ini;
endfunction
scs_m = scicos_diagram();
scs_m.props.tf = 10.05;
clk = CLOCK_c("define");                                        // 1
clk.model.rpar.objs(2).graphics.exprs = ["0.1"; "0"];
clk.model.rpar.objs(2).model.rpar = [0.1; 0];
clk.model.rpar.objs(2).model.firing = 0;
scs_m = add(scs_m, clk);
scs_m = add(scs_m, counter(0, 4));                              // 2 M1
I = IFTHEL_f("define"); I.graphics.exprs = ["1"; "0"];
I.model.nzcross = 0; I.model.nmode = 0;
scs_m = add(scs_m, I);                                          // 3 I
scs_m = add(scs_m, counter(0, 1000));                           // 4 Melse
scs_m = add(scs_m, counter(0, 1000));                           // 5 Mthen
F = freq_div("define");                                         // 6 F
for i = 1:length(F.model.rpar.objs)
    o = F.model.rpar.objs(i);
    if typeof(o) == "Block" then
        if o.gui == "Modulo_Count" then
            o.graphics.exprs = ["1"; "3"]; o.model.ipar = 3; o.model.dstate = 1;
            F.model.rpar.objs(i) = o;
        end
    end
end
scs_m = add(scs_m, F);
scs_m = add(scs_m, counter(0, 1000));                           // 7 Mfd
E3 = ESELECT_f("define"); E3.graphics.exprs = ["3"; "1"; "0"];
m = E3.model; m.firing = [-1; -1; -1]; m.evtout = [1; 1; 1]; E3.model = m;
E3.graphics.peout = zeros(3, 1);
scs_m = add(scs_m, E3);                                         // 8 E3
for k = 1:3, scs_m = add(scs_m, counter(0, 1000)); end          // 9..11 Msel
scs_m = add(scs_m, CLKSOMV_f("define"));                        // 12 U1
scs_m = add(scs_m, counter(0, 1000));                           // 13 Mu1
scs_m = add(scs_m, CLKSOMV_f("define"));                        // 14 U2
scs_m = add(scs_m, counter(0, 1000));                           // 15 Mu2
G = GENSIN_f("define"); G.graphics.exprs = ["1"; "5"; "0"];
G.model.rpar = [1; 5; 0];
scs_m = add(scs_m, G);                                          // 16 G
Iz = IFTHEL_f("define"); Iz.graphics.exprs = ["1"; "1"];
scs_m = add(scs_m, Iz);                                         // 17 Iz
scs_m = add(scs_m, counter(0, 1000));                           // 18 Mz
X = MUX("define"); X.graphics.exprs = "9";
m = X.model; m.in = -[1:9]'; m.in2 = ones(9, 1); m.intyp = ones(9, 1); m.ipar = 9; X.model = m;
X.graphics.pin = zeros(9, 1); X.graphics.in_implicit = emptystr(9, 1) + "E"; X.graphics.in_style = emptystr(9, 1);
X.graphics.in_label = emptystr(9, 1);
scs_m = add(scs_m, X);                                          // 19 MUX
scs_m = add(scs_m, CSCOPE("define"));                           // 20 S
F2 = CLOCK_f("define");                                         // 21 F2
for i = 1:length(F2.model.rpar.objs)
    o = F2.model.rpar.objs(i);
    if typeof(o) == "Block" then
        if o.gui == "EVTDLY_f" then
            o.graphics.exprs = ["0.1"; "0"]; o.model.rpar = 0.1; o.model.firing = 0;
            F2.model.rpar.objs(i) = o;
        end
    end
end
scs_m = add(scs_m, F2);
scs_m = add(scs_m, counter(0, 1000));                           // 22 Mf
scs_m = add(scs_m, CSCOPE("define"));                           // 23 S2
// splits: E -> 8 targets (24..30), I.then (31), I.else (32), F2 (33)
for k = 24:33, scs_m = add(scs_m, CLKSPLIT_f("define")); end
targets = [2 1; 3 1; 6 1; 8 1; 14 1; 14 2; 17 1; 20 1];
scs_m = ev(scs_m, 1, 1, 24, 1);
for k = 1:6
    scs_m = ev(scs_m, 23 + k, 1, targets(k, 1), targets(k, 2));
    scs_m = ev(scs_m, 23 + k, 2, 24 + k, 1);
end
scs_m = ev(scs_m, 30, 1, targets(7, 1), targets(7, 2));
scs_m = ev(scs_m, 30, 2, targets(8, 1), targets(8, 2));
scs_m = ev(scs_m, 3, 1, 31, 1); scs_m = ev(scs_m, 31, 1, 5, 1); scs_m = ev(scs_m, 31, 2, 12, 1);
scs_m = ev(scs_m, 3, 2, 32, 1); scs_m = ev(scs_m, 32, 1, 4, 1); scs_m = ev(scs_m, 32, 2, 12, 2);
scs_m = ev(scs_m, 6, 1, 7, 1);
scs_m = ev(scs_m, 8, 1, 9, 1); scs_m = ev(scs_m, 8, 2, 10, 1); scs_m = ev(scs_m, 8, 3, 11, 1);
scs_m = ev(scs_m, 12, 1, 13, 1);
scs_m = ev(scs_m, 14, 1, 15, 1);
scs_m = ev(scs_m, 17, 1, 18, 1);
scs_m = ev(scs_m, 21, 1, 33, 1); scs_m = ev(scs_m, 33, 1, 22, 1); scs_m = ev(scs_m, 33, 2, 23, 1);
scs_m = dat(scs_m, 2, 1, 3, 1);
scs_m = dat(scs_m, 2, 1, 8, 1);
scs_m = dat(scs_m, 16, 1, 17, 1);
mux_in = [4 5 7 9 10 11 13 15 18];
for k = 1:9, scs_m = dat(scs_m, mux_in(k), 1, 19, k); end
scs_m = dat(scs_m, 19, 1, 20, 1);
scs_m = dat(scs_m, 22, 1, 23, 1);
xcosDiagramToScilab(get_absolute_file_path("sync_routing.sce") + "sync_routing.xcos", scs_m);
exit
