// xcos_time.sci (bench/data/scilab/xcos_time/: a copy of the project's
// Scilab reference tool, shared/xcos_ref/xcos_ref.sci, whose simulation
// step times compilation and simulation apart; see README.md there)
// xcos_ref.sci - functions used by xcos_ref.sce (see README.md)
//
// 1. importXcosDiagram(DIAGRAM); list every block (also inside superblocks)
//    and find the sink/scope blocks.
// 2. Export the diagram to .xcos (xcosDiagramToScilab) and patch the sinks in
//    the XML (xref_patch.py): their computational function becomes xref_rec
//    (C, type 4, see xref_rec.c) and opar(1) tells it where to write; gui,
//    parameters, ports, event inputs, blocktype and dep_ut are unchanged, so
//    the sink is evaluated and activated exactly as before and one CSV row
//    is written per activation (flag 2, when the scope would draw).
//    (Modifying scs_m in Scilab instead is unreliable in Scilab 6.1.1: the
//    diagram adapters detach links or crash in do_eval.)
// 3. Import the patched file and run scicos_simulate(scs_m, list(), "nw")
//    between tic() and toc(); write meta.txt.

// Sink guis that are turned into recorders.  mode 0: data inputs,
// mode 1: event inputs only, mode 2: floating scope (reads links by number).
function [guis, modes] = xref_sink_table()
    guis = ["CSCOPE", "CMSCOPE", "SCALE_CSCOPE", "SCALE_CMSCOPE", ..
            "CSCOPXY", "CSCOPXY3D", "CANIMXY", "CANIMXY3D", ..
            "CMATVIEW", "CMAT3D", "AFFICH_m", "TOWS_c", ..
            "BARXY", "BOUNCEXY", "BPLATFORM", "WRITEC_f", "WRITEAU_f", ..
            "TRASH_f", "CEVENTSCOPE", "CFSCOPE"];
    modes = [0, 0, 0, 0, ..
             0, 0, 0, 0, ..
             0, 0, 0, 0, ..
             0, 0, 0, 0, 0, ..
             0, 1, 2];
endfunction

function s = xref_sanitize(s)
    s = stripblanks(string(s));
    if s == "" then
        return
    end
    c = ascii(s);
    ok = (c >= 48 & c <= 57) | (c >= 65 & c <= 90) | (c >= 97 & c <= 122) | c == 45 | c == 46 | c == 95;
    c(~ok) = 95;
    s = ascii(c);
    while strindex(s, "__") <> []
        s = strsubst(s, "__", "_");
    end
    if part(s, 1) == "_" then
        s = part(s, 2:length(s));
    end
    if length(s) > 0 & part(s, length(s)) == "_" then
        s = part(s, 1:length(s) - 1);
    end
endfunction

function s = xref_path_str(path)
    if path == [] then
        s = "";
    else
        s = strcat(string(path), "/");
    end
endfunction

function b = xref_is_super(o)
    b = %f;
    if type(o.model.sim) == 10 then
        b = or(o.model.sim(1) == ["super", "csuper", "asuper"]);
    end
endfunction

// user label of a block: graphics.id, else model.label; "" when it is just
// the gui name, spans several lines or is an AFFICH_m display text
function lab = xref_label(o)
    lab = "";
    if o.gui == "AFFICH_m" then
        return
    end
    g = o.graphics;
    if g.id <> [] then
        lab = strcat(string(g.id), " ");
    end
    if stripblanks(lab) == "" & o.model.label <> [] then
        lab = strcat(string(o.model.label), " ");
    end
    lab = stripblanks(lab);
    if lab == o.gui | strindex(lab, ascii(10)) <> [] | strindex(lab, ascii(13)) <> [] | length(lab) > 60 then
        lab = "";
    end
endfunction

function s = xref_simname(o)
    s = o.model.sim;
    if type(s) == 15 then
        s = s(1);
    end
    if type(s) <> 10 then
        s = "(macro)";
    end
