// Xcos's matrix blocks (blocks/matrix.c, matrix_la.c) on matrices that
// move with time: A(t) = A0 + sin(t) A1 and C(t) = C0 + cos(t) C1, built
// with MATMUL's rule 3 and SUMMATION. Every result is cut into columns
// by EXTRACT blocks (scopes take vectors) and recorded every 0.25 s.
// Makes matrix.xcos; reference: xcos_ref.sh matrix.xcos ref_matrix
exec(get_absolute_file_path("matrix.sce") + "mkdiagram.sci", -1);
d = mk_new(4);
d.props.context = ["A0 = [2 1 0; 1 3 1; 0.5 1 4]"; "A1 = [0.3 -0.2 0.1; 0.5 0.1 -0.4; 0 0.2 0.3]";
                   "C0 = [1 2; 3 4; 5 6]"; "C1 = [0.1 0; 0 -0.2; 0.3 0.1]"; "B = [1 2; 0 1; -1 1]"];
[d, s] = mk_add(d, "GENSIN_f", ["1"; "1"; "0"]);
[d, c] = mk_add(d, "GENSIN_f", ["1"; "1"; "%pi/2"]);
// A = A0 + sin(t) A1
[d, ka0] = mk_add(d, "CONST_m", ["A0"]);
[d, ka1] = mk_add(d, "CONST_m", ["A1"]);
[d, sa] = mk_add(d, "MATMUL", ["1"; "3"; "0"]);
d = mk_link(d, ka1, 1, sa, 1); d = mk_link(d, s, 1, sa, 2);
[d, A] = mk_add(d, "SUMMATION", ["1"; "[1;1]"; "0"]);
d = mk_link(d, ka0, 1, A, 1); d = mk_link(d, sa, 1, A, 2);
// C = C0 + cos(t) C1
[d, kc0] = mk_add(d, "CONST_m", ["C0"]);
[d, kc1] = mk_add(d, "CONST_m", ["C1"]);
[d, sc1] = mk_add(d, "MATMUL", ["1"; "3"; "0"]);
d = mk_link(d, kc1, 1, sc1, 1); d = mk_link(d, c, 1, sc1, 2);
[d, C] = mk_add(d, "SUMMATION", ["1"; "[1;1]"; "0"]);
d = mk_link(d, kc0, 1, C, 1); d = mk_link(d, sc1, 1, C, 2);
[d, kb] = mk_add(d, "CONST_m", ["B"]);
[d, kv] = mk_add(d, "CONST_m", ["[1; 2; 3]"]);
// the blocks under test, and the size of each result
[d, inv] = mk_add(d, "MATINV", ["1"]); d = mk_link(d, A, 1, inv, 1);
[d, pinv] = mk_add(d, "MATPINV", ["1"]); d = mk_link(d, C, 1, pinv, 1);
[d, bk] = mk_add(d, "MATBKSL", ["1"]); d = mk_link(d, A, 1, bk, 1); d = mk_link(d, kb, 1, bk, 2);
[d, ls] = mk_add(d, "MATBKSL", ["1"]); d = mk_link(d, C, 1, ls, 1); d = mk_link(d, kv, 1, ls, 2);
[d, mm] = mk_add(d, "MATMUL", ["1"; "1"; "0"]); d = mk_link(d, A, 1, mm, 1); d = mk_link(d, kb, 1, mm, 2);
[d, me] = mk_add(d, "MATMUL", ["1"; "2"; "0"]); d = mk_link(d, kb, 1, me, 1); d = mk_link(d, C, 1, me, 2);
[d, tr] = mk_add(d, "MATTRAN", ["1"; "1"]); d = mk_link(d, C, 1, tr, 1);
[d, ch] = mk_add(d, "MATCATH", ["2"]); d = mk_link(d, A, 1, ch, 1); d = mk_link(d, kb, 1, ch, 2);
[d, cv] = mk_add(d, "MATCATV", ["2"]); d = mk_link(d, kb, 1, cv, 1); d = mk_link(d, C, 1, cv, 2);
[d, ex] = mk_add(d, "EXTRACT", ["1"; "[3 1]"; "[2 2 3]"]); d = mk_link(d, A, 1, ex, 1);
[d, col] = mk_add(d, "EXTRACT", ["1"; "[1 2 3]"; "[1]"]); d = mk_link(d, A, 1, col, 1);
[d, rc] = mk_add(d, "ROOTCOEF", ["1"; "3"]); d = mk_link(d, col, 1, rc, 1);
res = [inv 3 3; pinv 2 3; bk 3 2; ls 2 1; mm 3 2; me 3 2; tr 2 3; ch 3 5; cv 6 2; ex 2 3; rc 4 1];
sizes = [];
for r = 1:size(res, 1)
    sizes = [sizes, res(r, 2) * ones(1, res(r, 3))];
end
n = size(sizes, "*");
[d, sc] = mk_add(d, "CMSCOPE", [strcat(string(sizes), " "); strcat(string(1:sum(sizes)), " "); "-1"; "[]"; "[]"; ..
    strcat(string(-ones(1, n)), " "); strcat(string(ones(1, n)), " "); strcat(string(30 * ones(1, n)), " "); "20"; "0"; ""]);
p = 1;
for r = 1:size(res, 1)
    for j = 1:res(r, 3)
        [d, e] = mk_add(d, "EXTRACT", ["1"; sci2exp(1:res(r, 2)); string(j)]);
        d = mk_link(d, res(r, 1), 1, e, 1);
        d = mk_link(d, e, 1, sc, p);
        p = p + 1;
    end
end
[d, ck] = mk_add(d, "SampleCLK", ["0.25"; "0"]);
d = mk_clk(d, ck, 1, sc, 1);
mk_save(d, get_absolute_file_path("matrix.sce") + "matrix.xcos");
