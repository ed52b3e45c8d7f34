// Prints the run-time model of every block of an Xcos diagram after Scilab
// evaluated the blocks' dialog fields in the diagram's context (do_eval, as
// scicos_simulate does before a run): what each interface macro stores.
// Usage: DUMP_XCOS=file.xcos scilab -nw -f dump_models.sce (see README.md)
loadXcosLibs(); loadScicos();
function s = v2s(v)
    if or(typeof(v) == ["list", "diagram"]) then s = typeof(v); return; end
    if v == [] then s = "[]"; return; end
    if type(v) == 10 then s = strcat(v, " | "); return; end
    if type(v) == 4 then v = bool2s(v); end
    if type(v) == 8 then v = double(v); end
    if type(v) == 1 & isreal(v) then s = strcat(msprintf("%.17g\n", v(:)), " "); return; end
    s = "?" + typeof(v);
endfunction
function dump(objs, path)
    for i = 1:length(objs)
        o = objs(i);
        if typeof(o) <> "Block" then continue; end
        p = path + string(i);
        m = o.model;
        sim = m.sim; if typeof(sim) == "list" then sim = sim(1) + "," + string(sim(2)); end
        mprintf("block %s gui %s sim %s blocktype %s\n", p, o.gui, sim, m.blocktype);
        mprintf("  exprs %s\n", v2s(o.graphics.exprs));
        mprintf("  rpar %s\n", v2s(m.rpar));
        mprintf("  ipar %s\n", v2s(m.ipar));
        mprintf("  x0 %s\n", v2s(m.state));
        mprintf("  z0 %s\n", v2s(m.dstate));
        mprintf("  in %s | in2 %s | out %s | out2 %s\n", v2s(m.in), v2s(m.in2), v2s(m.out), v2s(m.out2));
        mprintf("  evtin %s | evtout %s | firing %s\n", v2s(m.evtin), v2s(m.evtout), v2s(m.firing));
        mprintf("  dep_ut %s | nzcross %s | nmode %s\n", v2s(m.dep_ut), v2s(m.nzcross), v2s(m.nmode));
        if typeof(m.opar) == "list" then
            for k = 1:length(m.opar)
                mprintf("  opar%d %dx%d %s\n", k, size(m.opar(k), 1), size(m.opar(k), 2), v2s(m.opar(k)));
            end
        end
        if or(m.sim == ["super", "csuper", "asuper"]) | (typeof(m.sim) == "list" & or(m.sim(1) == ["super", "csuper", "asuper"])) then
            dump(m.rpar.objs, p + "/");
        end
    end
endfunction
f = getenv("DUMP_XCOS");
importXcosDiagram(f);
[%scicos_context, ierr] = script2var(scs_m.props.context, struct());
if ierr <> 0 then mprintf("context error\n"); end
%cpr = list(); needcompile = 4;
[scs_m, %cpr, needcompile, ok] = do_eval(scs_m, %cpr, %scicos_context);
if ~ok then mprintf("do_eval failed\n"); end
dump(scs_m.objs, "");
exit
