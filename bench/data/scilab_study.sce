// The study of bench/study.c timed in Scilab: a loop over scicos_simulate,
// one call per member, each with the member's context (Kp, Ki on a
// 100 x 100 grid, as bench/study.c runs them), the diagram compiled once
// by the first call and re-evaluated with the new context by the others,
// as Scilab's documentation advises for parameter studies. No scope, no
// output file ('nw'): only the simulations are timed.
// Run: BENCH_N=10000 xvfb-run -a scilab -nw -quit -f scilab_study.sce
// Writes scilab_study.out: members, wall and CPU seconds, members per
// second (wall and CPU: the machine may be shared).
here = get_absolute_file_path("scilab_study.sce");
if ~isfile(here + "study50.xcos") then
    exec(here + "study50.sce", -1);
end
loadXcosLibs(); loadScicos();
importXcosDiagram(here + "study50.xcos");
n = getenv("BENCH_N", "10000");
n = evstr(n);
Kp = linspace(4, 12, 100);
Ki = linspace(2, 6, 100);
[ctx, ierr] = script2var(scs_m.props.context, struct());
Info = list();
// CPU seconds of the whole process (every thread), from the kernel: the
// machine may be shared, and Scilab's timer() counts one thread only
function s = cpu_seconds()
    f = strsplit(mgetl("/proc/self/stat"), " ");
    tick = evstr(unix_g("getconf CLK_TCK"));
    s = (evstr(f(14)) + evstr(f(15))) / tick;
endfunction
cpu0 = cpu_seconds();
tic();
for i = 0:n-1
    ctx.Kp = Kp(floor(i / 100) + 1);
    ctx.Ki = Ki(modulo(i, 100) + 1);
    Info = scicos_simulate(scs_m, Info, ctx, "nw");
end
t = toc();
cpu = cpu_seconds() - cpu0;
mputl(msprintf("members: %d\nwall_seconds: %.3f\ncpu_seconds: %.3f\n" + ..
               "members_per_wall_second: %.3f\nmembers_per_cpu_second: %.3f", ..
               n, t, cpu, n / t, n / cpu), here + "scilab_study.out");
