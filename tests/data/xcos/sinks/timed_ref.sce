// Runs sinks_timed.xcos with Scilab's own blocks (not xcos_ref's
// recorders) in ref_sinks_timed/, so that the WRITEC_f writes its file
// there (sinks_timed_d.bin), and saves what TOWS_c left in the workspace
// variable T as tows_T.csv: "t,u1", one row per sample kept.
//   scilab -nw -f timed_ref.sce
here = get_absolute_file_path("timed_ref.sce");
loadXcosLibs(); loadScicos();
importXcosDiagram(here + "sinks_timed.xcos");
out = here + "ref_sinks_timed";
mkdir(out);
cd(out);
Info = scicos_simulate(scs_m, list(), "nw");
fd = mopen(out + "/tows_T.csv", "w");
mfprintf(fd, "t,u1\n");
for k = 1:size(T.time, "*")
    mfprintf(fd, "%.17g,%.17g\n", T.time(k), T.values(k));
end
mclose(fd);
exit(0);
