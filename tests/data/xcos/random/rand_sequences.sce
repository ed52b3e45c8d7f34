// Reference values for tests/unit/test_rng.c: Scilab's rand() (urand) from
// a few seeds, uniform and normal. Run: scilab -nw -f rand_sequences.sce
for s = [0 12345 2147483647]
    rand('seed', s); rand('uniform');
    mprintf('uniform seed %d: %s\n', s, strcat(msprintf('%.17g\n', rand(1, 5)'), ' '));
    rand('seed', s); rand('normal');
    mprintf('normal seed %d: %s\n', s, strcat(msprintf('%.17g\n', rand(1, 4)'), ' '));
end
exit
