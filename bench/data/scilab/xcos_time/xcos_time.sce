// xcos_time.sce - driver, run by xcos_time.sh as
//   XREF_DIAGRAM=... XREF_OUTDIR=... [XREF_TF=...] XREF_LIB=... XREF_HOME=...
//   xvfb-run -a scilab -nw -quit -f xcos_time.sce
// (a copy of shared/xcos_ref/xcos_ref.sce running xcos_time.sci)
// Writes OUTDIR/.xref_done when everything is written: Scilab 6.1.1 sometimes
// crashes or hangs while exiting after scicos_simulate, so xcos_ref.sh kills
// the process once that marker exists.
funcprot(0);
xref_home = getenv("XREF_HOME", "");
xref_out = getenv("XREF_OUTDIR", ".");
xref_rc = 1;
try
    exec(xref_home + "/xcos_time.sci", -1);
    xref_rc = xref_main(getenv("XREF_DIAGRAM", ""), xref_out, ..
                        getenv("XREF_TF", ""), getenv("XREF_LIB", ""), xref_home, ..
                        getenv("XREF_KEEP_REALTIME", "0") == "1");
catch
    [xref_msg, xref_n, xref_line, xref_fun] = lasterror();
    xref_msg = strcat(string(xref_msg), " ") + " (in " + string(xref_fun) + " line " + string(xref_line) + ")";
    mprintf("xcos_ref: uncaught error: %s\n", xref_msg);
    fd = mopen(xref_out + "/meta.txt", "a");
    mfprintf(fd, "status: error\nerror: uncaught: %s\n", xref_msg);
    mclose(fd);
    xref_rc = 2;
end
fd = mopen(xref_out + "/.xref_done", "w");
mfprintf(fd, "%d\n", xref_rc);
mclose(fd);
exit(xref_rc);
