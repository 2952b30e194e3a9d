// Affinity format fields and modifiers (OpenMP 5.2, 10.1 / omp_capture_affinity):
// every field by its short and long name, the width / justification / zero-padding
// modifiers, undefined fields, "%%", truncation and the size returned.
// loom-test: threads 2
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures;

static void expect(const char* fmt, const char* want) {
    char buf[256];
    size_t n = omp_capture_affinity(buf, sizeof buf, fmt);
    if (strcmp(buf, want) != 0 || n != strlen(want)) {
        printf("FAIL: '%s' gave '%s' (%zu), expected '%s'\n", fmt, buf, n, want);
        ++failures;
    }
}

static void expect_long(const char* fmt, long value) {
    char want[64];
    snprintf(want, sizeof want, "%ld", value);
    expect(fmt, want);
}

// Outside any region: level 0, thread 0 of a team of 1, no ancestor (-1).
static void check_initial_thread(void) {
    expect("%t %T %L %n %N %a", "0 1 0 0 1 -1");
    expect("%{team_num} %{num_teams} %{nesting_level} %{thread_num} %{num_threads} "
           "%{ancestor_tnum}",
           "0 1 0 0 1 -1");
    expect_long("%P", (long)getpid());
    expect_long("%{process_id}", (long)getpid());
    char host[256] = {0};
    gethostname(host, sizeof host - 1);
    expect("%H", host);
    expect("%{host}", host);
}

static void check_modifiers(void) {
    expect("%5n|", "0    |");     // width alone: left-justified, spaces
    expect("%05n|", "0    |");    // '0' without '.': still left-justified
    expect("%.5n|", "    0|");    // '.': right-justified
    expect("%0.5n|", "00000|");   // "0.": right-justified, zeros
    expect("%.05n|", "00000|");   // a leading zero width digit pads with zeros too
    expect("%0.5a|", "-0001|");   // zeros go after the sign
    expect("%.4a|", "  -1|");
    expect("%1n|", "0|");         // narrower than the value: no truncation
    expect("%3{thread_num}|", "0  |");
    expect("%0.3{nesting_level}|", "000|");
    expect("100%%", "100%");
    expect("%%%n", "%0");
    expect("a%nb%Nc", "a0b1c");
}

static void check_undefined(void) {
    expect("%X", "undefined");
    expect("%{foobar}", "undefined");
    expect("%{Thread_Num}", "undefined");  // long names are case-sensitive
    expect("%{thread_num", "undefined");
    expect("%-5n", "undefined5n");          // '-' is not a modifier
    expect("%{thread_num }", "undefined }");
}

static void check_sizes(void) {
    char small[4];
    size_t n = omp_capture_affinity(small, sizeof small, "%n abcdef");
    if (n != 8 || strcmp(small, "0 a") != 0) {
        printf("FAIL: truncated capture gave '%s' (%zu)\n", small, n);
        ++failures;
    }
    if (omp_capture_affinity(NULL, 0, "%0.12n") != 12) {
        printf("FAIL: size of a capture into no buffer\n");
        ++failures;
    }
    omp_set_affinity_format("[%L:%n]");
    expect(NULL, "[0:0]");  // NULL or "" means affinity-format-var
    expect("", "[0:0]");
    char f[8];
    n = omp_get_affinity_format(f, sizeof f);
    if (n != 7 || strcmp(f, "[%L:%n]") != 0) {
        printf("FAIL: omp_get_affinity_format gave '%s' (%zu)\n", f, n);
        ++failures;
    }
}

// Inside nested regions each thread reports its own team.
static void check_in_regions(void) {
    omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2)
    {
        int outer = omp_get_thread_num();
#pragma omp parallel num_threads(1)
        {
            char buf[64], want[64];
            omp_capture_affinity(buf, sizeof buf, "%L %n %N %a");
            snprintf(want, sizeof want, "2 0 1 %d", outer);
#pragma omp critical
            if (strcmp(buf, want) != 0) {
                printf("FAIL: nested thread gave '%s', expected '%s'\n", buf, want);
                ++failures;
            }
        }
        char buf[64], want[64];
        omp_capture_affinity(buf, sizeof buf, "%L %.2n %N %a");
        snprintf(want, sizeof want, "1 %2d %d 0", outer, omp_get_num_threads());
#pragma omp critical
        if (strcmp(buf, want) != 0) {
            printf("FAIL: thread %d gave '%s', expected '%s'\n", outer, buf, want);
            ++failures;
        }
    }
}

int main(void) {
    check_initial_thread();
    check_modifiers();
    check_undefined();
    check_sizes();
    check_in_regions();
    if (failures) return 1;
    printf("affinity_format: all passed\n");
    return 0;
}
