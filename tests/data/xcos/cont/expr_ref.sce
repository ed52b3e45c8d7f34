// EXPRESSION's compiled code (ipar, rpar, nzcross) as Xcos's dialog makes
// it, for expressions of three inputs in a context with dd = 0.25 and
// kk = 3, zero crossings on: writes expr_ref.txt ("EXPR text", "IPAR",
// "RPAR", "NZ" lines, or "ERROR" when Xcos refuses the expression), which
// test_blocks_cont.c compares with blocks/expr_compile.c's code.
loadXcosLibs(); loadScicos();
getvalue = setvalue; scicos_getvalue = setvalue;
function message(s), endfunction
global %scicos_prob; %scicos_prob = %f; needcompile = 0;
%scicos_context = struct(); %scicos_context.dd = 0.25; %scicos_context.kk = 3;
ex = ["(u1>0)*sin(u2)^2"; "u1+u2*u3"; "u1-u2-u3"; "u1/u2/u3"; "2^3^2"; "-u1^2"; "2*-u1";
      "~(u1>0)"; "u1<>u2"; "u1~=u2"; "u1==u2 | u1<=u3 & u2>=u3"; "abs(u1)+max(u2,u3)";
      "dd*u1+kk"; "%pi*u1"; "1e3*u1 + .5"; "-2"; "-(u1+u2)"; "u1.*u2"; "u1^-1";
      "log10(u1)+exp(-u2)"; "floor(u1)+int(u2)+round(u3)+ceil(u1)+sign(u2)";
      "min(u1,min(u2,u3))"; "(u1<u2)+(u1>u3)"; "u1 - -u2"; "+u1"; "u1^2^3"; "%e";
      "-u1*u2"; "-u1+u2"; "u1>0&u2>0|u3>0"; "u1*-2"; "-2^2"; "-(2)"; "2-3"; "u1*u2/u3*2";
      "u1^2*3"; "(u1>0)*(-u2)"; "u1|u2&u3"; "max(u1,-3)"; "+2"; "u1--2"; "1-u1^-2";
      "2*u1^2^3"; "~~u1"; "2*+u1"; "(u1>=dd)*u2 + (u1<dd)*u3"; "1*(u1<>u2)"; "u1>-1";
      "tanh(u1)*atan(u2)/asinh(u3)+cosh(u1)-sinh(u2)+acos(u3/9)+asin(u1/9)";
      "sqrt(u1)"; "u1(2)"; "atan2(u1,u2)"; "u4+1"];
fd = mopen(get_absolute_file_path("expr_ref.sce") + "expr_ref.txt", "w");
for k = 1:size(ex, "*")
    b = EXPRESSION("define");
    b.graphics.exprs = ["3"; ex(k); "1"];
    old = b.model.ipar;
    %scicos_prob = %f;
    ierr = execstr("b = EXPRESSION(""set"", b);", "errcatch");
    if ierr <> 0 | (b.model.ipar == old & ex(k) <> "(u1>0)*sin(u2)^2") then
        mfprintf(fd, "EXPR %s\nERROR\n", ex(k));
    else
        r = ""; if b.model.rpar <> [] then r = strcat(msprintf("%.17g\n", b.model.rpar), " "); end
        mfprintf(fd, "EXPR %s\nIPAR %s\nRPAR %s\nNZ %d\n", ex(k), strcat(string(b.model.ipar'), " "), r, b.model.nzcross);
    end
end
mclose(fd);
exit