endfunction

// All blocks, also inside superblocks: rows [gui, path, kind, sim, uid]
// (kind "super" or "leaf").
function rows = xref_walk(d, path)
    rows = [];
    for i = 1:length(d.objs)
        o = d.objs(i);
        if typeof(o) <> "Block" then
            continue
        end
        p = [path, i];
        uid = "";
        if o.model.uid <> [] then
            uid = string(o.model.uid);
        end
        if xref_is_super(o) then
            rows = [rows; o.gui, xref_path_str(p), "super", xref_simname(o), uid];
            if typeof(o.model.rpar) == "diagram" then
                rows = [rows; xref_walk(o.model.rpar, p)];
            end
        else
            rows = [rows; o.gui, xref_path_str(p), "leaf", xref_simname(o), uid];
        end
    end
endfunction

// Sinks: rows [file, gui, path, label, mode, activation, nports, note, uid, nev]
function recs = xref_find_sinks(d, path, outdir, recs)
    [sguis, smodes] = xref_sink_table();
    for i = 1:length(d.objs)
        o = d.objs(i);
        if typeof(o) <> "Block" then
            continue
        end
        p = [path, i];
        if xref_is_super(o) then
            if typeof(o.model.rpar) == "diagram" then
                recs = xref_find_sinks(o.model.rpar, p, outdir, recs);
            end
            continue
        end
        k = find(o.gui == sguis);
        if k == [] then
            continue
        end
        mode = smodes(k(1));
        m = o.model;
        lab = xref_label(o);
        base = xref_sanitize(lab);
        if base == "" then
            base = o.gui + "_" + strcat(string(p), "-");
        end
        if recs <> [] then
            if or(recs(:, 1) == base + ".csv") then
                base = base + "_" + strcat(string(p), "-");
            end
        end
        nev = size(m.evtin, "*");
        note = "";
        if mode == 2 then
            ip = m.ipar;
            // CFSCOPE ipar = [win;1;N;clrs(8);wpos(2);wdim(2);nwu;wu]
            if size(ip, "*") >= 16 then
                note = "floating scope, outtb elements " + strcat(string(ip(17:16 + ip(16))'), " ");
            end
        end
        if nev > 0 then
            act = "event(" + string(nev) + ")";
        else
            act = "inherited";
        end
        uid = "";
        if m.uid <> [] then
            uid = string(m.uid);
        end
        recs = [recs; base + ".csv", o.gui, xref_path_str(p), lab, string(mode), act, ..
                string(size(m.in, "*")), note, uid, string(nev)];
    end
endfunction

// data rows of a CSV file (lines minus the header), -1 if absent
function n = xref_count_rows(fpath)
    n = -1;
    if isfile(fpath) then
        r = unix_g("wc -l < """ + fpath + """");
        if r <> [] then
            n = evstr(r(1)) - 1;
        end
    end
endfunction

function s = xref_num(x)
    s = msprintf("%.17g", x);
endfunction

function xref_write_meta(outdir, M)
    // "key: value" lines; string arrays and the fields below as "key:" then
    // indented lines
    blockkeys = ["recorders", "messages", "context", "skipped"];
    fd = mopen(outdir + "/meta.txt", "w");
    keys = fieldnames(M);
    for k = 1:size(keys, "*")
        v = M(keys(k));
        if type(v) == 10 & (size(v, "*") > 1 | or(keys(k) == blockkeys)) then
            mfprintf(fd, "%s:\n", keys(k));
            for j = 1:size(v, "*")
                mfprintf(fd, "  %s\n", v(j));
            end
        else
            if type(v) <> 10 then
                v = strcat(string(v), " ");
            end
            if v == [] then
                v = "";
            end
            mfprintf(fd, "%s: %s\n", keys(k), v);
        end
    end
    mclose(fd);
endfunction

function r = messagebox(varargin)
    // headless: never open a modal dialog; print the message instead
    txt = "";
    if size(varargin) >= 1 then
        txt = strcat(string(varargin(1)), " | ");
    end
    mprintf("[messagebox] %s\n", txt);
    global xref_messages
    xref_messages = [xref_messages; txt];
    r = 1;
endfunction

function status = xref_main(diagram, outdir, tfov, libpath, home, keeprt)
    status = 1;
    M = struct();
    M.diagram = diagram;
    M.scilab = getversion();
    M.status = "running";
    M.error = "";
    xref_write_meta(outdir, M);
    work = outdir + "/.xref";
    mkdir(work);

    // 1. libs and recorder
    ierr = execstr("loadXcosLibs(); loadScicos();", "errcatch");
    if ierr <> 0 then
        M.status = "error";
        M.error = "loadXcosLibs: " + strcat(lasterror(), " ");
        xref_write_meta(outdir, M);
        return
    end
    ierr = execstr("link(libpath, ""xref_rec"", ""c"");", "errcatch");
    if ierr <> 0 then
        M.status = "error";
        M.error = "link(" + libpath + "): " + strcat(lasterror(), " ");
        xref_write_meta(outdir, M);
        return
    end

    // optional Scilab files to exec first (functions a demo needs, as its
    // .dem.sce would load them): XREF_PRELOAD="a.sci:b.sce"
    pre = getenv("XREF_PRELOAD", "");
    if pre <> "" then
        pre = strsplit(pre, ":");
        M.preload = strcat(pre', " ");
        for k = 1:size(pre, "*")
            ierr = execstr("exec(pre(k), -1);", "errcatch");
            if ierr <> 0 then
                M.status = "error";
                M.error = "XREF_PRELOAD " + pre(k) + ": " + strcat(lasterror(), " ");
                xref_write_meta(outdir, M);
                return
            end
        end
    end

    // 2. import the original diagram
    ok = %f;
    ierr = execstr("ok = importXcosDiagram(diagram);", "errcatch");
    if ierr <> 0 | ~ok then
        M.status = "error";
        M.error = "importXcosDiagram failed: " + strcat(lasterror(), " ");
        xref_write_meta(outdir, M);
        return
    end
    tol = scs_m.props.tol;
    M.tf = xref_num(scs_m.props.tf);
    M.tf_used = M.tf;
    if tfov <> "" then
        M.tf_used = xref_num(evstr(tfov));
    end
    M.solver = string(tol(6));
    // real-time scaling (tol(5)) only paces the run against the wall clock;
    // it is switched off unless XREF_KEEP_REALTIME=1
    rtarg = "";
    if tol(5) <> 0 then
        if keeprt then
            M.realtime_scaling = xref_num(tol(5)) + " (kept: XREF_KEEP_REALTIME=1, the wall time includes the pacing)";
        else
            M.realtime_scaling = xref_num(tol(5)) + " (switched off for this run: scale=0)";
            rtarg = "0";
        end
    else
        M.realtime_scaling = "0";
    end
    M.tol = msprintf("atol=%.17g rtol=%.17g ttol=%.17g deltat=%.17g scale=%.17g solver=%d hmax=%.17g", ..
                     tol(1), tol(2), tol(3), tol(4), tol(5), tol(6), tol(7));
    ctx = scs_m.props.context;
    if type(ctx) == 10 then
        ctx = ctx(:);
        ctx = ctx(stripblanks(ctx) <> "");
        if ctx <> [] then
            M.context = ctx;
        end
    end

    // 3. block list
    rows = xref_walk(scs_m, []);
    if rows == [] then
        rows = emptystr(0, 5);
    end
    leaf = rows(rows(:, 3) == "leaf", 1);
    sup = rows(rows(:, 3) == "super", 1);
    notcount = ["SPLIT_f", "CLKSPLIT_f", "IMPSPLIT_f", "IN_f", "OUT_f", "INIMPL_f", ..
                "OUTIMPL_f", "CLKINV_f", "CLKOUT_f", "CLKOUTV_f", "CLKIN_f"];
    nb = 0;
    for j = 1:size(leaf, "*")
        if ~or(leaf(j) == notcount) then
            nb = nb + 1;
        end
    end
    M.n_blocks = string(nb);
    M.n_blocks_all = string(size(rows, 1));
    g = unique(rows(:, 1));
    cnt = [];
    for j = 1:size(g, "*")
        n = sum(rows(:, 1) == g(j));
        if or(sup == g(j)) then
            cnt = [cnt; g(j) + "*=" + string(n)];
        else
            cnt = [cnt; g(j) + "=" + string(n)];
        end
    end
    M.guis = strcat(g', " ");
    M.gui_counts = strcat(cnt', " ");
    M.gui_note = "* = superblock (sim super/csuper/asuper), its content is listed too; n_blocks excludes superblocks, SPLIT_f/CLKSPLIT_f/IMPSPLIT_f and superblock port blocks";

    // 4. sinks -> recorders (XML patch of an exported copy)
    recs = xref_find_sinks(scs_m, [], outdir, []);
    M.n_recorders = "0";
    M.skipped = "none";
    if recs <> [] then
        M.n_recorders = string(size(recs, 1));
        nouid = recs(:, 9) == "";
        if or(nouid) then
            M.skipped = recs(nouid, 2) + " at " + recs(nouid, 3) + " (no uid, cannot be patched)";
            recs = recs(~nouid, :);
        end
    end
    xml0 = work + "/exported.xcos";
    xml1 = work + "/patched.xcos";
    ierr = execstr("xcosDiagramToScilab(xml0, scs_m);", "errcatch");
    if ierr <> 0 then
        M.status = "error";
        M.error = "export to .xcos failed: " + strcat(lasterror(), " ");
        xref_write_meta(outdir, M);
        return
    end
    tsv = [];
    if recs <> [] then
        tsv = recs(:, 9) + ascii(9) + recs(:, 5) + ascii(9) + recs(:, 10) + ascii(9) + outdir + "/" + recs(:, 1);
    end
    mputl(tsv, work + "/sinks.tsv");
    cmd = "python3 """ + home + "/xref_patch.py"" """ + xml0 + """ """ + xml1 + """ """ + ..
          work + "/sinks.tsv"" """ + tfov + """ """ + rtarg + """ 2>&1";
    [out, st] = unix_g(cmd);
    if st <> 0 then
        M.status = "error";
        M.error = "xref_patch.py failed: " + strcat(out, " ");
        xref_write_meta(outdir, M);
        return
    end
    if recs <> [] then
        for j = 1:size(recs, 1)
            hit = out(part(out, 1:length(recs(j, 9)) + 1) == recs(j, 9) + ascii(9));
            if hit == [] | strsubst(hit(1), recs(j, 9) + ascii(9), "") <> "1" then
                M.status = "error";
                M.error = "xref_patch.py: block uid " + recs(j, 9) + " (" + recs(j, 2) + ") not patched exactly once: " + strcat(out, " ");
                xref_write_meta(outdir, M);
                return
            end
        end
    end
    xref_write_meta(outdir, M);

    // 5. import the patched copy and check it
    clear scs_m;
    ok = %f;
    ierr = execstr("ok = importXcosDiagram(xml1);", "errcatch");
    if ierr <> 0 | ~ok then
        M.status = "error";
        M.error = "importXcosDiagram(patched copy) failed: " + strcat(lasterror(), " ");
        xref_write_meta(outdir, M);
        return
    end
    // export/import may renumber objects: compare by gui multiset and uid
    rows2 = xref_walk(scs_m, []);
    if rows2 == [] then
        rows2 = emptystr(0, 5);
    end
    if size(rows2, 1) <> size(rows, 1) then
        M.status = "error";
        M.error = "patched copy has a different number of blocks";
        xref_write_meta(outdir, M);
        return
    end
    if or(gsort(rows2(:, 1)) <> gsort(rows(:, 1))) then
        M.status = "error";
        M.error = "patched copy has a different block list";
        xref_write_meta(outdir, M);
        return
    end
    if recs <> [] then
        for j = 1:size(recs, 1)
            k = find(rows2(:, 5) == recs(j, 9));
            if size(k, "*") <> 1 then
                M.status = "error";
                M.error = "sink " + recs(j, 2) + " at " + recs(j, 3) + " (uid " + recs(j, 9) + ") found " + string(size(k, "*")) + " times in the patched copy";
                xref_write_meta(outdir, M);
                return
            end
            if rows2(k, 4) <> "xref_rec" then
                M.status = "error";
                M.error = "sink " + recs(j, 2) + " at " + recs(j, 3) + " not turned into a recorder";
                xref_write_meta(outdir, M);
                return
            end
        end
    end
    // every other block keeps its computational function
    for j = 1:size(rows, 1)
        if rows(j, 5) <> "" & (recs == [] | ~or(recs(:, 9) == rows(j, 5))) then
            k = find(rows2(:, 5) == rows(j, 5));
            if k <> [] then
                if rows2(k(1), 4) <> rows(j, 4) then
                    M.status = "error";
                    M.error = "block " + rows(j, 1) + " at " + rows(j, 2) + " changed its function in the patched copy";
                    xref_write_meta(outdir, M);
                    return
                end
            end
        end
    end
    if rtarg <> "" & scs_m.props.tol(5) <> 0 then
        M.status = "error";
        M.error = "real-time scaling still set in the patched copy";
        xref_write_meta(outdir, M);
        return
    end
    if abs(scs_m.props.tf - evstr(M.tf_used)) > 1e-12 * max(1, abs(scs_m.props.tf)) then
        M.status = "error";
        M.error = "final time of the patched copy is " + xref_num(scs_m.props.tf);
        xref_write_meta(outdir, M);
        return
    end

    // 6. simulate, each phase timed apart: what scicos_simulate(scs_m,
    // list(), "nw") does, in its order: the blocks' parameters evaluated in
    // the context (do_eval), the compilation (c_pass1, c_pass2), the sinks
    // that draw replaced by "trash" (the recorders are not among them),
    // IDA when the compiled diagram is implicit, then scicosim's start, run
    // and finish. XTIME_REPEATS runs of everything; the fastest of each
    // phase is kept, as processor time (timer) and wall time (tic/toc).
    global xref_messages
    xref_messages = [];
    // scicos_simulate sets up Scicos' tables first: c_pass1 reads
    // modelica_libs to compile the Modelica of an acausal diagram
    [modelica_libs, scicos_pal_libs, %scicos_with_grid, %scs_wgrid] = initial_scicos_tables();
    reps = evstr(getenv("XTIME_REPEATS", "3"));
    best = %inf * ones(1, 8);
    drawn = ["affich", "affich2", "bouncexy", "cscope", "cmscope", "canimxy", ..
             "canimxy3d", "cevscpe", "cfscope", "cscopxy", "cscopxy3d", ..
             "cmatview", "cmat3d", "bplatform2"];
    M.status = "ok";
    for r = 1:reps
        [ctx, ierr] = script2var(scs_m.props.context, struct());
        if ierr <> 0 then
            M.status = "error";
            M.error = "context: " + strcat(lasterror(), " ");
            break
        end
        %scicos_solver = scs_m.props.tol(6);
        alreadyran = %f;
        needcompile = 4;
        timer(); tic();
        ierr = execstr("[d, %cpr, needcompile, ok] = do_eval(scs_m, list(), ctx);", "errcatch");
        c = timer(); w = toc();
        if ierr <> 0 | ~ok then
            M.status = "error";
            M.error = "do_eval: " + strcat(lasterror(), " ");
            break
        end
        best(1) = min(best(1), c); best(5) = min(best(5), w);
        timer(); tic();
        ierr = execstr("[bllst, cmat, clkc, cor, corinv, ok] = c_pass1(d);", "errcatch");
        c = timer(); w = toc();
        if ierr <> 0 | ~ok then
            M.status = "error";
            M.error = "c_pass1: " + strcat(lasterror(), " ");
            break
        end
        best(2) = min(best(2), c); best(6) = min(best(6), w);
        if size(cmat, 2) == 6 then
            cmat = cmat(:, [1 2 4 5]);
        end
        timer(); tic();
        ierr = execstr("cpr = c_pass2(bllst, cmat, clkc, cor, corinv);", "errcatch");
        c = timer(); w = toc();
        if ierr <> 0 | cpr == list() then
            M.status = "error";
            M.error = "c_pass2: " + strcat(lasterror(), " ");
            break
        end
        best(3) = min(best(3), c); best(7) = min(best(7), w);
        for i = 1:length(cpr.sim.funs)
            if type(cpr.sim.funs(i)) <> 13 then
                if or(cpr.sim.funs(i)(1) == drawn) then
                    cpr.sim.funs(i)(1) = "trash";
                end
            end
        end
        tol = scs_m.props.tol;
        nx = size(cpr.state.x, "*");
        if (cpr.sim.xptr($) - 1) < nx & tol(6) < 100 then
            tol(6) = 100;
        elseif (cpr.sim.xptr($) - 1) == nx & or(tol(6) == [100 101 102]) & nx <> 0 then
            tol(6) = 0;
        end
        M.solver_effective = string(tol(6));
        tf = scs_m.props.tf;
        timer(); tic();
        ierr = execstr("[st, t] = scicosim(cpr.state, 0, tf, cpr.sim, ""start"", tol);" + ..
                       "[st, t] = scicosim(st, 0, tf, cpr.sim, ""run"", tol);" + ..
                       "[st, t] = scicosim(st, tf, tf, cpr.sim, ""finish"", tol);", "errcatch");
        c = timer(); w = toc();
        if ierr <> 0 then
            M.status = "error";
            M.error = "scicosim: " + strcat(lasterror(), " ");
            break
        end
        best(4) = min(best(4), c); best(8) = min(best(8), w);
    end
    M.repeats = string(reps);
    M.cpu_eval = msprintf("%.6f", best(1));
    M.cpu_pass1 = msprintf("%.6f", best(2));
    M.cpu_pass2 = msprintf("%.6f", best(3));
    M.cpu_simulate = msprintf("%.6f", best(4));
    M.wall_eval = msprintf("%.6f", best(5));
    M.wall_pass1 = msprintf("%.6f", best(6));
    M.wall_pass2 = msprintf("%.6f", best(7));
    M.wall_simulate = msprintf("%.6f", best(8));
    if xref_messages <> [] then
        M.messages = xref_messages;
    end

    // 7. recorders table
    if recs <> [] then
        lines = [];
        total = 0;
        for j = 1:size(recs, 1)
            n = xref_count_rows(outdir + "/" + recs(j, 1));
            if n > 0 then
                total = total + n;
            end
            l = msprintf("file=%s gui=%s path=%s label=""%s"" activation=%s ports=%s rows=%d", ..
                         recs(j, 1), recs(j, 2), recs(j, 3), recs(j, 4), recs(j, 6), recs(j, 7), n);
            if recs(j, 8) <> "" then
                l = l + " note=""" + recs(j, 8) + """";
            end
            lines = [lines; l];
        end
        M.recorders = lines;
        M.rows_total = string(total);
    else
        M.rows_total = "0";
    end
    xref_write_meta(outdir, M);
    if M.status == "ok" then
        status = 0;
    end
endfunction
