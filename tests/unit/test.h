/* test.h — the unit-test harness: CHECK macros print one PASS/FAIL line per check and
 * test_summary() prints "N passed, M failed". tests/run.sh adds the counts of every binary. */
#ifndef PTOC_TEST_H
#define PTOC_TEST_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int test_passed, test_failed;
static const char *test_current = "";

#define TEST(name) static void name(void)
#define RUN(name) (test_current = #name, name())

#define CHECK(cond) CHECK_MSG((cond), "%s", #cond)
#define CHECK_MSG(cond, ...)                                                        \
    do {                                                                            \
        if (cond) { test_passed++; }                                                \
        else {                                                                      \
            test_failed++;                                                          \
            printf("FAIL %s (%s:%d): ", test_current, __FILE__, __LINE__);          \
            printf(__VA_ARGS__);                                                    \
            printf("\n");                                                           \
        }                                                                           \
    } while (0)
#define CHECK_EQ_INT(a, b)                                                          \
    do { long long _a = (long long)(a), _b = (long long)(b);                        \
         CHECK_MSG(_a == _b, "%s == %s: got %lld, want %lld", #a, #b, _a, _b); } while (0)
#define CHECK_EQ_STR(a, b)                                                          \
    do { const char *_a = (a), *_b = (b);                                           \
         CHECK_MSG(_a && _b && strcmp(_a, _b) == 0, "%s == %s: got \"%s\", want \"%s\"", #a, #b, \
                   _a ? _a : "(null)", _b ? _b : "(null)"); } while (0)
#define CHECK_CONTAINS(hay, needle)                                                 \
    do { const char *_h = (hay), *_n = (needle);                                    \
         CHECK_MSG(_h && strstr(_h, _n), "%s contains \"%s\": got \"%s\"", #hay, _n, _h ? _h : "(null)"); } while (0)
#define CHECK_NEAR(a, b, tol)                                                       \
    do { double _a = (a), _b = (b);                                                 \
         CHECK_MSG(fabs(_a - _b) <= (tol), "%s ~= %s: got %.9g, want %.9g", #a, #b, _a, _b); } while (0)

static int test_summary(void) {
    printf("%d passed, %d failed\n", test_passed, test_failed);
    return test_failed ? 1 : 0;
}

#endif
