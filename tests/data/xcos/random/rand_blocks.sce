// Test diagram for RAND_f and RAND_m (tests/unit/test_xcos_events.c):
// a clock (period 0.5, first tick 0.25) activates three random blocks and
// three scopes that record them.
//   scilab -nw -f rand_blocks.sce        (writes rand_blocks.xcos here)
//   xcos_ref.sh rand_blocks.xcos ref     (Scilab's records: ref/*.csv)
loadXcosLibs(); loadScicos();
function d = add(d, o)
    d.objs($+1) = o;
endfunction
function d = evlink(d, from, to)   // from = [block port], to = [block port]
    d.objs($+1) = scicos_link(xx=[0;0], yy=[0;0], ct=[5,-1], from=[from 0], to=[to 1]);
endfunction
function d = datalink(d, from, to)
    d.objs($+1) = scicos_link(xx=[0;0], yy=[0;0], ct=[1,1], from=[from 0], to=[to 1]);
endfunction
scs_m = scicos_diagram();
scs_m.props.tf = 5;
clk = CLOCK_c("define");                                           // 1
clk.model.rpar.objs(2).graphics.exprs = ["0.5"; "0.25"];
clk.model.rpar.objs(2).model.rpar = [0.5; 0.25];
clk.model.rpar.objs(2).model.firing = 0.25;
clk.graphics.sz = [40 40]; clk.graphics.orig = [0 0];
scs_m = add(scs_m, clk);
um = RAND_m("define");                                             // 2
um.graphics.exprs = ["1"; "0"; "[1;-2]"; "[2;3]"; "[12345 0]"];
um.model.out = 2; um.model.out2 = 1;
um.model.rpar = [1; -2; 2; 3]; um.model.dstate = [12345; 0; 0]; um.model.ipar = 0;
scs_m = add(scs_m, um);
nm = RAND_m("define");                                             // 3
nm.graphics.exprs = ["1"; "1"; "[0;1]"; "[1;2]"; "[99 0]"];
nm.model.out = 2; nm.model.out2 = 1;
nm.model.rpar = [0; 1; 1; 2]; nm.model.dstate = [99; 0; 0]; nm.model.ipar = 1;
scs_m = add(scs_m, nm);
nf = RAND_f("define");                                             // 4
nf.graphics.exprs = ["1"; "[0.5;1]"; "[2;0.1]"; "7"];
nf.model.out = 2;
nf.model.rpar = [0.5; 1; 2; 0.1]; nf.model.dstate = [7; 0; 0]; nf.model.ipar = 1;
scs_m = add(scs_m, nf);
for k = 1:3                                                        // 5, 6, 7
    sc = CSCOPE("define");
    scs_m = add(scs_m, sc);
end
for k = 1:5                                                        // 8 .. 12
    scs_m = add(scs_m, CLKSPLIT_f("define"));
end
// clock -> split 8 -> (2, split 9); 9 -> (3, split 10); 10 -> (4, split 11);
// 11 -> (5, split 12); 12 -> (6, 7)
scs_m = evlink(scs_m, [1 1], [8 1]);
scs_m = evlink(scs_m, [8 1], [2 1]);  scs_m = evlink(scs_m, [8 2], [9 1]);
scs_m = evlink(scs_m, [9 1], [3 1]);  scs_m = evlink(scs_m, [9 2], [10 1]);
scs_m = evlink(scs_m, [10 1], [4 1]); scs_m = evlink(scs_m, [10 2], [11 1]);
scs_m = evlink(scs_m, [11 1], [5 1]); scs_m = evlink(scs_m, [11 2], [12 1]);
scs_m = evlink(scs_m, [12 1], [6 1]); scs_m = evlink(scs_m, [12 2], [7 1]);
scs_m = datalink(scs_m, [2 1], [5 1]);
scs_m = datalink(scs_m, [3 1], [6 1]);
scs_m = datalink(scs_m, [4 1], [7 1]);
xcosDiagramToScilab(get_absolute_file_path("rand_blocks.sce") + "rand_blocks.xcos", scs_m);
exit
