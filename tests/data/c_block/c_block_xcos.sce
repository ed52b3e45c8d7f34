// An Xcos diagram with a c_block made by the c_block macro: a type-1 C
// function (K&R, as c_block's template) with tau x' = u - x and output
// y = a x + b (rpar = [tau a b] = [0.5 2 1]) on a unit step, recorded
// every 0.1 s, so y = 3 - 2 exp(-2 t). Makes c_block.xcos. The test
// compares with that closed form.
here = get_absolute_file_path("c_block_xcos.sce");
exec(here + "../xcos/cont/mkdiagram.sci", -1);
d = mk_new(2);
d.props.tol = [1e-12; 1e-10; 1e-10; 100001; 0; 0; 0];
[d, u] = mk_add(d, "CONST_m", ["1"]);
[d, c] = mk_add(d, "c_block", []);
code = ["#include <machine.h>"
        "#include <math.h>"
        "void xcos_affine_lag(flag,nevprt,t,xd,x,nx,z,nz,tvec,"
        "             ntvec,rpar,nrpar,ipar,nipar"
        "      ,u1,nu1,y1,ny1)"
        ""
        "      double *t,xd[],x[],z[],tvec[];"
        "      int *flag,*nevprt,*nx,*nz,*ntvec,*nrpar,ipar[],*nipar,*nu1,*ny1;"
        "      double rpar[],u1[],y1[];"
        "/* modify below this line */"
        "{"
        "  if (*flag == 0)"
        "    xd[0] = (u1[0] - x[0]) / rpar[0];"
        "  else if (*flag == 1 || *flag == 6)"
        "    y1[0] = rpar[1] * x[0] + rpar[2];"
        "}"];
// c_block's dialog: input sizes, output sizes, rpar, function name
b = d.objs(c);
b.graphics.exprs = list(["1"; "1"; "[0.5 2 1]"; "xcos_affine_lag"], code);
b.model.sim = list("xcos_affine_lag", 2001);
b.model.state = 0;
b.model.rpar = [0.5; 2; 1];
b.model.dep_ut = [%f %t];
d.objs(c) = b;
d = mk_link(d, u, 1, c, 1);
[d, sc] = mk_add(d, "CSCOPE", []);
d = mk_link(d, c, 1, sc, 1);
[d, ck] = mk_add(d, "SampleCLK", ["0.1"; "0"]);
d = mk_clk(d, ck, 1, sc, 1);
xcosDiagramToScilab(here + "c_block.xcos", d);
