/* The hand-written IDA baseline of bench/overhead.c (bench/ida_direct.c). */
#ifndef BSIM_BENCH_IDA_DIRECT_H
#define BSIM_BENCH_IDA_DIRECT_H

/* Integrate the pendulum pair to tf with samples output times; final
 * receives [th1, w1, th2, w2](tf). 0, or -1 if IDA failed. */
int bench_ida_direct(double tf, int samples, double rtol, double atol,
                     double *final, long *steps);

#endif
