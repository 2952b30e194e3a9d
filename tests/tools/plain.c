/* No OpenMP: loomrun runs it unchanged (its libraries could load OpenMP later); its
 * static build is refused with a clear message. */
#include <stdio.h>
int main(void) { printf("plain\n"); return 0; }
