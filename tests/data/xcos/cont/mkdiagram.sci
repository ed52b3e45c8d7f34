// Helpers for the .sce scripts of this folder, which build small Xcos
// diagrams with Scilab's own block macros and save them as .xcos files:
// tests compare blocksim's results on them (and on their native XML
// replicas) with what Scilab's simulator records (xcos_ref.sh).
//
//   d = mk_new(tf)                      empty diagram, final time tf
//   [d, k] = mk_add(d, gui, exprs)      add a block (exprs [] keeps the defaults)
//   d = mk_link(d, k1, p1, k2, p2)      data link: output p1 of k1 -> input p2 of k2
//   d = mk_clk(d, k1, p1, k2, p2)       event link
//   mk_save(d, path)                    evaluate every block's dialog (as Xcos
//                                       does before a run) and write the .xcos
loadXcosLibs(); loadScicos();

function d = mk_new(tf)
    d = scicos_diagram();
    d.props.tf = tf;
endfunction

function [d, k] = mk_add(d, gui, exprs)
    execstr("b = " + gui + "(""define"");");
    if exprs <> [] then
        b.graphics.exprs = exprs;
    end
    k = length(d.objs) + 1;
    b.graphics.orig = [100 * k, 0];
    b.graphics.sz = [40 40];
    d.objs(k) = b;
endfunction

function d = mk_link(d, k1, p1, k2, p2)
    d.objs($ + 1) = scicos_link(from = [k1 p1 0], to = [k2 p2 1], ct = [1 1]);
endfunction

function d = mk_clk(d, k1, p1, k2, p2)
    d.objs($ + 1) = scicos_link(from = [k1 p1 0], to = [k2 p2 1], ct = [5 -1]);
endfunction

function mk_save(d, path)
    needcompile = 4;
    %cpr = list();
    [ctx, ierr] = script2var(d.props.context, struct());
    if ierr <> 0 then
        error("mk_save: context: " + lasterror());
    end
    [d, %cpr, needcompile, ok] = do_eval(d, %cpr, ctx);
    if ~ok then
        error("mk_save: a block rejected its parameters");
    end
    xcosDiagramToScilab(path, d);
endfunction
