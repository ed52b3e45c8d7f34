// Runs sinks_store.xcos with Scilab's own blocks (not xcos_ref's
// recorders) in ref_sinks_store/, so that the WRITEC_f write their files
// there (sinks_store_d.bin, sinks_store_sb.bin), and saves what TOWS_c
// left in the workspace variable A as tows_A.csv: "t,u1_1_1,...", one
// row per sample kept, its time (A.time) then its values (A.values), the
// sample's matrix column-major.
//   scilab -nw -f store_ref.sce
here = get_absolute_file_path("store_ref.sce");
loadXcosLibs(); loadScicos();
importXcosDiagram(here + "sinks_store.xcos");
out = here + "ref_sinks_store";
mkdir(out);
cd(out);
Info = scicos_simulate(scs_m, list(), "nw");
v = A.values;
d = size(v);
n = size(A.time, "*");
fd = mopen(out + "/tows_A.csv", "w");
mfprintf(fd, "t");
for j = 1:d(2), for i = 1:d(1), mfprintf(fd, ",u1_%d_%d", i, j); end, end
mfprintf(fd, "\n");
for k = 1:n
    mfprintf(fd, "%.17g", A.time(k));
    s = v(:, :, k);
    for e = 1:size(s, "*"), mfprintf(fd, ",%.17g", s(e)); end
    mfprintf(fd, "\n");
end
mclose(fd);
exit(0);
