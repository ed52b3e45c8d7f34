// Saves some demos again as .zcos with Scilab 6.1.1, so that the acceptance
// suite (tests/unit/xcos_demos.c) checks that a .zcos and the .xcos of the
// same diagram give bit-identical results. Run where <demo>.xcos (from
// gunzip -k <demo>/<demo>.xcos.gz) are: scilab -nw -f make_zcos.sce; then
// move each <demo>.zcos into <demo>/.
loadXcosLibs(); loadScicos();
names = ["Simple_Demo" "Controller" "susp" "Bouncing_ball" "Kalman" "goto_demo" "Signal_Builder" "Event-if_then_else"];
for n = names
  ok = importXcosDiagram(n + ".xcos");
  if ~ok then mprintf("import failed %s\n", n); continue; end
  xcosDiagramToScilab(n + ".zcos", scs_m);
  mprintf("saved %s\n", n);
end
exit;
