// Reference values for tests/unit/test_script.c: run with Scilab 6.1.1,
// xvfb-run -a scilab -nw -f context_ref.sce (prints name then values, %.17g).
format(25);
r = rand(5,1);
__v=[r]; mprintf("rand5"); mprintf(" %.17g", __v(:)); mprintf("\n");
A=[-.17,.03,.1;0,0,.2;0,0,.05];B=[1;2;3];C=[1,1,2;0,2,3];
dt=3; Ad=expm(dt*A);
__v=[Ad(:)]; mprintf("Ad"); mprintf(" %.17g", __v(:)); mprintf("\n");
iAd=inv(Ad);
__v=[iAd(:)]; mprintf("iAd"); mprintf(" %.17g", __v(:)); mprintf("\n");
A2=[-.3,3,1;0,0,2;0,0,0];x0=[-2;1;2];
L=-ppol(A2,B,-.7*ones(x0));
__v=[L(:)]; mprintf("L"); mprintf(" %.17g", __v(:)); mprintf("\n");
K=ppol(A2',C',-.7*ones(x0))';
__v=[K(:)]; mprintf("K"); mprintf(" %.17g", __v(:)); mprintf("\n");
K2=inv(Ad)*ppol(Ad',C',0*ones(x0))';
__v=[K2(:)]; mprintf("K2"); mprintf(" %.17g", __v(:)); mprintf("\n");
p = poly([1 2],'s','c'); __v=[coeff(p)]; mprintf("p"); mprintf(" %.17g", __v(:)); mprintf("\n");
s=%s; q=(1+s)*(2+s); __v=[coeff(q)]; mprintf("q"); mprintf(" %.17g", __v(:)); mprintf("\n");
mprintf("eye3 %d %d\n", size(eye(3)));
__v=[linspace(0,1,4)]; mprintf("lin"); mprintf(" %.17g", __v(:)); mprintf("\n");
__v=[modulo(-7,3), pmodulo(-7,3)]; mprintf("mod"); mprintf(" %.17g", __v(:)); mprintf("\n");
x = 0:0.1:1; mprintf("n %d\n", size(x,'*'));
M=[1 2 3;4 5 6]; v = M([1 2 3]); mprintf("shape %d %d\n", size(v));
v = M([1;2]); mprintf("shapec %d %d\n", size(v));

r = rand(5,1,'normal'); mprintf(" %.17g", r); mprintf("\n");
rand('seed', 0); rand('normal'); r = rand(1,3); mprintf(" %.17g", r(:)); mprintf("\n");

exit;
