/* No OpenMP: loomrun must refuse it (and its static build) with a clear message. */
#include <stdio.h>
int main(void) { printf("plain\n"); return 0; }
