/*
 * CSV lines split into fields, shared by manifests (batch/design.c) and
 * summary merges (study_csv.c). Private to output/ and batch/.
 */
#ifndef BSIM_CSVSPLIT_H
#define BSIM_CSVSPLIT_H

/* The fields of one line (no line break), unquoted and trimmed of blanks:
 * *fields malloc'ed with each field, n set. 0, or -1 out of memory. */
int out_csv_split(const char *line, char ***fields, int *n);
void out_csv_free(char **fields, int n);

#endif
