/* Loaded from outer.c's constructor: any new object takes the namespace write lock. */
int loader_race_inner_marker(void) { return 42; }
