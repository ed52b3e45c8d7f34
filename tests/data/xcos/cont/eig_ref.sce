// Reference eigenvalues and eigenvectors for MATEIG (blocks/matrix_la.c):
// Scilab's spec, which like Xcos's mat_vps/mat_vpv calls LAPACK (dsyev for
// a symmetric matrix, dgeev otherwise), on matrices with real, complex and
// repeated eigenvalues. Writes eig_ref.txt: per matrix a line "matrix n
// a(:)", lines "values-re" and "values-im" (the eigenvalues in spec's
// order) and "vectors-re", "vectors-im" (the eigenvectors, column-major).
mats = list([2 1 0; 1 3 1; 0.5 1 4], [0 1 0 0; 20.601 0 0 0; 0 0 0 1; -0.4905 0 0 0], ..
            [1 -2 0; 3 1 0; 0 0 2], [4 1 2; 1 5 0; 2 0 6], [0 1; -2 -0.5], ..
            [1 2 3; 4 5 6; 7 8 10], [2 0 0; 0 2 0; 0 0 1], [0.5 -1 0.3 2; 1 0.2 -0.7 0; 0 1.5 1 -1; 0.4 0 2 -0.3]);
function s = row(v)
    s = strcat(msprintf("%.17g\n", v(:)), " ");
endfunction
fd = mopen(get_absolute_file_path("eig_ref.sce") + "eig_ref.txt", "w");
for k = 1:length(mats)
    A = mats(k);
    n = size(A, 1);
    mfprintf(fd, "matrix %d %s\n", n, row(A));
    [R, D] = spec(A);
    e = diag(D);
    mfprintf(fd, "values-re %s\nvalues-im %s\n", row(real(e)), row(imag(e)));
    mfprintf(fd, "vectors-re %s\nvectors-im %s\n", row(real(R)), row(imag(R)));
end
mclose(fd);
exit
