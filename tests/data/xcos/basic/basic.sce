// Builds basic.xcos: a sine through a gain inside a superblock into an
// integrator, both recorded by one CMSCOPE on a 0.1 s clock. Closed form:
// y(t) = 1 + 2*(1 - cos(3 t)). Run: scilab -nw -f basic.sce
loadXcosLibs(); loadScicos();

// inner diagram of the superblock: IN_f -> GAINBLK(3) -> OUT_f
inner = scicos_diagram();
i1 = IN_f("define");
g = GAINBLK("define"); g.graphics.exprs = ["3"; "0"]; g.model.rpar = 3;
o1 = OUT_f("define");
inner.objs(1) = i1; inner.objs(2) = g; inner.objs(3) = o1;
inner.objs(4) = scicos_link(xx=[0;0], yy=[0;0], ct=[1,1], from=[1,1,0], to=[2,1,1]);
inner.objs(5) = scicos_link(xx=[0;0], yy=[0;0], ct=[1,1], from=[2,1,0], to=[3,1,1]);

sb = SUPER_f("define");
sb.model.rpar = inner;
sb.model.in = -1; sb.model.in2 = -2; sb.model.out = -1; sb.model.out2 = -2;
sb.graphics.pin = 0; sb.graphics.pout = 0;
sb.graphics.id = "times3";

s = GENSIN_f("define");
s.graphics.exprs = ["2"; "3"; "0"]; s.model.rpar = [2; 3; 0];
sp = SPLIT_f("define");
it = INTEGRAL_m("define");
it.graphics.exprs = ["1"; "0"; "0"; "1"; "-1"]; it.model.state = 1;
sc = CMSCOPE("define");
sc.graphics.exprs = ["1 1"; "1 3 5 7 9 11 13 15"; "-1"; "[]"; "[]"; "-5 -5"; "5 5"; "30 30"; "20"; "0"; ""];
sc.graphics.id = "scope";
ck = CLOCK_c("define");
// period 0.1, first tick at 0: the clock's own EVTDLY_c holds them
for k = 1:size(ck.model.rpar.objs)
  o = ck.model.rpar.objs(k);
  if typeof(o) == "Block" & o.gui == "EVTDLY_c" then
    o.graphics.exprs = ["0.1"; "0"]; o.model.rpar = [0.1; 0]; o.model.firing = 0;
    ck.model.rpar.objs(k) = o;
  end
end
ck.model.firing = 0;

scs_m = scicos_diagram();
scs_m.props.tf = 2;
scs_m.objs(1) = s;
scs_m.objs(2) = sp;
scs_m.objs(3) = sb;
scs_m.objs(4) = it;
scs_m.objs(5) = sc;
scs_m.objs(6) = ck;
scs_m.objs(7) = scicos_link(xx=[0;0], yy=[0;0], ct=[1,1], from=[1,1,0], to=[2,1,1]);
scs_m.objs(8) = scicos_link(xx=[0;0], yy=[0;0], ct=[1,1], from=[2,1,0], to=[3,1,1]);
scs_m.objs(9) = scicos_link(xx=[0;0], yy=[0;0], ct=[1,1], from=[2,2,0], to=[5,2,1]);
scs_m.objs(10) = scicos_link(xx=[0;0], yy=[0;0], ct=[1,1], from=[3,1,0], to=[4,1,1]);
scs_m.objs(11) = scicos_link(xx=[0;0], yy=[0;0], ct=[1,1], from=[4,1,0], to=[5,1,1]);
scs_m.objs(12) = scicos_link(xx=[0;0], yy=[0;0], ct=[5,-1], from=[6,1,0], to=[5,1,1]);
xcosDiagramToScilab("basic.xcos", scs_m);
xcosDiagramToScilab("basic.zcos", scs_m);
exit;
