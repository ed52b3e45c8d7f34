// CONVERT's ipar code for every (input type, output type, overflow rule)
// triple, as Xcos's dialog computes it: writes convert_ipar.txt, lines
// "it ot np code" (test_blocks_cont.c checks CONVERT's define step
// against it; blocks/convert.c's table is its inverse).
loadXcosLibs(); loadScicos();
getvalue = setvalue; scicos_getvalue = setvalue;
function message(s), endfunction
function block_parameter_error(a, b), endfunction
needcompile = 0; global %scicos_prob; %scicos_prob = %f; %scicos_context = struct();
fd = mopen(get_absolute_file_path("convert_ipar.sce") + "convert_ipar.txt", "w");
for it = 1:8
    for ot = 1:8
        for np = 0:2
            b = CONVERT("define");
            b.graphics.exprs = [string(it); string(ot); string(np)];
            b = CONVERT("set", b);
            mfprintf(fd, "%d %d %d %d\n", it, ot, np, b.model.ipar);
        end
    end
end
mclose(fd);
exit
