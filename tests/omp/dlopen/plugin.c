/* A plugin built with -fopenmp: one parallel for, whose sum the driver checks. It is
 * the only user of the OpenMP runtime in the process, so dlclose may unload it. */
long plugin_sum(int n) {
    long sum = 0;
#pragma omp parallel for reduction(+ : sum)
    for (int i = 0; i < n; i++) sum += i;
    return sum;
}
