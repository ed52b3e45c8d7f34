/*
 * BSIM_API marks what libblocksim exports. The library is built with
 * hidden visibility, so only the functions and data the public headers
 * declare with it are part of its binary interface; everything else stays
 * internal (a test checks that every public declaration carries it).
 */
#ifndef BLOCKSIM_EXPORT_H
#define BLOCKSIM_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define BSIM_API __attribute__((visibility("default")))
#else
#define BSIM_API
#endif

#endif
